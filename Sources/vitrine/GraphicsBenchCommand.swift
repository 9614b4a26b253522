import ArgumentParser
import Glibc
import VitrineBench
import VitrineGraphics
import VitrineSystem

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
        if arguments.count == 5, Int(arguments[2]).map({ $0 > 0 }) != true || Int(arguments[3]).map({ $0 >= 0 }) != true
        {
            throw ValidationError("FRAMES must be a positive integer and WARMUP a non-negative one")
        }
    }

    func run() throws {
        if arguments.count == 5 {
            let scene = try loadScene(arguments[0], arguments[1])
            let bitmap = Bitmap(width: scene.width, height: scene.height)
            let ctx = GraphicsContext(bitmap: bitmap)
            // Every frame outlines its strokes anew, as the other renderers' frames do.
            ctx.keepsStrokeOutlines = false
            let (median, minimum) = time(scene, ctx, frames: Int(arguments[2])!, warmup: Int(arguments[3])!)
            let bytes = UnsafeRawBufferPointer(start: bitmap.pixels, count: bitmap.width * bitmap.height * 4)
            try Files.write(bytes, to: arguments[4] + "/\(arguments[1])_ext.argb32")
            print(String(cFormat: "median_ms=%.4f min_ms=%.4f", median, minimum))
            return
        }
        let only = Set(scenes.map { $0.split(separator: ",").map(String.init) } ?? [])
        for (name, scene) in builtInScenes() where only.isEmpty || only.contains(name) {
            let bitmap = Bitmap(width: scene.width, height: scene.height)
            let ctx = GraphicsContext(bitmap: bitmap)
            ctx.keepsStrokeOutlines = false
            let (median, minimum) = time(scene, ctx, frames: frames, warmup: 5, cpuTime: true)
            print(
                name + String(repeating: " ", count: max(0, 18 - name.count))
                    + String(cFormat: " median %8.3f ms   min %8.3f ms", median, minimum))
            if let png { try bitmap.writePNG(to: "\(png)/\(name).png") }
        }
    }
}
