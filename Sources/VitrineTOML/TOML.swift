/// TOML 1.0 parsing that keeps the source position of every key and value.
public enum TOML {
    /// How deeply arrays and tables may nest; deeper documents are rejected rather than risk
    /// exhausting the stack.
    public static let maximumNestingDepth = 128

    /// Parses a document. Errors carry the line and column, and `file` when given.
    public static func parse(_ text: String, file: String? = nil) throws -> TOMLTable {
        try parse(bytes: Array(text.utf8), file: file, validateEncoding: false)
    }

    /// Parses a document from raw bytes, rejecting invalid UTF-8 at the offending byte.
    /// A leading byte order mark is skipped.
    public static func parse(bytes: [UInt8], file: String? = nil) throws -> TOMLTable {
        try parse(bytes: bytes, file: file, validateEncoding: true)
    }

    private static func parse(bytes: [UInt8], file: String?, validateEncoding: Bool) throws -> TOMLTable {
        do {
            if validateEncoding { try validateUTF8(bytes) }
            var parser = Parser(bytes: bytes, maxDepth: maximumNestingDepth)
            return try parser.parseDocument()
        } catch var error as TOMLParseError {
            error.file = file
            throw error
        }
    }
}
