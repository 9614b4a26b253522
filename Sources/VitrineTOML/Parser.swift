/// Reads a TOML document: its lines, keys, headers, arrays and inline tables. Strings are read in
/// Parser+Strings.swift, numbers, booleans and date-times in Parser+Scalars.swift.
struct Parser {
    var scanner: Scanner
    let tree: TableTree
    let maxDepth: Int

    init(bytes: [UInt8], maxDepth: Int) {
        scanner = Scanner(bytes)
        self.maxDepth = maxDepth
        tree = TableTree(maxDepth: maxDepth)
    }

    mutating func parseDocument() throws -> TOMLTable {
        // A byte order mark is not content.
        if scanner.next(is: 0xEF, 0xBB, 0xBF) { scanner = Scanner(Array(scanner.bytes.dropFirst(3))) }
        var current = tree.root
        while !scanner.isAtEnd {
            scanner.skipWhitespace()
            let what: String
            switch scanner.peek() {
            case .openBracket?:
                current = try parseHeader()
                what = "the table header"
            case nil, .hash?, .lineFeed?, .carriageReturn?:
                what = "the line"
            default:
                try parseKeyValue(into: current)
                what = "the value"
            }
            try finishLine(after: what)
        }
        return tree.root.freeze()
    }

    // MARK: Lines and comments

    /// Expects optional whitespace, an optional comment, then a line ending or the end of file.
    private mutating func finishLine(after what: String) throws {
        scanner.skipWhitespace()
        try skipComment()
        if scanner.isAtEnd || scanner.consumeNewline() { return }
        if scanner.peek() == .carriageReturn {
            throw error("a carriage return must be followed by a line feed")
        }
        throw error("expected a newline after \(what), found \(scanner.describeNext())")
    }

    /// Skips a `#` comment up to (not including) the line ending, rejecting control characters.
    private mutating func skipComment() throws {
        guard scanner.consume(.hash) else { return }
        while let b = scanner.peek(), b != .lineFeed {
            if b == .carriageReturn && scanner.peek(1) == .lineFeed { return }
            if b.isForbiddenControl {
                throw error("control character \(unicodeName(UInt32(b))) is not allowed in a comment")
            }
            scanner.advance()
        }
    }

    /// Skips whitespace, comments and line endings, as allowed between array elements.
    private mutating func skipBlankLines() throws {
        while true {
            scanner.skipWhitespace()
            try skipComment()
            if !scanner.consumeNewline() {
                if scanner.peek() == .carriageReturn {
                    throw error("a carriage return must be followed by a line feed")
                }
                return
            }
        }
    }

    // MARK: Headers and key-value pairs

    /// Reads `[a.b]` or `[[a.b]]` and returns the table that the following pairs go into.
    private mutating func parseHeader() throws -> TableNode {
        let header = scanner.position
        let isArray = scanner.next(is: .openBracket, .openBracket)
        scanner.advance(by: isArray ? 2 : 1)
        let path = try parseKey()
        if isArray {
            guard scanner.next(is: .closeBracket, .closeBracket) else {
                throw error("expected ']]' to close the array of tables header, found \(scanner.describeNext())")
            }
            scanner.advance(by: 2)
            return try tree.appendTable(path, header: header)
        }
        guard scanner.consume(.closeBracket) else {
            throw error("expected ']' to close the table header, found \(scanner.describeNext())")
        }
        return try tree.defineTable(path, header: header)
    }

    /// Reads `key = value` and stores it in `table`.
    private mutating func parseKeyValue(into table: TableNode) throws {
        let path = try parseKey()
        guard scanner.consume(.equals) else {
            throw error("expected '=' after the key, found \(scanner.describeNext())")
        }
        scanner.skipWhitespace()
        let container = try tree.container(for: path, in: table)
        let node = try parseValue(depth: container.depth + 1)
        let last = path[path.count - 1]
        container.insert(.value(node), forKey: last.name, at: last.position)
    }

    /// Reads a possibly dotted key and the whitespace around it.
    private mutating func parseKey() throws -> [KeySegment] {
        var path: [KeySegment] = []
        repeat {
            scanner.skipWhitespace()
            path.append(try parseSimpleKey())
            scanner.skipWhitespace()
        } while scanner.consume(.dot)
        return path
    }

    private mutating func parseSimpleKey() throws -> KeySegment {
        let start = scanner.position
        switch scanner.peek() {
        case .quote?:
            if scanner.next(is: .quote, .quote, .quote) { throw error("a key cannot be a multi-line string") }
            return KeySegment(name: try parseBasicString(), position: start)
        case .apostrophe?:
            if scanner.next(is: .apostrophe, .apostrophe, .apostrophe) {
                throw error("a key cannot be a multi-line string")
            }
            return KeySegment(name: try parseLiteralString(), position: start)
        case let b? where b.isBareKeyCharacter:
            let from = scanner.index
            while let c = scanner.peek(), c.isBareKeyCharacter { scanner.advance() }
            let name = String(decoding: scanner.bytes[from..<scanner.index], as: UTF8.self)
            return KeySegment(name: name, position: start)
        default:
            throw error("expected a key, found \(scanner.describeNext())")
        }
    }

    // MARK: Values

    /// Reads a value; `depth` is the nesting level it will have (the document is level 0).
    mutating func parseValue(depth: Int) throws -> TOMLNode {
        let start = scanner.position
        switch scanner.peek() {
        case .quote?:
            if scanner.next(is: .quote, .quote, .quote) {
                return TOMLNode(.string(try parseMultilineBasicString()), at: start)
            }
            return TOMLNode(.string(try parseBasicString()), at: start)
        case .apostrophe?:
            if scanner.next(is: .apostrophe, .apostrophe, .apostrophe) {
                return TOMLNode(.string(try parseMultilineLiteralString()), at: start)
            }
            return TOMLNode(.string(try parseLiteralString()), at: start)
        case .openBracket?:
            try checkDepth(depth)
            return TOMLNode(.array(try parseArray(depth: depth)), at: start)
        case .openBrace?:
            try checkDepth(depth)
            return TOMLNode(.table(try parseInlineTable(depth: depth)), at: start)
        default:
            return TOMLNode(try parseScalar(), at: start)
        }
    }

    private func checkDepth(_ depth: Int) throws {
        if depth > maxDepth {
            throw error("arrays and tables are nested deeper than \(maxDepth) levels")
        }
    }

    /// Reads `[v, v, ...]`: newlines and comments allowed between elements, a trailing comma too.
    private mutating func parseArray(depth: Int) throws -> [TOMLNode] {
        let start = scanner.position
        scanner.advance()
        var elements: [TOMLNode] = []
        while true {
            try skipBlankLines()
            if scanner.consume(.closeBracket) { return elements }
            if scanner.isAtEnd { throw error("unterminated array", at: start) }
            elements.append(try parseValue(depth: depth + 1))
            try skipBlankLines()
            if scanner.consume(.comma) { continue }
            if scanner.consume(.closeBracket) { return elements }
            if scanner.isAtEnd { throw error("unterminated array", at: start) }
            throw error("expected ',' or ']' after an array element, found \(scanner.describeNext())")
        }
    }

    /// Reads `{ k = v, ... }` on one line, without a trailing comma.
    private mutating func parseInlineTable(depth: Int) throws -> TOMLTable {
        let start = scanner.position
        scanner.advance()
        let table = TableNode(origin: .dotted, position: start, depth: depth)
        scanner.skipWhitespace()
        if scanner.consume(.closeBrace) { return table.freeze() }
        while true {
            try rejectInlineTableBreak(start)
            let path = try parseKey()
            guard scanner.consume(.equals) else {
                throw error("expected '=' after the key, found \(scanner.describeNext())")
            }
            scanner.skipWhitespace()
            let container = try tree.container(for: path, in: table)
            let node = try parseValue(depth: container.depth + 1)
            let last = path[path.count - 1]
            container.insert(.value(node), forKey: last.name, at: last.position)
            scanner.skipWhitespace()
            if scanner.consume(.closeBrace) { return table.freeze() }
            let comma = scanner.position
            if scanner.consume(.comma) {
                scanner.skipWhitespace()
                if scanner.peek() == .closeBrace {
                    throw error("a trailing comma is not allowed in an inline table", at: comma)
                }
                continue
            }
            try rejectInlineTableBreak(start)
            throw error("expected ',' or '}' in the inline table, found \(scanner.describeNext())")
        }
    }

    /// Inline tables live on one line: no newline, no comment, and they must be closed.
    private func rejectInlineTableBreak(_ start: SourcePosition) throws {
        switch scanner.peek() {
        case nil: throw error("unterminated inline table", at: start)
        case .lineFeed?, .carriageReturn?: throw error("an inline table must be on one line; newline found")
        case .hash?: throw error("an inline table must be on one line; comment found")
        default: return
        }
    }

    // MARK: Errors

    /// An error at the cursor, or at `position`.
    func error(_ message: String, at position: SourcePosition? = nil) -> TOMLParseError {
        TOMLParseError(position: position ?? scanner.position, message: message)
    }
}
