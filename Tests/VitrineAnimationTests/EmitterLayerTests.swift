import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// The emitter's particles come from their births in closed form: a frame depends on its time
/// alone, and the number alive follows birthRate × lifetime.
final class EmitterLayerTests: XCTestCase {
    private func fountain() -> (RenderScene, EmitterLayer) {
        var cell = EmitterCell()
        cell.birthRate = 30
        cell.lifetime = 2.5
        cell.lifetimeRange = 0.5
        cell.velocity = 150
        cell.velocityRange = 30
        cell.emissionLongitude = -.pi / 2
        cell.emissionRange = 0.4
        cell.yAcceleration = 80
        cell.spin = 2
        cell.spinRange = 1
        cell.scale = 0.6
        cell.color = Color(red: 1, green: 0.6, blue: 0.2)
        cell.greenRange = 0.3
        cell.alphaSpeed = -0.3
        return Self.lineEmitter(
            sceneWidth: 640, sceneHeight: 480, frame: Rect(x: 0, y: 0, width: 320, height: 240),
            line: Rect(x: 140, y: 230, width: 40, height: 0), seed: 42, cell: cell)
    }

    /// A scene over black with one emitter of `cell`, emitting from the line `line` (its
    /// origin, width and height as a rectangle).
    private static func lineEmitter(
        sceneWidth: Int, sceneHeight: Int, frame: Rect, line: Rect, seed: Int, cell: EmitterCell
    ) -> (RenderScene, EmitterLayer) {
        let scene = RenderScene(width: sceneWidth, height: sceneHeight, background: .black)
        let emitter = EmitterLayer()
        emitter.frame = frame
        emitter.emitterPosition = Point(x: line.midX, y: line.midY)
        emitter.emitterSize = Size(width: line.width, height: line.height)
        emitter.emitterShape = .line
        emitter.seed = seed
        emitter.emitterCells = [cell]
        scene.root.addSublayer(emitter)
        return (scene, emitter)
    }

    /// An emitter's drawing changes with its clock from its first frame: it is drawn straight
    /// to the frame, and keeps no pixels of its own (a full-screen emitter at 4K would keep
    /// 33 MB); a still emitter is stored once and composited from then on.
    func testARunningEmitterKeepsNoStoreOfPixels() {
        let (scene, emitter) = fountain()
        for i in 0...10 {
            scene.frame(at: Double(i) * 0.1)
            XCTAssertEqual(scene.frames.renderer.backingStoreBytes, 0, "frame \(i)")
        }
        emitter.speed = 0
        for i in 11...13 {
            scene.frames.setNeedsFullFrame()
            scene.frame(at: Double(i) * 0.1)
        }
        XCTAssertGreaterThan(scene.frames.renderer.backingStoreBytes, 0, "held still, it is stored")
    }

    func testAFrameIsTheSameWhetherOrNotEarlierFramesWereDrawn() {
        let (played, _) = fountain()
        for i in 0...50 { played.frame(at: Double(i) * 0.1) }
        let (jumped, _) = fountain()
        jumped.frame(at: 5)
        savePNG(jumped.bitmap, "emitter-fountain")
        XCTAssertEqual(maximumChannelDifference(played.bitmap, jumped.bitmap), 0)
        XCTAssertGreaterThan(countPixels(jumped.bitmap) { $0.red > 0.2 }, 500, "particles are drawn")
        // Another seed, another pattern.
        let (other, emitter) = fountain()
        emitter.seed = 43
        other.frame(at: 5)
        XCTAssertGreaterThan(maximumChannelDifference(other.bitmap, jumped.bitmap), 100)
    }

    func testParticleCountFollowsBirthRateTimesLifetime() {
        let emitter = EmitterLayer()
        var cell = EmitterCell()
        cell.birthRate = 40
        cell.lifetime = 3
        emitter.emitterCells = [cell]
        XCTAssertEqual(emitter.particles(at: 10).count, 120)
        XCTAssertEqual(emitter.particles(at: 1).count, 41, "born at 0, 1/40 … 1 s")
        cell.lifetimeRange = 1
        emitter.emitterCells = [cell]
        XCTAssertEqual(Double(emitter.particles(at: 100).count), 120, accuracy: 15, "lifetimes spread evenly about 3 s")
        emitter.birthRate = 0.5
        XCTAssertEqual(Double(emitter.particles(at: 100).count), 60, accuracy: 10)
    }

    func testParticlesMoveByVelocityAndAcceleration() {
        let emitter = EmitterLayer()
        emitter.emitterPosition = Point(x: 10, y: 20)
        var cell = EmitterCell()
        cell.birthRate = 1
        cell.lifetime = 10
        cell.velocity = 5
        cell.emissionLongitude = 0
        cell.yAcceleration = 2
        emitter.emitterCells = [cell]
        // The particle born at 0, at 3 s: 15 to the right, 9 down.
        let first = try! XCTUnwrap(emitter.particles(at: 3).first)
        XCTAssertEqual(first.position.x, 25, accuracy: 1e-9)
        XCTAssertEqual(first.position.y, 29, accuracy: 1e-9)
    }

    func testExtremeRatesAreBounded() {
        let emitter = EmitterLayer()
        var cell = EmitterCell()
        cell.birthRate = 1e9
        cell.lifetime = 1e6
        emitter.emitterCells = [cell]
        XCTAssertEqual(emitter.particles(at: 1e5).count, EmitterLayer.maximumParticles)
        cell.birthRate = .infinity
        emitter.emitterCells = [cell]
        XCTAssertEqual(emitter.particles(at: 5).count, 0)
    }

    func testDamageTrackedFramesEqualWholeRepaints() {
        let (tracked, _) = fountain()
        let (full, _) = fountain()
        full.frames.damageTracking = false
        var partial = 0
        for i in 0...40 {
            let t = 3 + Double(i) / 60
            if tracked.frame(at: t).pixelsRedrawn < 640 * 480 / 4 { partial += 1 }
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
        }
        XCTAssertGreaterThan(partial, 20, "only where particles were and are is repainted")
    }

    /// Confetti over the whole screen: hundreds of small pieces, each repainted around itself
    /// (the damage gathered on a grid), not the screen between them; the frames stay those of
    /// whole repaints.
    func testScatteredParticlesRepaintAroundThemselves() {
        func confetti() -> RenderScene {
            var cell = EmitterCell()
            cell.birthRate = 60
            cell.lifetime = 6
            cell.velocity = 70
            cell.velocityRange = 30
            cell.emissionLongitude = .pi / 2
            cell.emissionRange = 0.5
            cell.yAcceleration = 35
            cell.spin = 2.5
            cell.spinRange = 3
            cell.scale = 0.8
            cell.color = Color(red: 1, green: 0.3, blue: 0.6)
            cell.greenRange = 0.4
            return Self.lineEmitter(
                sceneWidth: 960, sceneHeight: 540, frame: Rect(x: 0, y: 0, width: 960, height: 540),
                line: Rect(x: 0, y: -10, width: 960, height: 0), seed: 7, cell: cell
            ).0
        }
        let tracked = confetti(), full = confetti()
        full.frames.damageTracking = false
        // Rectangles cheap against pixels (as in a far larger frame): the finest grid.
        tracked.frames.damagePolicy.pixelsPerRect = 64
        tracked.frames.damagePolicy.frameFractionPerRect = 0
        let frame = 960 * 540
        for i in 0...30 {
            let t = 4 + Double(i) / 60
            let result = tracked.frame(at: t)
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
            // The first two frames of the scene are drawn whole.
            guard i > 1 else { continue }
            XCTAssertGreaterThan(result.dirty.count, 8, "t = \(t): pieces far apart are repainted apart")
            XCTAssertLessThan(result.pixelsRedrawn, frame * 2 / 5, "t = \(t)")
        }
    }
}
