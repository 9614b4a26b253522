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
    public static func now() -> LocalTime { LocalTime(secondsSinceEpoch: time(nil)) }

    /// The local time `secondsSinceEpoch` seconds after 1970-01-01 00:00 UTC (daylight saving
    /// time included, as the zone's rules say).
    public init(secondsSinceEpoch: Int) {
        var seconds = time_t(secondsSinceEpoch)
        var parts = tm()
        localtime_r(&seconds, &parts)
        self.init(
            weekday: Int(parts.tm_wday), minuteOfDay: Int(parts.tm_hour) * 60 + Int(parts.tm_min),
            second: Int(parts.tm_sec))
    }
}
