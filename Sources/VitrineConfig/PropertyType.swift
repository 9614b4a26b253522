import VitrineAnimation
import VitrineGraphics
import VitrineTOML

/// The kind of value a config key holds: how it is written in TOML, how it is read into the
/// Swift type a layer property declares, and how a default is shown in the reference.
///
/// Types are found from a property's declared Swift type (`PropertyType.for(_:)`), so a new
/// layer property of an existing type needs nothing here.
public struct PropertyType: CustomStringConvertible {
    /// How the reference names the type: "number", "colour", "[x, y]", "butt | round | square" ….
    public let name: String
    /// The Swift type the value is read into.
    public let valueType: Any.Type
    /// The names of an enumeration's cases; nil for other types.
    public var cases: [String]? = nil
    let decode: (TOMLNode, ValueSite) throws -> Any
    let format: (Any) -> String

    public var description: String { name }

    /// A default or configured value as it would be written in the config ("none" for nil).
    public func formatted(_ value: Any) -> String {
        guard let unwrapped = unwrapOptional(value) else { return "none" }
        return format(unwrapped)
    }

    /// Reads `node`, the value of `site.key`; errors name the key and the value's position.
    func read(_ node: TOMLNode, _ site: ValueSite) throws -> Any { try decode(node, site) }
}

// MARK: - The types

extension PropertyType {
    /// A finite number (integers accepted).
    public static let number = PropertyType(
        name: "number", valueType: Double.self,
        decode: { try $1.number($0) }, format: { ($0 as! Double).shortDescription })
    /// A whole number.
    public static let integer = PropertyType(
        name: "integer", valueType: Int.self,
        decode: { try $1.integer($0) }, format: { "\($0 as! Int)" })
    /// `true` or `false`.
    public static let boolean = PropertyType(
        name: "bool", valueType: Bool.self,
        decode: { try $1.boolean($0) }, format: { "\($0)" })
    /// Any string.
    public static let string = PropertyType(
        name: "string", valueType: String.self,
        decode: { try $1.string($0) }, format: { quoted($0 as! String) })
    /// `[x, y]`.
    public static let point = PropertyType(
        name: "[x, y]", valueType: Point.self,
        decode: { node, site in
            let v = try site.numbers(node, count: 2)
            return Point(x: v[0], y: v[1])
        },
        format: {
            let p = $0 as! Point; return list([p.x, p.y])
        })
    /// `[width, height]`.
    public static let size = PropertyType(
        name: "[width, height]", valueType: Size.self,
        decode: { node, site in
            let v = try site.numbers(node, count: 2)
            return Size(width: v[0], height: v[1])
        },
        format: {
            let s = $0 as! Size; return list([s.width, s.height])
        })
    /// `[x, y, width, height]`.
    public static let rect = PropertyType(
        name: "[x, y, width, height]", valueType: Rect.self,
        decode: { node, site in
            let v = try site.numbers(node, count: 4)
            return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        },
        format: {
            let r = $0 as! Rect; return list([r.minX, r.minY, r.width, r.height])
        })
    /// `"#rgb"`, `"#rrggbb"` or `"#rrggbbaa"`.
    public static let color = PropertyType(
        name: "colour", valueType: Color.self,
        decode: { try $1.color($0, allowsNone: false) as Any },
        format: { quoted(($0 as! Color).hexString) })
    /// A colour or `"none"` (nil).
    public static let optionalColor = PropertyType(
        name: "colour | \"none\"", valueType: Color?.self,
        decode: { try $1.color($0, allowsNone: true) as Any },
        format: { quoted(($0 as! Color).hexString) })
    /// Numbers, e.g. a dash pattern `[8, 4]`.
    public static let numberArray = PropertyType(
        name: "[number, …]", valueType: [Double].self,
        decode: { try $1.numbers($0, count: nil) },
        format: { list($0 as! [Double]) })
    /// Colours, e.g. `["#ff0000", "#00ff00"]`.
    public static let colorArray = PropertyType(
        name: "[colour, …]", valueType: [Color].self,
        decode: { node, site in
            try site.elements(node).map { try site.color($0, allowsNone: false)! }
        }, format: { "[" + ($0 as! [Color]).map { quoted($0.hexString) }.joined(separator: ", ") + "]" })
    /// A gradient's colours, e.g. `["#ff0000", "#00ff00"]` (animated stop by stop).
    public static let colorList = PropertyType(
        name: "[colour, …]", valueType: ColorList.self,
        decode: { node, site in
            ColorList(try site.elements(node).map { try site.color($0, allowsNone: false)! })
        }, format: { "[" + ($0 as! ColorList).colors.map { quoted($0.hexString) }.joined(separator: ", ") + "]" })
    /// `[a, b, c, d, tx, ty]`, sixteen numbers (m11 … m44), or `{ rotation = r, rotationX,
    /// rotationY, scale = s | [sx, sy], translation = [x, y], translationZ, shear = k,
    /// perspective = D }`.
    public static let transform = PropertyType(
        name: "transform", valueType: Transform3D.self,
        decode: { try $1.transform($0) },
        format: { value in
            let t = value as! Transform3D
            if t.isIdentity { return "identity" }
            if t.isPlanar {
                let a = t.affine
                return list([a.a, a.b, a.c, a.d, a.tx, a.ty])
            }
            return list(t.entries)
        })
    /// SVG path data, or a table with one shape key: `{ rect = […] }`, `{ oval = […] }`,
    /// `{ roundedRect = […], cornerRadius = r }`, `{ arc = [cx, cy, r, start, end, clockwise] }`.
    public static let path = PropertyType(
        name: "path", valueType: Path?.self,
        decode: { try $1.path($0) }, format: { _ in "(a path)" })
    /// A gradient paint `{ type = axial | radial | conic, colors, locations, start, end }`.
    public static let gradient = PropertyType(
        name: "gradient", valueType: Gradient?.self,
        decode: { try $1.gradient($0) }, format: { _ in "(a gradient)" })
    /// `{ type = fade | push | moveIn | reveal, subtype = fromLeft | fromRight | fromTop |
    /// fromBottom, duration }`.
    public static let layerTransition = PropertyType(
        name: "transition", valueType: LayerTransition?.self,
        decode: { try $1.layerTransition($0) },
        format: {
            let t = $0 as! LayerTransition
            return
                "{ type = \"\(t.kind.rawValue)\", subtype = \"\(t.subtype.rawValue)\", duration = \(t.duration.shortDescription) }"
        })
    /// `[[scene.layer.emitterCell]]` tables (see `EmitterCell`).
    public static let emitterCells = PropertyType(
        name: "[[emitterCell]] tables", valueType: [EmitterCell].self,
        decode: { try $1.emitterCells($0) },
        format: { ($0 as! [EmitterCell]).isEmpty ? "none" : "(\(($0 as! [EmitterCell]).count) cells)" })
    /// An image file (PNG), relative to the config file.
    public static let image = PropertyType(
        name: "image file", valueType: (any LayerContents)?.self,
        decode: { try $1.image($0) }, format: { _ in "(an image)" })
    /// A font family, matched with fontconfig; the config is refused when no font is usable.
    public static let fontFamily = PropertyType(
        name: "font family", valueType: String.self,
        decode: { try $1.fontFamily($0) }, format: { quoted($0 as! String) })

    /// The types found from declared Swift types, in lookup order.
    static let byValueType: [ObjectIdentifier: PropertyType] = {
        var table: [ObjectIdentifier: PropertyType] = [:]
        for type in [
            number, integer, boolean, string, point, size, rect, color, optionalColor, numberArray, colorArray,
            colorList, transform, path, gradient, layerTransition, emitterCells, image
        ] {
            table[ObjectIdentifier(type.valueType)] = type
        }
        // Optional forms read as the plain ones (absent means nil).
        table[ObjectIdentifier(String?.self)] = string
        table[ObjectIdentifier(Path.self)] = path
        table[ObjectIdentifier(Gradient.self)] = gradient
        return table
    }()

    /// The type for a property declared with Swift type `type`: a known value type, or an
    /// enumeration with string raw values (its cases, e.g. `butt | round | square`); nil when
    /// the config cannot express it.
    public static func `for`(_ type: Any.Type) -> PropertyType? {
        byValueType[ObjectIdentifier(type)] ?? enumeration(type)
    }

    /// A string naming one case of a `CaseIterable` enumeration with `String` raw values.
    public static func enumeration(_ type: Any.Type) -> PropertyType? {
        guard let iterable = type as? any CaseIterable.Type, let representable = type as? any RawRepresentable.Type
        else { return nil }
        let cases = allCases(of: iterable)
        let names = cases.compactMap(rawString)
        guard !names.isEmpty, names.count == cases.count else { return nil }
        return PropertyType(
            name: names.joined(separator: " | "), valueType: type, cases: names,
            decode: { node, site in
                let text = try site.string(node)
                guard names.contains(text), let value = makeCase(representable, rawValue: text) else {
                    var message = "'\(text)' is not one of " + names.map { "'\($0)'" }.joined(separator: ", ")
                    if let guess = suggestion(for: text, among: names) { message += " (did you mean '\(guess)'?)" }
                    throw site.error(message, at: node)
                }
                return value
            }, format: { rawString($0) ?? "\($0)" })
    }

    private static func allCases<T: CaseIterable>(of type: T.Type) -> [Any] { T.allCases.map { $0 } }

    private static func makeCase<T: RawRepresentable>(_ type: T.Type, rawValue: String) -> Any? {
        (rawValue as? T.RawValue).flatMap(T.init(rawValue:))
    }

    private static func rawString(_ value: Any) -> String? {
        func raw<T: RawRepresentable>(_ v: T) -> String? { v.rawValue as? String }
        guard let representable = value as? any RawRepresentable else { return nil }
        return raw(representable)
    }
}

private func quoted(_ s: String) -> String { "\"" + s + "\"" }

private func list(_ values: [Double]) -> String {
    "[" + values.map(\.shortDescription).joined(separator: ", ") + "]"
}

/// The wrapped value of an `Optional` held in an `Any` (nil for `.none`), or the value itself.
func unwrapOptional(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    guard let wrapped = mirror.children.first?.value else { return nil }
    return unwrapOptional(wrapped)
}
