/// A TOML value. Arrays and tables hold nodes, so every nested value keeps its position.
public enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    /// Boxed: a date-time is large and rare, and keeping it inline would triple every node.
    indirect case dateTime(TOMLDateTime)
    /// An array: a static `[...]` value, or the elements of an array of tables `[[...]]`.
    case array([TOMLNode])
    /// A table: the document, a `[header]` table, an inline `{...}` table or one made by dotted keys.
    case table(TOMLTable)

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, if this is an integer.
    public var integerValue: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// The number as a `Double`, if this is a float or an integer.
    public var doubleValue: Double? {
        switch self {
        case .float(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }

    /// The date-time, if this is one of the date and time forms.
    public var dateTimeValue: TOMLDateTime? {
        if case .dateTime(let d) = self { return d }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [TOMLNode]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The table, if this is a table.
    public var tableValue: TOMLTable? {
        if case .table(let t) = self { return t }
        return nil
    }

    /// The kind of value with its article ("a string", "an integer", "a local date"…),
    /// for messages such as "expected a number, found a string".
    public var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .dateTime(let d):
            switch d.kind {
            case .offsetDateTime: return "a date-time"
            case .localDateTime: return "a local date-time"
            case .localDate: return "a local date"
            case .localTime: return "a local time"
            }
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

/// A value and where it starts in the source (its first character: the opening quote of a
/// string, the `[` of an array, the `{` of an inline table, the header of a `[table]`).
public struct TOMLNode: Equatable, Sendable {
    /// The value.
    public var value: TOMLValue
    /// Where the value starts.
    public var position: SourcePosition

    /// Creates a node.
    public init(_ value: TOMLValue, at position: SourcePosition) {
        self.value = value
        self.position = position
    }
}
