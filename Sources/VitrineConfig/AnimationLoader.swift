import VitrineAnimation
import VitrineGraphics
import VitrineTOML

/// Reads one `[[scene.layer.animation]]` table into an animation of its layer's type: the key
/// path must name an animatable property of the type (or a sub-key of one), and every value
/// must have that property's type.
struct AnimationLoader {
    let type: LayerType
    /// A fresh layer of the type, for sub-key paths (`position.x`) and their value types.
    let prototype: Layer
    let resources: ConfigResources

    enum Kind: String, CaseIterable { case basic, keyframe, spring, group }

    static let subKeys = [
        "x", "y", "width", "height", "origin", "size", "origin.x", "origin.y", "size.width",
        "size.height", "rotation", "rotation.z", "scale", "scale.x", "scale.y", "translation",
        "translation.x", "translation.y"
    ]

    func load(_ r: TOMLReader, errors: inout TOMLFieldErrors) throws -> Animation? {
        let before = errors.errors.count
        let explicitKind = try errors.collect { try r.oneOf("type", as: Kind.self) }
        if explicitKind == nil && r.contains("type") { return nil }
        let kind = explicitKind ?? (r.contains("values") || r.contains("path") ? .keyframe : .basic)

        var keys = [ConfigKeys.animationTiming]
        switch kind {
        case .basic: keys += [ConfigKeys.animationProperty, ConfigKeys.animationBasic]
        case .keyframe: keys += [ConfigKeys.animationProperty, ConfigKeys.animationKeyframe]
        case .spring: keys += [ConfigKeys.animationProperty, ConfigKeys.animationBasic, ConfigKeys.animationSpring]
        case .group: keys += [ConfigKeys.animationGroup]
        }
        try errors.collect { try r.rejectUnknownKeys(allowed: ConfigKeys.names(keys.flatMap { $0 })) }

        let animation: Animation
        switch kind {
        case .group:
            let group = AnimationGroup()
            let tables = try errors.collect { try r.required("animations", r.arrayOfTables("animations")) } ?? []
            for (i, table) in tables.enumerated() {
                if let child = try load(table.within("animation \(i + 1)"), errors: &errors) {
                    group.animations.append(child)
                }
            }
            animation = group
        case .basic, .keyframe, .spring:
            let keyPath = try errors.collect { try r.required("keyPath", r.string("keyPath")) }
            var valueType: PropertyType?
            if let keyPath { valueType = try errors.collect { try resolve(keyPath, r) } }
            let property: PropertyAnimation
            switch kind {
            case .keyframe: property = try keyframe(r, valueType: valueType, errors: &errors)
            case .spring: property = try spring(r, valueType: valueType, errors: &errors)
            default: property = try basic(BasicAnimation(), r, valueType: valueType, errors: &errors)
            }
            property.keyPath = keyPath
            if let v = try errors.collect({ try r.bool("additive") }) { property.isAdditive = v }
            if let v = try errors.collect({ try r.bool("cumulative") }) { property.isCumulative = v }
            animation = property
        }
        try readTiming(animation, r, errors: &errors)
        return errors.errors.count == before ? animation : nil
    }

    // MARK: Key paths

    /// The type of the values at `keyPath`, or an error naming the animatable key paths.
    func resolve(_ keyPath: String, _ r: TOMLReader) throws -> PropertyType {
        let head = String(keyPath.prefix { $0 != "." })
        if let property = type.property(head) {
            guard property.isAnimatable else {
                throw r.valueError("keyPath", "'\(head)' is not animatable (layer type '\(type.name)')")
            }
            if head == keyPath { return property.type }
            if let value = prototype.value(forKeyPath: keyPath), let t = PropertyType.for(Swift.type(of: value)) {
                return t
            }
        }
        var message = "'\(keyPath)' is not an animatable key path of layer type '\(type.name)'"
        if let guess = suggestion(for: keyPath, among: animatableKeyPaths()) {
            message += " (did you mean '\(guess)'?)"
        }
        throw r.valueError("keyPath", message)
    }

    /// The animatable keys of the type and their sub-keys, for suggestions.
    func animatableKeyPaths() -> [String] {
        var paths: [String] = []
        for key in type.animatableKeys {
            paths.append(key)
            for sub in AnimationLoader.subKeys where prototype.value(forKeyPath: key + "." + sub) != nil {
                paths.append(key + "." + sub)
            }
        }
        return paths
    }

    // MARK: Values

    /// The value of `key`, of the key path's type, as an animation holds it.
    func value(_ key: String, _ r: TOMLReader, _ valueType: PropertyType) throws -> (any Interpolatable)? {
        guard let node = r.node(key) else { return nil }
        return try interpolatable(node, ValueSite(reader: r, key: key, resources: resources), valueType)
    }

    func interpolatable(_ node: TOMLNode, _ site: ValueSite, _ valueType: PropertyType) throws -> any Interpolatable {
        let value = try valueType.read(node, site)
        guard let result = AnimationLoader.asInterpolatable(value, declared: valueType.valueType) else {
            throw site.error("a \(valueType.name) cannot be animated", at: node)
        }
        return result
    }

    /// `value` as an animation value; an absent optional ("none") stays a typed nil, so that
    /// animating to "none" fades a colour out.
    static func asInterpolatable(_ value: Any, declared: Any.Type) -> (any Interpolatable)? {
        if let v = value as? any Interpolatable { return v }
        if declared == Color?.self { return Color?.none }
        if declared == Path?.self { return Path?.none }
        return nil
    }

    // MARK: Kinds

    func basic<A: BasicAnimation>(
        _ a: A, _ r: TOMLReader, valueType: PropertyType?,
        errors: inout TOMLFieldErrors
    ) throws -> A {
        guard let valueType else { return a }
        a.fromValue = try errors.collect { try value("from", r, valueType) }
        a.toValue = try errors.collect { try value("to", r, valueType) }
        a.byValue = try errors.collect { try value("by", r, valueType) }
        return a
    }

    func spring(_ r: TOMLReader, valueType: PropertyType?, errors: inout TOMLFieldErrors) throws -> SpringAnimation {
        let s = try basic(SpringAnimation(), r, valueType: valueType, errors: &errors)
        if let v = try errors.collect({ try positive("mass", r) }) { s.mass = v }
        if let v = try errors.collect({ try positive("stiffness", r) }) { s.stiffness = v }
        if let v = try errors.collect({ try r.double("damping", in: 0...1e9) }) { s.damping = v }
        if let v = try errors.collect({ try r.double("initialVelocity", in: -1e9...1e9) }) { s.initialVelocity = v }
        // Without a duration the spring plays until it settles.
        if !r.contains("duration"), s.settlingDuration.isFinite { s.duration = s.settlingDuration }
        return s
    }

    func keyframe(_ r: TOMLReader, valueType: PropertyType?, errors: inout TOMLFieldErrors) throws -> KeyframeAnimation
    {
        let k = KeyframeAnimation()
        if let node = r.node("path") {
            let site = ValueSite(reader: r, key: "path", resources: resources)
            if let valueType, valueType.valueType != Point.self {
                errors.append(
                    r.error("path", "a motion path animates a point key path (position), not a \(valueType.name)"))
            } else if r.contains("values") {
                errors.append(r.error("path", "give either values or path"))
            } else if let path = try errors.collect({ try site.path(node) }) {
                k.path = path
            }
            if let v = try errors.collect({ try r.oneOf("rotationMode", as: RotationMode.self) }) { k.rotationMode = v }
        } else if r.contains("rotationMode") {
            errors.append(r.error("rotationMode", "rotationMode goes with a motion path"))
        }
        if let v = try errors.collect({ try r.oneOf("calculationMode", as: CalculationMode.self) }) {
            k.calculationMode = v
        }
        var count: Int?
        if r.contains("values") || !r.contains("path") {
            let nodes = try errors.collect { try r.required("values", r.node("values")) }
            if let nodes, let valueType {
                let site = ValueSite(reader: r, key: "values", resources: resources)
                if let items = try errors.collect({ try site.elements(nodes) }) {
                    if items.isEmpty { errors.append(r.valueError("values", "needs at least one value")) }
                    var values: [any Interpolatable] = []
                    for (i, item) in items.enumerated() {
                        do { values.append(try interpolatable(item, site, valueType)) } catch var e as TOMLFieldError {
                            e.message = "item \(i + 1): " + e.message
                            errors.append(e)
                        }
                    }
                    k.values = values
                    count = items.count
                }
            }
        }
        if let times = try errors.collect({ try r.doubleArray("keyTimes") }) {
            let expected = count.map { k.calculationMode == .discrete ? [$0, $0 + 1] : [$0] }
            if !times.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 })
                || zip(times, times.dropFirst()).contains(where: { $0 > $1 })
            {
                errors.append(r.valueError("keyTimes", "key times must rise from 0 to 1"))
            } else if let expected, !expected.contains(times.count) {
                errors.append(
                    r.valueError(
                        "keyTimes",
                        "expected \(expected.map(String.init).joined(separator: " or ")) key times (one per value\(k.calculationMode == .discrete ? ", or one more" : "")), found \(times.count)"
                    ))
            }
            k.keyTimes = times
        }
        if let node = r.node("timingFunctions") {
            let site = ValueSite(reader: r, key: "timingFunctions", resources: resources)
            if let items = try errors.collect({ try site.elements(node) }) {
                var functions: [TimingFunction] = []
                for (i, item) in items.enumerated() {
                    do { functions.append(try timingFunction(item, site)) } catch var e as TOMLFieldError {
                        e.message = "item \(i + 1): " + e.message
                        errors.append(e)
                    }
                }
                if let count, count > 1, functions.count != count - 1 {
                    errors.append(
                        r.valueError(
                            "timingFunctions",
                            "expected \(count - 1) timing functions (one per segment), found \(functions.count)"))
                }
                k.timingFunctions = functions
            }
        }
        return k
    }

    // MARK: Timing

    func readTiming(_ a: Animation, _ r: TOMLReader, errors: inout TOMLFieldErrors) throws {
        if let v = try errors.collect({ try r.double("duration", in: 0...1e9) }) { a.duration = v }
        if let v = try errors.collect({ try r.double("beginTime", in: -1e9...1e9) }) { a.beginTime = v }
        if let node = r.node("timingFunction") {
            let site = ValueSite(reader: r, key: "timingFunction", resources: resources)
            if let f = try errors.collect({ try timingFunction(node, site) }) { a.timingFunction = f }
        }
        if let v = try errors.collect({ try r.bool("autoreverses") }) { a.autoreverses = v }
        if let node = r.node("repeatCount") {
            if node.value.stringValue == "infinity" {
                a.repeatCount = .infinity
            } else if let v = try errors.collect({ try r.double("repeatCount", in: 0...1e9) }) {
                a.repeatCount = v
            }
        }
        if let v = try errors.collect({ try r.double("repeatDuration", in: 0...1e9) }) { a.repeatDuration = v }
        if let v = try errors.collect({ try r.double("speed", in: -1e6...1e6) }) { a.speed = v }
        if let v = try errors.collect({ try r.double("timeOffset", in: -1e9...1e9) }) { a.timeOffset = v }
        if let v = try errors.collect({ try r.oneOf("fillMode", as: FillMode.self) }) { a.fillMode = v }
        if let v = try errors.collect({ try r.bool("removedOnCompletion") }) { a.isRemovedOnCompletion = v }
    }

    /// A named timing function or `[c1x, c1y, c2x, c2y]` (x values within 0…1).
    func timingFunction(_ node: TOMLNode, _ site: ValueSite) throws -> TimingFunction {
        if let name = node.value.stringValue {
            guard let known = TimingFunction.Name(rawValue: name) else {
                let names = TimingFunction.Name.allCases.map(\.rawValue)
                var message = "'\(name)' is not one of " + names.map { "'\($0)'" }.joined(separator: ", ")
                if let guess = suggestion(for: name, among: names) { message += " (did you mean '\(guess)'?)" }
                throw site.error(message, at: node)
            }
            return TimingFunction(name: known)
        }
        guard node.value.arrayValue != nil else {
            throw site.error(
                "expected a timing function name or [c1x, c1y, c2x, c2y], found \(node.value.kindDescription)", at: node
            )
        }
        let p = try site.numbers(node, count: 4)
        guard (0...1).contains(p[0]), (0...1).contains(p[2]) else {
            throw site.error("control point x values must be within 0…1", at: node)
        }
        return TimingFunction(controlPoints: p[0], p[1], p[2], p[3])
    }

    private func positive(_ key: String, _ r: TOMLReader) throws -> Double? {
        guard let v = try r.double(key) else { return nil }
        guard v.isFinite, v > 0 else { throw r.valueError(key, "must be positive") }
        return v
    }
}
