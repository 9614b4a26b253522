/// One of TOML's four date and time forms, with its parsed fields and the text as written.
///
/// `1979-05-27T07:32:00Z` is an offset date-time, `1979-05-27T07:32:00` a local date-time,
/// `1979-05-27` a local date and `07:32:00` a local time.
public struct TOMLDateTime: Hashable, Sendable, CustomStringConvertible {
    /// Which of TOML's date and time forms a value has.
    public enum Kind: Hashable, Sendable {
        case offsetDateTime, localDateTime, localDate, localTime
    }

    /// A calendar date (proleptic Gregorian), validated against month lengths and leap years.
    public struct Date: Hashable, Sendable {
        /// The year, 0…9999.
        public var year: Int
        /// The month, 1…12.
        public var month: Int
        /// The day of the month, 1…31.
        public var day: Int

        /// Creates a date from its fields; the parser validates them, this does not.
        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }
    }

    /// A time of day.
    public struct Time: Hashable, Sendable {
        /// The hour, 0…23.
        public var hour: Int
        /// The minute, 0…59.
        public var minute: Int
        /// The second, 0…60 (60 only for a leap second, as RFC 3339 allows).
        public var second: Int
        /// The fraction of the second in nanoseconds; digits past the ninth are truncated.
        public var nanosecond: Int

        /// Creates a time from its fields; the parser validates them, this does not.
        public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
            self.hour = hour
            self.minute = minute
            self.second = second
            self.nanosecond = nanosecond
        }
    }

    /// The date, absent for a local time.
    public var date: Date?
    /// The time, absent for a local date.
    public var time: Time?
    /// The offset from UTC in minutes (`Z` is 0); absent for the local forms.
    public var utcOffsetMinutes: Int?
    /// The value exactly as written in the source.
    public var text: String

    /// Creates a date-time from its parts and source text.
    public init(date: Date?, time: Time?, utcOffsetMinutes: Int?, text: String) {
        self.date = date
        self.time = time
        self.utcOffsetMinutes = utcOffsetMinutes
        self.text = text
    }

    /// Which form this value has, derived from the parts present.
    public var kind: Kind {
        if utcOffsetMinutes != nil { return .offsetDateTime }
        switch (date, time) {
        case (.some, .some): return .localDateTime
        case (.some, .none): return .localDate
        default: return .localTime
        }
    }

    /// The source text.
    public var description: String { text }
}
