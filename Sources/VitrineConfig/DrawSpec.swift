import VitrineGraphics
import VitrineSystem
import VitrineTOML

/// A static picture described in TOML, as `vitrine draw` reads it: a canvas and a list of shapes
/// and texts drawn in source order. It exists so the renderer can be checked from outside, against
/// other rasterizers rendering the same file (`shared/tools/skia-reference.py` reads the same keys).
public struct DrawSpec {
    /// A filled and/or stroked outline; defaults are CAShapeLayer's.
    public struct Shape {
        public var path: Path
        /// Opaque black unless given; nil ("none") draws no fill.
        public var fillColor: Color? = .black
        public var fillRule: FillRule = .nonZero
        /// No stroke unless given.
        public var strokeColor: Color? = nil
        /// Paints the fill instead of `fillColor`.
        public var fillGradient: Gradient?
        /// Paints the stroke instead of `strokeColor`.
        public var strokeGradient: Gradient?
        /// A drop shadow under the fill and the stroke together.
        public var shadow: Shadow?
        public var strokeStyle = StrokeStyle()
        public var strokeStart = 0.0
        public var strokeEnd = 1.0
        /// Group opacity of fill and stroke together.
        public var opacity = 1.0
        public var transform = Transform2D.identity
        /// Instead of `transform`: a projective transform (a shape on a layer turned in 3D).
        public var projection: Projection?
    }

    /// A line of text whose baseline starts at `position`.
    public struct Text {
        public var string: String
        public var font: String = Font.defaultFamily
        public var fontSize = 17.0
        public var position: Point
        public var color: Color = .black
    }

    public enum Item {
        case shape(Shape)
        case text(Text)
    }

    public var width: Int
    public var height: Int
    /// White unless given; nil ("none") leaves the canvas transparent.
    public var background: Color? = .white
    /// Shapes and texts in the order they appear in the file.
    public var items: [Item] = []

    static let topKeys: Set = ["width", "height", "background", "shape", "text"]
    static let shapeKeys = Set(
        ShapeGeometry.keys + ShapeGeometry.modifierKeys + [
            "fillColor", "fillGradient", "fillRule", "strokeColor", "strokeGradient", "shadow", "lineWidth",
            "lineCap", "lineJoin", "miterLimit",
            "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd", "opacity", "transform", "projection"
        ])
    static let textKeys: Set = ["string", "font", "fontSize", "position", "color"]
    /// Canvas sides above this are refused (a typo must not allocate gigabytes).
    public static let maximumSide = 16384
    /// Pictures of more pixels than this (8192 × 8192, 256 MiB) are refused.
    public static let maximumPixels = 8192 * 8192

    /// Reads a spec file; throws `TOMLFieldErrors` listing every problem, each with the file,
    /// line, column and key.
    public static func load(file: String) throws -> DrawSpec {
        let bytes: [UInt8]
        do { bytes = try Files.read(file, limit: maximumFileBytes) } catch let error as FileError {
            throw TOMLFieldErrors([TOMLFieldError(file: file, position: .start, key: nil, message: error.reason)])
        }
        return try parse(bytes: bytes, file: file)
    }

    /// Parses a spec from its text; `file` names it in errors.
    public static func parse(bytes: [UInt8], file: String) throws -> DrawSpec {
        let document: TOMLTable
        do { document = try TOML.parse(bytes: bytes, file: file) } catch let error as TOMLParseError {
            throw TOMLFieldErrors([TOMLFieldError(error, file: file)])
        }
        let top = TOMLReader(document, file: file)
        var errors = TOMLFieldErrors()
        try errors.collect { try top.rejectUnknownKeys(allowed: topKeys) }
        let width = try errors.collect { try top.required("width", top.int("width")) }
        let height = try errors.collect { try top.required("height", top.int("height")) }
        for (key, side) in [("width", width), ("height", height)] {
            if let side, !(1...maximumSide).contains(side) {
                errors.append(top.valueError(key, "must be from 1 to \(maximumSide)"))
            }
        }
        if let width, let height, width <= maximumSide, height <= maximumSide, width * height > maximumPixels {
            errors.append(
                top.valueError(
                    "height",
                    "\(width)x\(height) is more than the \(maximumPixels) pixels (8192x8192) a picture may have"))
        }
        var spec = DrawSpec(width: width ?? 1, height: height ?? 1)
        if let background = try errors.collect({ try top.optionalColor("background") }) { spec.background = background }

        var placed: [(SourcePosition, Item)] = []
        for (index, table) in (try errors.collect { try top.arrayOfTables("shape") } ?? []).enumerated() {
            let reader = table.within("shape \(index + 1)")
            if let shape = try readShape(reader, errors: &errors) {
                placed.append((reader.table.position, .shape(shape)))
            }
        }
        for (index, table) in (try errors.collect { try top.arrayOfTables("text") } ?? []).enumerated() {
            let reader = table.within("text \(index + 1)")
            if let text = try readText(reader, errors: &errors) { placed.append((reader.table.position, .text(text))) }
        }
        try errors.throwIfAny()
        spec.items = placed.sorted { $0.0 < $1.0 }.map(\.1)
        return spec
    }

    static func readShape(_ r: TOMLReader, errors: inout TOMLFieldErrors) throws -> Shape? {
        let before = errors.errors.count
        try errors.collect { try r.rejectUnknownKeys(allowed: shapeKeys) }
        let path = try errors.collect { () throws -> Path? in
            guard let path = try ShapeGeometry.read(r) else {
                throw r.error(nil, "a shape needs one of \(ShapeGeometry.keys.joined(separator: ", "))")
            }
            return path
        }
        var shape = Shape(path: path ?? Path())
        if let v = try errors.collect({ try r.optionalColor("fillColor") }) { shape.fillColor = v }
        if let v = try errors.collect({ try r.oneOf("fillRule", as: FillRule.self) }) { shape.fillRule = v }
        if let v = try errors.collect({ try r.optionalColor("strokeColor") }) { shape.strokeColor = v }
        if let v = try errors.collect({ try r.gradient("fillGradient") }) { shape.fillGradient = v }
        if let v = try errors.collect({ try r.gradient("strokeGradient") }) { shape.strokeGradient = v }
        if let v = try errors.collect({ try r.shadow("shadow") }) { shape.shadow = v }
        if let v = try errors.collect({ try r.double("lineWidth", in: 0...1e6) }) { shape.strokeStyle.lineWidth = v }
        if let v = try errors.collect({ try r.oneOf("lineCap", as: LineCap.self) }) { shape.strokeStyle.lineCap = v }
        if let v = try errors.collect({ try r.oneOf("lineJoin", as: LineJoin.self) }) { shape.strokeStyle.lineJoin = v }
        if let v = try errors.collect({ try r.double("miterLimit", in: 0...1e6) }) { shape.strokeStyle.miterLimit = v }
        if let v = try errors.collect({ try r.doubleArray("lineDashPattern") }) {
            if v.contains(where: { !$0.isFinite || $0 < 0 }) {
                errors.append(r.valueError("lineDashPattern", "dash lengths must be finite and not negative"))
            }
            shape.strokeStyle.dashPattern = v
        }
        if let v = try errors.collect({ try r.double("lineDashPhase", in: -1e9...1e9) }) {
            shape.strokeStyle.dashPhase = v
        }
        if let v = try errors.collect({ try r.double("strokeStart", in: 0...1) }) { shape.strokeStart = v }
        if let v = try errors.collect({ try r.double("strokeEnd", in: 0...1) }) { shape.strokeEnd = v }
        if let v = try errors.collect({ try r.double("opacity", in: 0...1) }) { shape.opacity = v }
        if let v = try errors.collect({ try r.affineTransform("transform") }) {
            if ![v.a, v.b, v.c, v.d, v.tx, v.ty].allSatisfy(\.isFinite) {
                errors.append(r.valueError("transform", "transform entries must be finite"))
            }
            shape.transform = v
        }
        if let v = try errors.collect({ try r.doubleArray("projection", count: 9) }) {
            if r.contains("transform") {
                errors.append(r.valueError("projection", "projection replaces transform; give one of them"))
            } else if !v.allSatisfy(\.isFinite) || !v.allSatisfy({ abs($0) <= 1e9 }) {
                errors.append(r.valueError("projection", "projection entries must be finite and within ±1e9"))
            } else if let unsupported = ["fillGradient", "strokeGradient", "shadow"].first(where: r.contains) {
                errors.append(
                    r.valueError("projection", "projection draws colours only; \(unsupported) cannot be projected"))
            } else {
                shape.projection = Projection(rowMajor: v)
            }
        }
        return errors.errors.count == before ? shape : nil
    }

    static func readText(_ r: TOMLReader, errors: inout TOMLFieldErrors) throws -> Text? {
        let before = errors.errors.count
        try errors.collect { try r.rejectUnknownKeys(allowed: textKeys) }
        let string = try errors.collect { try r.required("string", r.string("string")) }
        let position = try errors.collect { try r.required("position", r.point("position")) }
        var text = Text(string: string ?? "", position: position ?? .zero)
        if let v = try errors.collect({ try r.string("font") }) { text.font = v }
        if let v = try errors.collect({ try r.double("fontSize", in: 0.1...4096) }) { text.fontSize = v }
        if let v = try errors.collect({ try r.color("color") }) { text.color = v }
        if errors.errors.count == before, (try? Font(family: text.font, size: text.fontSize)) == nil {
            errors.append(r.valueError("font", "no usable font for family '\(text.font)'"))
        }
        return errors.errors.count == before ? text : nil
    }
}
