import Glibc

/// A point on CLOCK_MONOTONIC, in nanoseconds since an unspecified start (boot, for the system
/// clock). Integer nanoseconds keep frame deadlines exact: deadline n is computed, never summed.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// The system's CLOCK_MONOTONIC now: the one place the process reads it.
    public static func now() -> MonotonicInstant {
        var ts = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    /// This instant as a `timespec`, for absolute sleeps and timers on CLOCK_MONOTONIC.
    public var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    /// The instant `nanoseconds` after the clock's origin.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The instant `seconds` after the clock's origin (rounded to the nearest nanosecond).
    public init(seconds: Double) { nanoseconds = Int64((seconds * 1e9).rounded()) }

    /// Seconds since the clock's origin, the unit of `CACurrentMediaTime` and display link timestamps.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// This instant moved by `nanoseconds` (negative moves back).
    public func advanced(byNanoseconds nanoseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: self.nanoseconds + nanoseconds)
    }

    /// Nanoseconds from `earlier` to this instant.
    public func nanoseconds(since earlier: MonotonicInstant) -> Int64 { nanoseconds - earlier.nanoseconds }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    public var description: String { "\(seconds)s" }
}
