/// A TOML table: keys in source order, each with its value and the position of the key itself.
public struct TOMLTable: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var keyPosition: SourcePosition
        var node: TOMLNode
    }

    /// The keys in the order they first appear in the source.
    public private(set) var keys: [String] = []
    /// Where the table was defined: its `[header]` or `[[header]]`, the `{` of an inline table,
    /// the key that created it implicitly, or 1:1 for the document itself.
    public internal(set) var position: SourcePosition
    private var entries: [String: Entry] = [:]

    /// Creates an empty table defined at `position`.
    public init(position: SourcePosition = .start) {
        self.position = position
    }

    /// The node stored under `key`, if any.
    public subscript(key: String) -> TOMLNode? {
        entries[key]?.node
    }

    /// Where `key` is written (in the header or key-value pair that first defined it), if present.
    public func keyPosition(_ key: String) -> SourcePosition? {
        entries[key]?.keyPosition
    }

    /// The number of keys.
    public var count: Int { keys.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// Adds `key`, or replaces its value keeping its place in the key order.
    public mutating func set(_ node: TOMLNode, forKey key: String, keyPosition: SourcePosition) {
        if entries.updateValue(Entry(keyPosition: keyPosition, node: node), forKey: key) == nil {
            keys.append(key)
        }
    }
}
