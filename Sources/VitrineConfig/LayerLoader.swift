import VitrineAnimation
import VitrineGraphics
import VitrineTOML

/// Reads the `[[scene.layer]]` tables of one scene through the registry, then checks how they
/// refer to each other: unique ids, existing parents and masks, no cycles.
enum LayerLoader {
    /// A layer read from its table, with the reader kept for the scene-wide checks.
    struct Loaded {
        var definition: LayerDefinition
        let reader: TOMLReader
        /// False when the layer's own keys had errors (its references are still checked).
        let isValid: Bool
    }

    static func loadLayers(
        _ tables: [TOMLReader], registry: LayerTypeRegistry, resources: ConfigResources,
        errors: inout TOMLFieldErrors
    ) throws -> [LayerDefinition] {
        var loaded: [Loaded] = []
        for (index, table) in tables.enumerated() {
            if let layer = try loadLayer(table, index: index, registry: registry, resources: resources, errors: &errors)
            {
                loaded.append(layer)
            }
        }
        // A layer whose type is unknown is not built at all; naming it elsewhere is not a
        // second error.
        let failed = Set(tables.compactMap { $0.node("id")?.value.stringValue })
            .subtracting(loaded.compactMap(\.definition.id))
        checkReferences(loaded, failedIDs: failed, errors: &errors)
        return loaded.filter(\.isValid).map(\.definition)
    }

    // MARK: One layer

    static func loadLayer(
        _ table: TOMLReader, index: Int, registry: LayerTypeRegistry, resources: ConfigResources,
        errors: inout TOMLFieldErrors
    ) throws -> Loaded? {
        let givenID = table.node("id")?.value.stringValue
        let r = table.within(givenID.map { "layer '\($0)'" } ?? "layer \(index + 1)")
        let before = errors.errors.count
        let id = try errors.collect { try r.string("id") }
        if let id, id.isEmpty { errors.append(r.valueError("id", "must not be empty")) }
        let typeName = try errors.collect { try r.required("type", r.oneOf("type", registry.names)) }
        guard let typeName, let type = registry.type(named: typeName) else { return nil }

        let shapeKeys = type.acceptsShapeKeys ? ConfigKeys.shape.map(\.key) : []
        var allowed = ConfigKeys.names(ConfigKeys.layer).union(shapeKeys)
        allowed.formUnion(type.properties.map(\.key))
        try errors.collect { try r.rejectUnknownKeys(allowed: allowed) }

        // With roundedRect, cornerRadius is the rectangle's radius, not the layer's.
        let cornerRadiusIsShapes = r.contains("roundedRect") && type.acceptsShapeKeys
        var settings: [(property: ConfigProperty, value: Any)] = []
        for key in r.keys {
            guard let property = type.property(key), let node = r.node(key) else { continue }
            if key == "cornerRadius" && cornerRadiusIsShapes { continue }
            let site = ValueSite(reader: r, key: key, resources: resources)
            guard let value = try errors.collect({ try property.type.read(node, site) }) else { continue }
            if let violation = property.limit?.violation(by: value) {
                errors.append(site.error("too large: \(violation)", at: node))
                continue
            }
            settings.append((property, value))
        }
        if type.acceptsShapeKeys, let path = try errors.collect({ try shapePath(r, shapeKeys: shapeKeys) }),
            let property = type.property("path")
        {
            settings.append((property, path))
        }

        let frame = try errors.collect { try r.rect("frame") }
        if frame != nil, let clash = ["bounds", "position"].first(where: r.contains) {
            errors.append(r.error("frame", "frame sets the bounds and the position; give either frame or \(clash)"))
        }
        for key in type.requiredKeys where !r.contains(key) {
            errors.append(r.error(key, "missing required key (layer type '\(type.name)')", at: r.table.position))
        }
        let parent = try errors.collect { try r.string("parent") }
        let mask = try errors.collect { try r.string("mask") }

        var animations: [AnimationDefinition] = []
        let animationTables = try errors.collect { try r.arrayOfTables("animation") } ?? []
        let prototype = type.makeLayer()
        for (i, table) in animationTables.enumerated() {
            let loader = AnimationLoader(type: type, prototype: prototype, resources: resources)
            guard let animation = try loader.load(table.within("animation \(i + 1)"), errors: &errors) else { continue }
            let base = (animation as? PropertyAnimation)?.keyPath ?? "group"
            var key = base, n = 1
            while animations.contains(where: { $0.key == key }) { n += 1; key = "\(base) \(n)" }
            animations.append(AnimationDefinition(key: key, animation: animation))
        }

        let definition = LayerDefinition(
            id: id, type: type, settings: settings, frame: frame, parent: parent, mask: mask,
            animations: animations,
            hasExplicitBounds: frame != nil || r.contains("bounds"))
        return Loaded(definition: definition, reader: r, isValid: errors.errors.count == before)
    }

    /// The path given by one of the shape keys (`rect`, `oval`, `roundedRect`, `arc`), which
    /// stand for `path`; nil when none is given.
    static func shapePath(_ r: TOMLReader, shapeKeys: [String]) throws -> Path? {
        let given = shapeKeys.filter(r.contains)
        guard let first = given.first else { return nil }
        if r.contains("path") {
            throw r.error(
                first, "path is already given; a layer takes path or one of \(shapeKeys.joined(separator: ", "))")
        }
        if given.count > 1 {
            throw r.error(
                given[1], "a layer takes one of \(shapeKeys.joined(separator: ", ")); '\(first)' is already given")
        }
        // ShapeGeometry reads the drawing keys of `vitrine draw`: hand it just those.
        var table = TOMLTable(position: r.table.position)
        for key in given + (first == "roundedRect" ? ["cornerRadius"] : []) {
            if let node = r.node(key) { table.set(node, forKey: key, keyPosition: r.position(of: key)) }
        }
        return try ShapeGeometry.read(TOMLReader(table, file: r.file, context: r.context))
    }

    // MARK: References between layers

    static func checkReferences(_ layers: [Loaded], failedIDs: Set<String>, errors: inout TOMLFieldErrors) {
        var byID: [String: Int] = [:]
        for (i, layer) in layers.enumerated() {
            guard let id = layer.definition.id else { continue }
            if let first = byID[id] {
                let line = layers[first].reader.position(of: "id").line
                errors.append(layer.reader.valueError("id", "duplicate layer id '\(id)' (first at line \(line))"))
            } else {
                byID[id] = i
            }
        }
        let ids = layers.compactMap(\.definition.id)
        func resolve(_ key: String, of layer: Loaded) -> Int?? {
            let reference = key == "parent" ? layer.definition.parent : layer.definition.mask
            guard let reference else { return .some(nil) }
            if let i = byID[reference] {
                if layer.definition.id == reference {
                    errors.append(layer.reader.valueError(key, "a layer cannot be its own \(key)"))
                    return nil
                }
                return i
            }
            if !failedIDs.contains(reference) {
                var message = "no layer with id '\(reference)' in this scene"
                if let guess = suggestion(for: reference, among: ids) { message += " (did you mean '\(guess)'?)" }
                errors.append(layer.reader.valueError(key, message))
            }
            return nil
        }
        // The edge towards the root: a mask's owner, else the parent (nil: the scene root).
        var up = [Int?](repeating: nil, count: layers.count)
        var upKey = [String](repeating: "parent", count: layers.count)
        var maskOwner: [Int: Int] = [:]
        // An unresolved reference (already reported) counts as the root, so cycles elsewhere
        // are still found.
        for (i, layer) in layers.enumerated() {
            up[i] = resolve("parent", of: layer) ?? nil
        }
        for (i, layer) in layers.enumerated() {
            guard let resolved = resolve("mask", of: layer), let m = resolved else { continue }
            if let other = maskOwner[m] {
                let owner = layers[other].definition.id.map { "'\($0)'" } ?? "another layer"
                errors.append(
                    layer.reader.valueError(
                        "mask", "layer '\(layers[m].definition.id!)' is already the mask of \(owner)"))
                continue
            }
            if layers[m].definition.parent != nil {
                errors.append(
                    layers[m].reader.error(
                        "parent",
                        "this layer is the mask of '\(layer.definition.id ?? "layer \(i + 1)")'; a mask is not placed in the tree, so it takes no parent"
                    ))
                continue
            }
            maskOwner[m] = i
            up[m] = i
            upKey[m] = "mask"
        }
        // Every layer must reach the root; following `up` from one that does not ends in a cycle.
        var state = [UInt8](repeating: 0, count: layers.count)  // 0 unknown, 1 on the current walk, 2 done
        for start in layers.indices where state[start] == 0 {
            var walk: [Int] = []
            var i: Int? = start
            while let j = i, state[j] == 0 {
                state[j] = 1
                walk.append(j)
                i = up[j]
            }
            if let j = i, state[j] == 1, let from = walk.firstIndex(of: j) {
                let cycle = walk[from...]
                let names = cycle.map { layers[$0].definition.id ?? "layer \($0 + 1)" }
                let describedAt = cycle.first!
                let key = upKey[describedAt]
                // A mask's up edge is written on its owner, as `mask = …`.
                let reporter = key == "mask" ? layers[up[describedAt]!].reader : layers[describedAt].reader
                errors.append(
                    reporter.valueError(
                        key, "cycle of parents and masks: " + (names + [names[0]]).joined(separator: " → ")))
            }
            for j in walk { state[j] = 2 }
        }
    }
}
