import Foundation
import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// `vitrine render`'s frames: the canvas fitted to the picture, and what the geometry says the
/// scenes show.
final class RenderStillTests: XCTestCase {
    /// Straight 8-bit RGB of a premultiplied pixel.
    func rgb(_ pixel: UInt32) -> (Int, Int, Int) {
        let c = Color(premultipliedPixel: pixel)
        return (Int((c.red * 255).rounded()), Int((c.green * 255).rounded()), Int((c.blue * 255).rounded()))
    }

    func assertClose(
        _ a: (Int, Int, Int), _ b: (Int, Int, Int), tolerance: Int, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let ok = abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
        XCTAssertTrue(ok, "\(message): \(a) vs \(b)", file: file, line: line)
    }

    /// The one canvas placement `play` and `render` share: aspect kept, centred, the origin
    /// on a whole pixel.
    func testLetterboxKeepsAspectAndCentresOnWholePixels() {
        let wide = Letterbox(canvas: Size(width: 1920, height: 1080), screen: Size(width: 1000, height: 1000))
        XCTAssertEqual(wide.scale, 1000.0 / 1920, accuracy: 1e-12)
        XCTAssertEqual(wide.frame.minX, 0)
        XCTAssertEqual(wide.frame.minY, ((1000 - 1080 * 1000.0 / 1920) / 2).rounded(.down))
        let tall = Letterbox(canvas: Size(width: 800, height: 600), screen: Size(width: 1600, height: 600))
        XCTAssertEqual(tall.scale, 1)
        XCTAssertEqual(tall.frame, Rect(x: 400, y: 0, width: 800, height: 600))
    }

    /// Letterbox bars show the player's background; the scene's own background fills the canvas.
    func testLetterboxing() throws {
        let playlist = try loadPlaylist(
            """
            [player]
            background = "#204060"
            canvas = [400, 300]

            [[scene]]
            name = "s"
            duration = 1
            background = "#ff0000"
            """)
        let bitmap = try SceneInstance.renderStill(
            playlist.scenes[0], playlist: playlist, at: 0, width: 200, height: 300)
        // 400 × 300 into 200 × 300: scale 0.5, the canvas is 200 × 150 at y = 75.
        XCTAssertEqual(rgb(bitmap[100, 10]).0, 0x20)
        XCTAssertEqual(rgb(bitmap[100, 290]).2, 0x60)
        XCTAssertEqual(rgb(bitmap[100, 150]).0, 255)
        XCTAssertEqual(rgb(bitmap[100, 76]).0, 255)
        XCTAssertEqual(rgb(bitmap[100, 74]).0, 0x20)
    }

    /// Seed 000 at t = 0.5 s: the arrow covers the first quarter of the ring (from the top,
    /// clockwise), so the photo shows there and only the track elsewhere on the ring.
    func testArrowAtHalfASecondRevealsAQuarterOfTheRing() throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        let arrow = try XCTUnwrap(playlist.scene(named: "arrow"))
        let frame = try SceneInstance.renderStill(arrow, playlist: playlist, at: 0.5, width: 960, height: 540)
        // The same photo, unmasked, through the same path: what the arrow lets through.
        let reference = try loadPlaylist(
            """
            [player]
            background = "#14181d"

            [[scene]]
            name = "photo"
            duration = 1

            [[scene.layer]]
            type = "image"
            contents = "images/lake.png"
            frame = [560, 160, 800, 800]
            """)
        let photo = try SceneInstance.renderStill(
            reference.scenes[0], playlist: reference, at: 0, width: 960, height: 540)
        // Half scale: ring centre (480, 280); the band spans radii 110…200, the tip radius is 155.
        func point(_ angle: Double) -> (Int, Int) {
            (Int((480 + 155 * cos(angle)).rounded()), Int((280 + 155 * sin(angle)).rounded()))
        }
        // The track: white at alpha 0x14 over the background #14181d.
        let a = 0x14 / 255.0
        let track = (
            Int((20 + (255 - 20) * a).rounded()), Int((24 + (255 - 24) * a).rounded()),
            Int((29 + (255 - 29) * a).rounded())
        )
        for angle in [-Double.pi / 2 + 0.15, -Double.pi / 4, -0.7, -0.2] {
            let (x, y) = point(angle)
            assertClose(rgb(frame[x, y]), rgb(photo[x, y]), tolerance: 1, "inside the arrow at \(angle)")
        }
        for angle in [0.4, Double.pi / 2, Double.pi, -Double.pi / 2 - 0.3] {
            let (x, y) = point(angle)
            assertClose(rgb(frame[x, y]), track, tolerance: 1, "outside the arrow at \(angle)")
        }
    }

    /// Seed 004's sector at 1.5 s of 3: half the disc, clockwise from +x (the lower half on screen).
    func testSectorHalfWay() throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        let sector = try XCTUnwrap(playlist.scene(named: "sector"))
        let frame = try SceneInstance.renderStill(sector, playlist: playlist, at: 1.5, width: 1920, height: 1080)
        let orange = (0xff, 0x9f, 0x0a)
        assertClose(rgb(frame[960, 560 + 150]), orange, tolerance: 1, "below the centre")
        assertClose(rgb(frame[960 - 150, 560 + 20]), orange, tolerance: 1, "left, just below")
        assertClose(rgb(frame[960, 560 - 150]), (0x14, 0x18, 0x1d), tolerance: 1, "above the centre")
    }
}
