import VitrineAnimation
import VitrineGraphics

/// One configurable key of a layer type: the layer property of the same name, what it holds,
/// its default and whether it animates.
public struct ConfigProperty {
    /// The key, which is the property's name (and the animation key path).
    public let key: String
    /// What the key holds.
    public let type: PropertyType
    /// The value a fresh layer of the type has.
    public let defaultValue: Any
    /// Whether animations may target the key.
    public let isAnimatable: Bool
    /// One line saying what the property does ("" when undocumented).
    public let doc: String

    /// The default as it would be written in the config.
    public var formattedDefault: String { type.formatted(defaultValue) }
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

    init(name: String, summary: String, layerClass: Layer.Type, properties: [ConfigProperty],
         requiredKeys: [String], unconfigurableKeys: [String]) {
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
