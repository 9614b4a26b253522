import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// CAReplicatorLayer's instances: placed by powers of instanceTransform about the centre,
/// running instanceDelay behind one another, tinted by the instance colour and its offsets.
final class ReplicatorLayerTests: XCTestCase {
    /// A 12-instance spinner over black: a white 10 × 10 dot 30 px above the centre (100, 100),
    /// each instance turned 30° further, its opacity running 1 → 0 over a second, again and again.
    private func spinner(delay: Double) -> (RenderScene, ReplicatorLayer) {
        let scene = RenderScene(width: 200, height: 200, background: .black)
        let replicator = ReplicatorLayer()
        replicator.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        replicator.instanceCount = 12
        replicator.instanceTransform = Transform3D(Transform2D(rotationAngle: .pi / 6))
        replicator.instanceDelay = delay
        let dot = Layer()
        dot.frame = Rect(x: 95, y: 65, width: 10, height: 10)
        dot.backgroundColor = .white
        replicator.addSublayer(dot)
        scene.root.addSublayer(replicator)
        scene.frame(at: 0)
        let fade = linearAnimation("opacity", from: 1, to: 0, duration: 1)
        fade.repeatCount = .infinity
        dot.add(fade, forKey: "fade")
        return (scene, replicator)
    }

    /// The centre of instance i's dot: 30 px from the centre, turned i × 30° clockwise from up.
    private func dotCentre(_ i: Int) -> Point {
        let angle = Double(i) * .pi / 6
        return Point(x: 100 + 30 * sin(angle), y: 100 - 30 * cos(angle))
    }

    func testEachInstanceShowsItsOwnPhase() {
        let (scene, _) = spinner(delay: 1.0 / 12)
        let t = 1.5
        scene.frame(at: 0.5)
        scene.frame(at: t)
        savePNG(scene.bitmap, "replicator-spinner")
        for i in 0..<12 {
            let local = t - Double(i) / 12
            let phase = local - local.rounded(.down)
            let c = color(scene.bitmap, at: dotCentre(i))
            XCTAssertEqual(c.red, 1 - phase, accuracy: 2 / 255, "instance \(i)")
        }
    }

    func testWithoutDelayEveryInstanceShowsTheSameFrame() {
        let (scene, replicator) = spinner(delay: 0)
        scene.frame(at: 0.25)
        for i in 0..<12 { XCTAssertEqual(color(scene.bitmap, at: dotCentre(i)).red, 0.75, accuracy: 2 / 255) }
        XCTAssertTrue(
            scene.engine.tick(at: 0.3).presentation.sublayers.contains {
                ($0 as? ReplicatorLayer)?.delayedInstances.isEmpty == true
            })
        _ = replicator
    }

    /// A replicator over all of `scene`: `count` instances in a row, `step` px apart, tinted by
    /// `color` plus i times the offsets (red, green, blue, alpha).
    private func tintedRow(
        in scene: RenderScene, count: Int, step: Double, color: Color, offsets: (Double, Double, Double, Double)
    ) -> ReplicatorLayer {
        let replicator = ReplicatorLayer()
        replicator.frame = Rect(x: 0, y: 0, width: Double(scene.bitmap.width), height: Double(scene.bitmap.height))
        replicator.instanceCount = count
        replicator.instanceTransform = Transform3D(Transform2D(translationX: step, y: 0))
        replicator.instanceColor = color
        (replicator.instanceRedOffset, replicator.instanceGreenOffset) = (offsets.0, offsets.1)
        (replicator.instanceBlueOffset, replicator.instanceAlphaOffset) = (offsets.2, offsets.3)
        scene.root.addSublayer(replicator)
        return replicator
    }

    func testInstanceColourAndOffsetsTint() {
        let scene = RenderScene(width: 200, height: 40, background: .black)
        let replicator = tintedRow(
            in: scene, count: 4, step: 40, color: Color(red: 1, green: 0.5, blue: 0), offsets: (0, 0.25, 0.5, -0.25))
        let square = Layer()
        square.frame = Rect(x: 10, y: 10, width: 20, height: 20)
        square.backgroundColor = .white
        replicator.addSublayer(square)
        scene.frame(at: 0)
        for i in 0..<4 {
            let k = Double(i)
            let alpha = 1 - 0.25 * k
            let expected = Color(
                red: alpha, green: min(1, 0.5 + 0.25 * k) * alpha, blue: min(1, 0.5 * k) * alpha)
            assertColor(scene.bitmap, Point(x: 20 + 40 * k, y: 20), expected, tolerance: 2 / 255, "instance \(i)")
        }
        assertColor(scene.bitmap, Point(x: 180, y: 20), .black)  // a fifth would be here
    }

    func testABarShowingOnlyItsBackgroundIsTintedAsItsGroupWouldBe() {
        // The same tinted, translucent, rounded bars, alone in each instance (drawn straight in
        // the tinted colour) and beside an empty layer (each instance a tinted group).
        func bars(besideAnEmptyLayer: Bool) -> Bitmap {
            let scene = RenderScene(width: 240, height: 60, background: Color(red: 0.1, green: 0.2, blue: 0.3))
            let replicator = tintedRow(
                in: scene, count: 5, step: 47.5, color: Color(red: 0.31, green: 0.76, blue: 0.97),
                offsets: (0.11, -0.17, 0, -0.15))
            let bar = Layer()
            bar.frame = Rect(x: 6.25, y: 5.5, width: 30.5, height: 48.25)
            bar.cornerRadius = 9
            bar.backgroundColor = Color(red: 0.9, green: 0.6, blue: 0.8, alpha: 0.85)
            bar.opacity = 0.7
            replicator.addSublayer(bar)
            if besideAnEmptyLayer { replicator.addSublayer(Layer()) }
            scene.frame(at: 0)
            return scene.bitmap
        }
        let straight = bars(besideAnEmptyLayer: false), grouped = bars(besideAnEmptyLayer: true)
        let background = straight[230, 30]
        var drawn = 0
        for y in 0..<60 {
            for x in 0..<240 {
                let a = straight[x, y], b = grouped[x, y]
                for shift: UInt32 in [0, 8, 16, 24] {
                    let d = abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
                    XCTAssertLessThanOrEqual(d, 1, "(\(x), \(y))")
                }
                if a != background { drawn += 1 }
            }
        }
        // The five bars (30.5 × 48.25 each) were drawn; the two ways differ at most by rounding.
        XCTAssertGreaterThan(drawn, 5 * 30 * 48)
        XCTAssertNotEqual(straight[20, 30], straight[210, 30])
    }

    func testLaterInstancesKeepTheLinkRunningAfterTheFirstStops() {
        let scene = RenderScene(width: 100, height: 100)
        let replicator = ReplicatorLayer()
        replicator.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        replicator.instanceCount = 3
        replicator.instanceDelay = 0.5
        let child = Layer()
        child.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        child.backgroundColor = .redColor
        replicator.addSublayer(child)
        scene.root.addSublayer(replicator)
        scene.frame(at: 0)
        let move = linearAnimation("position.x", from: 5, to: 95, duration: 1)
        move.fillMode = .forwards
        move.isRemovedOnCompletion = false
        child.add(move, forKey: "move")
        scene.frame(at: 0)
        XCTAssertTrue(scene.frame(at: 1.5).isAnimating, "the third instance runs until 2 s")
        XCTAssertFalse(scene.frame(at: 2.5).isAnimating)
        XCTAssertEqual(scene.frame(at: 2.6).pixelsRedrawn, 0, "still, nothing is repainted")
    }

    func testDamageTrackedFramesEqualWholeRepaints() {
        let (tracked, _) = spinner(delay: 1.0 / 12)
        let (full, _) = spinner(delay: 1.0 / 12)
        full.frames.damageTracking = false
        for i in 1...20 {
            let t = Double(i) * 0.07
            tracked.frame(at: t)
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
        }
    }

    /// A spinner whose dots fade repaints the twelve dots, not the replicator's whole extent:
    /// its first instance's dot damages itself, the later ones where each is.
    func testLaterInstancesDamageOnlyWhereTheyChange() {
        for delay in [1.0 / 12, 0] {
            let (scene, _) = spinner(delay: delay)
            scene.frame(at: 0.5)
            let redrawn = scene.frame(at: 0.55).pixelsRedrawn
            XCTAssertGreaterThan(redrawn, 12 * 10 * 10, "delay \(delay)")
            XCTAssertLessThan(redrawn, 200 * 200 / 4, "delay \(delay)")
        }
    }

    /// Replicators whose later instances change in every way the damage must follow (a delayed
    /// fade with a shadow, a bar scaled from its foot with a moving sublayer, instances hidden,
    /// the count and the instance transform changed, a sublayer added) repaint, frame after
    /// frame, the pixels a whole repaint shows.
    func testChangingInstancesRepaintWhatWholeFramesShow() {
        func make() -> (RenderScene, ReplicatorLayer, ReplicatorLayer, Layer) {
            let scene = RenderScene(width: 640, height: 400, background: Color(red: 0.1, green: 0.12, blue: 0.2))
            let ring = ReplicatorLayer()
            ring.frame = Rect(x: 0, y: 0, width: 200, height: 200)
            ring.instanceCount = 12
            ring.instanceTransform = Transform3D(Transform2D(rotationAngle: .pi / 6))
            ring.instanceDelay = 1.0 / 12
            let blade = Layer()
            blade.frame = Rect(x: 93.5, y: 20.25, width: 13, height: 40)
            blade.cornerRadius = 6.5
            blade.backgroundColor = Color(red: 0.9, green: 0.88, blue: 0.85)
            blade.shadowOpacity = 0.8
            blade.shadowRadius = 3
            blade.shadowOffset = Size(width: 2, height: 3)
            let fade = linearAnimation("opacity", from: 1, to: 0.15, duration: 1)
            fade.repeatCount = .infinity
            blade.add(fade, forKey: "fade")
            ring.addSublayer(blade)
            let bars = ReplicatorLayer()
            bars.frame = Rect(x: 200, y: 20, width: 120, height: 160)
            bars.instanceCount = 5
            bars.instanceTransform = Transform3D(Transform2D(translationX: 23, y: 0))
            bars.instanceColor = Color(red: 0.3, green: 0.76, blue: 0.97)
            bars.instanceRedOffset = 0.11
            let bar = Layer()
            bar.bounds = Rect(x: 0, y: 0, width: 16, height: 160)
            bar.anchorPoint = Point(x: 0.5, y: 1)
            bar.position = Point(x: 10, y: 160)
            bar.cornerRadius = 4
            bar.backgroundColor = .white
            let grow = linearAnimation("transform.scale.y", from: 0.12, to: 1, duration: 0.55)
            grow.autoreverses = true
            grow.repeatCount = .infinity
            bar.add(grow, forKey: "grow")
            let dot = Layer()
            dot.frame = Rect(x: 4, y: 0, width: 8, height: 8)
            dot.backgroundColor = .redColor
            dot.add(linearAnimation("position.y", from: 10, to: 150, duration: 2), forKey: "fall")
            bar.addSublayer(dot)
            bars.addSublayer(bar)
            scene.root.addSublayer(ring)
            scene.root.addSublayer(bars)
            return (scene, ring, bars, dot)
        }
        let (tracked, trackedRing, trackedBars, trackedDot) = make()
        let (full, fullRing, fullBars, fullDot) = make()
        let redrawn = repaintedPixels(tracked, against: full, at: (0...90).map { Double($0) / 60 }) { i in
            for (ring, bars, dot) in [(trackedRing, trackedBars, trackedDot), (fullRing, fullBars, fullDot)] {
                Transaction.begin()
                Transaction.setDisableActions(true)
                if i == 20 { dot.isHidden = true }
                if i == 30 { dot.isHidden = false }
                if i == 40 { ring.instanceCount = 8 }
                if i == 50 { bars.instanceTransform = Transform3D(Transform2D(translationX: 20, y: 4)) }
                if i == 60 {
                    let extra = Layer()
                    extra.frame = Rect(x: 60, y: 90, width: 12, height: 12)
                    extra.backgroundColor = .greenColor
                    ring.addSublayer(extra)
                }
                Transaction.commit()
            }
        }
        // The two replicators' extents are 64,521 pixels with the outsets.
        XCTAssertGreaterThan(
            redrawn.filter { $0 < 55_000 }.count, 60, "the instances' changes were repainted where they are")
        savePNG(tracked.bitmap, "replicator-instances-damage")
    }

    func testInstanceCountBeyondTheMaximumDrawsTheMaximum() {
        let replicator = ReplicatorLayer()
        replicator.instanceCount = 1_000_000_000
        XCTAssertEqual(replicator.drawnInstanceCount, ReplicatorLayer.maximumInstanceCount)
        replicator.instanceCount = -5
        XCTAssertEqual(replicator.drawnInstanceCount, 0)
    }
}
