import VitrineSystem

/// When the screen is on (`[player] screenOn`): periods of local time on days of the week,
/// `[["Mon-Fri", "07:00", "19:00"], ["Sat", "09:00", "13:00"]]`; outside them it is blanked.
public struct ScreenSchedule: Equatable, Sendable {
    /// One entry: days, and the minutes of the day from `start` (included) to `end` (not). A
    /// period whose end is not after its start runs past midnight into the next day.
    public struct Period: Equatable, Sendable {
        /// 0 Sunday … 6 Saturday: the days the period starts on.
        public var days: Set<Int>
        /// Minutes since midnight, 0…1439.
        public var start: Int
        /// Minutes since midnight, 1…1440 ("24:00").
        public var end: Int
    }

    public var periods: [Period]

    public init(periods: [Period]) { self.periods = periods }

    /// Whether the screen is on at `time`.
    public func isOn(at time: LocalTime) -> Bool {
        let minute = time.minuteOfDay, yesterday = (time.weekday + 6) % 7
        return periods.contains { period in
            if period.start < period.end {
                return period.days.contains(time.weekday) && period.start <= minute && minute < period.end
            }
            // Past midnight: the evening of a listed day, or the early hours after one.
            return (period.days.contains(time.weekday) && minute >= period.start)
                || (period.days.contains(yesterday) && minute < period.end)
        }
    }

    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// "Mon-Fri", "Sat", "Mon,Wed,Fri", "Fri-Mon" (around the weekend), "daily".
    static func days(_ text: String) -> Set<Int>? {
        if text == "daily" { return Set(0..<7) }
        var days = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count) else { return nil }
            guard let first = dayNames.firstIndex(of: String(ends[0])),
                let last = dayNames.firstIndex(of: String(ends[ends.count - 1]))
            else { return nil }
            var day = first
            days.insert(day)
            while day != last {
                day = (day + 1) % 7
                days.insert(day)
            }
        }
        return days
    }

    /// "07:30" → 450; "24:00" only where `allowsEndOfDay`.
    static func minutes(_ text: String, allowsEndOfDay: Bool) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...59).contains(minutes)
        else { return nil }
        if hours == 24 && minutes == 0 && allowsEndOfDay { return 1440 }
        guard (0...23).contains(hours) else { return nil }
        return hours * 60 + minutes
    }
}
