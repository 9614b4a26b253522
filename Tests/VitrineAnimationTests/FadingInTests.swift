import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A layer first shown at opacity 0 while its opacity animates (a scene fading in) is drawn
/// unseen in that frame, so that its shadows and backing stores are made then rather than in
/// the next frame, which draws it over everything else. Nothing on screen changes.
final class FadingInTests: XCTestCase {
    /// A layer that fades in from 0 to 1 over 0.5 s from `begin`, in the root's time.
    private func fadingLayer(beginning begin: Double) -> Layer {
        let layer = Layer()
        let fade = linearAnimation("opacity", from: 0, to: 1, duration: 0.5)
        fade.beginTime = begin
        layer.add(fade, forKey: "fade")
        return layer
    }

    func testALayerFirstShownAtOpacityZeroAsItsOpacityAnimatesIsFadingIn() {
        let scene = Scene()
        scene.frame(at: 0.9)
        let fading = fadingLayer(beginning: 1)
        let plain = Layer()
        plain.opacity = 0
        let later = fadingLayer(beginning: 2)
        let shown = Layer()
        for layer in [fading, plain, later, shown] {
            layer.frame = Rect(x: 10, y: 10, width: 50, height: 50)
            layer.backgroundColor = .redColor
            scene.root.addSublayer(layer)
        }
        let first = scene.frame(at: 1)
        XCTAssertEqual(first.fadingIn.count, 1, "only the one whose fade has begun")
        XCTAssertTrue(first.fadingIn.first?.model() === fading)
        XCTAssertEqual(first.fadingIn.first?.opacity, 0, "its presentation copy")
        XCTAssertTrue(scene.frame(at: 1.1).fadingIn.isEmpty, "shown already")
        // Shown first at a visible opacity: drawn in that frame anyway.
        let late = fadingLayer(beginning: 1)
        scene.root.addSublayer(late)
        XCTAssertTrue(scene.frame(at: 1.2).fadingIn.isEmpty)
    }

    /// A patterned root over which, at 1 s, a card fades in: a shadow under a rounded gradient
    /// (a backing store), with a label of its own.
    private func scene(preparing: Bool, inBandsOnThreads: Bool = false) -> (RenderScene, [Bitmap]) {
        let render = RenderScene(width: 200, height: 160, background: Color(red: 0.9, green: 0.85, blue: 0.7))
        let renderer = render.frames.renderer
        renderer.preparesFadingLayers = preparing
        if inBandsOnThreads {
            renderer.bandPixels = 200 * 23
            renderer.parallelMinimumFramePixels = 0
            renderer.parallelMinimumPixels = 0
        }
        addStripes(to: render.root, height: 160)
        var frames: [Bitmap] = []
        render.frame(at: 0.9)
        frames.append(snapshot(render.bitmap))
        let card = fadingLayer(beginning: 1)
        makeShadowedCard(card)
        let band = Layer()
        band.frame = Rect(x: 10, y: 60, width: 90, height: 12)
        band.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
        card.addSublayer(band)
        render.root.addSublayer(card)
        for n in 0...8 {
            render.frame(at: 1 + Double(n) / 16)
            frames.append(snapshot(render.bitmap))
        }
        return (render, frames)
    }

    func testWhatAFadingLayerNeedsIsMadeInTheFrameThatDoesNotShowIt() {
        let render = RenderScene(width: 200, height: 160)
        let renderer = render.frames.renderer
        // On screen before the fade, and kept through the frame that repaints nothing.
        let resting = Layer()
        resting.frame = Rect(x: 160, y: 120, width: 30, height: 30)
        resting.backgroundColor = .greenColor
        resting.shadowOpacity = 0.5
        resting.shadowRadius = 4
        render.root.addSublayer(resting)
        render.frame(at: 0.9)
        XCTAssertEqual(renderer.shadows.renderCount, 1)
        let card = fadingLayer(beginning: 1)
        card.frame = Rect(x: 40, y: 30, width: 110, height: 90)
        card.shadowOpacity = 0.8
        card.shadowRadius = 9
        let face = GradientLayer()
        face.frame = card.bounds
        face.colors = ColorList([.redColor, .blueColor])
        card.addSublayer(face)
        render.root.addSublayer(card)
        let before = snapshot(render.bitmap)

        let first = render.frame(at: 1)
        XCTAssertTrue(samePixels(render.bitmap, before), "nothing of it shows")
        XCTAssertEqual(first.pixelsRedrawn, 0)
        XCTAssertEqual(renderer.shadows.renderCount, 2, "the card's shadow made")
        XCTAssertEqual(renderer.backingStoreCount, 1, "the face's gradient stored")
        let draws = renderer.contentDrawCount
        XCTAssertEqual(draws, 1)

        // Repainted whole: the resting layer's shadow is drawn too, from what was kept.
        render.frames.setNeedsFullFrame()
        render.frame(at: 1.05)
        XCTAssertGreaterThan(countPixels(render.bitmap) { $0.blue > 0.05 && $0.red < 0.95 }, 0, "it shows")
        XCTAssertEqual(renderer.shadows.renderCount, 2, "both shadows served as made")
        XCTAssertEqual(renderer.contentDrawCount, draws, "so does the store")
    }

    func testFadingInDrawsTheSameFramesWithWhatItNeedsMadeUnseenOrNot() {
        let (preparing, withPreparing) = scene(preparing: true)
        let (drawing, withoutPreparing) = scene(preparing: false)
        XCTAssertEqual(withPreparing.count, withoutPreparing.count)
        for (i, (a, b)) in zip(withPreparing, withoutPreparing).enumerated() {
            XCTAssertTrue(samePixels(a, b), "frame \(i)")
        }
        XCTAssertTrue(samePixels(withPreparing[0], withPreparing[1]), "the first frame of the fade shows nothing of it")
        XCTAssertEqual(preparing.frames.renderer.shadows.renderCount, drawing.frames.renderer.shadows.renderCount)
    }

    /// Drawn unseen in bands on several threads, where one thread goes on past a shadow or a
    /// store another is making instead of waiting for it: what is made, and every frame, is
    /// what one thread makes.
    func testFadingInOnSeveralThreadsDrawsWhatOneThreadDraws() {
        let (_, oneThread) = scene(preparing: true)
        let (threaded, severalThreads) = scene(preparing: true, inBandsOnThreads: true)
        let (_, notPrepared) = scene(preparing: false, inBandsOnThreads: true)
        for i in oneThread.indices {
            XCTAssertTrue(samePixels(oneThread[i], severalThreads[i]), "frame \(i)")
            // Content drawn straight to a large frame before its store is made may differ
            // from the store's by a level where translucent drawings overlap.
            XCTAssertLessThanOrEqual(maximumChannelDifference(severalThreads[i], notPrepared[i]), 1, "frame \(i)")
        }
        XCTAssertEqual(threaded.frames.renderer.shadows.renderCount, 1)
    }
}
