import VitrineAnimation

/// The layer types a config can use, by name: the single source of truth for the loader, for
/// `vitrine check` and for the reference `vitrine scenes` prints.
///
/// A type's keys are its layer class's declared properties (`@Animatable` / `@LayerProperty`),
/// with the declared type and the default of a fresh instance, so making a new layer class
/// configurable is one `register` call.
public struct LayerTypeRegistry {
    /// The registered types, in registration order.
    public private(set) var types: [LayerType] = []

    /// An empty registry.
    public init() {}

    /// The type named `name`, if registered.
    public func type(named name: String) -> LayerType? { types.first { $0.name == name } }

    /// The registered names, in registration order.
    public var names: [String] { types.map(\.name) }

    /// Registers `layerClass` as `type = "name"` (replacing a type of the same name).
    ///
    /// - Parameters:
    ///   - summary: one line saying what the layer shows.
    ///   - docs: one line per property key; keys not given here fall back to the documentation
    ///     of the library's Layer, ShapeLayer and TextLayer properties when the key is one of theirs.
    ///   - valueTypes: a type to use instead of the one found from the declaration (e.g. a
    ///     font family for a `String`).
    ///   - required: keys every layer of the type must set.
    ///   - limits: the largest values the loader accepts (added to the key's documentation).
    ///   - configKeys: config keys for properties named otherwise in TOML (property → key).
    public mutating func register(
        _ name: String, _ layerClass: Layer.Type, summary: String,
        docs: [String: String] = [:], valueTypes: [String: PropertyType] = [:],
        required: [String] = [], limits: [String: ValueLimit] = [:], configKeys: [String: String] = [:]
    ) {
        let prototype = layerClass.init()
        var properties: [ConfigProperty] = []
        var unconfigurable: [String] = []
        for declaration in prototype.propertyDeclarations {
            let key = declaration.key
            // `name` is the layer's `id`, set by the loader.
            guard key != "name", !properties.contains(where: { $0.key == key }) else { continue }
            guard let type = valueTypes[key] ?? PropertyType.for(declaration.valueType),
                let value = prototype.storedValue(forKey: key)
            else {
                unconfigurable.append(key)
                continue
            }
            var doc = docs[key] ?? (declaration.isCustom ? nil : LayerTypeRegistry.builtInDocs[key]) ?? ""
            if let limit = limits[key] { doc += (doc.isEmpty ? "" : " ") + limit.description }
            properties.append(
                ConfigProperty(
                    key: configKeys[key] ?? key, layerKey: configKeys[key] == nil ? nil : key, type: type,
                    defaultValue: value, isAnimatable: declaration.isAnimatable, doc: doc, limit: limits[key]))
        }
        let type = LayerType(
            name: name, summary: summary, layerClass: layerClass, properties: properties,
            requiredKeys: required, unconfigurableKeys: unconfigurable)
        if let i = types.firstIndex(where: { $0.name == name }) { types[i] = type } else { types.append(type) }
    }
}
