import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A layer's transition (CATransition) when the scene changes its contents, string or
/// isHidden: the old look and the new, placed and faded by the paced progress.
final class LayerTransitionTests: XCTestCase {
    /// A 100 × 60 layer at (50, 20) showing a red image, its transition set, drawn at 0 and 1 s.
    private func scene(_ transition: LayerTransition) -> (RenderScene, Layer) {
        let scene = RenderScene(width: 200, height: 100, background: .white)
        let layer = Layer()
        layer.frame = Rect(x: 50, y: 20, width: 100, height: 60)
        layer.contents = solidImage(.redColor, width: 4, height: 4)
        layer.transition = transition
        scene.root.addSublayer(layer)
        scene.frame(at: 0)
        // Changes made now begin at the last frame's time, 1 s.
        scene.frame(at: 1)
        return (scene, layer)
    }

    func testPushSlidesTheNewLookInAndTheOldOutWithinTheBounds() {
        let (scene, layer) = scene(LayerTransition(kind: .push, subtype: .fromRight, duration: 1))
        layer.contents = solidImage(.blueColor, width: 4, height: 4)
        scene.frame(at: 1)
        scene.frame(at: 1.5)  // half way (ease-in-ease-out is symmetric): the seam at x = 100
        savePNG(scene.bitmap, "transition-push")
        assertColor(scene.bitmap, Point(x: 60, y: 50), .redColor)
        assertColor(scene.bitmap, Point(x: 98, y: 50), .redColor)
        assertColor(scene.bitmap, Point(x: 102, y: 50), .blueColor)
        assertColor(scene.bitmap, Point(x: 140, y: 50), .blueColor)
        // Clipped to the bounds: nothing slides over the outside.
        assertColor(scene.bitmap, Point(x: 30, y: 50), .white)
        assertColor(scene.bitmap, Point(x: 170, y: 50), .white)
        scene.frame(at: 2.1)
        assertColor(scene.bitmap, Point(x: 60, y: 50), .blueColor)
    }

    func testFadeDissolvesOneLookIntoTheOther() {
        let (scene, layer) = scene(LayerTransition(kind: .fade, duration: 1))
        layer.contents = solidImage(.blueColor, width: 4, height: 4)
        scene.frame(at: 1)
        scene.frame(at: 1.5)
        // Half of each, nothing of the white below (a dissolve, not one over the other).
        assertColor(scene.bitmap, Point(x: 100, y: 50), Color(red: 0.5, green: 0, blue: 0.5), tolerance: 2 / 255)
    }

    func testHidingFadesOutAndTheLayerIsGoneAfterwards() {
        let (scene, layer) = scene(LayerTransition(kind: .fade, duration: 1))
        layer.isHidden = true
        scene.frame(at: 1)
        XCTAssertTrue(scene.frame(at: 1.5).isAnimating)
        assertColor(scene.bitmap, Point(x: 100, y: 50), Color(red: 1, green: 0.5, blue: 0.5), tolerance: 2 / 255)
        scene.frame(at: 2.5)
        assertColor(scene.bitmap, Point(x: 100, y: 50), .white)
    }

    func testMoveInAndRevealKeepTheOtherLookStill() {
        let (moveIn, a) = scene(LayerTransition(kind: .moveIn, subtype: .fromBottom, duration: 1))
        a.contents = solidImage(.blueColor, width: 4, height: 4)
        moveIn.frame(at: 1)
        moveIn.frame(at: 1.5)  // the new look has come half way up: its top at y = 50
        assertColor(moveIn.bitmap, Point(x: 100, y: 45), .redColor)
        assertColor(moveIn.bitmap, Point(x: 100, y: 55), .blueColor)
        let (reveal, b) = scene(LayerTransition(kind: .reveal, subtype: .fromTop, duration: 1))
        b.contents = solidImage(.blueColor, width: 4, height: 4)
        reveal.frame(at: 1)
        reveal.frame(at: 1.5)  // the old look has gone half way down: its top at y = 50
        assertColor(reveal.bitmap, Point(x: 100, y: 45), .blueColor)
        assertColor(reveal.bitmap, Point(x: 100, y: 55), .redColor)
    }

    func testQuickChangesDoNotChainOldLooks() {
        let (scene, layer) = scene(LayerTransition(kind: .push, duration: 1))
        var t = 1.0
        for i in 0..<50 {
            layer.contents = solidImage(i % 2 == 0 ? .blueColor : .greenColor, width: 4, height: 4)
            scene.frame(at: t)
            t += 0.1
        }
        let shown = scene.engine.tick(at: t).presentation.sublayers[0]
        let old = try! XCTUnwrap(shown.transitionState?.old)
        XCTAssertNil(old.transitionState, "the old look is one look, not a chain")
    }

    /// A text layer fading between two strings: each look keeps a backing store and a shadow of
    /// its own (sharing them, each was made again for one look and then the other, every
    /// frame), and every frame equals the same frame drawn afresh.
    func testBothLooksKeepTheirStoresThroughTheTransition() {
        func make() -> (RenderScene, TextLayer) {
            let scene = RenderScene(width: 320, height: 120, background: .black)
            scene.frames.damageTracking = false
            let text = TextLayer()
            text.frame = Rect(x: 20, y: 20, width: 280, height: 80)
            text.fontSize = 30
            text.string = "first message"
            text.backgroundColor = Color(red: 0.15, green: 0.2, blue: 0.3)
            text.shadowOpacity = 0.6
            text.shadowRadius = 3
            text.transition = LayerTransition(kind: .fade, duration: 1)
            scene.root.addSublayer(text)
            scene.frame(at: 0)
            scene.frame(at: 1)
            text.string = "the second one"
            return (scene, text)
        }
        let (kept, _) = make()
        kept.frame(at: 1)
        let draws = kept.frames.renderer.contentDrawCount, shadows = kept.frames.renderer.shadows.renderCount
        for i in 1...19 {
            let t = 1 + Double(i) * 0.05
            kept.frame(at: t)
            let (fresh, _) = make()
            fresh.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(kept.bitmap, fresh.bitmap), 0, "t = \(t)")
        }
        XCTAssertLessThanOrEqual(kept.frames.renderer.contentDrawCount - draws, 2, "each look drawn once")
        XCTAssertLessThanOrEqual(kept.frames.renderer.shadows.renderCount - shadows, 2, "and its shadow made once")
    }

    func testDamageTrackedFramesEqualWholeRepaints() {
        func make() -> (RenderScene, TextLayer) {
            let scene = RenderScene(width: 400, height: 300, background: .black)
            let text = TextLayer()
            text.frame = Rect(x: 40, y: 40, width: 200, height: 50)
            text.fontSize = 30
            text.string = "first message"
            text.transition = LayerTransition(kind: .push, subtype: .fromBottom, duration: 0.5)
            let other = TextLayer()
            other.frame = Rect(x: 40, y: 150, width: 300, height: 50)
            other.string = "a longer message that fades"
            other.transition = LayerTransition(kind: .fade, duration: 0.5)
            scene.root.addSublayer(text)
            scene.root.addSublayer(other)
            scene.frame(at: 0)
            return (scene, text)
        }
        let (tracked, a) = make()
        let (full, b) = make()
        full.frames.damageTracking = false
        for i in 1...30 {
            let t = Double(i) * 0.05
            if i == 3 || i == 16 {
                for layer in [a, b] { layer.string = "message \(i)" }
                for layer in [tracked.root.sublayers[1], full.root.sublayers[1]] {
                    (layer as! TextLayer).string = "short \(i)"
                }
            }
            tracked.frame(at: t)
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
        }
    }
}
