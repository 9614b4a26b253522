import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// How the model, presentation copies, fill modes, transactions and actions behave, written as
/// seed 003 runs them.
final class AnimationModelBehaviourTests: XCTestCase {
    /// A 100×100 view at frame (80, 80): position (130, 130).
    func makeView(in scene: Scene) -> Layer {
        let view = Layer()
        view.frame = Rect(x: 80, y: 80, width: 100, height: 100)
        view.backgroundColor = Color(red: 0, green: 0, blue: 1)
        scene.root.addSublayer(view)
        return view
    }

    func positionAnimation() -> BasicAnimation {
        let a = BasicAnimation(keyPath: "position")
        a.duration = 2
        a.fromValue = Point(x: 80, y: 80)
        a.toValue = Point(x: 200, y: 300)
        return a
    }

    func testPositionAnimationSnapsBackToTheModel() {
        let scene = Scene()
        let view = makeView(in: scene)
        assertPoint(view.position, 130, 130)
        view.add(positionAnimation(), forKey: nil)
        scene.frame(at: 0)
        assertPoint(view.presentation()!.position, 80, 80)
        scene.frame(at: 1)
        assertPoint(view.presentation()!.position, 140, 190)  // halfway, linear
        assertPoint(view.position, 130, 130)  // the model never moved
        scene.frame(at: 2.5)
        assertPoint(view.presentation()!.position, 130, 130)  // back to the model
        XCTAssertTrue(view.animationEntries.isEmpty, "removed on completion")
    }

    func testRemovedOnCompletionFalseWithFillForwardsHoldsTheEnd() {
        let scene = Scene()
        let view = makeView(in: scene)
        let a = positionAnimation()
        a.isRemovedOnCompletion = false
        a.fillMode = .forwards
        view.add(a, forKey: "move")
        scene.frame(at: 0)
        scene.frame(at: 2.5)
        assertPoint(view.presentation()!.position, 200, 300)
        assertPoint(view.position, 130, 130)  // P and M disagree, as the article warns
        XCTAssertEqual(view.animationKeys(), ["move"])
        scene.frame(at: 10)
        assertPoint(view.presentation()!.position, 200, 300)
        view.removeAnimation(forKey: "move")
        scene.frame(at: 10.1)
        assertPoint(view.presentation()!.position, 130, 130)
    }

    func testFromOnlyWithTheModelSetFirst() {
        let scene = Scene()
        let view = makeView(in: scene)
        view.position = Point(x: 200, y: 300)  // set before the view is shown: no implicit animation
        let a = BasicAnimation(keyPath: "position")
        a.duration = 2
        a.fromValue = Point(x: 80, y: 80)
        view.add(a, forKey: nil)
        XCTAssertEqual(view.animationEntries.count, 1)
        scene.frame(at: 0)
        assertPoint(view.presentation()!.position, 80, 80)  // no flash at the model position
        scene.frame(at: 0.5)
        assertPoint(view.presentation()!.position, 110, 135)
        scene.frame(at: 3)
        assertPoint(view.presentation()!.position, 200, 300)  // ends where the model is
        XCTAssertTrue(view.animationKeys().isEmpty)
    }

    /// Opacity model 0.5; animation 0 → 1 over 1 s starting 1 s after it is added
    /// (beginTime = CACurrentMediaTime() + 1), not removed on completion.
    func testDelayedOpacityUnderEachFillMode() {
        let expectations: [(FillMode, delay: Double, active: Double, after: Double)] = [
            (.removed, 0.5, 0.25, 0.5),
            (.forwards, 0.5, 0.25, 1),
            (.backwards, 0, 0.25, 0.5),
            (.both, 0, 0.25, 1)
        ]
        for (mode, delay, active, after) in expectations {
            let scene = Scene()
            scene.engine.beginFrame(at: 10)
            let layer = Layer()
            layer.frame = Rect(x: 100, y: 100, width: 200, height: 200)
            layer.opacity = 0.5
            scene.root.addSublayer(layer)
            let a = BasicAnimation(keyPath: "opacity")
            a.fromValue = 0.0
            a.toValue = 1.0
            a.duration = 1
            a.beginTime = scene.engine.currentMediaTime + 1
            a.isRemovedOnCompletion = false
            a.fillMode = mode
            layer.add(a, forKey: "opacity")
            scene.frame(at: 10)
            scene.frame(at: 10.5)
            XCTAssertEqual(layer.presentation()!.opacity, delay, accuracy: 1e-12, "\(mode) during the delay")
            scene.frame(at: 11.25)
            XCTAssertEqual(layer.presentation()!.opacity, active, accuracy: 1e-12, "\(mode) while active")
            scene.frame(at: 12.5)
            XCTAssertEqual(layer.presentation()!.opacity, after, accuracy: 1e-12, "\(mode) after the end")
            XCTAssertEqual(layer.opacity, 0.5)
        }
    }

    /// The slider: a colour animation on a layer paused with speed 0, scrubbed by timeOffset.
    func testPausedLayerScrubbedThroughTimeOffset() {
        let scene = Scene()
        scene.engine.beginFrame(at: 5)
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 50, height: 50)
        scene.root.addSublayer(layer)
        let orange = Color(red: 1, green: 0.5, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let change = BasicAnimation(keyPath: "backgroundColor")
        change.fromValue = orange
        change.toValue = blue
        change.duration = 1
        layer.add(change, forKey: "Change color")
        layer.speed = 0  // pause, in the same transaction
        let first = scene.frame(at: 5)
        XCTAssertEqual(layer.presentation()!.backgroundColor, orange)
        XCTAssertFalse(first.isAnimating, "a paused layer does not animate")
        for value in [0.3, 0.8, 0.1] {
            layer.timeOffset = value  // sliderChanged
            for t in [6.0, 40.0] {
                scene.frame(at: t)
                let c = layer.presentation()!.backgroundColor!
                XCTAssertEqual(c.red, 1 - value, accuracy: 1e-12)
                XCTAssertEqual(c.green, 0.5 * (1 - value), accuracy: 1e-12)
                XCTAssertEqual(c.blue, value, accuracy: 1e-12)
            }
        }
        XCTAssertEqual(layer.animationKeys(), ["Change color"], "never finishes while paused")
    }

    func testImplicitAnimationOutsideAndInsideTransactions() {
        let scene = Scene()
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        layer.opacity = 1
        scene.root.addSublayer(layer)
        XCTAssertTrue(layer.animationKeys().isEmpty, "a layer not yet rendered does not animate")
        scene.frame(at: 0)

        // Outside any explicit transaction: the default implicit animation, 0.25 s, starting now.
        scene.engine.beginFrame(at: 1)
        layer.opacity = 0.2
        let implicit = layer.animation(forKey: "opacity") as? BasicAnimation
        XCTAssertNotNil(implicit)
        XCTAssertEqual(implicit?.duration, 0.25)
        XCTAssertEqual(implicit?.fromValue as? Double, 1)
        XCTAssertEqual(implicit?.timingFunction, .default)
        scene.frame(at: 1)
        XCTAssertEqual(
            layer.presentation()!.opacity, 1, "the model changed, the presentation starts from the old value")
        scene.frame(at: 1.125)
        XCTAssertEqual(layer.presentation()!.opacity, 1 - 0.8 * TimingFunction.default.value(at: 0.5), accuracy: 1e-12)
        scene.frame(at: 1.25)
        XCTAssertEqual(layer.presentation()!.opacity, 0.2, accuracy: 1e-12)
        XCTAssertTrue(layer.animationKeys().isEmpty)

        // Actions disabled: the change shows at the next frame without animating.
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.opacity = 0.9
        Transaction.commit()
        XCTAssertTrue(layer.animationKeys().isEmpty)
        scene.frame(at: 2)
        XCTAssertEqual(layer.presentation()!.opacity, 0.9)

        // A transaction's duration and timing function shape the implicit animation.
        scene.engine.beginFrame(at: 3)
        Transaction.begin()
        Transaction.setAnimationDuration(2)
        Transaction.setAnimationTimingFunction(.linear)
        layer.position = Point(x: 105, y: 5)
        Transaction.commit()
        scene.frame(at: 3)
        scene.frame(at: 4)
        assertPoint(layer.presentation()!.position, 55, 5)

        // The setting of a nested transaction wins; the outer one returns after it.
        Transaction.begin()
        Transaction.setDisableActions(true)
        Transaction.begin()
        Transaction.setDisableActions(false)
        XCTAssertFalse(Transaction.disableActions())
        Transaction.commit()
        XCTAssertTrue(Transaction.disableActions())
        Transaction.commit()
    }

    func testActionSearchOrderAndNullAction() {
        final class Delegate: LayerDelegate {
            var answer: Action?
            var asked: [String] = []
            func action(for layer: Layer, forKey key: String) -> Action? { asked.append(key); return answer }
        }
        let scene = Scene()
        let layer = Layer()
        scene.root.addSublayer(layer)
        scene.frame(at: 0)
        let delegate = Delegate()
        layer.delegate = delegate

        delegate.answer = NullAction.shared  // NSNull: no animation at all
        layer.opacity = 0.5
        XCTAssertEqual(delegate.asked, ["opacity"])
        XCTAssertTrue(layer.animationKeys().isEmpty)

        delegate.answer = nil  // nil: keep searching → actions dictionary
        layer.actions["opacity"] = NullAction.shared
        layer.opacity = 0.4
        XCTAssertTrue(layer.animationKeys().isEmpty)

        let custom = BasicAnimation()
        custom.duration = 3
        layer.actions["opacity"] = custom  // a real action from the dictionary
        layer.opacity = 0.3
        XCTAssertEqual((layer.animation(forKey: "opacity") as? BasicAnimation)?.keyPath, "opacity")
        XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 3)

        layer.actions = [:]  // nothing anywhere: the class default, 0.25 s
        layer.position = Point(x: 1, y: 1)
        XCTAssertEqual(layer.animation(forKey: "position")?.duration, 0.25)

        let fresh = Layer()
        scene.root.addSublayer(fresh)
        fresh.position = Point(x: 50, y: 50)  // not yet rendered: no action
        XCTAssertTrue(fresh.animationKeys().isEmpty)
    }

    func testCompletionBlockTiming() {
        let scene = Scene()
        let layer = Layer()
        scene.root.addSublayer(layer)
        scene.frame(at: 0)
        var fired: [String: Double] = [:]
        var now = 0.0

        // No animation in the transaction: the block runs at commit.
        Transaction.begin()
        Transaction.setCompletionBlock { fired["empty"] = now }
        Transaction.commit()
        XCTAssertEqual(fired["empty"], 0)

        // One explicit 2 s animation: runs on the frame where it ends.
        Transaction.begin()
        Transaction.setCompletionBlock { fired["single"] = now }
        let a = BasicAnimation(keyPath: "zPosition")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 2
        layer.add(a, forKey: "z")
        Transaction.commit()
        XCTAssertNil(fired["single"])
        for t in stride(from: 0.5, through: 3, by: 0.5) { now = t; scene.frame(at: t) }
        XCTAssertEqual(fired["single"], 2)

        // Nested: the inner block waits for its 1 s animation; the outer one for everything
        // added after it was set, the inner transaction's 3 s animation included.
        now = 10; scene.frame(at: 10)
        Transaction.begin()
        Transaction.setCompletionBlock { fired["outer"] = now }
        Transaction.begin()
        Transaction.setCompletionBlock { fired["inner"] = now }
        let inner = BasicAnimation(keyPath: "opacity"); inner.fromValue = 0.0; inner.duration = 1
        layer.add(inner, forKey: "inner")
        let long = BasicAnimation(keyPath: "zPosition"); long.fromValue = 5.0; long.duration = 3
        Transaction.setCompletionBlock { fired["inner"] = now }
        layer.add(long, forKey: "long")
        Transaction.commit()
        let outerOnly = BasicAnimation(keyPath: "cornerRadius"); outerOnly.fromValue = 5.0; outerOnly.duration = 0.5
        layer.add(outerOnly, forKey: "outer")
        Transaction.commit()
        for t in stride(from: 10.25, through: 14, by: 0.25) { now = t; scene.frame(at: t) }
        XCTAssertEqual(fired["inner"], 13)
        XCTAssertEqual(fired["outer"], 13)

        // An animation removed early ends its transaction at once (and stops unfinished).
        let log = DelegateLog()
        now = 20; scene.engine.beginFrame(at: 20)
        Transaction.begin()
        Transaction.setCompletionBlock { fired["removed"] = now }
        let r = BasicAnimation(keyPath: "opacity"); r.fromValue = 0.0; r.duration = 5; r.delegate = log
        layer.add(r, forKey: "r")
        Transaction.commit()
        scene.frame(at: 20)
        now = 21; layer.removeAnimation(forKey: "r")
        XCTAssertEqual(fired["removed"], 21)
        XCTAssertEqual(log.events, ["start", "stop-unfinished"])
    }

    /// Seed 000's transaction: the animation gets the transaction's duration (2 s), autoreverses,
    /// and the completion block runs after forward and back (4 s).
    func testArrowMaskAnimationInATransaction() {
        let scene = Scene()
        let image = Layer()
        image.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        scene.root.addSublayer(image)
        let arrow = ArrowLayer()
        arrow.frame = image.bounds
        arrow.thickness = 60
        arrow.startRadians = -.pi / 2
        arrow.lengthRadians = 0
        arrow.headLengthRadians = .pi / 16
        arrow.fillColor = .white
        image.mask = arrow
        scene.frame(at: 0)
        var doneAt: Double?
        var now = 0.0
        Transaction.begin()
        Transaction.setAnimationDuration(2)
        Transaction.setCompletionBlock { doneAt = now }
        let a = BasicAnimation(keyPath: "lengthRadians")
        a.timingFunction = .linear
        a.autoreverses = true
        a.fromValue = 0.0
        a.toValue = 2 * Double.pi
        arrow.add(a, forKey: a.keyPath)
        Transaction.commit()
        XCTAssertEqual(arrow.animation(forKey: "lengthRadians")?.duration, 2)
        for t in stride(from: 0.5, through: 5, by: 0.5) {
            now = t
            let update = scene.frame(at: t)
            let length = arrow.presentation()!.lengthRadians
            let expected = t <= 2 ? .pi * t : (t < 4 ? .pi * (4 - t) : 0)
            XCTAssertEqual(length, expected, accuracy: 1e-9, "t=\(t)")
            if t < 4 { XCTAssertTrue(update.redrawLayers.contains { $0 === arrow }, "the mask redraws at \(t)") }
        }
        XCTAssertEqual(doneAt, 4)
    }
}
