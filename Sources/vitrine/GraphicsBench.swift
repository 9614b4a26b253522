import ArgumentParser
import Foundation
import VitrineGraphics

/// One drawing operation of a scene.
struct Operation {
    enum Kind { case fill(FillRule), stroke(StrokeStyle) }
    var kind: Kind
    var path: Path
    var color: Color
}

struct Scene {
    var width = 1920, height = 1080
    var background = Color.white
    var operations: [Operation] = []
    /// Drawing beyond plain fills (clips, layers, masks, images), after the operations.
    var extra: ((GraphicsContext) -> Void)?
}

/// A small deterministic generator (SplitMix64), so built-in scenes are the same every run.
struct SplitMix {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
}

func circle(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
    var p = Path()
    p.addEllipse(in: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
    return p
}

func builtInScenes() -> [(String, Scene)] {
    var big = Scene()
    big.operations = [Operation(kind: .fill(.nonZero), path: circle(960, 540, 500), color: Color(red: 0, green: 0.59, blue: 0.53))]
    var many = Scene()
    var rng = SplitMix(state: 1234)
    for _ in 0..<200 {
        let r = rng.uniform(20, 80), x = rng.uniform(0, 1920), y = rng.uniform(0, 1080)
        let c = Color(red: rng.next(), green: rng.next(), blue: rng.next(), alpha: 128.0 / 255)
        many.operations.append(Operation(kind: .fill(.nonZero), path: circle(x, y, r), color: c))
    }
    var tiny = Scene()
    for i in 0..<1000 {
        tiny.operations.append(Operation(kind: .fill(.nonZero), path: circle(Double(i % 40) * 48 + 10.3, Double(i / 40) * 40 + 7.7, 1.5),
                                         color: .black))
    }
    var offscreen = Scene()
    for i in 0..<200 {
        offscreen.operations.append(Operation(kind: .fill(.nonZero), path: circle(-300 - Double(i) / 2, -300, 50), color: .black))
    }
    var clear = Scene()
    clear.background = Color(red: 0.2, green: 0.4, blue: 0.6)
    // Card-like layers: rounded-rect clip, group opacity, a captured mask, a scaled image.
    var cards = Scene()
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
    var ring = Scene()
    let ringPath = circle(960, 540, 300)
    ring.extra = { ctx in
        ctx.stroke(ringPath, color: Color(red: 0.13, green: 0.59, blue: 0.95),
                   style: StrokeStyle(lineWidth: 24, lineCap: .round), strokeStart: 0, strokeEnd: 0.7)
        ctx.stroke(ringPath, color: .black, style: StrokeStyle(lineWidth: 4, dashPattern: [12, 8]))
    }
    return [("big-circle", big), ("many-translucent", many), ("1000-tiny", tiny), ("200-offscreen", offscreen),
            ("clear", clear), ("cards", cards), ("progress-ring", ring)]
}

/// Reads one scene of peers-bench.py's scenes.json.
func loadScene(_ file: String, _ name: String) throws -> Scene {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
    guard let s = (root as? [String: Any])?[name] as? [String: Any] else {
        throw ValidationError("\(file) has no scene '\(name)'")
    }
    func color(_ v: Any?) -> Color {
        let c = (v as! [Any]).map { ($0 as! NSNumber).doubleValue }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
    var scene = Scene()
    scene.width = (s["width"] as! NSNumber).intValue
    scene.height = (s["height"] as! NSNumber).intValue
    scene.background = color(s["background"])
    for op in s["ops"] as! [[String: Any]] {
        var path = Path()
        for command in op["path"] as! [[Any]] {
            let n = command.dropFirst().map { ($0 as! NSNumber).doubleValue }
            switch command[0] as! String {
            case "M": path.move(to: Point(n[0], n[1]))
            case "L": path.addLine(to: Point(n[0], n[1]))
            case "C": path.addCurve(to: Point(n[4], n[5]), control1: Point(n[0], n[1]), control2: Point(n[2], n[3]))
            default: path.closeSubpath()
            }
        }
        let kind: Operation.Kind
        if op["kind"] as! String == "fill" {
            kind = .fill(FillRule(rawValue: op["rule"] as? String ?? "nonZero") ?? .nonZero)
        } else {
            kind = .stroke(StrokeStyle(lineWidth: (op["width"] as! NSNumber).doubleValue,
                                       lineCap: LineCap(rawValue: op["cap"] as! String)!,
                                       lineJoin: LineJoin(rawValue: op["join"] as! String)!,
                                       miterLimit: (op["miter"] as! NSNumber).doubleValue))
        }
        scene.operations.append(Operation(kind: kind, path: path, color: color(op["color"])))
    }
    return scene
}

/// One frame: clear, then every operation. Never inlined, so a profiler can collect exactly
/// this (valgrind --toggle-collect).
@inline(never)
func render(_ scene: Scene, into ctx: GraphicsContext) {
    ctx.clear(scene.background)
    for op in scene.operations {
        switch op.kind {
        case .fill(let rule): ctx.fill(op.path, color: op.color, rule: rule)
        case .stroke(let style): ctx.stroke(op.path, color: op.color, style: style)
        }
    }
    scene.extra?(ctx)
}

/// Nanoseconds of CPU time this thread has used (robust on a shared machine: time spent
/// descheduled does not count).
func threadCPUTime() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Median and minimum milliseconds per frame (wall clock, or thread CPU time).
func time(_ scene: Scene, _ ctx: GraphicsContext, frames: Int, warmup: Int, cpuTime: Bool = false) -> (Double, Double) {
    for _ in 0..<warmup { render(scene, into: ctx) }
    var samples: [Double] = []
    samples.reserveCapacity(frames) // timed frames allocate nothing of the bench's own
    let now = cpuTime ? threadCPUTime : { DispatchTime.now().uptimeNanoseconds }
    for _ in 0..<frames {
        let t0 = now()
        render(scene, into: ctx)
        samples.append(Double(now() - t0) / 1e6)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0])
}

struct GraphicsBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphics",
        abstract: "Time the renderer on one scene of peers-bench.py, or on the built-in scenes.",
        discussion: """
            With five arguments it speaks shared/tools/peers-bench.py's external-renderer protocol:
            renders SCENE of SCENES_JSON WARMUP then FRAMES times (clear + draw), prints
            `median_ms=X min_ms=Y` (wall clock) and writes OUT/SCENE_ext.argb32.
            With none it times the built-in scenes in thread CPU time (--png DIR saves them).
            """)

    @Argument(help: "SCENES_JSON SCENE FRAMES WARMUP OUT (peers-bench protocol), or nothing.")
    var arguments: [String] = []

    @Option(help: "Frames to time per built-in scene.")
    var frames = 50

    @Option(help: "Directory to save the built-in scenes' last frames as PNG.")
    var png: String?

    @Option(help: "Only these built-in scenes (comma separated).")
    var scenes: String?

    func validate() throws {
        guard arguments.isEmpty || arguments.count == 5 else {
            throw ValidationError("expected SCENES_JSON SCENE FRAMES WARMUP OUT, or no arguments")
        }
        if arguments.count == 5, Int(arguments[2]).map({ $0 > 0 }) != true || Int(arguments[3]).map({ $0 >= 0 }) != true {
            throw ValidationError("FRAMES must be a positive integer and WARMUP a non-negative one")
        }
    }

    func run() throws {
        if arguments.count == 5 {
            let scene = try loadScene(arguments[0], arguments[1])
            let bitmap = Bitmap(width: scene.width, height: scene.height)
            let ctx = GraphicsContext(bitmap: bitmap)
            let (median, minimum) = time(scene, ctx, frames: Int(arguments[2])!, warmup: Int(arguments[3])!)
            let bytes = Data(bytes: bitmap.pixels, count: bitmap.width * bitmap.height * 4)
            try bytes.write(to: URL(fileURLWithPath: arguments[4]).appendingPathComponent("\(arguments[1])_ext.argb32"))
            print(String(format: "median_ms=%.4f min_ms=%.4f", median, minimum))
            return
        }
        let only = Set(scenes.map { $0.split(separator: ",").map(String.init) } ?? [])
        for (name, scene) in builtInScenes() where only.isEmpty || only.contains(name) {
            let bitmap = Bitmap(width: scene.width, height: scene.height)
            let ctx = GraphicsContext(bitmap: bitmap)
            let (median, minimum) = time(scene, ctx, frames: frames, warmup: 5, cpuTime: true)
            print(name.padding(toLength: 18, withPad: " ", startingAt: 0)
                  + String(format: " median %8.3f ms   min %8.3f ms", median, minimum))
            if let png { try bitmap.writePNG(to: "\(png)/\(name).png") }
        }
    }
}
