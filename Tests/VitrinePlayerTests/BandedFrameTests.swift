import Foundation
import VitrineAnimation
import VitrineGraphics
import XCTest
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

    private static func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 { return false }
        return true
    }
}
