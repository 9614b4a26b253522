/// A syntax or structure error in a TOML document, with where it happened.
public struct TOMLParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the offending character, key or value starts.
    public var position: SourcePosition
    /// What is wrong, in words meant for the person who wrote the document.
    public var message: String
    /// The file the document came from, if the caller named one.
    public var file: String?

    /// Creates an error at `position`.
    public init(position: SourcePosition, message: String, file: String? = nil) {
        self.position = position
        self.message = message
        self.file = file
    }

    /// `LINE:COLUMN: message`, prefixed by `FILE:` when the file is known.
    public var description: String {
        let location = "\(position.line):\(position.column): \(message)"
        return file.map { "\($0):\(location)" } ?? location
    }
}
