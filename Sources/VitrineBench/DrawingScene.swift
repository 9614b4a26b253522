import Glibc
import VitrineAnimation
import VitrineGraphics
import VitrineSystem

/// One drawing operation of a scene.
public struct Operation {
    public enum Kind { case fill(FillRule), stroke(StrokeStyle) }
    public var kind: Kind
    public var path: Path
    public var color: Color
}

/// A picture the graphics benchmark draws: a list of fills and strokes over a background.
public struct DrawingScene {
    public init() {}

    public var width = 1920, height = 1080
    public var background = Color.white
    public var operations: [Operation] = []
    /// Drawing beyond plain fills (clips, layers, masks, images), after the operations.
    public var extra: ((GraphicsContext) -> Void)?
}

func circle(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
    var p = Path()
    p.addEllipse(in: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
    return p
}

public func builtInScenes() -> [(String, DrawingScene)] {
    var big = DrawingScene()
    big.operations = [
        Operation(kind: .fill(.nonZero), path: circle(960, 540, 500), color: Color(red: 0, green: 0.59, blue: 0.53))
    ]
    var many = DrawingScene()
    var rng = SplitMix(state: 1234)
    for _ in 0..<200 {
        let r = rng.uniform(20, 80), x = rng.uniform(0, 1920), y = rng.uniform(0, 1080)
        let c = Color(red: rng.next(), green: rng.next(), blue: rng.next(), alpha: 128.0 / 255)
        many.operations.append(Operation(kind: .fill(.nonZero), path: circle(x, y, r), color: c))
    }
    var tiny = DrawingScene()
    for i in 0..<1000 {
        tiny.operations.append(
            Operation(
                kind: .fill(.nonZero), path: circle(Double(i % 40) * 48 + 10.3, Double(i / 40) * 40 + 7.7, 1.5),
                color: .black))
    }
    var offscreen = DrawingScene()
    for i in 0..<200 {
        offscreen.operations.append(
            Operation(kind: .fill(.nonZero), path: circle(-300 - Double(i) / 2, -300, 50), color: .black))
    }
    var clear = DrawingScene()
    clear.background = Color(red: 0.2, green: 0.4, blue: 0.6)
    // Card-like layers: rounded-rect clip, group opacity, a captured mask, a scaled image.
    var cards = DrawingScene()
    var texels: [UInt32] = []
    for i in 0..<(64 * 64) { texels.append(0xFF00_0000 | UInt32(i * 2654435761 & 0xFFFFFF)) }
    let image = Image(width: 64, height: 64, premultipliedPixels: texels)!
    let blob = circle(0, 0, 90)
    cards.extra = { ctx in
        for i in 0..<12 {
            let x = Double(i % 4) * 460 + 40, y = Double(i / 4) * 340 + 40
            ctx.saveGState()
            ctx.translateBy(x: x, y: y)
            ctx.clip(toRoundedRect: Rect(x: 0, y: 0, width: 420, height: 300), cornerRadius: 24)
            ctx.beginTransparencyLayer(alpha: 0.8)
            ctx.fill(Rect(x: 0, y: 0, width: 420, height: 300), color: Color(red: 0.1, green: 0.3, blue: 0.5))
            let mask = ctx.renderAlphaMask {
                ctx.translateBy(x: 210, y: 150)
                ctx.fill(blob, color: .black)
            }
            ctx.saveGState()
            ctx.clip(toMask: mask)
            ctx.rotate(by: 0.1)
            ctx.draw(image, in: Rect(x: 100, y: 40, width: 220, height: 220))
            ctx.restoreGState()
            ctx.endTransparencyLayer()
            ctx.restoreGState()
        }
    }
    // A progress ring: a trimmed round-capped stroke, then a dashed one (CAShapeLayer's
    // strokeEnd and lineDashPattern).
    var ring = DrawingScene()
    let ringPath = circle(960, 540, 300)
    ring.extra = { ctx in
        ctx.stroke(
            ringPath, color: Color(red: 0.13, green: 0.59, blue: 0.95),
            style: StrokeStyle(lineWidth: 24, lineCap: .round), strokeStart: 0, strokeEnd: 0.7)
        ctx.stroke(ringPath, color: .black, style: StrokeStyle(lineWidth: 4, dashPattern: [12, 8]))
    }
    return [
        ("big-circle", big), ("many-translucent", many), ("1000-tiny", tiny), ("200-offscreen", offscreen),
        ("clear", clear), ("cards", cards), ("progress-ring", ring)
    ]
}

/// Reads one scene of peers-bench.py's scenes.json.
public func loadScene(_ file: String, _ name: String) throws -> DrawingScene {
    let root = try JSON.decode(Files.read(file, limit: 256 << 20))
    guard let s = (root as? [String: Any])?[name] as? [String: Any] else {
        throw BenchError("\(file) has no scene '\(name)'")
    }
    func malformed(_ what: String) -> BenchError { BenchError("\(file): scene '\(name)' has a malformed \(what)") }
    func number(_ value: Any?, _ what: String) throws -> Double {
        switch value {
        case let int as Int: return Double(int)
        case let double as Double: return double
        default: throw malformed(what)
        }
    }
    func numbers(_ value: Any?, _ what: String) throws -> [Double] {
        guard let array = value as? [Any] else { throw malformed(what) }
        return try array.map { try number($0, what) }
    }
    func color(_ value: Any?) throws -> Color {
        let c = try numbers(value, "colour")
        guard c.count == 4 else { throw malformed("colour") }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
    var scene = DrawingScene()
    scene.width = Int(try number(s["width"], "width"))
    scene.height = Int(try number(s["height"], "height"))
    scene.background = try color(s["background"])
    guard let operations = s["ops"] as? [[String: Any]] else { throw malformed("ops") }
    for op in operations {
        var path = Path()
        guard let commands = op["path"] as? [[Any]] else { throw malformed("path") }
        for command in commands {
            let n = try numbers(Array(command.dropFirst()), "path command")
            switch (command.first as? String, n.count) {
            case ("M", 2): path.move(to: Point(n[0], n[1]))
            case ("L", 2): path.addLine(to: Point(n[0], n[1]))
            case ("C", 6):
                path.addCurve(to: Point(n[4], n[5]), control1: Point(n[0], n[1]), control2: Point(n[2], n[3]))
            case ("Z", 0): path.closeSubpath()
            default: throw malformed("path command")
            }
        }
        let kind: Operation.Kind
        if op["kind"] as? String == "fill" {
            kind = .fill(FillRule(rawValue: op["rule"] as? String ?? "nonZero") ?? .nonZero)
        } else {
            guard let cap = (op["cap"] as? String).flatMap(LineCap.init(rawValue:)),
                let join = (op["join"] as? String).flatMap(LineJoin.init(rawValue:))
            else { throw malformed("stroke") }
            kind = .stroke(
                StrokeStyle(
                    lineWidth: try number(op["width"], "stroke width"), lineCap: cap, lineJoin: join,
                    miterLimit: try number(op["miter"], "miter limit")))
        }
        scene.operations.append(Operation(kind: kind, path: path, color: try color(op["color"])))
    }
    return scene
}

/// One frame: clear, then every operation. Never inlined, so a profiler can collect exactly
/// this (valgrind --toggle-collect).
@inline(never)
public func render(_ scene: DrawingScene, into ctx: GraphicsContext) {
    ctx.clear(scene.background)
    for op in scene.operations {
        switch op.kind {
        case .fill(let rule): ctx.fill(op.path, color: op.color, rule: rule)
        case .stroke(let style): ctx.stroke(op.path, color: op.color, style: style)
        }
    }
    scene.extra?(ctx)
}

/// A benchmark input that cannot be used.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
