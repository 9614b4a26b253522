import Foundation
import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// Large damage is drawn band by band (`LayerRenderer.bandPixels`), so a fade's group and a
/// mask need buffers the size of a band, not of the frame. The bands change nothing: the whole
/// default playlist, fades, masks, shadows and the turning card included, draws the same
/// frames to the bit in bands of a few rows as in one piece.
final class BandedFrameTests: XCTestCase {
    func testTheDefaultPlaylistDrawsTheSameFramesInBands() throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        func frames(bandRows: Int?) -> PlayerFrames {
            let player = Player(playlist: playlist, screenSize: Size(640, 360))
            let frames = PlayerFrames(player: player, bitmap: Bitmap(width: 640, height: 360))
            frames.renderer.renderer.bandPixels = bandRows.map { $0 * 640 } ?? .max
            return frames
        }
        // 37 rows: bands that split shapes, glyphs, masks and shadows at odd places.
        let whole = frames(bandRows: nil), banded = frames(bandRows: 37)
        var t = 1000.0, scenes = Set<String>(), differing: [String] = []
        while t < 1000 + 110 {
            let (events, result) = try whole.makeFrame(at: t)
            _ = try banded.makeFrame(at: t)
            for case .sceneStarted(_, let name) in events { scenes.insert(name) }
            if result.pixelsRedrawn > 0, !Self.samePixels(whole.bitmap, banded.bitmap) {
                differing.append("\(whole.player.currentSceneName ?? "?") at \(t - 1000) s")
            }
            t += 0.1
        }
        XCTAssertEqual(scenes.count, playlist.scenes.count, "every scene played")
        XCTAssertEqual(differing, [], "frames that differ in bands")
    }

    private static func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 { return false }
        return true
    }
}
