import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A user subclass: one line per custom property.
final class GaugeLayer: Layer {
    @Animatable var level: Double = 0
    @Animatable var tint: Color? = nil
    @LayerProperty var caption: String = "gauge"

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "level" || super.needsDisplay(forKey: key)
    }
}

final class LayerAndEngineTests: XCTestCase {
    func testFrameDerivesFromBoundsPositionAnchorAndTransform() {
        let layer = Layer()
        layer.frame = Rect(x: 80, y: 80, width: 100, height: 100)
        XCTAssertEqual(layer.bounds, Rect(x: 0, y: 0, width: 100, height: 100))
        assertPoint(layer.position, 130, 130)
        layer.anchorPoint = Point(x: 0, y: 0)
        XCTAssertEqual(layer.frame, Rect(x: 130, y: 130, width: 100, height: 100))
        layer.anchorPoint = Point(x: 0.5, y: 0.5)
        layer.transform = Transform3D(VitrineGraphics.Transform2D(scaleX: 2, y: 2))
        XCTAssertEqual(layer.frame, Rect(x: 30, y: 30, width: 200, height: 200))  // about the centre (130, 130)
        layer.transform = Transform3D(VitrineGraphics.Transform2D(rotationAngle: .pi / 2))
        let f = layer.frame
        XCTAssertEqual(f.minX, 80, accuracy: 1e-9); XCTAssertEqual(f.width, 100, accuracy: 1e-9)
    }

    func testConvertPointAndTime() {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 500, height: 500)
        let a = Layer(), b = Layer()
        a.frame = Rect(x: 100, y: 50, width: 200, height: 200)
        b.frame = Rect(x: 10, y: 20, width: 50, height: 50)
        root.addSublayer(a); a.addSublayer(b)
        assertPoint(b.convert(Point(x: 0, y: 0), to: root), 110, 70)
        assertPoint(root.convert(Point(x: 110, y: 70), to: b), 0, 0)
        assertPoint(a.convert(Point(x: 5, y: 5), from: b), 15, 25)
        a.transform = Transform3D(VitrineGraphics.Transform2D(scaleX: 2, y: 2))  // about a's centre (200, 150)
        assertPoint(b.convert(Point(x: 0, y: 0), to: nil), 200 + 2 * (10 - 100), 150 + 2 * (20 - 100), accuracy: 1e-9)

        a.speed = 2; a.beginTime = 1; a.timeOffset = 0.5
        b.speed = 3
        XCTAssertEqual(b.convertTime(4, from: nil), 3 * ((4 - 1) * 2 + 0.5), accuracy: 1e-12)
        XCTAssertEqual(b.convertTime(b.convertTime(4, from: nil), to: nil), 4, accuracy: 1e-12)
        XCTAssertEqual(a.convertTime(6.5, from: b), 6.5 / 3, accuracy: 1e-12)
    }

    func testSublayerOrder() {
        let root = Layer()
        let a = Layer(), b = Layer(), c = Layer(), d = Layer()
        a.name = "a"; b.name = "b"; c.name = "c"; d.name = "d"
        root.addSublayer(a); root.addSublayer(b)
        root.insertSublayer(c, at: 0)
        root.insertSublayer(d, above: c)
        XCTAssertEqual(root.sublayers.map(\.name), ["c", "d", "a", "b"])
        root.insertSublayer(a, below: c)
        XCTAssertEqual(root.sublayers.map(\.name), ["a", "c", "d", "b"])
        root.replaceSublayer(d, with: Layer())
        XCTAssertNil(d.superlayer)
        b.removeFromSuperlayer()
        XCTAssertEqual(root.sublayers.count, 3)
        let other = Layer()
        other.addSublayer(a)
        XCTAssertTrue(a.superlayer === other)
        XCTAssertEqual(root.sublayers.count, 2)
        root.addSublayer(root)  // ignored, never a cycle through itself
        XCTAssertEqual(root.sublayers.count, 2)
    }

    func testCustomPropertiesInOneLine() {
        XCTAssertEqual(GaugeLayer.customPropertyKeys, ["level", "tint", "caption"])
        let scene = Scene()
        let gauge = GaugeLayer()
        gauge.caption = "fuel"
        gauge.tint = Color(red: 1, green: 0, blue: 0)
        scene.root.addSublayer(gauge)
        let a = BasicAnimation(keyPath: "level")
        a.fromValue = 0.0; a.toValue = 10.0; a.duration = 1
        gauge.add(a, forKey: "fill")
        scene.frame(at: 0)
        scene.frame(at: 0.5)
        let p = gauge.presentation()!
        XCTAssertTrue(type(of: p) == GaugeLayer.self)
        XCTAssertEqual(p.level, 5, accuracy: 1e-12)
        XCTAssertEqual(p.caption, "fuel")
        XCTAssertEqual(p.tint, Color(red: 1, green: 0, blue: 0))
        XCTAssertEqual(gauge.level, 0, "the model keeps its value")
        XCTAssertTrue(p.model() === gauge)
        // Custom keys do not animate implicitly (the delegate or actions must supply one).
        gauge.level = 3
        XCTAssertEqual(gauge.animationKeys(), ["fill"])
    }

    func testPresentationIsAPureFunctionOfTime() {
        let scene = Scene()
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        scene.root.addSublayer(layer)
        let a = KeyframeAnimation(keyPath: "position")
        a.values = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100)]
        a.duration = 2
        a.repeatCount = .infinity
        layer.add(a, forKey: "k")
        scene.frame(at: 0)
        let first = scene.presented(layer, at: 0.7).position
        for t in [5.0, 0.2, 3.3] { scene.frame(at: t) }
        XCTAssertEqual(scene.presented(layer, at: 0.7).position, first)
        let nextCycle = scene.presented(layer, at: 2.7).position
        assertPoint(nextCycle, first.x, first.y, accuracy: 1e-9, "repeats every 2 s")
    }

    func testDelegatesReplacementAndRemoval() {
        let scene = Scene()
        let layer = Layer()
        scene.root.addSublayer(layer)
        scene.frame(at: 0)
        let first = DelegateLog(), second = DelegateLog()
        let a = BasicAnimation(keyPath: "opacity"); a.fromValue = 0.0; a.duration = 1; a.delegate = first
        layer.add(a, forKey: "fade")
        a.duration = 50  // changing the original after adding has no effect: the layer holds a copy
        XCTAssertEqual(layer.animation(forKey: "fade")?.duration, 1)
        XCTAssertFalse(layer.animation(forKey: "fade") === a)
        scene.frame(at: 0.5)
        XCTAssertEqual(first.events, ["start"])
        let b = BasicAnimation(keyPath: "opacity"); b.fromValue = 0.5; b.duration = 1; b.delegate = second
        layer.add(b, forKey: "fade")  // same key replaces: the first stops unfinished
        XCTAssertEqual(first.events, ["start", "stop-unfinished"])
        XCTAssertEqual(layer.animationKeys(), ["fade"])
        scene.frame(at: 1)
        scene.frame(at: 1.6)
        XCTAssertEqual(second.events, ["start", "stop"])
        XCTAssertTrue(layer.animationKeys().isEmpty)

        let c = BasicAnimation(keyPath: "opacity"); c.fromValue = 0.0; c.duration = 1; c.delegate = second
        layer.add(c, forKey: "x"); layer.add(c, forKey: "y")
        scene.frame(at: 2)
        layer.removeAllAnimations()
        XCTAssertEqual(second.events.suffix(4), ["start", "start", "stop-unfinished", "stop-unfinished"])
    }

    func testAnimationAddedDuringAFrameBeginsAtExactlyThatFramesTime() {
        // 180 days of uptime: a frame time in seconds then has a resolution of about 2 ns, so
        // any second reading of the time could differ from the frame's in the last bit, and the
        // first frame of a fade would show it already under way (or, held back by a nanosecond,
        // not begun).
        let t = 15_552_000.123_456_789
        let layer = Layer()
        let engine = Engine(root: layer)
        engine.tick(at: t - 1.0 / 60)
        engine.beginFrame(at: t)
        XCTAssertEqual(engine.currentMediaTime, t)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.25; fade.toValue = 1.0; fade.duration = 1
        layer.add(fade, forKey: "fade")
        XCTAssertEqual(engine.tick(at: t).presentation.opacity, 0.25)
        XCTAssertEqual(layer.animation(forKey: "fade")?.beginTime, t)
    }

    func testCumulativeRepeatsAndAdditive() {
        let layer = Layer()
        layer.zPosition = 100
        let engine = Engine(root: layer)
        let a = BasicAnimation(keyPath: "zPosition")
        a.fromValue = 0.0; a.toValue = 10.0; a.duration = 1; a.repeatCount = 3
        a.isCumulative = true; a.isAdditive = true
        layer.add(a, forKey: "spin")
        engine.tick(at: 0)
        XCTAssertEqual(engine.presentationTree(at: 0.5).zPosition, 105, accuracy: 1e-12)
        XCTAssertEqual(engine.presentationTree(at: 1.5).zPosition, 115, accuracy: 1e-12)
        XCTAssertEqual(engine.presentationTree(at: 2.5).zPosition, 125, accuracy: 1e-12)
    }

    func testSpeedMultipliesThroughGroupAndLayers() {
        let root = Layer(), child = Layer()
        root.addSublayer(child)
        root.speed = 0.5
        let engine = Engine(root: root)
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 12; a.speed = 1.5
        let g = AnimationGroup()
        g.duration = 100; g.speed = 2; g.animations = [a]
        child.add(g, forKey: "g")
        engine.tick(at: 0)
        // 0.5 × 2 × 1.5 = 1.5: at scene time 2, 3 s of the child's 12 have passed.
        XCTAssertEqual(engine.presentationTree(at: 2).sublayers[0].opacity, 0.25, accuracy: 1e-12)
    }

    func testDamageCoversOldAndNewBoundsAndMaskedArea() {
        let scene = Scene()
        let box = Layer()
        box.frame = Rect(x: 10, y: 10, width: 20, height: 20)
        box.backgroundColor = .black
        scene.root.addSublayer(box)
        let first = scene.frame(at: 0)
        XCTAssertTrue(first.changedLayers.contains { $0 === box })
        XCTAssertTrue(first.redrawLayers.contains { $0 === box }, "first shown: drawn once")
        XCTAssertTrue(scene.frame(at: 0.1).dirtyRects.isEmpty, "nothing changed")
        Transaction.setDisableActions(true)
        box.position = Point(x: 120, y: 20)
        let moved = scene.frame(at: 0.2)
        XCTAssertEqual(moved.changedLayers.map { $0 === box }, [true])
        XCTAssertTrue(moved.redrawLayers.isEmpty, "moving does not redraw contents")
        let union = moved.dirtyRects.reduce(Rect.null) { $0.union($1) }
        XCTAssertTrue(union.contains(Point(x: 10, y: 10)) && union.contains(Point(x: 129, y: 29)))
        XCTAssertFalse(moved.dirtyRects.contains { $0.contains(Point(x: 200, y: 200)) })

        // A mask's change damages the masked layer's area, not the mask's own.
        let image = Layer()
        image.frame = Rect(x: 200, y: 200, width: 100, height: 100)
        image.backgroundColor = .white
        let mask = ArrowLayer()
        mask.frame = image.bounds
        image.mask = mask
        scene.root.addSublayer(image)
        scene.frame(at: 0.3)
        mask.lengthRadians = 1
        let masked = scene.frame(at: 0.4)
        XCTAssertTrue(masked.redrawLayers.contains { $0 === mask })
        XCTAssertTrue(masked.dirtyRects.contains { $0.contains(Point(x: 250, y: 250)) })
        Transaction.setDisableActions(false)
    }

    /// A layer above an animated one gets a new copy every frame; when nothing of its own
    /// changed it is not reported, and when its own value changed in the same frame it is.
    func testALayerAboveAnAnimatedOneIsChangedOnlyWhenItsOwnValuesAre() {
        let scene = Scene()
        let card = Layer()
        card.frame = Rect(x: 10, y: 10, width: 200, height: 100)
        card.backgroundColor = .white
        let dot = Layer()
        dot.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        dot.backgroundColor = .black
        card.addSublayer(dot)
        scene.root.addSublayer(card)
        dot.add(linearAnimation("position.x", from: 5, to: 195, duration: 10), forKey: "x")
        scene.frame(at: 0)
        let plain = scene.frame(at: 1)
        XCTAssertEqual(plain.changedLayers.map { $0 === dot }, [true])
        Transaction.setDisableActions(true)
        card.backgroundColor = .black
        let recoloured = scene.frame(at: 2)
        Transaction.setDisableActions(false)
        XCTAssertTrue(recoloured.changedLayers.contains { $0 === card })
        XCTAssertTrue(recoloured.dirtyRects.contains { $0.contains(Point(x: 150, y: 90)) })
        XCTAssertEqual(scene.frame(at: 3).changedLayers.map { $0 === dot }, [true])
    }

    func testRedrawOnlyForNamedKeysAndBoundsChange() {
        let scene = Scene()
        let gauge = GaugeLayer()
        gauge.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        scene.root.addSublayer(gauge)
        scene.frame(at: 0)
        Transaction.setDisableActions(true)
        gauge.opacity = 0.5
        XCTAssertTrue(scene.frame(at: 1).redrawLayers.isEmpty, "opacity is not a display key")
        gauge.level = 2
        XCTAssertEqual(scene.frame(at: 2).redrawLayers.count, 1)
        gauge.setNeedsDisplay()
        XCTAssertEqual(scene.frame(at: 3).redrawLayers.count, 1)
        XCTAssertTrue(scene.frame(at: 4).redrawLayers.isEmpty)
        gauge.needsDisplayOnBoundsChange = true
        gauge.bounds = Rect(x: 0, y: 0, width: 20, height: 10)
        XCTAssertEqual(scene.frame(at: 5).redrawLayers.count, 1)
        Transaction.setDisableActions(false)
    }

    func testTimingFunctionSolvesToHighPrecision() {
        let f = TimingFunction(controlPoints: 0.1, 0.9, 0.9, 0.1)
        for x in stride(from: 0.0, through: 1.0, by: 0.01) {
            let t = f.solveParameter(x)
            let bx = 3 * (1 - t) * (1 - t) * t * 0.1 + 3 * (1 - t) * t * t * 0.9 + t * t * t
            XCTAssertEqual(bx, x, accuracy: 1e-6)
        }
        XCTAssertEqual(TimingFunction.easeIn.value(at: 0), 0)
        XCTAssertEqual(TimingFunction.easeIn.value(at: 1), 1)
        XCTAssertEqual(TimingFunction.easeIn.value(at: .nan), 0)
        XCTAssertEqual(TimingFunction(controlPoints: -3, 2, 9, -1).c2x, 1, "x control points clamped")
    }

    func testContentsGravity() {
        let b = Rect(x: 0, y: 0, width: 200, height: 100)
        let s = Size(width: 50, height: 50)
        XCTAssertEqual(ContentsGravity.resize.rect(forContentsOf: s, in: b), b)
        XCTAssertEqual(
            ContentsGravity.resizeAspect.rect(forContentsOf: s, in: b), Rect(x: 50, y: 0, width: 100, height: 100))
        XCTAssertEqual(
            ContentsGravity.resizeAspectFill.rect(forContentsOf: s, in: b), Rect(x: 0, y: -50, width: 200, height: 200))
        XCTAssertEqual(
            ContentsGravity.bottomRight.rect(forContentsOf: s, in: b), Rect(x: 150, y: 50, width: 50, height: 50))
        XCTAssertEqual(ContentsGravity.top.rect(forContentsOf: s, in: b), Rect(x: 75, y: 0, width: 50, height: 50))
    }
}
