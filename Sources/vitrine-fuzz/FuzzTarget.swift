import Foundation
import VitrineAnimation
import VitrineConfig
import VitrineGraphics
import VitrinePlayer
import VitrineSystem
import VitrineTOML

/// One input surface of the player, fed arbitrary bytes: it may refuse them with an error, and
/// must never crash, hang or allocate without bound.
enum FuzzTarget: String, CaseIterable {
    /// The TOML parser.
    case toml
    /// The config loader (TOML → playlist, every layer type and animation), then every scene
    /// built and drawn at a small size, as `check` and `render` do.
    case config
    /// SVG path data.
    case pathdata
    /// `vitrine draw` specs through the renderer, on canvases of at most 256 × 256.
    case drawspec
    /// PNG images through libpng.
    case png
    /// JPEG images through libjpeg-turbo, with their EXIF orientation.
    case jpeg
    /// The progress-input line parser (psplash's vocabulary).
    case progress
    /// Font files through FreeType (TrueType, OpenType/CFF, collections …): a text laid out,
    /// outlined and drawn, as a text layer naming a font file does.
    case font
    /// JSON as the control client reads the player's replies: whatever decodes must encode,
    /// and read back the same.
    case json

    /// Runs one input.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .toml:
            _ = try? TOML.parse(bytes: bytes, file: "fuzz.toml")
        case .config:
            guard let playlist = try? PlaylistLoader.parse(bytes: bytes, file: "/nonexistent/fuzz.toml") else { return }
            for scene in playlist.scenes.prefix(4) {
                _ = try? SceneInstance.renderStill(scene, playlist: playlist, at: 0.75, width: 64, height: 36)
            }
        case .pathdata:
            guard let path = try? Path(svgPathData: String(decoding: bytes, as: UTF8.self)) else { return }
            let ctx = GraphicsContext(bitmap: Bitmap(width: 64, height: 64))
            ctx.fill(path, color: .black)
            ctx.stroke(path, color: .black, style: StrokeStyle(lineWidth: 3, lineJoin: .round))
        case .drawspec:
            guard let spec = try? DrawSpec.parse(bytes: bytes, file: "fuzz.toml"),
                spec.width <= 256, spec.height <= 256
            else { return }
            _ = spec.render()
        case .png:
            _ = try? Image(pngData: Data(bytes))
        case .jpeg:
            _ = try? Image(jpegData: Data(bytes))
        case .progress:
            var parser = ProgressLineParser()
            _ = parser.feed(bytes)
        case .font:
            // Every character's glyph is in the seed fonts: none falls back to an installed font.
            guard let font = try? Font(data: bytes, name: "fuzz.ttf", size: 24) else { return }
            let text = "Vitrine AV fi 0123"
            _ = font.boundingBox(of: text)
            let ctx = GraphicsContext(bitmap: Bitmap(width: 96, height: 32))
            ctx.fill(font.path(for: text, at: Point(x: 2, y: 24)), color: .black)
        case .json:
            guard let value = try? JSON.decode(bytes) else { return }
            let text = try! JSON.encode(value)
            precondition(try! JSON.encode(JSON.decode(text)) == text, "JSON does not read back the same: \(text)")
        }
    }
}
