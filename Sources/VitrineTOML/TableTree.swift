/// One segment of a dotted key, as written.
struct KeySegment {
    var name: String
    var position: SourcePosition
}

/// A table while the document is being read: mutable, shared by reference so headers can reopen
/// tables deep in the tree, and aware of how it came to exist, which decides what may extend it.
final class TableNode {
    enum Origin {
        /// Created as an intermediate of a `[a.b.c]` header; one header may still define it.
        case implicit
        /// Defined by a `[header]`, or an element of an array of tables.
        case header
        /// Created by a dotted key such as `a.b = 1`.
        case dotted
    }

    enum Content {
        /// A finished value: scalar, static array or inline table; none of these can be extended.
        case value(TOMLNode)
        case table(TableNode)
        case tableArray(TableArrayNode)
    }

    struct Slot {
        var keyPosition: SourcePosition
        var content: Content
    }

    var origin: Origin
    var position: SourcePosition
    /// Nesting depth: the document is 0, each table or array level adds one.
    let depth: Int
    private(set) var keys: [String] = []
    private(set) var slots: [String: Slot] = [:]

    init(origin: Origin, position: SourcePosition, depth: Int) {
        self.origin = origin
        self.position = position
        self.depth = depth
    }

    func insert(_ content: Content, forKey key: String, at keyPosition: SourcePosition) {
        keys.append(key)
        slots[key] = Slot(keyPosition: keyPosition, content: content)
    }

    /// The finished, immutable table.
    func freeze() -> TOMLTable {
        var table = TOMLTable(position: position)
        for key in keys {
            let slot = slots[key]!
            let node: TOMLNode
            switch slot.content {
            case .value(let value):
                node = value
            case .table(let child):
                node = TOMLNode(.table(child.freeze()), at: child.position)
            case .tableArray(let array):
                let elements = array.elements.map { TOMLNode(.table($0.freeze()), at: $0.position) }
                node = TOMLNode(.array(elements), at: array.position)
            }
            table.set(node, forKey: key, keyPosition: slot.keyPosition)
        }
        return table
    }
}

/// An array of tables built by `[[header]]`s; it is never empty.
final class TableArrayNode {
    let position: SourcePosition
    var elements: [TableNode] = []

    init(position: SourcePosition) {
        self.position = position
    }
}

/// TOML's rules on where tables and keys may be defined: no key twice, no table twice, no
/// extending an inline table or a static array, no header reopening a table made by dotted keys,
/// no dotted key reaching into a table made by a header, `[[x]]` only on arrays of tables.
struct TableTree {
    let root = TableNode(origin: .header, position: .start, depth: 0)
    let maxDepth: Int

    /// Opens the table of a `[a.b.c]` header.
    func defineTable(_ path: [KeySegment], header: SourcePosition) throws -> TableNode {
        let parent = try walkHeaderPrefix(path)
        let last = path.count - 1
        let key = path[last]
        guard let slot = parent.slots[key.name] else {
            return try addTable(to: parent, path, last, origin: .header, position: header)
        }
        switch slot.content {
        case .table(let table):
            switch table.origin {
            case .implicit:
                table.origin = .header
                table.position = header
                return table
            case .header:
                throw error(
                    at: key,
                    "table '\(display(path, last))' is defined twice"
                        + firstDefined(table.position))
            case .dotted:
                throw error(
                    at: key,
                    "table '\(display(path, last))' is already defined by dotted keys"
                        + firstDefined(slot.keyPosition))
            }
        case .tableArray(let array):
            throw error(
                at: key,
                "'\(display(path, last))' is an array of tables"
                    + firstDefined(array.position) + "; use [[\(display(path, last))]] to add an element")
        case .value(let node):
            throw conflict(with: node, path, last, slot.keyPosition)
        }
    }

    /// Appends a new element to the array of tables of a `[[a.b.c]]` header and opens it.
    func appendTable(_ path: [KeySegment], header: SourcePosition) throws -> TableNode {
        let parent = try walkHeaderPrefix(path)
        let last = path.count - 1
        let key = path[last]
        let array: TableArrayNode
        if let slot = parent.slots[key.name] {
            switch slot.content {
            case .tableArray(let existing):
                array = existing
            case .table(let table):
                throw error(
                    at: key,
                    "'\(display(path, last))' is a table, not an array of tables"
                        + firstDefined(table.position))
            case .value(let node):
                if case .array = node.value {
                    throw error(
                        at: key,
                        "static array '\(display(path, last))' cannot be extended by [[...]]"
                            + firstDefined(slot.keyPosition))
                }
                throw conflict(with: node, path, last, slot.keyPosition)
            }
        } else {
            try checkDepth(parent.depth + 2, at: key)
            array = TableArrayNode(position: header)
            parent.insert(.tableArray(array), forKey: key.name, at: key.position)
        }
        let element = TableNode(origin: .header, position: header, depth: parent.depth + 2)
        array.elements.append(element)
        return element
    }

    /// The table that receives the last segment of the key of a key-value pair written in
    /// `table`, creating the tables of the dotted segments before it; throws if the last segment
    /// is already defined.
    func container(for path: [KeySegment], in table: TableNode) throws -> TableNode {
        var current = table
        for i in 0..<(path.count - 1) {
            let key = path[i]
            guard let slot = current.slots[key.name] else {
                current = try addTable(to: current, path, i, origin: .dotted, position: key.position)
                continue
            }
            switch slot.content {
            case .table(let child):
                switch child.origin {
                case .dotted:
                    break
                case .implicit:
                    child.origin = .dotted
                case .header:
                    throw error(
                        at: key,
                        "table '\(display(path, i))' was defined by a [header]"
                            + firstDefined(child.position) + "; dotted keys cannot add to it")
                }
                current = child
            case .tableArray(let array):
                throw error(
                    at: key,
                    "'\(display(path, i))' is an array of tables"
                        + firstDefined(array.position) + "; dotted keys cannot add to it")
            case .value(let node):
                throw conflict(with: node, path, i, slot.keyPosition)
            }
        }
        let last = path[path.count - 1]
        if let slot = current.slots[last.name] {
            throw error(
                at: last,
                "duplicate key '\(display(path, path.count - 1))'"
                    + firstDefined(slot.keyPosition))
        }
        return current
    }

    /// Follows the segments of a header before its last one, creating implicit tables as needed;
    /// an array of tables stands for its last element.
    private func walkHeaderPrefix(_ path: [KeySegment]) throws -> TableNode {
        var current = root
        for i in 0..<(path.count - 1) {
            let key = path[i]
            guard let slot = current.slots[key.name] else {
                current = try addTable(to: current, path, i, origin: .implicit, position: key.position)
                continue
            }
            switch slot.content {
            case .table(let child):
                current = child
            case .tableArray(let array):
                current = array.elements[array.elements.count - 1]
            case .value(let node):
                throw conflict(with: node, path, i, slot.keyPosition)
            }
        }
        return current
    }

    private func addTable(
        to parent: TableNode, _ path: [KeySegment], _ index: Int,
        origin: TableNode.Origin, position: SourcePosition
    ) throws -> TableNode {
        try checkDepth(parent.depth + 1, at: path[index])
        let table = TableNode(origin: origin, position: position, depth: parent.depth + 1)
        parent.insert(.table(table), forKey: path[index].name, at: path[index].position)
        return table
    }

    private func checkDepth(_ depth: Int, at key: KeySegment) throws {
        if depth > maxDepth {
            throw error(at: key, "tables are nested deeper than \(maxDepth) levels")
        }
    }

    /// The error for using a key that holds a finished value as a table.
    private func conflict(
        with node: TOMLNode, _ path: [KeySegment], _ index: Int,
        _ keyPosition: SourcePosition
    ) -> TOMLParseError {
        let name = display(path, index)
        if case .table = node.value {
            return error(at: path[index], "inline table '\(name)' cannot be extended" + firstDefined(keyPosition))
        }
        return error(
            at: path[index],
            "key '\(name)' already holds \(node.value.kindDescription)"
                + firstDefined(keyPosition) + " and cannot be used as a table")
    }

    private func error(at key: KeySegment, _ message: String) -> TOMLParseError {
        TOMLParseError(position: key.position, message: message)
    }

    private func firstDefined(_ position: SourcePosition) -> String {
        " (first defined at line \(position.line), column \(position.column))"
    }
}

/// The segments `0...last` of a key as TOML would write them: `a.b."c d"`.
func display(_ path: [KeySegment], _ last: Int) -> String {
    path[0...last].map { displayKey($0.name) }.joined(separator: ".")
}

/// A key as TOML would write it: bare when it can be, quoted otherwise.
func displayKey(_ key: String) -> String {
    if !key.isEmpty && key.utf8.allSatisfy(\.isBareKeyCharacter) { return key }
    var quoted = "\""
    for scalar in key.unicodeScalars {
        switch scalar {
        case "\"": quoted += "\\\""
        case "\\": quoted += "\\\\"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            quoted += "\\u" + unicodeName(scalar.value).dropFirst(2)
        default: quoted.unicodeScalars.append(scalar)
        }
    }
    return quoted + "\""
}
