import Foundation
import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// Counts every `draw(in:)` of its instances (presentation copies included).
final class CountingSectorLayer: SectorLayer {
    nonisolated(unsafe) static var draws = 0
    override func draw(in ctx: GraphicsContext) {
        CountingSectorLayer.draws += 1
        super.draw(in: ctx)
    }
}

/// Draws a filled circle through its delegate, once asked with `setNeedsDisplay()`.
final class CircleDelegate: LayerDelegate {
    var draws = 0
    var color = Color.redColor
    func draw(_ layer: Layer, in ctx: GraphicsContext) {
        draws += 1
        var p = Path()
        p.addEllipse(in: layer.bounds)
        ctx.fill(p, color: color)
    }
}

/// Fills its layer's bounds in black through its delegate.
final class BoundsFillDelegate: LayerDelegate {
    func draw(_ layer: Layer, in ctx: GraphicsContext) {
        var p = Path()
        p.addRect(layer.bounds)
        ctx.fill(p, color: .black)
    }
}

/// Backing stores, damage and the frame loop's cost.
final class FrameRendererTests: XCTestCase {
    /// A layer's drawing is held to the pixels its extent reaches, not faded where the extent's
    /// edge crosses a pixel: bounds on half pixels, filled, give their edge pixels half the
    /// colour (the fill's own coverage), drawn straight or from the layer's store.
    func testDrawingInsideTheExtentIsNotFadedAtItsEdge() {
        let scene = RenderScene(width: 40, height: 40)
        let delegate = BoundsFillDelegate()
        let layer = Layer()
        layer.frame = Rect(x: 10.5, y: 10.5, width: 20, height: 20)
        layer.delegate = delegate
        scene.root.addSublayer(layer)
        layer.setNeedsDisplay()
        func check(_ when: String) {
            XCTAssertEqual(scene.bitmap[20, 20] & 0xFF, 0, "inside, \(when)")
            for (x, y) in [(10, 20), (30, 20), (20, 10), (20, 30)] {
                XCTAssertEqual(Double(scene.bitmap[x, y] & 0xFF), 127.5, accuracy: 1, "edge (\(x), \(y)), \(when)")
            }
            XCTAssertEqual(Double(scene.bitmap[10, 10] & 0xFF), 191.25, accuracy: 1, "corner, \(when)")
        }
        scene.frame(at: 0)
        check("first drawn")
        scene.frames.setNeedsFullFrame()
        scene.frame(at: 0.1)
        check("repainted")
    }

    /// Seed 004's warning: a finished animation held by fillMode forwards must not redraw.
    func testFinishedAnimationHeldForwardsNeverRedraws() {
        let scene = RenderScene()
        let sector = CountingSectorLayer()
        sector.frame = Rect(x: 20, y: 20, width: 160, height: 160)
        scene.root.addSublayer(sector)
        CountingSectorLayer.draws = 0
        scene.frame(at: 0)
        XCTAssertEqual(CountingSectorLayer.draws, 1, "drawn once when first shown")
        let a = linearAnimation("progress", from: 0, to: 1, duration: 1)
        a.isRemovedOnCompletion = false
        a.fillMode = .forwards
        sector.add(a, forKey: "grow")
        for i in 1...10 { scene.frame(at: Double(i) / 10) }
        XCTAssertEqual(CountingSectorLayer.draws, 11, "one redraw per frame while progress moves")
        let drawsAtEnd = CountingSectorLayer.draws
        for i in 1...100 {
            let result = scene.frame(at: 1 + Double(i) / 60)
            XCTAssertEqual(result.dirty, [], "nothing to repaint at frame \(i) after the end")
            XCTAssertEqual(result.pixelsRedrawn, 0)
            XCTAssertFalse(result.isAnimating)
        }
        XCTAssertEqual(CountingSectorLayer.draws, drawsAtEnd, "100 frames after the end: no draw(in:) at all")
        assertColor(scene.bitmap, Point(x: 60, y: 60), Color(red: 1, green: 0.5, blue: 0), "held at the full disc")
    }

    func testBackingStoreRedrawsOnlyForItsDrawingKeys() {
        let scene = RenderScene()
        let sector = CountingSectorLayer()
        sector.frame = Rect(x: 20, y: 20, width: 100, height: 100)
        sector.progress = 0.5
        scene.root.addSublayer(sector)
        CountingSectorLayer.draws = 0
        scene.frame(at: 0)
        XCTAssertEqual(CountingSectorLayer.draws, 1)
        // Moving by whole pixels and fading reuse the stored pixels.
        func withoutActions(_ body: () -> Void) {
            Transaction.begin()
            Transaction.setDisableActions(true)
            body()
            Transaction.commit()
        }
        withoutActions { sector.position = Point(x: 90, y: 75) }
        scene.frame(at: 0.1)
        withoutActions { sector.opacity = 0.5 }
        scene.frame(at: 0.2)
        XCTAssertEqual(CountingSectorLayer.draws, 1, "position and opacity are not drawing keys")
        assertColor(
            scene.bitmap, Point(x: 90 + 20, y: 75 + 20), Color(red: 1, green: 0.75, blue: 0.5),
            tolerance: 3 / 255, "the stored sector, moved and half transparent")
        // A drawing key, and setNeedsDisplay, redraw.
        withoutActions { sector.progress = 0.75 }
        scene.frame(at: 0.3)
        XCTAssertEqual(CountingSectorLayer.draws, 2)
        sector.setNeedsDisplay()
        scene.frame(at: 0.4)
        XCTAssertEqual(CountingSectorLayer.draws, 3)
        // Half a pixel of movement changes the pixels: redraw at the new phase.
        withoutActions { sector.position = Point(x: 90.5, y: 75) }
        scene.frame(at: 0.5)
        XCTAssertEqual(CountingSectorLayer.draws, 4)
    }

    /// On a frame whose large repaints are shared among threads (a small one counted so here),
    /// a store is not made in the frame that first shows its content: the content is drawn
    /// straight to the frame, and the next frame repaints its box from the store, so later
    /// partial repaints match what is on screen. Content first shown translucent is stored at
    /// once (its opacity applies to the drawing as a whole), and so is all content on a smaller
    /// frame.
    func testNewContentIsDrawnDirectlyThenRepaintedFromItsStore() {
        // Translucent fill and stroke overlapping: drawn directly, the stroke blends over the
        // fill in the frame; stored, over it in the store, then the store over the frame.
        func arrowScene(largeFramePaths: Bool, opacity: Double = 1) -> RenderScene {
            let scene = RenderScene(background: Color(red: 0.2, green: 0.5, blue: 0.3))
            if largeFramePaths { scene.frames.renderer.parallelMinimumFramePixels = 0 }
            let arrow = ArrowLayer()
            arrow.frame = Rect(x: 10.25, y: 12, width: 170, height: 170)
            arrow.thickness = 30
            arrow.lengthRadians = 4
            arrow.fillColor = Color(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.8)
            arrow.strokeColor = Color(red: 0.1, green: 0.1, blue: 0.6, alpha: 0.7)
            arrow.lineWidth = 6
            arrow.opacity = opacity
            scene.root.addSublayer(arrow)
            return scene
        }
        let stored = arrowScene(largeFramePaths: false)
        XCTAssertFalse(stored.frame(at: 0).isAnimating)
        XCTAssertGreaterThan(stored.frames.renderer.backingStoreBytes, 0, "a small frame stores at once")

        let scene = arrowScene(largeFramePaths: true)
        let first = scene.frame(at: 0)
        XCTAssertEqual(scene.frames.renderer.contentDrawCount, 1)
        XCTAssertEqual(scene.frames.renderer.backingStoreBytes, 0, "no store made in the first frame")
        XCTAssertTrue(first.isAnimating, "a second frame is asked for")
        XCTAssertEqual(maximumChannelDifference(scene.bitmap, stored.bitmap), 1, "drawn directly: a level apart")
        let second = scene.frame(at: 0.1)
        XCTAssertEqual(scene.frames.renderer.contentDrawCount, 2)
        XCTAssertGreaterThan(scene.frames.renderer.backingStoreBytes, 0)
        XCTAssertTrue(second.dirty.contains { $0.contains(IntRect(x: 10, y: 12, width: 171, height: 170)) })
        XCTAssertFalse(second.isAnimating)
        XCTAssertTrue(samePixels(scene.bitmap, stored.bitmap), "its box repainted from the store")

        let translucent = arrowScene(largeFramePaths: true, opacity: 0.5)
        XCTAssertFalse(translucent.frame(at: 0).isAnimating)
        XCTAssertGreaterThan(translucent.frames.renderer.backingStoreBytes, 0, "translucent: stored at once")
    }

    func testDelegateDrawsOnceAskedAndIsCached() {
        let scene = RenderScene()
        let delegate = CircleDelegate()
        let layer = Layer()
        layer.frame = Rect(x: 50, y: 50, width: 100, height: 100)
        layer.delegate = delegate
        scene.root.addSublayer(layer)
        scene.frame(at: 0)
        XCTAssertEqual(delegate.draws, 0, "as in Core Animation, nothing is drawn until asked")
        layer.setNeedsDisplay()
        scene.frame(at: 0.1)
        XCTAssertEqual(delegate.draws, 1)
        assertColor(scene.bitmap, Point(x: 100, y: 100), .redColor)
        assertColor(scene.bitmap, Point(x: 55, y: 55), .white)
        for i in 2...20 { scene.frame(at: Double(i) / 10) }
        XCTAssertEqual(delegate.draws, 1, "cached while nothing asks for a redraw")
        delegate.color = .blueColor
        layer.setNeedsDisplay()
        scene.frame(at: 2.1)
        XCTAssertEqual(delegate.draws, 2)
        assertColor(scene.bitmap, Point(x: 100, y: 100), .blueColor)
    }

    /// A sector larger than the frame, moved by whole pixels while partly off the frame: the
    /// store keeps only the visible part, so moving must show what a fresh render shows.
    /// A frame renderer's choice to fill its background only where the frame before drew over
    /// it holds for the context of a new bitmap too (`use`, `resize`).
    func testRememberingPlainPixelsOutlivesANewBitmap() {
        for remembering in [true, false] {
            let scene = RenderScene(width: 64, height: 48, background: .black)
            let square = Layer()
            square.frame = Rect(x: 8, y: 8, width: 8, height: 8)
            square.backgroundColor = .white
            scene.root.addSublayer(square)
            scene.frames.remembersPlainPixels = remembering
            scene.frames.damageTracking = false  // every frame fills the whole background
            scene.frames.resize(width: 96, height: 64)
            scene.frame(at: 0)
            scene.frame(at: 1)
            XCTAssertEqual(scene.frames.plainPixelsSkipped > 0, remembering, "resized, remembering: \(remembering)")
            scene.frames.use(Bitmap(width: 80, height: 60))
            scene.frame(at: 2)
            XCTAssertEqual(scene.frames.plainPixelsSkipped, 0, "a new bitmap's first frame fills it all")
            scene.frame(at: 3)
            XCTAssertEqual(scene.frames.plainPixelsSkipped > 0, remembering, "new bitmap, remembering: \(remembering)")
        }
    }

    func testPartlyOffscreenStoreFollowsWholePixelMoves() {
        func scene(at position: Point) -> (RenderScene, SectorLayer) {
            let scene = RenderScene()
            let sector = SectorLayer()
            sector.bounds = Rect(x: 0, y: 0, width: 400, height: 400)
            sector.position = position
            sector.progress = 0.6
            sector.startAngle = 0.3
            scene.root.addSublayer(sector)
            return (scene, sector)
        }
        let (moving, sector) = scene(at: Point(x: 0, y: 30))
        moving.frame(at: 0)
        for (i, x) in [17.0, 45, 120, 180].enumerated() {
            Transaction.begin()
            Transaction.setDisableActions(true)
            sector.position = Point(x: x, y: 30 + Double(i))
            Transaction.commit()
            moving.frame(at: Double(i + 1) / 10)
            let (fresh, _) = scene(at: Point(x: x, y: 30 + Double(i)))
            fresh.frame(at: 0)
            // A stale or cropped store would differ by whole colours; compositing a store and
            // drawing directly may round one anti-aliased level apart, no more.
            XCTAssertLessThanOrEqual(
                maximumChannelDifference(moving.bitmap, fresh.bitmap), 1, "after moving to x = \(x)")
        }
        XCTAssertLessThanOrEqual(moving.frames.renderer.backingStoreCount, 1)
    }

    /// A rotated layer that draws itself draws directly (no store), in the rotated place.
    func testRotatedSelfDrawingLayerDrawsDirectly() {
        let scene = RenderScene()
        let sector = SectorLayer()
        sector.frame = Rect(x: 20, y: 20, width: 160, height: 160)
        sector.progress = 0.25
        sector.fillColor = .blueColor
        sector.transform = Transform3D(Transform2D(rotationAngle: .pi / 2))
        scene.root.addSublayer(sector)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "rotated-sector")
        // The quarter from 0 to π/2, turned by π/2 about the centre: from π/2 to π.
        let c = Point(x: 100, y: 100)
        assertColor(scene.bitmap, polar(c, 50, .pi * 0.75), .blueColor)
        assertColor(scene.bitmap, polar(c, 50, .pi * 0.25), .white)
        assertColor(scene.bitmap, polar(c, 50, .pi * 1.25), .white)
        XCTAssertEqual(scene.frames.renderer.backingStoreCount, 0)
        XCTAssertEqual(scene.frames.renderer.contentDrawCount, 1)
    }

    func testStaticSceneRendersNothing() {
        let scene = RenderScene()
        let arrow = ArrowLayer()
        arrow.frame = Rect(x: 10, y: 10, width: 180, height: 180)
        arrow.thickness = 20
        arrow.lengthRadians = 4
        arrow.fillColor = .black
        scene.root.addSublayer(arrow)
        let first = scene.frame(at: 0)
        XCTAssertEqual(first.dirty, [IntRect(x: 0, y: 0, width: 200, height: 200)], "the first frame is whole")
        let draws = scene.frames.renderer.contentDrawCount
        for i in 1...30 {
            let r = scene.frame(at: Double(i) / 30)
            XCTAssertEqual(r.dirty, [])
        }
        XCTAssertEqual(scene.frames.renderer.contentDrawCount, draws)
    }

    func testAnimatingArrowRedrawsItsBoxWhenItTurnsAndOnlyTheChangedWedgeWhenItGrows() {
        func arrowScene() -> (RenderScene, ArrowLayer) {
            let scene = RenderScene(width: 1920, height: 1080)
            let arrow = ArrowLayer()
            arrow.frame = Rect(x: 800, y: 400, width: 200, height: 200)
            arrow.thickness = 30
            arrow.fillColor = .black
            arrow.lengthRadians = 2 * .pi
            scene.root.addSublayer(arrow)
            scene.frame(at: 0)
            arrow.add(linearAnimation("lengthRadians", from: 0, to: 2 * .pi, duration: 2), forKey: "l")
            return (scene, arrow)
        }
        let (scene, _) = arrowScene()
        let (full, _) = arrowScene()
        full.frames.damageTracking = false
        // 2π → π/2: the arrow shrinks by three quarters of the ring; its whole box repaints.
        var r = scene.frame(at: 0.5)
        XCTAssertEqual(r.dirty, [IntRect(x: 799, y: 399, width: 202, height: 202)], "the arrow's box, 1 px wider")
        XCTAssertTrue(r.isAnimating)
        // π/2 → 3π/4: the arrows share the band up to π/2 (a split of the arc's grid from the
        // tail at 0), so only the ring between π/2 and 3π/4 changes: around the centre
        // (900, 500) with radii 70…100, x from 900 − 100·cos(π/4) to 900, y from 500 + 70·sin(π/4)
        // to 600.
        r = scene.frame(at: 0.75)
        let wedge = IntRect(x: 830, y: 550, width: 70, height: 50)
        XCTAssertEqual(r.dirty.count, 1)
        XCTAssertEqual(r.dirty.first.map { $0.intersection(wedge) }, wedge, "the changed wedge is repainted")
        XCTAssertLessThan(r.pixelsRedrawn, wedge.area * 3 / 2, "and little more")
        full.frame(at: 0.5)
        full.frame(at: 0.75)
        XCTAssertTrue(samePixels(scene.bitmap, full.bitmap), "a damage-tracked frame is a whole repaint to the bit")
    }

    /// A filling sector repaints the wedge from the last arc split before its old end to its
    /// new end, and frames match whole repaints.
    func testFillingSectorRedrawsOnlyTheWedgeThatChanged() {
        func sectorScene() -> RenderScene {
            let scene = RenderScene(width: 600, height: 400, background: .white)
            let sector = SectorLayer()
            sector.frame = Rect(x: 100, y: 50, width: 300, height: 300)
            sector.startAngle = -.pi / 2
            sector.progress = 1
            scene.root.addSublayer(sector)
            scene.frame(at: 0)
            sector.add(linearAnimation("progress", from: 0, to: 1, duration: 1), forKey: "fill")
            return scene
        }
        let tracked = sectorScene(), full = sectorScene()
        full.frames.damageTracking = false
        tracked.frame(at: 0.25)
        full.frame(at: 0.25)
        // 0.25 → 0.3 of the turn from the top: the split at a quarter turn is the old end, so
        // the wedge runs from 0 (right) to 0.3·2π − π/2 ≈ 18° below it, out to radius 150
        // around (250, 200): x 250…400, y 200…246.
        let r = tracked.frame(at: 0.3)
        full.frame(at: 0.3)
        let wedge = IntRect(x: 251, y: 201, width: 148, height: 44)
        XCTAssertEqual(r.dirty.count, 1)
        XCTAssertEqual(r.dirty.first.map { $0.intersection(wedge) }, wedge)
        XCTAssertLessThan(r.pixelsRedrawn, wedge.area * 3 / 2)
        XCTAssertTrue(samePixels(tracked.bitmap, full.bitmap), "a damage-tracked frame is a whole repaint to the bit")
    }

    /// Absurd angles (a config may hold any number) neither hang the damage computation nor
    /// leave stale pixels: the frame still matches a whole repaint.
    func testHugeAndNonFiniteAnglesStillRenderExactly() {
        for start in [1e20, -3e9, Double.nan, Double.infinity] {
            func scene() -> RenderScene {
                let scene = RenderScene(width: 200, height: 200, background: .white)
                let sector = SectorLayer()
                sector.frame = Rect(x: 20, y: 20, width: 160, height: 160)
                sector.startAngle = start
                let arrow = ArrowLayer()
                arrow.frame = Rect(x: 40, y: 40, width: 120, height: 120)
                arrow.thickness = 20
                arrow.fillColor = .black
                arrow.startRadians = start
                scene.root.addSublayer(sector)
                scene.root.addSublayer(arrow)
                scene.frame(at: 0)
                sector.add(linearAnimation("progress", from: 0, to: 1, duration: 1), forKey: "p")
                arrow.add(linearAnimation("lengthRadians", from: 0.1, to: 6, duration: 1), forKey: "l")
                return scene
            }
            let tracked = scene(), full = scene()
            full.frames.damageTracking = false
            for t in [0.2, 0.25, 0.5] {
                tracked.frame(at: t)
                full.frame(at: t)
                XCTAssertTrue(samePixels(tracked.bitmap, full.bitmap), "start \(start), t = \(t)")
            }
        }
    }

    /// Hundreds of small scattered rectangles (confetti) are gathered on a grid: the tiles
    /// cover every one, no pixel is repainted twice, and the grid is the one whose rectangles
    /// cost least at `pixelsPerRect` each (the finest when a rectangle costs nothing, one
    /// rectangle when it costs more than the frame).
    func testScatteredDamageIsGatheredOnTheGridThatCostsLeast() {
        let frame = IntRect(x: 0, y: 0, width: 1920, height: 1080)
        var random = SplitMix(state: 12)
        let pieces = (0..<300).map { _ in
            Rect(x: random.uniform(-20, 1920), y: random.uniform(-20, 1080), width: 24, height: 30)
        }
        func gathered(pixelsPerRect: Int, frameFraction: Double = 0) -> [IntRect] {
            var policy = DamagePolicy()
            policy.pixelsPerRect = pixelsPerRect
            policy.frameFractionPerRect = frameFraction
            policy.fullFrameFraction = 1
            let rects = policy.deviceRects(for: pieces, frame: frame)
            for (i, a) in rects.enumerated() {
                XCTAssertTrue(frame.contains(a))
                for b in rects[(i + 1)...] { XCTAssertFalse(a.intersects(b), "\(a) and \(b) overlap") }
            }
            for piece in pieces {
                let wanted = IntRect(enclosing: piece).outset(by: 1).intersection(frame)
                let covered = rects.reduce(0) { $0 + $1.intersection(wanted).area }
                XCTAssertEqual(covered, wanted.area, "\(piece) is not all covered")
            }
            return rects
        }
        let finest = gathered(pixelsPerRect: 0)
        XCTAssertGreaterThan(finest.count, 64)
        XCTAssertLessThan(finest.reduce(0) { $0 + $1.area }, frame.area / 2, "tiles around the pieces only")
        XCTAssertEqual(gathered(pixelsPerRect: frame.area).count, 1)
        let cost = { (rects: [IntRect]) in rects.count * 8192 + rects.reduce(0) { $0 + $1.area } }
        let chosen = gathered(pixelsPerRect: 8192)
        XCTAssertLessThanOrEqual(cost(chosen), cost(finest))
        XCTAssertLessThanOrEqual(cost(chosen), 8192 + frame.area)
        // By default a rectangle weighs a 128th of the frame when that is more (16,200 pixels
        // here): fewer, larger rectangles than at 8,192.
        let byDefault = gathered(pixelsPerRect: DamagePolicy().pixelsPerRect, frameFraction: 1.0 / 128)
        XCTAssertEqual(byDefault, gathered(pixelsPerRect: 16200))
        XCTAssertLessThan(byDefault.count, chosen.count)
        XCTAssertEqual(
            gathered(pixelsPerRect: 8192, frameFraction: .nan), chosen, "a fraction that is not a number adds nothing")
    }

    func testDamagePolicyMergesAndFallsBack() {
        let policy = DamagePolicy()
        let frame = IntRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(policy.deviceRects(for: [], frame: frame), [])
        XCTAssertEqual(
            policy.deviceRects(for: [Rect(x: 10.5, y: 10, width: 5, height: 5)], frame: frame),
            [IntRect(x: 9, y: 9, width: 8, height: 7)], "enclosing pixels, outset by one")
        // Overlapping and touching rectangles merge; distant ones stay apart.
        let merged = policy.deviceRects(
            for: [
                Rect(x: 10, y: 10, width: 10, height: 10), Rect(x: 15, y: 15, width: 10, height: 10),
                Rect(x: 70, y: 70, width: 5, height: 5)
            ], frame: frame)
        XCTAssertEqual(
            Set(merged), [IntRect(x: 9, y: 9, width: 17, height: 17), IntRect(x: 69, y: 69, width: 7, height: 7)])
        // More than half the frame: the whole frame.
        XCTAssertEqual(policy.deviceRects(for: [Rect(x: 0, y: 0, width: 80, height: 70)], frame: frame), [frame])
        // Too many rectangles: the closest ones merge first; far-apart corners never become one
        // box over the whole frame.
        var few = DamagePolicy()
        few.maximumRectCount = 2
        let corners = few.deviceRects(
            for: [
                Rect(x: 1, y: 1, width: 4, height: 4), Rect(x: 7, y: 1, width: 4, height: 4),
                Rect(x: 90, y: 90, width: 4, height: 4)
            ], frame: frame)
        XCTAssertEqual(
            Set(corners), [IntRect(x: 0, y: 0, width: 12, height: 6), IntRect(x: 89, y: 89, width: 6, height: 6)])
        // Off-frame damage is dropped; a transform maps into device pixels.
        XCTAssertEqual(policy.deviceRects(for: [Rect(x: 300, y: 0, width: 10, height: 10)], frame: frame), [])
        XCTAssertEqual(
            policy.deviceRects(
                for: [Rect(x: 1, y: 1, width: 2, height: 2)], frame: frame,
                transform: Transform2D(scaleX: 2, y: 2)),
            [IntRect(x: 1, y: 1, width: 6, height: 6)])
    }

    func testDamageTrackedFramesEqualFullFrames() {
        let tracked = makeBusyScene(), full = makeBusyScene()
        full.frames.damageTracking = false
        var partial = 0
        for i in 1...60 {
            let t = Double(i) / 30
            let a = tracked.frame(at: t), b = full.frame(at: t)
            XCTAssertEqual(b.pixelsRedrawn, 400 * 300)
            if a.pixelsRedrawn < 400 * 300 { partial += 1 }
            if !samePixels(tracked.bitmap, full.bitmap) {
                savePNG(tracked.bitmap, "damage-mismatch-tracked")
                savePNG(full.bitmap, "damage-mismatch-full")
                return XCTFail("frame \(i) (t = \(t)) differs between damage-tracked and full rendering")
            }
            if i == 45 { savePNG(tracked.bitmap, "busy-t1.5") }
        }
        XCTAssertGreaterThan(partial, 40, "damage tracking repainted less than the whole frame")
    }

    /// A layer whose drawing changes every frame is drawn straight to the frame, not through
    /// its store; once it stops changing, the next frame that shows it fills the store again.
    /// Direct and stored drawing blend translucent overlapping strokes in a different order, so
    /// they may differ by one level in a channel, never more.
    func testAnimatedDrawingGoesDirectAndStaysWithinOneLevelOfStoredDrawing() {
        func scene(length: Double, opacity: Double) -> (RenderScene, ArrowLayer) {
            let scene = RenderScene(background: Color(red: 0.2, green: 0.5, blue: 0.3))
            let arrow = ArrowLayer()
            arrow.frame = Rect(x: 10.25, y: 12, width: 170, height: 170)
            arrow.thickness = 30
            arrow.headLengthRadians = .pi / 6
            arrow.lengthRadians = length
            arrow.fillColor = Color(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.8)
            arrow.strokeColor = Color(red: 0.1, green: 0.1, blue: 0.6, alpha: 0.7)
            arrow.lineWidth = 6
            arrow.lineJoin = .round
            arrow.opacity = opacity
            scene.root.addSublayer(arrow)
            scene.frame(at: 0)
            return (scene, arrow)
        }
        for opacity in [1.0, 0.5] {
            let (animated, arrow) = scene(length: 1, opacity: opacity)
            let grow = linearAnimation("lengthRadians", from: 0.5, to: 5.5, duration: 1)
            grow.fillMode = .forwards
            grow.isRemovedOnCompletion = false
            arrow.add(grow, forKey: "grow")
            let drawsBefore = animated.frames.renderer.contentDrawCount
            // At 0.1 the animation shows the model's length (1): no change, no draw. After the
            // end nothing changes; a whole frame then fills the store once, and the next
            // whole frame only composites it.
            for (i, t) in [0.1, 0.2, 0.35, 0.6, 1.0, 1.1, 1.2, 1.3, 1.4].enumerated() {
                if t > 1.25 { animated.frames.setNeedsFullFrame() }
                animated.frame(at: t)
                // A renderer that shows the arrow once draws it through its store.
                let (stored, _) = scene(length: arrow.presentation()!.lengthRadians, opacity: opacity)
                let difference = maximumChannelDifference(animated.bitmap, stored.bitmap)
                XCTAssertLessThanOrEqual(difference, 1, "opacity \(opacity), frame \(i) (t = \(t))")
                if t > 1.25 || opacity < 1 {
                    XCTAssertEqual(difference, 0, "drawn through the store: the same pixels")
                }
            }
            // At half opacity the store is kept throughout (its alpha applies to the drawing
            // as a whole), so the end needs no draw.
            XCTAssertEqual(
                animated.frames.renderer.contentDrawCount - drawsBefore, opacity < 1 ? 4 : 4 + 1,
                "one draw per changing frame, one to fill the store after direct draws")
        }
    }

    func testResizeRepaintsWhole() {
        let scene = RenderScene()
        scene.root.addSublayer(square(Rect(x: 10, y: 10, width: 20, height: 20)))
        scene.frame(at: 0)
        scene.frames.resize(width: 120, height: -5)
        XCTAssertEqual(scene.bitmap.width, 120)
        XCTAssertEqual(scene.bitmap.height, 0)
        XCTAssertEqual(scene.frame(at: 0.1).dirty, [], "an empty frame has nothing to repaint")
        scene.frames.resize(width: 120, height: 80)
        XCTAssertEqual(scene.frame(at: 0.2).dirty, [IntRect(x: 0, y: 0, width: 120, height: 80)])
        assertColor(scene.bitmap, Point(x: 15, y: 15), .redColor)
    }

    func square(_ frame: Rect) -> Layer {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = .redColor
        return layer
    }
}
