import VitrineAnimation
import VitrineGraphics
import VitrineTOML

/// Where a value is being read: the table and key it belongs to (errors name both, at the
/// value's own position) and the resources of the config (files relative to it).
struct ValueSite {
    let reader: TOMLReader
    let key: String
    let resources: ConfigResources

    /// An error about this key at `node`'s position.
    func error(_ message: String, at node: TOMLNode) -> TOMLFieldError {
        reader.error(key, message, at: node.position)
    }

    /// The same site for a nested table (an inline transform or shape table): its keys are
    /// reported below this key.
    func nested(_ table: TOMLTable) -> TOMLReader {
        TOMLReader(table, file: reader.file, context: reader.context + [key])
    }

    // MARK: Scalars and arrays

    func number(_ node: TOMLNode, item: Int? = nil) throws -> Double {
        guard let value = node.value.doubleValue else {
            throw error(prefix(item) + "expected a number, found \(node.value.kindDescription)", at: node)
        }
        guard value.isFinite else { throw error(prefix(item) + "\(value) is not a finite number", at: node) }
        return value
    }

    /// A whole number (an integer, or a float with no fraction), within ±2⁵³.
    func integer(_ node: TOMLNode) throws -> Int {
        let value = try number(node)
        guard value == value.rounded(), abs(value) <= 9_007_199_254_740_992 else {
            throw error("expected a whole number, found \(value.shortDescription)", at: node)
        }
        return Int(value)
    }

    func boolean(_ node: TOMLNode) throws -> Bool {
        guard let value = node.value.boolValue else {
            throw error("expected a boolean, found \(node.value.kindDescription)", at: node)
        }
        return value
    }

    func string(_ node: TOMLNode) throws -> String {
        guard let value = node.value.stringValue else {
            throw error("expected a string, found \(node.value.kindDescription)", at: node)
        }
        return value
    }

    func elements(_ node: TOMLNode) throws -> [TOMLNode] {
        guard let items = node.value.arrayValue else {
            throw error("expected an array, found \(node.value.kindDescription)", at: node)
        }
        return items
    }

    /// An array of finite numbers; with `count`, exactly that many.
    func numbers(_ node: TOMLNode, count: Int?) throws -> [Double] {
        guard let items = node.value.arrayValue else {
            throw error("expected an array of numbers, found \(node.value.kindDescription)", at: node)
        }
        if let count, items.count != count {
            throw error("expected \(count) numbers, found \(items.count)", at: node)
        }
        return try items.enumerated().map { try number($1, item: $0 + 1) }
    }

    private func prefix(_ item: Int?) -> String { item.map { "item \($0): " } ?? "" }

    // MARK: Graphics values

    /// A colour; "none" gives nil when allowed.
    func color(_ node: TOMLNode, allowsNone: Bool) throws -> Color? {
        let text = try string(node)
        if text == "none" {
            guard allowsNone else { throw error("a colour is needed here; \"none\" is not allowed", at: node) }
            return nil
        }
        do { return try Color(hex: text) } catch {
            let forms = "\"#rgb\", \"#rrggbb\", \"#rrggbbaa\"" + (allowsNone ? " or \"none\"" : "")
            throw self.error("'\(text)' is not a colour: expected \(forms)", at: node)
        }
    }

    /// `[a, b, c, d, tx, ty]` (a transform of the plane), sixteen numbers (CATransform3D's m11 …
    /// m44), or a table of parts applied scale (and shear) first, then rotation about x, y and z,
    /// then translation, then perspective: `{ rotation, rotationX, rotationY, scale, translation,
    /// translationZ, shear, perspective = D }` (m34 = −1/D: an eye D units away).
    func transform(_ node: TOMLNode) throws -> Transform3D {
        if let table = node.value.tableValue {
            let r = nested(table)
            try r.rejectUnknownKeys(allowed: [
                "rotation", "rotationX", "rotationY", "scale", "translation", "translationZ", "shear", "perspective"
            ])
            var parts = Transform3DComponents()
            var errors = TOMLFieldErrors()
            if let v = try errors.collect({ try r.double("rotation") }) { parts.plane.rotation = v }
            if let v = try errors.collect({ try r.double("rotationX") }) { parts.rotationX = v }
            if let v = try errors.collect({ try r.double("rotationY") }) { parts.rotationY = v }
            if let v = try errors.collect({ try r.double("shear") }) { parts.plane.shear = v }
            if let v = try errors.collect({ try r.double("translationZ") }) { parts.translationZ = v }
            if let v = try errors.collect({ try r.point("translation") }) {
                parts.plane.translationX = v.x; parts.plane.translationY = v.y
            }
            if let v = try errors.collect({ try r.double("perspective") }) {
                if v > 0 && v.isFinite {
                    parts.perspective = -1 / v
                } else {
                    errors.append(r.valueError("perspective", "the eye's distance must be a positive number"))
                }
            }
            if let scale = r.node("scale") {
                if let uniform = scale.value.doubleValue {
                    parts.plane.scaleX = uniform; parts.plane.scaleY = uniform
                } else if let both = try errors.collect({ try r.size("scale") }) {
                    parts.plane.scaleX = both.width; parts.plane.scaleY = both.height
                }
            }
            try errors.throwIfAny()
            let t = parts.transform
            guard t.entries.allSatisfy(\.isFinite) else { throw error("transform entries must be finite", at: node) }
            return t
        }
        guard let items = node.value.arrayValue else {
            throw error(
                "expected [a, b, c, d, tx, ty], 16 numbers (m11 … m44) or a table of rotation, rotationX, rotationY, scale, translation, translationZ, shear and perspective, found \(node.value.kindDescription)",
                at: node)
        }
        let v = try numbers(node, count: items.count == 16 ? 16 : 6)
        return v.count == 16
            ? Transform3D(v) : Transform3D(Transform2D(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
    }

    /// SVG path data (errors give the byte offset) or a table with one shape key.
    func path(_ node: TOMLNode) throws -> Path {
        if let data = node.value.stringValue {
            do { return try Path(svgPathData: data) } catch let e as PathDataError {
                throw error("bad path data at byte \(e.offset): \(e.message)", at: node)
            }
        }
        guard let table = node.value.tableValue else {
            throw error(
                "expected SVG path data or a table with one of \(ShapeGeometry.keys.joined(separator: ", ")), found \(node.value.kindDescription)",
                at: node)
        }
        let r = nested(table)
        try r.rejectUnknownKeys(allowed: Set(ShapeGeometry.keys + ShapeGeometry.modifierKeys))
        guard let path = try ShapeGeometry.read(r) else {
            throw error("a path table needs one of \(ShapeGeometry.keys.joined(separator: ", "))", at: node)
        }
        return path
    }

    /// A gradient paint: `{ type, colors, locations, start, end }` (`TOMLReader.gradient(_:)`).
    func gradient(_ node: TOMLNode) throws -> Gradient {
        guard let table = node.value.tableValue else {
            throw error(
                "expected a gradient table { type, colors, locations, start, end }, found \(node.value.kindDescription)",
                at: node)
        }
        return try nested(table).gradientTable()
    }

    /// A layer transition `{ type, subtype, duration }` (`TOMLReader.layerTransitionTable()`).
    func layerTransition(_ node: TOMLNode) throws -> LayerTransition {
        guard let table = node.value.tableValue else {
            throw error("expected a table { type, subtype, duration }, found \(node.value.kindDescription)", at: node)
        }
        return try nested(table).layerTransitionTable()
    }

    /// `[[scene.layer.emitterCell]]` tables: an emitter's cells, each named "emitterCell N" in
    /// errors. Together they may keep at most `EmitterLayer.maximumParticles` alive (birth rate
    /// times the longest life, summed).
    func emitterCells(_ node: TOMLNode) throws -> [EmitterCell] {
        var errors = TOMLFieldErrors()
        let cells = try elements(node).enumerated().compactMap { index, element in
            guard let table = element.value.tableValue else {
                throw error("item \(index + 1): expected a table, found \(element.value.kindDescription)", at: element)
            }
            let cell = TOMLReader(table, file: reader.file, context: reader.context + ["\(key) \(index + 1)"])
            return try errors.collect { try emitterCell(cell) }
        }
        try errors.throwIfAny()
        let alive = cells.reduce(0) { $0 + $1.mostAlive }
        guard alive <= Double(EmitterLayer.maximumParticles) else {
            throw error(
                "\(alive.shortDescription) particles could be alive at once (birthRate × (lifetime + lifetimeRange), summed); at most \(EmitterLayer.maximumParticles) are allowed",
                at: node)
        }
        return cells
    }

    private func emitterCell(_ r: TOMLReader) throws -> EmitterCell {
        var cell = EmitterCell()
        let numbers: [(String, WritableKeyPath<EmitterCell, Double>, ClosedRange<Double>)] = [
            ("birthRate", \.birthRate, 0...1e6), ("lifetime", \.lifetime, 0...1e6),
            ("lifetimeRange", \.lifetimeRange, 0...1e6),
            ("velocity", \.velocity, -1e6...1e6), ("velocityRange", \.velocityRange, 0...1e6),
            ("emissionLongitude", \.emissionLongitude, -1e3...1e3), ("emissionRange", \.emissionRange, 0...1e3),
            ("xAcceleration", \.xAcceleration, -1e6...1e6), ("yAcceleration", \.yAcceleration, -1e6...1e6),
            ("scale", \.scale, 0...1e3), ("scaleRange", \.scaleRange, 0...1e3),
            ("scaleSpeed", \.scaleSpeed, -1e3...1e3),
            ("spin", \.spin, -1e4...1e4), ("spinRange", \.spinRange, 0...1e4), ("alphaSpeed", \.alphaSpeed, -1e3...1e3),
            ("redRange", \.redRange, 0...1), ("greenRange", \.greenRange, 0...1), ("blueRange", \.blueRange, 0...1),
            ("alphaRange", \.alphaRange, 0...1)
        ]
        try r.rejectUnknownKeys(allowed: Set(numbers.map(\.0) + ["color", "contents"]))
        var errors = TOMLFieldErrors()
        for (name, path, range) in numbers {
            if let value = try errors.collect({ try r.double(name, in: range) }) { cell[keyPath: path] = value }
        }
        if let color = try errors.collect({ try r.color("color") }) { cell.color = color }
        if let name = try errors.collect({ try r.string("contents") }) {
            let failure = { (error: any Error) in r.valueError("contents", "cannot load image '\(name)': \(error)") }
            do {
                cell.contents = try resources.image(named: name, failure: failure)
            } catch {
                errors.append(failure(error))
            }
        }
        try errors.throwIfAny()
        return cell
    }

    /// An image file, relative to the config file.
    func image(_ node: TOMLNode) throws -> any LayerContents {
        let name = try string(node)
        let failure = { (error: any Error) in self.error("cannot load image '\(name)': \(error)", at: node) }
        do { return try resources.image(named: name, failure: failure) } catch { throw failure(error) }
    }

    /// A font family that fontconfig resolves to a usable font.
    func fontFamily(_ node: TOMLNode) throws -> String {
        let family = try string(node)
        guard resources.isUsableFont(family) else { throw error("no usable font for family '\(family)'", at: node) }
        return family
    }
}
