/// Typed access to one table of a parsed document for a loader, with errors that name the file,
/// the line and column, the place in the document's structure and the key.
///
/// Accessors return nil for an absent key and throw `TOMLFieldError` for a value of the wrong
/// type; `required…` variants also throw for an absent key. Integers are accepted where numbers
/// are expected. To report every error rather than the first, wrap calls in
/// `TOMLFieldErrors.collect`.
public struct TOMLReader: Sendable {
    /// The table being read.
    public let table: TOMLTable
    /// The file the document came from, for error messages.
    public let file: String
    /// Where the table sits, outermost first, e.g. `["scene 'arrow'", "layer 'ring'"]`.
    public let context: [String]

    /// A reader for `table` of `file`, located by `context`.
    public init(_ table: TOMLTable, file: String, context: [String] = []) {
        self.table = table
        self.file = file
        self.context = context
    }

    /// The same table with `item` appended to the context (once the loader knows its name).
    public func within(_ item: String) -> TOMLReader {
        TOMLReader(table, file: file, context: context + [item])
    }

    /// The keys of the table in source order.
    public var keys: [String] { table.keys }

    /// Whether `key` is present.
    public func contains(_ key: String) -> Bool { table[key] != nil }

    /// The raw node of `key`, for values a loader interprets itself.
    public func node(_ key: String) -> TOMLNode? { table[key] }

    /// Where `key` is written, or the table's own position when it is absent.
    public func position(of key: String) -> SourcePosition {
        table.keyPosition(key) ?? table.position
    }

    /// An error about `key` (at the key), for a loader's own checks.
    public func error(_ key: String?, _ message: String) -> TOMLFieldError {
        error(key, message, at: key.map(position(of:)) ?? table.position)
    }

    /// An error about `key` at an explicit position (e.g. of its value or of one element).
    public func error(_ key: String?, _ message: String, at position: SourcePosition) -> TOMLFieldError {
        TOMLFieldError(file: file, position: position, context: context, key: key, message: message)
    }

    /// An error about the value of `key` (at the value), for a value that has the right type
    /// but is not acceptable, e.g. "must be positive".
    public func valueError(_ key: String, _ message: String) -> TOMLFieldError {
        error(key, message, at: table[key]?.position ?? position(of: key))
    }

    // MARK: Scalars

    /// A number (float or integer).
    public func double(_ key: String) throws -> Double? {
        try read(key, "a number") { $0.doubleValue }
    }

    /// A required number (float or integer).
    public func requiredDouble(_ key: String) throws -> Double {
        try required(key, double(key))
    }

    /// An integer.
    public func int(_ key: String) throws -> Int? {
        try read(key, "an integer") { $0.integerValue.map(Int.init) }
    }

    /// A required integer.
    public func requiredInt(_ key: String) throws -> Int {
        try required(key, int(key))
    }

    /// A string.
    public func string(_ key: String) throws -> String? {
        try read(key, "a string") { $0.stringValue }
    }

    /// A required string.
    public func requiredString(_ key: String) throws -> String {
        try required(key, string(key))
    }

    /// A boolean.
    public func bool(_ key: String) throws -> Bool? {
        try read(key, "a boolean") { $0.boolValue }
    }

    /// A required boolean.
    public func requiredBool(_ key: String) throws -> Bool {
        try required(key, bool(key))
    }

    /// A string that must be one of `choices`; a near miss gets a did-you-mean suggestion.
    public func oneOf(_ key: String, _ choices: [String]) throws -> String? {
        guard let value = try string(key) else { return nil }
        if choices.contains(value) { return value }
        var message = "'\(value)' is not one of " + choices.map { "'\($0)'" }.joined(separator: ", ")
        if let guess = suggestion(for: value, among: choices) { message += " (did you mean '\(guess)'?)" }
        throw valueError(key, message)
    }

    /// A string naming a case of `type` by its raw value.
    public func oneOf<Choice: RawRepresentable & CaseIterable>(
        _ key: String, as type: Choice.Type
    ) throws
        -> Choice? where Choice.RawValue == String
    {
        try oneOf(key, type.allCases.map(\.rawValue)).flatMap(Choice.init(rawValue:))
    }

    /// `value`, or a "missing required key" error at the table's position when it is nil.
    public func required<T>(_ key: String, _ value: T?) throws -> T {
        guard let value else { throw error(key, "missing required key", at: table.position) }
        return value
    }

    // MARK: Arrays and tables

    /// An array of numbers; with `count`, it must have exactly that many elements.
    public func doubleArray(_ key: String, count: Int? = nil) throws -> [Double]? {
        try array(key, count: count, element: "a number") { $0.doubleValue }
    }

    /// An array of strings; with `count`, it must have exactly that many elements.
    public func stringArray(_ key: String, count: Int? = nil) throws -> [String]? {
        try array(key, count: count, element: "a string") { $0.stringValue }
    }

    /// A table (a `[header]` table, an inline table or one made by dotted keys), with the same context.
    public func table(_ key: String) throws -> TOMLReader? {
        try read(key, "a table") { $0.tableValue }.map { TOMLReader($0, file: file, context: context) }
    }

    /// An array of tables (`[[key]]` sections or an array of inline tables), with the same context.
    public func arrayOfTables(_ key: String) throws -> [TOMLReader]? {
        try array(key, count: nil, element: "a table") { $0.tableValue }?
            .map { TOMLReader($0, file: file, context: context) }
    }

    /// Throws one error per key that is not in `allowed`, each at its key with a did-you-mean
    /// suggestion when a close allowed key exists.
    public func rejectUnknownKeys(allowed: Set<String>) throws {
        let candidates = allowed.sorted()
        var errors = TOMLFieldErrors()
        for key in table.keys where !allowed.contains(key) {
            var message = "unknown key"
            if let guess = suggestion(for: key, among: candidates) { message += " (did you mean '\(guess)'?)" }
            errors.append(error(key, message))
        }
        try errors.throwIfAny()
    }

    // MARK: Conversions

    private func read<T>(_ key: String, _ expected: String, _ convert: (TOMLValue) -> T?) throws -> T? {
        guard let node = table[key] else { return nil }
        guard let value = convert(node.value) else {
            throw error(key, "expected \(expected), found \(node.value.kindDescription)", at: node.position)
        }
        return value
    }

    private func array<T>(
        _ key: String, count: Int?, element expected: String,
        _ convert: (TOMLValue) -> T?
    ) throws -> [T]? {
        let noun = String(expected.split(separator: " ", maxSplits: 1)[1])
        guard let elements = try read(key, "an array of \(noun)s", { $0.arrayValue }) else { return nil }
        if let count, elements.count != count {
            throw error(
                key, "expected \(count) \(noun)\(count == 1 ? "" : "s"), found \(elements.count)",
                at: table[key]!.position)
        }
        return try elements.enumerated().map { index, node in
            guard let value = convert(node.value) else {
                throw error(
                    key, "item \(index + 1): expected \(expected), found \(node.value.kindDescription)",
                    at: node.position)
            }
            return value
        }
    }
}
