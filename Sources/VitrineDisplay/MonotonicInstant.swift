/// A point on CLOCK_MONOTONIC, in nanoseconds since an unspecified start (boot, for the system
/// clock). Integer nanoseconds keep frame deadlines exact: deadline n is computed, never summed.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

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
