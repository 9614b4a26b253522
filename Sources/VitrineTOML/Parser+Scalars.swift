/// Unquoted values: booleans, integers, floats and the date and time forms. Each is first taken
/// as one token of the characters they can contain, then checked against its grammar, so an
/// error can point at the exact character that breaks it.
extension Parser {
    mutating func parseScalar() throws -> TOMLValue {
        let start = scanner.position
        let from = scanner.index
        while let b = scanner.peek(), b.isScalarTokenCharacter { scanner.advance() }
        // A date and a time may be separated by a space: `1979-05-27 07:32:00`.
        if scanner.index - from == 10, scanner.bytes[from + 4] == .minus, scanner.peek() == .space,
            scanner.peek(1)?.isDecimalDigit == true, scanner.peek(2)?.isDecimalDigit == true,
            scanner.peek(3) == .colon
        {
            scanner.advance()
            while let b = scanner.peek(), b.isScalarTokenCharacter { scanner.advance() }
        }
        let token = ScalarToken(bytes: scanner.bytes[from..<scanner.index], start: start)
        if token.bytes.isEmpty {
            throw error("expected a value, found \(scanner.describeNext())")
        }
        return try token.parse()
    }
}

/// The text of one unquoted value, with the position of its first character. The token is ASCII,
/// so the column of its `i`th byte is the start column plus `i`.
private struct ScalarToken {
    let bytes: ArraySlice<UInt8>
    let start: SourcePosition

    var text: String { String(decoding: bytes, as: UTF8.self) }
    var count: Int { bytes.count }

    subscript(i: Int) -> UInt8? {
        i < bytes.count ? bytes[bytes.startIndex + i] : nil
    }

    func error(_ message: String, at offset: Int = 0) -> TOMLParseError {
        TOMLParseError(position: SourcePosition(line: start.line, column: start.column + offset), message: message)
    }

    func parse() throws -> TOMLValue {
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan": return .float(.nan)
        case "-nan": return .float(-.nan)
        default: break
        }
        let isDate = count >= 5 && (0..<4).allSatisfy { self[$0]!.isDecimalDigit } && self[4] == .minus
        let isTime = count >= 3 && self[0]!.isDecimalDigit && self[1]!.isDecimalDigit && self[2] == .colon
        if isDate || isTime {
            return .dateTime(try parseDateTime())
        }
        return try parseNumber()
    }

    // MARK: Numbers

    private func parseNumber() throws -> TOMLValue {
        var i = 0
        let sign = self[0] == .plus || self[0] == .minus ? self[0] : nil
        if sign != nil { i = 1 }
        guard let first = self[i] else { throw error("expected digits after the sign", at: i) }
        if !first.isDecimalDigit && first != .underscore {
            let hint =
                first == .dot
                ? "a float needs a digit before the decimal point"
                : "strings must be quoted"
            throw error("invalid value '\(text)' (\(hint))")
        }
        if first == UInt8(ascii: "0"), let radix = self[i + 1].flatMap(Self.radix) {
            if sign != nil { throw error("a sign is not allowed on a \(radix.name) integer") }
            return .integer(try parseRadixInteger(from: i + 2, radix: radix))
        }

        let integerStart = i
        var digits = [UInt8]()
        i = try scanDigits(from: i, into: &digits, radix: .decimal)
        if digits.count > 1 && digits[0] == UInt8(ascii: "0") {
            throw error("leading zeros are not allowed", at: integerStart)
        }
        var isFloat = false
        if self[i] == .dot {
            isFloat = true
            digits.append(.dot)
            let fractionStart = i + 1
            i = try scanDigits(from: fractionStart, into: &digits, radix: .decimal)
            if i == fractionStart { throw error("expected a digit after the decimal point", at: i) }
        }
        if self[i] == UInt8(ascii: "e") || self[i] == UInt8(ascii: "E") {
            isFloat = true
            digits.append(UInt8(ascii: "e"))
            i += 1
            if let s = self[i], s == .plus || s == .minus {
                digits.append(s)
                i += 1
            }
            let exponentStart = i
            i = try scanDigits(from: exponentStart, into: &digits, radix: .decimal)
            if i == exponentStart { throw error("expected a digit in the exponent", at: i) }
        }
        if let extra = self[i] {
            throw error("unexpected character '\(Character(Unicode.Scalar(extra)))' in a number", at: i)
        }

        if isFloat {
            let literal = (sign == .minus ? "-" : "") + String(decoding: digits, as: UTF8.self)
            guard let value = Double(literal), value.isFinite else {
                throw error("the float \(text) is too large")
            }
            return .float(value)
        }
        var magnitude: UInt64 = 0
        for d in digits {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d - 0x30))
            if o1 || o2 { throw outOfRange() }
            magnitude = sum
        }
        if sign == .minus {
            if magnitude > UInt64(Int64.max) + 1 { throw outOfRange() }
            return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
        }
        if magnitude > UInt64(Int64.max) { throw outOfRange() }
        return .integer(Int64(magnitude))
    }

    private func outOfRange() -> TOMLParseError {
        error("the integer \(text) does not fit in 64 bits")
    }

    private enum Radix: UInt64 {
        case binary = 2, octal = 8, decimal = 10, hexadecimal = 16

        var name: String { "\(self)" }

        func isDigit(_ b: UInt8) -> Bool {
            switch self {
            case .binary: return b == 0x30 || b == 0x31
            case .octal: return b >= 0x30 && b <= 0x37
            case .decimal: return b.isDecimalDigit
            case .hexadecimal: return b.isHexDigit
            }
        }
    }

    /// The radix that `0x`, `0o` or `0b` announces.
    private static func radix(_ prefix: UInt8) -> Radix? {
        switch prefix {
        case UInt8(ascii: "x"): return .hexadecimal
        case UInt8(ascii: "o"): return .octal
        case UInt8(ascii: "b"): return .binary
        default: return nil
        }
    }

    private func parseRadixInteger(from start: Int, radix: Radix) throws -> Int64 {
        var digits = [UInt8]()
        let end = try scanDigits(from: start, into: &digits, radix: radix)
        if digits.isEmpty { throw error("expected \(radix.name) digits after '\(text)'", at: start) }
        if let extra = self[end] {
            throw error(
                "unexpected character '\(Character(Unicode.Scalar(extra)))' in a \(radix.name) integer",
                at: end)
        }
        var value: UInt64 = 0
        for d in digits {
            let (shifted, o1) = value.multipliedReportingOverflow(by: radix.rawValue)
            let (sum, o2) = shifted.addingReportingOverflow(UInt64(hexValue(d)))
            if o1 || o2 || sum > UInt64(Int64.max) { throw outOfRange() }
            value = sum
        }
        return Int64(value)
    }

    /// Reads digits with single underscores between them, appending the digits to `digits`;
    /// returns the offset after them (unchanged when there is no digit).
    private func scanDigits(from start: Int, into digits: inout [UInt8], radix: Radix) throws -> Int {
        var i = start
        var previousWasDigit = false
        while let b = self[i] {
            if radix.isDigit(b) {
                digits.append(b)
                previousWasDigit = true
            } else if b == .underscore {
                if !previousWasDigit { throw error("an underscore must be between two digits", at: i) }
                previousWasDigit = false
            } else {
                break
            }
            i += 1
        }
        if i > start && !previousWasDigit { throw error("an underscore must be between two digits", at: i - 1) }
        return i
    }

    // MARK: Dates and times

    private func parseDateTime() throws -> TOMLDateTime {
        var i = 0
        var date: TOMLDateTime.Date?
        var time: TOMLDateTime.Time?
        var offset: Int?
        if self[2] != .colon {
            date = try parseDate(&i)
            if let separator = self[i],
                separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
                    || separator == .space
            {
                i += 1
                if self[i] == nil {
                    throw error("expected a time after '\(Character(Unicode.Scalar(separator)))'", at: i)
                }
            } else if self[i] != nil {
                throw unexpected(i, "a date")
            }
        }
        if self[i] != nil {
            time = try parseTime(&i)
            if date != nil, self[i] != nil {
                offset = try parseOffset(&i)
            }
            if self[i] != nil { throw unexpected(i, "a time") }
        }
        return TOMLDateTime(date: date, time: time, utcOffsetMinutes: offset, text: text)
    }

    private func unexpected(_ i: Int, _ what: String) -> TOMLParseError {
        error("unexpected character '\(Character(Unicode.Scalar(self[i]!)))' after \(what)", at: i)
    }

    /// `YYYY-MM-DD`, checked against the length of the month.
    private func parseDate(_ i: inout Int) throws -> TOMLDateTime.Date {
        let year = try field(&i, digits: 4, "year")
        try expect(.minus, &i, "between the year and the month")
        let monthAt = i
        let month = try field(&i, digits: 2, "month")
        guard (1...12).contains(month) else { throw error("month \(month) does not exist", at: monthAt) }
        try expect(.minus, &i, "between the month and the day")
        let dayAt = i
        let day = try field(&i, digits: 2, "day")
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1 && day <= lengths[month - 1] else {
            throw error("day \(day) does not exist in month \(month) of \(year)", at: dayAt)
        }
        return TOMLDateTime.Date(year: year, month: month, day: day)
    }

    /// `HH:MM:SS` with an optional fraction of a second.
    private func parseTime(_ i: inout Int) throws -> TOMLDateTime.Time {
        let hourAt = i
        let hour = try field(&i, digits: 2, "hour")
        guard hour < 24 else { throw error("hour \(hour) does not exist", at: hourAt) }
        try expect(.colon, &i, "between the hour and the minutes")
        let minuteAt = i
        let minute = try field(&i, digits: 2, "minutes")
        guard minute < 60 else { throw error("minute \(minute) does not exist", at: minuteAt) }
        try expect(.colon, &i, "before the seconds (seconds are required)")
        let secondAt = i
        let second = try field(&i, digits: 2, "seconds")
        guard second <= 60 else { throw error("second \(second) does not exist", at: secondAt) }
        var nanosecond = 0
        if self[i] == .dot {
            i += 1
            var scale = 100_000_000
            let fractionStart = i
            while let d = self[i], d.isDecimalDigit {
                nanosecond += Int(d - 0x30) * scale
                scale /= 10
                i += 1
            }
            if i == fractionStart { throw error("expected a digit after the decimal point", at: i) }
        }
        return TOMLDateTime.Time(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    /// `Z` or `±HH:MM`, in minutes east of UTC.
    private func parseOffset(_ i: inout Int) throws -> Int {
        if self[i] == UInt8(ascii: "Z") || self[i] == UInt8(ascii: "z") {
            i += 1
            return 0
        }
        guard let sign = self[i], sign == .plus || sign == .minus else { throw unexpected(i, "a time") }
        i += 1
        let hourAt = i
        let hours = try field(&i, digits: 2, "offset hours")
        guard hours < 24 else { throw error("an offset of \(hours) hours is out of range", at: hourAt) }
        try expect(.colon, &i, "in the offset")
        let minuteAt = i
        let minutes = try field(&i, digits: 2, "offset minutes")
        guard minutes < 60 else { throw error("an offset of \(minutes) minutes is out of range", at: minuteAt) }
        return (sign == .minus ? -1 : 1) * (hours * 60 + minutes)
    }

    private func field(_ i: inout Int, digits: Int, _ name: String) throws -> Int {
        var value = 0
        for k in 0..<digits {
            guard let d = self[i + k], d.isDecimalDigit else {
                throw error("expected \(digits) digits for the \(name)", at: i)
            }
            value = value * 10 + Int(d - 0x30)
        }
        i += digits
        return value
    }

    private func expect(_ byte: UInt8, _ i: inout Int, _ where_: String) throws {
        guard self[i] == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))' \(where_)", at: i)
        }
        i += 1
    }
}

private extension UInt8 {
    /// A character that can appear in an unquoted value.
    var isScalarTokenCharacter: Bool {
        isBareKeyCharacter || self == .plus || self == .dot || self == .colon
    }

}
