/// A problem with one key or value of a parsed document, located in the file and in the
/// document's structure, e.g. `show.toml:31:1: scene 'arrow' › layer 'ring' › lenghtRadians:
/// unknown key (did you mean 'lengthRadians'?)`.
public struct TOMLFieldError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the document came from.
    public var file: String
    /// Where the offending key or value starts (the table's header for a missing key).
    public var position: SourcePosition
    /// Where in the document's structure, outermost first: `["scene 'arrow'", "layer 'ring'"]`.
    public var context: [String]
    /// The key concerned, or nil for an error about a whole table or document.
    public var key: String?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, position: SourcePosition, context: [String] = [], key: String?, message: String) {
        self.file = file
        self.position = position
        self.context = context
        self.key = key
        self.message = message
    }

    /// The same form for a syntax error, so a loader can report both kinds uniformly.
    public init(_ error: TOMLParseError, file: String) {
        self.init(file: error.file ?? file, position: error.position, key: nil, message: error.message)
    }

    /// `FILE:LINE:COLUMN: context › … › KEY: message` (context and key left out when absent).
    public var description: String {
        let path = context + (key.map { [$0] } ?? [])
        let location = "\(file):\(position.line):\(position.column): "
        return location + (path.isEmpty ? "" : path.joined(separator: " › ") + ": ") + message
    }
}

/// Errors gathered while loading a document, so that every one of them can be reported at once.
public struct TOMLFieldErrors: Error, Equatable, Sendable, CustomStringConvertible {
    /// The errors in the order they were recorded.
    public private(set) var errors: [TOMLFieldError] = []

    /// An empty collection.
    public init() {}

    /// A collection of `errors`.
    public init(_ errors: [TOMLFieldError]) {
        self.errors = errors
    }

    /// Whether nothing was recorded.
    public var isEmpty: Bool { errors.isEmpty }

    /// Records one error.
    public mutating func append(_ error: TOMLFieldError) {
        errors.append(error)
    }

    /// Records several errors.
    public mutating func append(contentsOf other: TOMLFieldErrors) {
        errors.append(contentsOf: other.errors)
    }

    /// Runs `body` and returns its result; if it throws a `TOMLFieldError`, `TOMLFieldErrors` or
    /// `TOMLParseError`, records it and returns nil instead. Any other error propagates, which is
    /// why a call is written `try errors.collect { try reader.double("x") }`.
    @discardableResult
    public mutating func collect<T>(_ body: () throws -> T) rethrows -> T? {
        try recording(body)
    }

    /// `collect` for a body whose result is itself optional (an absent optional key).
    @discardableResult
    public mutating func collect<T>(_ body: () throws -> T?) rethrows -> T? {
        try recording(body) ?? nil
    }

    private mutating func recording<T>(_ body: () throws -> T) rethrows -> T? {
        do {
            return try body()
        } catch let error as TOMLFieldError {
            append(error)
        } catch let errors as TOMLFieldErrors {
            append(contentsOf: errors)
        } catch let error as TOMLParseError {
            append(TOMLFieldError(error, file: error.file ?? ""))
        }
        return nil
    }

    /// Throws `self` if any error was recorded.
    public func throwIfAny() throws {
        if !errors.isEmpty { throw self }
    }

    /// The errors sorted by file and position (stable for equal positions).
    public var sorted: [TOMLFieldError] {
        errors.enumerated().sorted { a, b in
            (a.element.file, a.element.position.line, a.element.position.column, a.offset)
                < (b.element.file, b.element.position.line, b.element.position.column, b.offset)
        }.map(\.element)
    }

    /// One error per line, in source order.
    public var description: String {
        sorted.map(\.description).joined(separator: "\n")
    }
}
