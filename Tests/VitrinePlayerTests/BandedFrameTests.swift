import Foundation
import VitrineGraphics
import XCTest
@testable import VitrineAnimation
@testable import VitrineConfig
@testable import VitrinePlayer

/// Large damage is drawn band by band (`LayerRenderer.bandPixels`), so a fade's group and a
/// mask need buffers the size of a band, not of the frame, and the bands of one repaint can be
/// drawn by several threads at once. Neither changes anything: the whole default playlist,
/// fades, masks, shadows, images and the turning card included, draws the same frames to the
/// bit in one piece, in bands of a few rows on one thread, and in those bands on several.
final class BandedFrameTests: XCTestCase {
    func testTheDefaultPlaylistDrawsTheSameFramesInBandsOnOneThreadOrSeveral() throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        func frames(bandRows: Int?, parallel: Bool) -> PlayerFrames {
            let player = Player(playlist: playlist, screenSize: Size(640, 360))
            let frames = PlayerFrames(player: player, bitmap: Bitmap(width: 640, height: 360))
            frames.renderer.renderer.bandPixels = bandRows.map { $0 * 640 } ?? .max
            frames.renderer.renderer.drawsBandsInParallel = parallel
            frames.renderer.renderer.parallelMinimumPixels = 0
            frames.renderer.renderer.parallelMinimumFramePixels = 0
            return frames
        }
        // 37 rows: bands that split shapes, glyphs, masks and shadows at odd places.
        let whole = frames(bandRows: nil, parallel: false)
        let banded = frames(bandRows: 37, parallel: false), threaded = frames(bandRows: 37, parallel: true)
        let parallelLoops = RowBands.parallelLoopCount
        var t = 1000.0, scenes = Set<String>(), differing: [String] = []
        while t < 1000 + 110 {
            let (events, result) = try whole.makeFrame(at: t)
            _ = try banded.makeFrame(at: t)
            _ = try threaded.makeFrame(at: t)
            for case .sceneStarted(_, let name) in events { scenes.insert(name) }
            let scene = "\(whole.player.currentSceneName ?? "?") at \(t - 1000) s"
            if result.pixelsRedrawn > 0, !Self.samePixels(whole.bitmap, banded.bitmap) {
                differing.append("bands, \(scene)")
            }
            if result.pixelsRedrawn > 0, !Self.samePixels(whole.bitmap, threaded.bitmap) {
                differing.append("bands on several threads, \(scene)")
            }
            t += 0.1
        }
        XCTAssertEqual(scenes.count, playlist.scenes.count, "every scene played")
        XCTAssertEqual(differing, [], "frames that differ")
        if RowBands.threadCount > 1 {
            XCTAssertGreaterThan(RowBands.parallelLoopCount, parallelLoops, "bands were drawn on several threads")
        }
    }

    /// Frames that repaint only their damage show what whole repaints show through the whole
    /// default playlist, its dissolves included (whose composites skip what both scenes leave
    /// plain background, and whose incoming background is an underlay): to the bit in every
    /// frame. (Pixels once depended on where the damage cut a run, a span of an image or a
    /// gradient, or on how far a trim had cut a curve: stale pixels one level off.)
    ///
    /// Also with the paths of large frames taken at this size (new content drawn straight to
    /// the frame first, `LayerRenderer.firstDrawnDirectly`), and with the background filled
    /// only where the frame before drew over it (`FrameRenderer.remembersPlainPixels`), which
    /// every frame is compared without: whole repaints, where each frame fills the whole
    /// background, and repaints of the damage.
    func testTheDefaultPlaylistRepaintingItsDamageDrawsWholeFrames() throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        for asLarge in [false, true] {
            func frames(tracking: Bool, remembering: Bool) -> PlayerFrames {
                let frames = PlayerFrames(
                    player: Player(playlist: playlist, screenSize: Size(640, 360)),
                    bitmap: Bitmap(width: 640, height: 360))
                frames.renderer.damageTracking = tracking
                frames.renderer.remembersPlainPixels = remembering
                if asLarge { frames.renderer.renderer.parallelMinimumFramePixels = 0 }
                return frames
            }
            let reference = frames(tracking: false, remembering: false)
            let compared = [
                ("damage", frames(tracking: true, remembering: true)),
                ("damage, every background pixel filled", frames(tracking: true, remembering: false)),
                ("whole frames, background filled where drawn over", frames(tracking: false, remembering: true))
            ]
            var t = 1000.0, differing: [String] = [], dissolving = 0, frameCount = 0
            while t < 1000 + 110 {
                _ = try reference.makeFrame(at: t)
                for (_, frames) in compared { _ = try frames.makeFrame(at: t) }
                frameCount += 1
                if reference.player.isTransitioning { dissolving += 1 }
                for (name, frames) in compared {
                    let most = Self.largestDifference(frames.bitmap, reference.bitmap)
                    if most > 0 {
                        differing.append(
                            "\(name): \(reference.player.currentSceneName ?? "?") at \(t - 1000) s: \(most)")
                    }
                }
                // A fade's frames at 30 fps, the rest at 10.
                t += reference.player.isTransitioning ? 1.0 / 30 : 0.1
            }
            XCTAssertGreaterThan(dissolving, 100, "the fades were drawn")
            XCTAssertGreaterThan(frameCount, 1000)
            XCTAssertEqual(differing, [], "frames that differ (as on a large frame: \(asLarge))")
            XCTAssertEqual(reference.renderer.plainPixelsSkipped, 0)
            // Most of a dissolve's 640 × 360 pixels are plain background, in about 200 frames.
            XCTAssertGreaterThan(compared[2].1.renderer.plainPixelsSkipped, 200 * 640 * 360 / 2)
            XCTAssertGreaterThan(compared[0].1.renderer.plainPixelsSkipped, 0)
        }
    }

    /// Scenes fading in are drawn unseen in the frame before they show, so that their stores,
    /// shadows, planes and image copies are made then (`FrameUpdate.fadingIn`): the whole
    /// default playlist draws the same frames to the bit with that or without. With the paths
    /// of large frames taken, content drawn for the first time is otherwise drawn straight to
    /// the frame (and into a shadow's mask) before its store is made, and so differs by a level
    /// where translucent drawings overlap; the frames made ready unseen are then the same to the
    /// bit on one thread and in bands on several.
    func testTheDefaultPlaylistDrawsTheSameFramesWithFadingScenesMadeReadyUnseen() throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        for asLarge in [false, true] {
            func frames(preparing: Bool, threaded: Bool = false) -> PlayerFrames {
                let frames = PlayerFrames(
                    player: Player(playlist: playlist, screenSize: Size(640, 360)),
                    bitmap: Bitmap(width: 640, height: 360))
                let renderer = frames.renderer.renderer
                renderer.preparesFadingLayers = preparing
                if asLarge { renderer.parallelMinimumFramePixels = 0 }
                renderer.drawsBandsInParallel = threaded
                if threaded {
                    renderer.bandPixels = 37 * 640
                    renderer.parallelMinimumPixels = 0
                }
                return frames
            }
            let drawing = frames(preparing: false), preparing = frames(preparing: true)
            let threaded = asLarge ? frames(preparing: true, threaded: true) : nil
            var t = 1000.0, differing: [String] = [], prepared = 0
            while t < 1000 + 110 {
                let (_, result) = try preparing.makeFrame(at: t)
                _ = try drawing.makeFrame(at: t)
                _ = try threaded?.makeFrame(at: t)
                if preparing.player.isTransitioning, result.pixelsRedrawn == 0 { prepared += 1 }
                let scene = "\(preparing.player.currentSceneName ?? "?") at \(t - 1000) s"
                let most = Self.largestDifference(preparing.bitmap, drawing.bitmap)
                if most > (asLarge ? 1 : 0) { differing.append("made ready unseen or not, \(scene): \(most)") }
                if let threaded, !Self.samePixels(threaded.bitmap, preparing.bitmap) {
                    differing.append("made ready unseen on one thread or several, \(scene)")
                }
                t += preparing.player.isTransitioning ? 1.0 / 30 : 0.1
            }
            XCTAssertGreaterThan(prepared, 10, "fades began with a frame that showed nothing of them")
            XCTAssertEqual(differing, [], "frames that differ (as on a large frame: \(asLarge))")
        }
    }

    /// The largest difference of a channel between two frames of the same size.
    private static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> UInt32 {
        var most: UInt32 = 0
        for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                for shift: UInt32 in [0, 8, 16, 24] {
                    let p = (a[x, y] >> shift) & 0xFF, q = (b[x, y] >> shift) & 0xFF
                    most = max(most, p > q ? p - q : q - p)
                }
            }
        }
        return most
    }

    private static func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 { return false }
        return true
    }
}
