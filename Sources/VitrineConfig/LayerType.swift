import VitrineAnimation
import VitrineGraphics

/// One configurable key of a layer type: the layer property of the same name, what it holds,
/// its default and whether it animates.
public struct ConfigProperty {
    /// The key, which is the property's name (and the animation key path), unless the type
    /// names it otherwise (`propertyKey`).
    public let key: String
    /// The layer property when it is named otherwise (e.g. key `emitterCell`, written as
    /// `[[scene.layer.emitterCell]]` tables, sets `emitterCells`).
    let layerKey: String?
    /// The layer property the key sets.
    public var propertyKey: String { layerKey ?? key }
    /// What the key holds.
    public let type: PropertyType
    /// The value a fresh layer of the type has.
    public let defaultValue: Any
    /// Whether animations may target the key.
    public let isAnimatable: Bool
    /// One line saying what the property does ("" when undocumented), its limit included.
    public let doc: String
    /// The largest value the loader accepts, when the work a value causes grows with it.
    public let limit: ValueLimit?

    /// The default as it would be written in the config.
    public var formattedDefault: String { type.formatted(defaultValue) }
}

/// A bound on the size of one value, enforced when a config is loaded (so by `vitrine check`
/// and before a reload replaces the playlist): the work some values cause grows with them,
/// and one value must not stall the frame loop or exhaust memory.
public enum ValueLimit: Sendable {
    /// A string of at most this many bytes of UTF-8.
    case maximumBytes(Int)
    /// An array of at most this many elements.
    case maximumCount(Int)
    /// A number within this range.
    case range(ClosedRange<Double>)

    /// The limit as the reference states it.
    public var description: String {
        switch self {
        case .maximumBytes(let n): return "At most \(ValueLimit.grouped(n)) bytes (UTF-8)."
        case .maximumCount(let n): return "At most \(ValueLimit.grouped(n)) values."
        case .range(let r): return "From \(r.lowerBound.shortDescription) to \(r.upperBound.shortDescription)."
        }
    }

    /// Why `value` is refused, or nil when it is within the limit.
    func violation(by value: Any) -> String? {
        switch self {
        case .maximumBytes(let n):
            guard let string = unwrapOptional(value) as? String, string.utf8.count > n else { return nil }
            return "\(ValueLimit.grouped(string.utf8.count)) bytes; at most \(ValueLimit.grouped(n)) are allowed"
        case .maximumCount(let n):
            guard let array = unwrapOptional(value) as? [Any], array.count > n else { return nil }
            return "\(ValueLimit.grouped(array.count)) values; at most \(ValueLimit.grouped(n)) are allowed"
        case .range(let r):
            let number = unwrapOptional(value).flatMap { ($0 as? Double) ?? ($0 as? Int).map(Double.init) }
            guard let number, !r.contains(number) else { return nil }
            return
                "\(number.shortDescription) is out of range: from \(r.lowerBound.shortDescription) to \(r.upperBound.shortDescription)"
        }
    }

    /// 65536 → "65,536".
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n)), out = ""
        while digits.count > 3 { out = "," + String(digits.suffix(3)) + out; digits.removeLast(3) }
        return String(digits) + out
    }
}

/// A kind of layer the config can create (`type = "arrow"`): the layer class and the keys it
/// takes, read from the class's own property declarations.
public struct LayerType {
    /// The name used by `type = "…"`.
    public let name: String
    /// One line saying what the layer shows.
    public let summary: String
    /// The class instantiated for each layer of this type.
    public let layerClass: Layer.Type
    /// The configurable properties, in declaration order (subclass first, as the layer lists them).
    public let properties: [ConfigProperty]
    /// Keys a layer of this type must set.
    public let requiredKeys: [String]
    /// Declared properties the config cannot express (a type with no `PropertyType`); they keep
    /// their defaults. Empty for every standard type.
    public let unconfigurableKeys: [String]

    private let index: [String: Int]

    init(
        name: String, summary: String, layerClass: Layer.Type, properties: [ConfigProperty],
        requiredKeys: [String], unconfigurableKeys: [String]
    ) {
        self.name = name
        self.summary = summary
        self.layerClass = layerClass
        self.properties = properties
        self.requiredKeys = requiredKeys
        self.unconfigurableKeys = unconfigurableKeys
        var index: [String: Int] = [:]
        for (i, p) in properties.enumerated() where index[p.key] == nil { index[p.key] = i }
        self.index = index
    }

    /// A fresh layer of this type with default properties.
    public func makeLayer() -> Layer { layerClass.init() }

    /// The property for `key`, if the type has one.
    public func property(_ key: String) -> ConfigProperty? { index[key].map { properties[$0] } }

    /// The animatable keys.
    public var animatableKeys: [String] { properties.filter(\.isAnimatable).map(\.key) }

    /// Whether the shape keys (`rect`, `oval`, `roundedRect` + `cornerRadius`, `arc`) may stand
    /// for the layer's `path`: true for every type with a path property.
    public var acceptsShapeKeys: Bool { property("path")?.type.valueType == Path?.self }
}
