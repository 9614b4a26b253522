/// A place in a TOML source: a 1-based line and a 1-based column.
///
/// Columns count Unicode scalars (code points) from the start of the line, so `é` or `→`
/// advances the column by one whatever its UTF-8 length; for ASCII text a column is a byte offset
/// plus one. Lines end at LF (a CRLF pair ends one line).
public struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a position from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The first character of a document.
    public static let start = SourcePosition(line: 1, column: 1)

    /// Orders positions as they occur in the source.
    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    /// `LINE:COLUMN`, the form used in every diagnostic.
    public var description: String { "\(line):\(column)" }
}
