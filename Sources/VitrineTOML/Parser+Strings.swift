/// TOML's four string forms: basic `"..."` with escapes, literal `'...'` taken as written, and
/// their multi-line `"""` / `'''` versions.
extension Parser {
    /// Reads `"..."`; the cursor is on the opening quote.
    mutating func parseBasicString() throws -> String {
        let start = scanner.position
        scanner.advance()
        var bytes: [UInt8] = []
        while true {
            guard let b = scanner.peek(), b != .lineFeed, b != .carriageReturn else {
                throw error("unterminated string (a \"...\" string must close on the line it opens)", at: start)
            }
            switch b {
            case .quote:
                scanner.advance()
                return String(decoding: bytes, as: UTF8.self)
            case .backslash:
                try parseEscape(into: &bytes)
            default:
                try takeContentByte(b, into: &bytes)
            }
        }
    }

    /// Reads `"""..."""`; the cursor is on the first quote.
    mutating func parseMultilineBasicString() throws -> String {
        let start = scanner.position
        scanner.advance(by: 3)
        _ = scanner.consumeNewline()  // a newline right after the opening quotes is trimmed
        var bytes: [UInt8] = []
        while true {
            guard let b = scanner.peek() else {
                throw error("unterminated multi-line string", at: start)
            }
            switch b {
            case .quote:
                if try closeMultiline(quote: .quote, into: &bytes) {
                    return String(decoding: bytes, as: UTF8.self)
                }
            case .backslash:
                if !skipLineEndingBackslash() { try parseEscape(into: &bytes) }
            case .lineFeed, .carriageReturn:
                try takeNewline(into: &bytes)
            default:
                try takeContentByte(b, into: &bytes)
            }
        }
    }

    /// Reads `'...'`; the cursor is on the opening apostrophe.
    mutating func parseLiteralString() throws -> String {
        let start = scanner.position
        scanner.advance()
        let from = scanner.index
        while true {
            guard let b = scanner.peek(), b != .lineFeed, b != .carriageReturn else {
                throw error("unterminated string (a '...' string must close on the line it opens)", at: start)
            }
            if b == .apostrophe {
                let text = String(decoding: scanner.bytes[from..<scanner.index], as: UTF8.self)
                scanner.advance()
                return text
            }
            try checkContentByte(b)
            scanner.advance()
        }
    }

    /// Reads `'''...'''`; the cursor is on the first apostrophe.
    mutating func parseMultilineLiteralString() throws -> String {
        let start = scanner.position
        scanner.advance(by: 3)
        _ = scanner.consumeNewline()
        var bytes: [UInt8] = []
        while true {
            guard let b = scanner.peek() else {
                throw error("unterminated multi-line string", at: start)
            }
            switch b {
            case .apostrophe:
                if try closeMultiline(quote: .apostrophe, into: &bytes) {
                    return String(decoding: bytes, as: UTF8.self)
                }
            case .lineFeed, .carriageReturn:
                try takeNewline(into: &bytes)
            default:
                try takeContentByte(b, into: &bytes)
            }
        }
    }

    // MARK: Pieces

    /// At a run of quotes in a multi-line string: up to two are content, three close the string
    /// (and up to two more before them are still content: `""""` ends with one quote of content).
    private mutating func closeMultiline(quote: UInt8, into bytes: inout [UInt8]) throws -> Bool {
        var run = 0
        while scanner.peek(run) == quote { run += 1 }
        if run < 3 {
            bytes.append(contentsOf: repeatElement(quote, count: run))
            scanner.advance(by: run)
            return false
        }
        if run > 5 {
            scanner.advance(by: 5)
            throw error("too many quotes: at most two can come right before the closing delimiter")
        }
        bytes.append(contentsOf: repeatElement(quote, count: run - 3))
        scanner.advance(by: run)
        return true
    }

    /// A backslash followed only by whitespace up to the end of the line trims that line ending
    /// and all whitespace and newlines after it. Returns false (moving nothing) otherwise.
    private mutating func skipLineEndingBackslash() -> Bool {
        var offset = 1
        while let b = scanner.peek(offset), b == .space || b == .tab { offset += 1 }
        let b = scanner.peek(offset)
        guard b == .lineFeed || (b == .carriageReturn && scanner.peek(offset + 1) == .lineFeed) else {
            return false
        }
        scanner.advance(by: offset)
        while true {
            scanner.skipWhitespace()
            if !scanner.consumeNewline() { return true }
        }
    }

    /// A line ending inside a multi-line string, kept as LF.
    private mutating func takeNewline(into bytes: inout [UInt8]) throws {
        guard scanner.consumeNewline() else {
            throw error("a carriage return must be followed by a line feed")
        }
        bytes.append(.lineFeed)
    }

    private mutating func takeContentByte(_ b: UInt8, into bytes: inout [UInt8]) throws {
        try checkContentByte(b)
        bytes.append(b)
        scanner.advance()
    }

    private func checkContentByte(_ b: UInt8) throws {
        if b.isForbiddenControl {
            throw error("control character \(unicodeName(UInt32(b))) must be escaped in a string")
        }
    }

    /// Reads an escape sequence; the cursor is on the backslash.
    private mutating func parseEscape(into bytes: inout [UInt8]) throws {
        let start = scanner.position
        scanner.advance()
        guard let c = scanner.peek() else {
            throw error("unterminated string: end of file after a backslash", at: start)
        }
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "r"): simple = 0x0D
        case .quote: simple = .quote
        case .backslash: simple = .backslash
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            simple = nil
        default:
            let next = scanner.describeNext()
            let shown = next.hasPrefix("'") ? "'\\" + next.dropFirst() : "(a backslash followed by \(next))"
            throw error("invalid escape sequence \(shown)", at: start)
        }
        scanner.advance()
        if let simple {
            bytes.append(simple)
            return
        }
        let digits = c == UInt8(ascii: "u") ? 4 : 8
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let h = scanner.peek(), h.isHexDigit else {
                throw error("\\\(Character(Unicode.Scalar(c))) needs \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(hexValue(h))
            scanner.advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("\(unicodeName(value)) is not a Unicode scalar value", at: start)
        }
        bytes.append(contentsOf: String(Character(scalar)).utf8)
    }
}

func hexValue(_ h: UInt8) -> UInt8 {
    switch h {
    case 0x30...0x39: return h - 0x30
    case 0x41...0x46: return h - 0x41 + 10
    default: return h - 0x61 + 10
    }
}
