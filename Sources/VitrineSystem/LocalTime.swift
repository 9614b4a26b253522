import Glibc

/// The calendar time in the machine's time zone (TZ, else /etc/localtime), to the minute: what
/// a schedule of opening hours is written in. Frames never read it; they keep to the monotonic
/// clock.
public struct LocalTime: Equatable, Sendable {
    /// 0 Sunday … 6 Saturday.
    public var weekday: Int
    /// Minutes since local midnight, 0…1439.
    public var minuteOfDay: Int
    /// Seconds into the current minute, 0…60 (a leap second).
    public var second: Int

    public init(weekday: Int, minuteOfDay: Int, second: Int = 0) {
        self.weekday = weekday
        self.minuteOfDay = minuteOfDay
        self.second = second
    }

    /// Now.
    public static func now() -> LocalTime {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return LocalTime(
            weekday: Int(parts.tm_wday), minuteOfDay: Int(parts.tm_hour) * 60 + Int(parts.tm_min),
            second: Int(parts.tm_sec))
    }
}
