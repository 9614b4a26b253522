/// JSON as the control socket's replies and the benchmark's scene files use it, without
/// Foundation. A value is a `[String: Any]`, an `[Any]`, a `String`, a `Bool`, an `Int` (a
/// number written without fraction or exponent, within `Int`'s range), a `Double` or `JSON.null`.
public enum JSON {
    /// JSON's `null`.
    public struct Null: Hashable, Sendable {}
    public static let null = Null()

    /// Text that is not JSON: where (a byte offset) and why.
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "byte \(offset): \(reason)" }
    }

    /// A value of no JSON type, or a number JSON cannot write (infinite or not a number).
    public struct EncodingError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `value` as one line of JSON, with the keys of every object sorted, so the same value
    /// always reads the same.
    public static func encode(_ value: Any) throws(EncodingError) -> String {
        var text = ""
        try write(value, to: &text)
        return text
    }

    /// The value `text` holds: one JSON value, white space around it allowed.
    public static func decode(_ text: String) throws(SyntaxError) -> Any {
        try decode(Array(text.utf8))
    }

    /// The value UTF-8 `bytes` hold.
    public static func decode(_ bytes: [UInt8]) throws(SyntaxError) -> Any {
        var parser = Parser(bytes: bytes)
        return try parser.document()
    }

    // MARK: - Writing

    private static func write(_ value: Any, to text: inout String) throws(EncodingError) {
        switch value {
        case let string as String:
            writeString(string, to: &text)
        case let bool as Bool:
            text += bool ? "true" : "false"
        case let int as Int:
            text += String(int)
        case let double as Double:
            guard double.isFinite else { throw EncodingError(description: "JSON has no number \(double)") }
            text += "\(double)"  // Swift writes a finite Double in JSON's form: 3.0, 0.1, 1e+100
        case is Null:
            text += "null"
        case let object as [String: Any]:
            text += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                writeString(key, to: &text)
                text += ":"
                try write(object[key]!, to: &text)
            }
            text += "}"
        case let array as [Any]:
            text += "["
            for (index, element) in array.enumerated() {
                if index > 0 { text += "," }
                try write(element, to: &text)
            }
            text += "]"
        default:
            throw EncodingError(description: "JSON has no value of type \(type(of: value))")
        }
    }

    private static func writeString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    // MARK: - Reading

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0
        /// Nesting deeper than this is refused rather than recursed into.
        static let maximumDepth = 256

        mutating func document() throws(SyntaxError) -> Any {
            let value = try self.value(depth: 0)
            skipWhiteSpace()
            guard offset == bytes.count else { throw error("text after the value") }
            return value
        }

        private func error(_ reason: String) -> SyntaxError { SyntaxError(offset: offset, reason: reason) }

        private mutating func skipWhiteSpace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        private mutating func value(depth: Int) throws(SyntaxError) -> Any {
            guard depth < Parser.maximumDepth else { throw error("nested more than \(Parser.maximumDepth) deep") }
            skipWhiteSpace()
            guard offset < bytes.count else { throw error("a value was expected, the text ended") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "t"): return try word("true", true)
            case UInt8(ascii: "f"): return try word("false", false)
            case UInt8(ascii: "n"): return try word("null", JSON.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("a value was expected")
            }
        }

        private mutating func word(_ word: String, _ value: Any) throws(SyntaxError) -> Any {
            let expected = Array(word.utf8)
            guard bytes[offset...].starts(with: expected) else { throw error("'\(word)' was expected") }
            offset += expected.count
            return value
        }

        private mutating func expect(_ byte: Character) throws(SyntaxError) {
            skipWhiteSpace()
            guard offset < bytes.count, bytes[offset] == byte.asciiValue! else { throw error("'\(byte)' was expected") }
            offset += 1
        }

        /// Takes `byte` if it comes next (after white space).
        private mutating func take(_ byte: Character) -> Bool {
            skipWhiteSpace()
            guard offset < bytes.count, bytes[offset] == byte.asciiValue! else { return false }
            offset += 1
            return true
        }

        private mutating func object(depth: Int) throws(SyntaxError) -> [String: Any] {
            offset += 1
            var object: [String: Any] = [:]
            if take("}") { return object }
            repeat {
                skipWhiteSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                    throw error("a key was expected")
                }
                let key = try string()
                try expect(":")
                object[key] = try value(depth: depth + 1)
            } while take(",")
            try expect("}")
            return object
        }

        private mutating func array(depth: Int) throws(SyntaxError) -> [Any] {
            offset += 1
            var array: [Any] = []
            if take("]") { return array }
            repeat { array.append(try value(depth: depth + 1)) } while take(",")
            try expect("]")
            return array
        }

        private mutating func string() throws(SyntaxError) -> String {
            offset += 1
            var scalars = String.UnicodeScalarView()
            var run = offset
            func flush(_ parser: Parser) throws(SyntaxError) {
                guard let text = String(validating: parser.bytes[run..<parser.offset], as: UTF8.self) else {
                    throw parser.error("not UTF-8")
                }
                scalars.append(contentsOf: text.unicodeScalars)
            }
            while true {
                guard offset < bytes.count else { throw error("the string is not closed") }
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    try flush(self)
                    offset += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw error("a control character in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    offset += 1
                    continue
                }
                try flush(self)
                offset += 1
                guard offset < bytes.count else { throw error("the string is not closed") }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try escapedScalar())
                default:
                    offset -= 1
                    throw error("an unknown escape in a string")
                }
                run = offset
            }
        }

        /// The scalar of a `\u` escape (the four hex digits after it, and a low surrogate's
        /// escape after a high one).
        private mutating func escapedScalar() throws(SyntaxError) -> Unicode.Scalar {
            let first = try hexQuad()
            if (0xD800..<0xDC00).contains(first) {
                guard bytes[offset...].starts(with: Array("\\u".utf8)) else { throw error("a lone high surrogate") }
                offset += 2
                let second = try hexQuad()
                guard (0xDC00..<0xE000).contains(second) else { throw error("a high surrogate without its low one") }
                return Unicode.Scalar(0x10000 + (first - 0xD800) << 10 + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("a lone low surrogate") }
            return scalar
        }

        private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            guard offset + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
            else { throw error("four hex digits were expected") }
            offset += 4
            return value
        }

        private mutating func number() throws(SyntaxError) -> Any {
            let start = offset
            var isInteger = true
            func digits(_ parser: inout Parser) -> Int {
                let from = parser.offset
                while parser.offset < parser.bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.offset])
                {
                    parser.offset += 1
                }
                return parser.offset - from
            }
            if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            let whole = digits(&self)
            guard whole > 0 else { throw error("a digit was expected") }
            guard whole == 1 || bytes[offset - whole] != UInt8(ascii: "0") else {
                throw SyntaxError(offset: offset - whole, reason: "a number with a leading zero")
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                isInteger = false
                offset += 1
                guard digits(&self) > 0 else { throw error("a digit was expected after '.'") }
            }
            if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
                isInteger = false
                offset += 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                    offset += 1
                }
                guard digits(&self) > 0 else { throw error("a digit was expected in the exponent") }
            }
            let text = String(decoding: bytes[start..<offset], as: UTF8.self)
            if isInteger, let int = Int(text) { return int }
            guard let double = Double(text), double.isFinite else {
                throw SyntaxError(offset: start, reason: "a number out of range")
            }
            return double
        }
    }
}
