/// A cursor over the UTF-8 bytes of a document that tracks the line and column as it moves.
struct Scanner {
    let bytes: [UInt8]
    private(set) var index: Int = 0
    private(set) var line = 1
    private(set) var column = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var position: SourcePosition { SourcePosition(line: line, column: column) }
    var isAtEnd: Bool { index >= bytes.count }

    /// The byte `offset` places ahead of the cursor, or nil past the end.
    func peek(_ offset: Int = 0) -> UInt8? {
        let i = index + offset
        return i < bytes.count ? bytes[i] : nil
    }

    /// Whether the next bytes are `a` (and `b`, `c` when given).
    func next(is a: UInt8, _ b: UInt8? = nil, _ c: UInt8? = nil) -> Bool {
        guard peek() == a else { return false }
        if let b, peek(1) != b { return false }
        if let c, peek(2) != c { return false }
        return true
    }

    /// Moves past one byte. A column counts scalars, so only a scalar's first byte advances it.
    mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == .lineFeed {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    mutating func advance(by n: Int) {
        for _ in 0..<n { advance() }
    }

    /// Moves past `byte` if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        advance()
        return true
    }

    /// Skips spaces and tabs, TOML's whitespace.
    mutating func skipWhitespace() {
        while let b = peek(), b == .space || b == .tab { advance() }
    }

    /// Moves past a line ending (LF or CRLF) if one is next.
    mutating func consumeNewline() -> Bool {
        if peek() == .lineFeed {
            advance()
            return true
        }
        if peek() == .carriageReturn && peek(1) == .lineFeed {
            advance(by: 2)
            return true
        }
        return false
    }

    /// The scalar at the cursor, for messages ("found 'x'").
    func describeNext() -> String {
        guard let b = peek() else { return "end of file" }
        switch b {
        case .lineFeed, .carriageReturn: return "a newline"
        case 0x00..<0x20, 0x7F: return "control character \(unicodeName(UInt32(b)))"
        default: break
        }
        var end = index + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: bytes[index..<end], as: UTF8.self) + "'"
    }
}

/// `U+000A`-style name of a scalar.
func unicodeName(_ scalar: UInt32) -> String {
    let hex = String(scalar, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}

extension UInt8 {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let hash = UInt8(ascii: "#")
    static let equals = UInt8(ascii: "=")
    static let dot = UInt8(ascii: ".")
    static let comma = UInt8(ascii: ",")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let underscore = UInt8(ascii: "_")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let colon = UInt8(ascii: ":")

    var isDecimalDigit: Bool { self >= 0x30 && self <= 0x39 }

    var isHexDigit: Bool {
        isDecimalDigit || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66)
    }

    /// A character of a bare key: A–Z, a–z, 0–9, `-` and `_`.
    var isBareKeyCharacter: Bool {
        isDecimalDigit || (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A)
            || self == .minus || self == .underscore
    }

    /// A control character TOML forbids in comments and strings (all of C0 but tab, and DEL).
    var isForbiddenControl: Bool {
        (self < 0x20 && self != .tab) || self == 0x7F
    }
}
