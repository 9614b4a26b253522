import ArgumentParser
import Glibc
import VitrineConfig
import VitrineGraphics
import VitrinePlayer
import VitrineTOML

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the frame a scene shows T seconds after it started, to a PNG file.",
        discussion:
            "The same code path as play (scene instance, engine, layer renderer) on virtual time, so the frame is exact and repeatable. No transition. \(ExitStatus.summary)"
    )

    @Argument(help: "The playlist config (TOML).")
    var config: String

    @Option(help: "The scene's name.")
    var scene: String

    @Option(help: "Seconds after the scene started.")
    var time: Double

    @Option(name: .shortAndLong, help: "Where to write the PNG.")
    var output: String

    @Option(help: "Picture size WIDTHxHEIGHT (default: the canvas); the canvas is scaled to fit, letterboxed.")
    var size: String?

    /// Sides above this are refused (a typo must not allocate gigabytes).
    static let maximumSide = 16384

    func validate() throws {
        guard time.isFinite, time >= 0 else { throw ValidationError("--time must be a number of seconds ≥ 0") }
        if let size, RenderCommand.parseSize(size) == nil {
            throw ValidationError(
                "--size must be WIDTHxHEIGHT, each from 1 to \(RenderCommand.maximumSide) and at most 8192x8192 pixels in all, e.g. 1280x720"
            )
        }
    }

    func run() throws {
        let playlist: Playlist
        do { playlist = try PlaylistLoader.load(file: config) } catch {
            printError(error)
            throw ExitStatus.invalidConfig.exit
        }
        guard let definition = playlist.scene(named: scene) else {
            let names = playlist.scenes.map(\.name)
            var message =
                "\(config): no scene '\(scene)'; the scenes are " + names.map { "'\($0)'" }.joined(separator: ", ")
            if let guess = suggestion(for: scene, among: names) { message += " (did you mean '\(guess)'?)" }
            printError(message)
            throw ExitStatus.usage.exit
        }
        let canvas = playlist.settings.canvas
        let (width, height) = size.flatMap(RenderCommand.parseSize) ?? (Int(canvas.width), Int(canvas.height))
        let bitmap: Bitmap
        do {
            bitmap = try SceneInstance.renderStill(
                definition, playlist: playlist, at: time, width: width, height: height)
        } catch {
            printError(error)
            throw ExitStatus.invalidConfig.exit
        }
        do { try bitmap.writePNG(to: output) } catch {
            printError(error)
            throw ExitStatus.cannotCreateOutput.exit
        }
    }

    /// "1280x720" → (1280, 720).
    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
            (1...maximumSide).contains(w), (1...maximumSide).contains(h),
            Double(w * h) <= PlaylistLoader.maximumCanvasPixels
        else { return nil }
        return (w, h)
    }
}
