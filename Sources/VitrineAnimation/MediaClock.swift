/// Where the engine reads the current time, in seconds (CACurrentMediaTime). Injected, so tests
/// drive virtual time and every frame is exact and reproducible.
public protocol MediaClock: AnyObject {
    /// The current time in seconds; never decreases.
    var now: Double { get }
}

/// A clock that moves only when told to: virtual time for tests and offline rendering.
public final class ManualClock: MediaClock {
    /// The current time in seconds.
    public private(set) var now: Double

    /// A clock reading `now`.
    public init(now: Double = 0) { self.now = now }

    /// Moves time forward by `seconds` (negative or non-finite amounts are ignored).
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        now += seconds
    }

    /// Sets the time, if it is not earlier than the current one.
    public func set(to time: Double) {
        guard time.isFinite, time >= now else { return }
        now = time
    }
}
