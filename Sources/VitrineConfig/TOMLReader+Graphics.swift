import VitrineAnimation
import VitrineGraphics
import VitrineTOML

/// Readers for the graphics values that draw specs and playlists share, so both report bad
/// colours, path data and geometry the same way.
extension TOMLReader {
    /// A colour `#rgb`, `#rrggbb`, `#rrggbbaa`, or `"none"`: `.some(nil)` for "none", nil when
    /// the key is absent.
    public func optionalColor(_ key: String) throws -> Color?? {
        guard let text = try string(key) else { return nil }
        if text == "none" { return .some(nil) }
        do { return .some(try Color(hex: text)) } catch {
            throw valueError(
                key, "'\(text)' is not a colour: expected \"#rgb\", \"#rrggbb\", \"#rrggbbaa\" or \"none\"")
        }
    }

    /// A colour (no "none").
    public func color(_ key: String) throws -> Color? {
        guard let value = try optionalColor(key) else { return nil }
        guard let color = value else { throw valueError(key, "a colour is needed here; \"none\" is not allowed") }
        return color
    }

    /// `{ type = axial | radial | conic, colors = [...], locations = [...], start = [x, y],
    /// end = [x, y] }`: a gradient paint (`locations` optional, one per colour, 0…1 and not
    /// decreasing).
    public func gradient(_ key: String) throws -> Gradient? {
        guard let table = try table(key)?.within(key) else { return nil }
        return try table.gradientTable()
    }

    /// This table read as a gradient paint (see `gradient(_:)`).
    func gradientTable() throws -> Gradient {
        let table = self
        try table.rejectUnknownKeys(allowed: ["type", "colors", "locations", "start", "end"])
        let kind = try table.required("type", table.oneOf("type", as: Gradient.Kind.self))
        let texts = try table.required("colors", table.stringArray("colors"))
        guard !texts.isEmpty else { throw table.valueError("colors", "at least one colour is needed") }
        let colors = try texts.enumerated().map { index, text in
            do { return try Color(hex: text) } catch {
                throw table.valueError(
                    "colors",
                    "item \(index + 1): '\(text)' is not a colour: expected \"#rgb\", \"#rrggbb\" or \"#rrggbbaa\"")
            }
        }
        let locations = try table.doubleArray("locations")
        if let locations {
            guard locations.count == colors.count else {
                throw table.valueError(
                    "locations", "one per colour is needed: \(colors.count) colours, \(locations.count) locations")
            }
            guard locations.allSatisfy({ $0.isFinite && (0...1).contains($0) }), locations == locations.sorted() else {
                throw table.valueError("locations", "must run from 0 to 1 without going back")
            }
        }
        let start = try table.required("start", table.point("start"))
        let end = try table.required("end", table.point("end"))
        guard [start.x, start.y, end.x, end.y].allSatisfy({ $0.isFinite && abs($0) <= 1e9 }) else {
            throw table.valueError("start", "points must be finite and within ±1e9")
        }
        return Gradient(kind: kind, colors: colors, locations: locations, start: start, end: end)
    }

    /// This table read as a layer transition: `{ type = fade | push | moveIn | reveal,
    /// subtype = fromLeft | fromRight | fromTop | fromBottom, duration }` (subtype defaults to
    /// fromRight, duration to 0.25 s, at most an hour).
    func layerTransitionTable() throws -> LayerTransition {
        try rejectUnknownKeys(allowed: ["type", "subtype", "duration"])
        let kind = try required("type", oneOf("type", as: LayerTransition.Kind.self))
        let side = try oneOf("subtype", as: LayerTransition.Side.self) ?? .fromRight
        let duration = try double("duration", in: 0...3600) ?? 0.25
        return LayerTransition(kind: kind, subtype: side, duration: duration)
    }

    /// `{ color, opacity, offset = [x, y], radius }`: a drop shadow (defaults black, 1, [0, 0], 3).
    public func shadow(_ key: String) throws -> Shadow? {
        guard let table = try table(key)?.within(key) else { return nil }
        try table.rejectUnknownKeys(allowed: ["color", "opacity", "offset", "radius"])
        var shadow = Shadow()
        if let color = try table.color("color") { shadow.color = color }
        if let opacity = try table.double("opacity", in: 0...1) { shadow.opacity = opacity }
        if let offset = try table.point("offset") {
            guard offset.x.isFinite, offset.y.isFinite, abs(offset.x) <= 1e6, abs(offset.y) <= 1e6 else {
                throw table.valueError("offset", "must be finite and within ±1e6")
            }
            shadow.offset = offset
        }
        if let radius = try table.double("radius", in: 0...10_000) { shadow.radius = radius }
        return shadow
    }

    /// SVG path data, with the byte offset of the first error in the message.
    public func svgPath(_ key: String) throws -> Path? {
        guard let data = try string(key) else { return nil }
        do { return try Path(svgPathData: data) } catch let error as PathDataError {
            throw valueError(key, "bad path data at byte \(error.offset): \(error.message)")
        }
    }

    /// `[x, y]`.
    public func point(_ key: String) throws -> Point? {
        try doubleArray(key, count: 2).map { Point(x: $0[0], y: $0[1]) }
    }

    /// `[width, height]`.
    public func size(_ key: String) throws -> Size? {
        try doubleArray(key, count: 2).map { Size(width: $0[0], height: $0[1]) }
    }

    /// `[x, y, width, height]`.
    public func rect(_ key: String) throws -> Rect? {
        try doubleArray(key, count: 4).map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    /// `[a, b, c, d, tx, ty]`, as CGAffineTransform.
    public func affineTransform(_ key: String) throws -> Transform2D? {
        try doubleArray(key, count: 6).map {
            Transform2D(a: $0[0], b: $0[1], c: $0[2], d: $0[3], tx: $0[4], ty: $0[5])
        }
    }

    /// A number that must be finite and within `range`.
    public func double(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = try double(key) else { return nil }
        guard value.isFinite, range.contains(value) else {
            throw valueError(
                key, "\(value) is outside \(range.lowerBound.shortDescription)…\(range.upperBound.shortDescription)")
        }
        return value
    }
}

/// The keys that give a shape its outline, as `vitrine draw` and shape layers read them.
public enum ShapeGeometry {
    /// The geometry keys; exactly one may be given.
    public static let keys = ["path", "rect", "oval", "roundedRect", "arc"]
    /// Keys that only make sense with one geometry key.
    public static let modifierKeys = ["cornerRadius"]

    /// The outline given by `path` (SVG path data) or by one primitive: `rect`, `oval`,
    /// `roundedRect` (+ `cornerRadius`) = [x, y, w, h], `arc` = [cx, cy, r, startAngle,
    /// endAngle, clockwise]. Nil when none is given.
    public static func read(_ reader: TOMLReader) throws -> Path? {
        let given = keys.filter(reader.contains)
        if given.count > 1 {
            throw reader.error(
                given[1], "a shape takes one of \(keys.joined(separator: ", ")); '\(given[0])' is already given")
        }
        if reader.contains("cornerRadius") && given.first != "roundedRect" {
            throw reader.error("cornerRadius", "cornerRadius goes with roundedRect")
        }
        var path = Path()
        switch given.first {
        case "path":
            return try reader.svgPath("path")
        case "rect":
            path.addRect(try reader.rect("rect")!)
        case "oval":
            path.addEllipse(in: try reader.rect("oval")!)
        case "roundedRect":
            let radius = try reader.double("cornerRadius", in: 0...Double.greatestFiniteMagnitude) ?? 0
            path.addRoundedRect(try reader.rect("roundedRect")!, cornerRadius: radius)
        case "arc":
            guard let items = reader.node("arc")?.value.arrayValue else {
                throw reader.valueError("arc", "expected [cx, cy, radius, startAngle, endAngle, clockwise]")
            }
            guard items.count == 6,
                let numbers = Optional(items[0..<5].compactMap { $0.value.doubleValue }), numbers.count == 5,
                let clockwise = items[5].value.boolValue
            else {
                throw reader.valueError(
                    "arc", "expected [cx, cy, radius, startAngle, endAngle, clockwise] (five numbers and a boolean)")
            }
            path.addArc(
                center: Point(x: numbers[0], y: numbers[1]), radius: numbers[2],
                startAngle: numbers[3], endAngle: numbers[4], clockwise: clockwise)
        default:
            return nil
        }
        return path
    }
}

extension Double {
    /// "3" for 3.0, "0.25" for 0.25: numbers in messages as a person writes them.
    var shortDescription: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
