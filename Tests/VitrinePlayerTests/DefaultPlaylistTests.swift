import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// The default playlist loads, and its scenes move as the seed articles describe.
final class DefaultPlaylistTests: XCTestCase {
    static let playlist: Playlist = try! PlaylistLoader.load(file: ConfigPaths.defaultConfig)

    /// The presentation of the layer `id` of scene `scene` at `t` seconds.
    func shown(_ scene: String, _ id: String, at t: Double) throws -> Layer {
        let definition = try XCTUnwrap(Self.playlist.scene(named: scene))
        let (instance, _) = try SceneInstance.evaluate(definition, playlist: Self.playlist, at: t)
        return try XCTUnwrap(instance.layer(withID: id)?.presentation(), "\(scene).\(id)")
    }

    func testEverySeedSceneIsThere() throws {
        let p = Self.playlist
        XCTAssertEqual(
            p.scenes.map(\.name),
            [
                "arrow", "pie", "progress", "model-sync", "fill-modes", "stroke", "wave",
                "drop-mask", "sine", "morphs", "sector", "ring", "flip", "spinner", "confetti", "sprites", "message"
            ])
        XCTAssertEqual(p.settings.canvas, Size(width: 1920, height: 1080))
        XCTAssertEqual(p.settings.transition, .fade)
        for scene in p.scenes {
            for t in [0, 0.7, 2.3, 10] { _ = try SceneInstance.evaluate(scene, playlist: p, at: t) }
        }
    }

    /// 000: lengthRadians runs 0 → 2π linearly in 2 s and back.
    func testArrowGrowsLinearlyAndReverses() throws {
        for (t, expected) in [
            (0.0, 0.0), (0.5, Double.pi / 2), (1.0, Double.pi), (2.5, 1.5 * Double.pi), (4.5, Double.pi / 2)
        ] {
            let ring = try XCTUnwrap(try shown("arrow", "ring", at: t) as? ArrowLayer)
            XCTAssertEqual(ring.lengthRadians, expected, accuracy: 1e-6, "t = \(t)")
        }
        let photo = try shown("arrow", "photo", at: 0)
        XCTAssertEqual(photo.mask?.name, "ring")
    }

    /// 002: progress eases 0 → 1 over 6 s (half way at 3 s) and the model holds 1 afterwards.
    func testProgressBar() throws {
        let mid = try XCTUnwrap(try shown("progress", "bar", at: 3) as? ProgressLayer)
        XCTAssertEqual(mid.progress, 0.5, accuracy: 1e-6)
        XCTAssertEqual(mid.strokeEnd, 1, accuracy: 1e-9, "the strokeEnd cycle is back at 1 after 3 s")
        let sweep = try XCTUnwrap(try shown("progress", "bar", at: 1.5) as? ProgressLayer)
        XCTAssertEqual(sweep.strokeEnd, 0.25, accuracy: 1e-9)
        let end = try XCTUnwrap(try shown("progress", "bar", at: 6.5) as? ProgressLayer)
        XCTAssertEqual(end.progress, 1)
        XCTAssertEqual(end.layout.labelText, "100%")
    }

    /// 003: three ways to end a position animation (2 s from t = 0.5).
    func testModelSync() throws {
        XCTAssertEqual(try shown("model-sync", "snaps-back", at: 3).position, Point(x: 200, y: 300))
        XCTAssertEqual(try shown("model-sync", "held", at: 3).position, Point(x: 1080, y: 760))
        XCTAssertEqual(try shown("model-sync", "synced", at: 3).position, Point(x: 1720, y: 760))
        let midway = try shown("model-sync", "synced", at: 1.5).position
        XCTAssertEqual(midway.x, (1480 + 1720) / 2, accuracy: 1e-9)
        XCTAssertEqual(midway.y, (300 + 760) / 2, accuracy: 1e-9)
    }

    /// 003: opacity 0 → 1 from t = 1 to 2 over a model of 0.5, under each fill mode.
    func testFillModes() throws {
        let definition = try XCTUnwrap(Self.playlist.scene(named: "fill-modes"))
        func opacities(at t: Double) throws -> [Double] {
            let (_, frame) = try SceneInstance.evaluate(definition, playlist: Self.playlist, at: t)
            return frame.presentation.sublayers.filter { $0.backgroundColor == Color(r8: 0xff, g8: 0xd6, b8: 0x0a) }
                .map(\.opacity)
        }
        XCTAssertEqual(try opacities(at: 0.5), [0.5, 0.5, 0, 0])
        XCTAssertEqual(try opacities(at: 1.5), [0.5, 0.5, 0.5, 0.5])
        XCTAssertEqual(try opacities(at: 2.5), [0.5, 1, 0.5, 1])
    }

    /// 003: the wave shows its start during the delay (backwards fill) and the model after.
    func testWaveMorph() throws {
        let before = try XCTUnwrap(try shown("wave", "wave", at: 0.5) as? ShapeLayer)
        XCTAssertEqual(before.path, try Path(svgPathData: "M0 0 L0 587 Q960 880 1920 587 L1920 0 Z"))
        let after = try XCTUnwrap(try shown("wave", "wave", at: 6.5) as? ShapeLayer)
        XCTAssertEqual(after.path, try Path(svgPathData: "M0 0 L0 1227 Q960 1080 1920 1227 L1920 0 Z"))
        let during = try XCTUnwrap(try shown("wave", "wave", at: 3.5) as? ShapeLayer)
        let bottom = try XCTUnwrap(during.path?.bounds.maxY)
        XCTAssertGreaterThan(bottom, 700)
        XCTAssertLessThan(bottom, 1227)
    }

    /// 004: the morphs hold their end (forwards fill), the sector sweeps linearly.
    func testMorphsAndSector() throws {
        let circle = try XCTUnwrap(try shown("morphs", "rect-to-circle", at: 4) as? ShapeLayer)
        let b = try XCTUnwrap(circle.path?.bounds)
        XCTAssertEqual(b.width, 160, accuracy: 1e-6)
        XCTAssertEqual(b.height, 160, accuracy: 1e-6)
        XCTAssertEqual(b.midX, 360, accuracy: 1e-6)
        let half = try XCTUnwrap(try shown("morphs", "quarter-to-half", at: 4) as? ShapeLayer)
        let h = try XCTUnwrap(half.path?.bounds)
        XCTAssertEqual(h.minY, 340, accuracy: 1e-6)
        XCTAssertEqual(h.maxY, 740, accuracy: 1e-6)
        XCTAssertEqual(h.maxX, 1760, accuracy: 1e-6)
        let sector = try XCTUnwrap(try shown("sector", "sector", at: 1.5) as? SectorLayer)
        XCTAssertEqual(sector.progress, 0.5, accuracy: 1e-12)
        let done = try XCTUnwrap(try shown("sector", "sector", at: 4) as? SectorLayer)
        XCTAssertEqual(done.progress, 1)
    }

    /// The scenes of the other layer classes: the ring fills to 86 %, the spinner has twelve
    /// copies, confetti falls at its birth rates, the coin steps a cell every 1/15 s, and the
    /// message follows its schedule, pushing the new text in.
    func testLayerClassScenes() throws {
        let ring = try XCTUnwrap(try shown("ring", "ring", at: 4.5) as? ShapeLayer)
        XCTAssertEqual(ring.strokeEnd, 0.86, accuracy: 1e-9)
        let spinner = try XCTUnwrap(try shown("spinner", "spinner", at: 1) as? ReplicatorLayer)
        XCTAssertEqual(spinner.drawnInstanceCount, 12)
        let confetti = try XCTUnwrap(try shown("confetti", "confetti", at: 5) as? EmitterLayer)
        XCTAssertEqual(Double(confetti.particleCount(at: confetti.emitterTime)), 60 * 5, accuracy: 3)
        let coin = try shown("sprites", "coin", at: 0.1)
        XCTAssertEqual(coin.contentsRect.minX, 1.0 / 12, accuracy: 1e-6)
        // The scene is kept alive to read its model layers' animations.
        let definition = try XCTUnwrap(Self.playlist.scene(named: "message"))
        let (later, _) = try SceneInstance.evaluate(definition, playlist: Self.playlist, at: 3)
        let message = try XCTUnwrap(later.layer(withID: "message") as? TextLayer)
        XCTAssertEqual(message.presentation()?.string, "Copying files: 1,204 of 3,610")
        XCTAssertNil(message.animation(forKey: LayerTransition.animationKey), "the push of 2.5 s is over by 3 s")
        let (during, _) = try SceneInstance.evaluate(definition, playlist: Self.playlist, at: 5.2)
        let pushing = try XCTUnwrap(during.layer(withID: "message") as? TextLayer)
        XCTAssertEqual(pushing.presentation()?.string, "Restarting services")
        let push = try XCTUnwrap(pushing.animation(forKey: LayerTransition.animationKey))
        XCTAssertEqual(push.beginTime, 5, accuracy: 1e-9, "from the entry's time, not the frame's")
    }
}
