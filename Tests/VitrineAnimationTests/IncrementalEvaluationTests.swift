import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// The engine keeps presentation copies of layers that did not change, and makes new copies
/// (never modifying old ones) for the rest; the frames it produces equal a fresh evaluation.
final class IncrementalEvaluationTests: XCTestCase {
    /// Asserts two presentation trees show the same thing: the same model layers in the same
    /// places, equal animatable values, sublayers pointing back at their parents.
    func assertSameTree(
        _ a: Layer, _ b: Layer, _ where: String = "root", file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertTrue(a.model() === b.model(), "\(`where`): different model layers", file: file, line: line)
        for key in a.propertyKeys {
            guard let x = a.value(forKey: key) else { continue }
            XCTAssertTrue(
                isEqualValue(x, b.value(forKey: key)),
                "\(`where`).\(key): \(x) vs \(String(describing: b.value(forKey: key)))",
                file: file, line: line)
        }
        XCTAssertTrue(a.contents === b.contents, "\(`where`).contents", file: file, line: line)
        XCTAssertEqual(a.sublayers.count, b.sublayers.count, "\(`where`): sublayer count", file: file, line: line)
        for (i, (x, y)) in zip(a.sublayers, b.sublayers).enumerated() {
            XCTAssertTrue(
                x.superlayer === a && y.superlayer === b, "\(`where`)[\(i)]: superlayer", file: file, line: line)
            assertSameTree(x, y, "\(`where`)[\(i)]", file: file, line: line)
        }
        XCTAssertEqual(a.mask == nil, b.mask == nil, "\(`where`): mask", file: file, line: line)
        if let x = a.mask, let y = b.mask { assertSameTree(x, y, "\(`where`).mask", file: file, line: line) }
    }

    /// Every frame of the busy scene (an observer rebuilding pie slices, masks, groups, held and
    /// running animations) equals the pure evaluation of the final model at the same time.
    func testIncrementalFramesEqualFreshEvaluation() {
        let scene = makeBusyScene()
        for i in 1...75 {
            let t = Double(i) / 30
            let update = scene.engine.tick(at: t)
            assertSameTree(update.presentation, scene.engine.presentationTree(at: t), "frame \(i)")
        }
    }

    func testUnchangedLayersKeepTheirCopyAndOldTreesStayAsTheyWere() {
        let scene = Scene()
        let group = Layer()
        group.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        let still = Layer(), moving = Layer()
        still.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        moving.frame = Rect(x: 50, y: 0, width: 10, height: 10)
        group.addSublayer(still)
        group.addSublayer(moving)
        scene.root.addSublayer(group)
        let first = scene.frame(at: 0)
        moving.add(linearAnimation("position.x", from: 0, to: 100, duration: 1), forKey: "x")
        let f1 = scene.frame(at: 0.25)
        let f2 = scene.frame(at: 0.5)
        XCTAssertFalse(f1.presentation === first.presentation, "something changed: a new root copy")
        XCTAssertTrue(
            f1.presentation.sublayers[0].sublayers[0] === first.presentation.sublayers[0].sublayers[0],
            "the still layer keeps its copy")
        XCTAssertFalse(f2.presentation.sublayers[0] === f1.presentation.sublayers[0], "the path to a change is copied")
        XCTAssertEqual(f1.presentation.sublayers[0].sublayers[1].position.x, 25, accuracy: 1e-12)
        XCTAssertEqual(f2.presentation.sublayers[0].sublayers[1].position.x, 50, accuracy: 1e-12)
        XCTAssertTrue(
            f2.presentation.sublayers[0].sublayers[0].superlayer === f2.presentation.sublayers[0],
            "a kept copy's superlayer is the current copy of its parent")
        // A model change of a layer without animations makes a new copy of it.
        Transaction.begin()
        Transaction.setDisableActions(true)
        still.opacity = 0.5
        Transaction.commit()
        let f3 = scene.frame(at: 0.5)
        XCTAssertEqual(f3.presentation.sublayers[0].sublayers[0].opacity, 0.5)
        XCTAssertEqual(f2.presentation.sublayers[0].sublayers[0].opacity, 1, "the previous frame's copy is untouched")
        XCTAssertEqual(f3.changedLayers.map { $0 === still }, [true])
    }

    /// A copy no one holds any more is made over into a later frame's copy (no allocation per
    /// frame), while a frame the caller keeps, and a kept `presentation()`, stay as they were.
    func testCopiesNoOneHoldsAreRecycledAndKeptOnesStayAsTheyWere() throws {
        let scene = Scene()
        let group = Layer(), moving = ShapeLayer()
        group.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        moving.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        group.addSublayer(moving)
        scene.root.addSublayer(group)
        _ = scene.frame(at: 0)
        moving.add(linearAnimation("position.x", from: 0, to: 100, duration: 1), forKey: "x")
        weak var early: Layer?
        early = scene.frame(at: 0.1).presentation.sublayers[0].sublayers[0]
        _ = scene.frame(at: 0.2)
        let later = scene.frame(at: 0.3).presentation.sublayers[0].sublayers[0]
        XCTAssertTrue(later === early, "the copy of two frames before, held by no one, is made over")
        XCTAssertEqual(later.position.x, 30, accuracy: 1e-9)
        XCTAssertTrue(later.superlayer === later.superlayer?.superlayer?.sublayers[0])

        let kept = scene.frame(at: 0.4)
        let keptCopy = try XCTUnwrap(moving.presentation())
        for i in 5...9 {
            let shown = scene.frame(at: Double(i) / 10).presentation.sublayers[0].sublayers[0]
            XCTAssertFalse(shown === keptCopy || shown === kept.presentation.sublayers[0].sublayers[0])
            XCTAssertEqual(shown.position.x, Double(i) * 10, accuracy: 1e-9)
        }
        XCTAssertEqual(kept.presentation.sublayers[0].sublayers[0].position.x, 40, accuracy: 1e-9)
        XCTAssertTrue(kept.presentation.sublayers[0].sublayers[0].superlayer === kept.presentation.sublayers[0])
        XCTAssertEqual(keptCopy.position.x, 40, accuracy: 1e-9)
        assertSameTree(kept.presentation, scene.engine.presentationTree(at: 0.4))
    }

    /// A copy made over for its model restores only the slots written since it was copied,
    /// while the model is unchanged: values an animation, a setter, `setValue` or
    /// `setStoredValue` left in it never reach a later frame that does not write them, and a
    /// model change copies it whole.
    func testACopyMadeOverShowsTheModelWhereNothingWritesIt() throws {
        let scene = Scene()
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        scene.root.addSublayer(layer)
        _ = scene.frame(at: 0)
        // Ends without being removed and without a fill: its last frames write opacity, the
        // ones after it do not, and no model change tells the engine.
        let fade = linearAnimation("opacity", from: 1, to: 0.2, duration: 0.3)
        fade.isRemovedOnCompletion = false
        layer.add(fade, forKey: "fade")
        layer.add(linearAnimation("position.x", from: 0, to: 100, duration: 1), forKey: "x")
        var madeOver = 0
        var previous: [ObjectIdentifier] = []
        for i in 1...9 {
            let t = Double(i) / 10
            let shown = try XCTUnwrap(scene.frame(at: t).presentation.sublayers.first)
            if previous.contains(ObjectIdentifier(shown)) { madeOver += 1 }
            previous.append(ObjectIdentifier(shown))
            XCTAssertEqual(shown.opacity, t < 0.3 ? 1 - 0.8 * t / 0.3 : 1, accuracy: 1e-9, "opacity at \(t)")
            XCTAssertEqual(shown.position.x, 100 * t, accuracy: 1e-9)
            XCTAssertEqual(shown.bounds.width, 10)
            XCTAssertFalse(shown.masksToBounds)
            assertSameTree(scene.engine.presentationTree(at: t), shown.superlayer!)
            // Written on the copy by hand; the copy is then let go and made over.
            shown.borderWidth = 3
            XCTAssertTrue(shown.setValue(Color.white, forKeyPath: "backgroundColor"))
            XCTAssertTrue(shown.setStoredValue(true, forKey: "masksToBounds"))
        }
        XCTAssertGreaterThan(madeOver, 5, "copies are made over")
        // A model change between frames: the next copy takes every slot from the model again.
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.cornerRadius = 4
        Transaction.commit()
        weak var written: Layer?
        do {
            let changed = try XCTUnwrap(scene.frame(at: 0.95).presentation.sublayers.first)
            XCTAssertEqual(changed.cornerRadius, 4)
            XCTAssertEqual(changed.borderWidth, 0)
            XCTAssertNil(changed.backgroundColor)
            // A copy written more times than it has slots is copied whole the next time.
            for _ in 0...changed.propertyKeys.count { changed.borderWidth = changed.borderWidth == 1 ? 2 : 1 }
            written = changed
        }
        _ = scene.frame(at: 0.96)
        let after = try XCTUnwrap(scene.frame(at: 0.97).presentation.sublayers.first)
        XCTAssertTrue(after === written, "the written copy was made over")
        XCTAssertEqual(after.borderWidth, 0)
        XCTAssertEqual(after.position.x, 97, accuracy: 1e-9)
    }

    /// Two copies of a layer at one model version are compared in the slots either of them
    /// wrote: a colour written by this frame's copy and not the last one's (its animation just
    /// began), by both differently, or by the last one's only (it ended unremoved, without a
    /// fill) is a change each time.
    func testTheDiffComparesTheSlotsEitherCopyWrote() throws {
        let scene = Scene()
        let layer = Layer()
        let frame = Rect(x: 20, y: 30, width: 10, height: 10)
        layer.frame = frame
        layer.backgroundColor = .blueColor
        scene.root.addSublayer(layer)
        _ = scene.frame(at: 0)
        let tint = BasicAnimation(keyPath: "backgroundColor")
        tint.fromValue = Color.redColor
        tint.toValue = Color.greenColor
        tint.beginTime = 0.3
        tint.duration = 0.3
        tint.isRemovedOnCompletion = false
        layer.add(tint, forKey: "tint")
        let times = [0.1, 0.4, 0.5, 0.7, 0.8]
        let updates = times.map { scene.frame(at: $0) }
        let shown = updates.map { $0.presentation.sublayers[0] }
        XCTAssertEqual(Set(shown.map(\.copiedModelVersion)).count, 1, "one model version")
        XCTAssertEqual(shown.map(\.writtenSlots.count), [0, 1, 1, 0, 0])
        for i in 1...3 {
            XCTAssertTrue(updates[i].changedLayers.contains { $0 === layer }, "changed at \(times[i])")
            XCTAssertTrue(
                updates[i].dirtyRects.contains { $0.contains(frame) },
                "repainted at \(times[i]): \(updates[i].dirtyRects)")
        }
        XCTAssertEqual(shown[3].backgroundColor, .blueColor)
        XCTAssertTrue(updates[4].changedLayers.isEmpty, "nothing changed after the animation")
    }

    /// A presentation copy keeps its extent from the first time it is asked (the engine's
    /// damage and the renderer's fades both ask), until something is written on it.
    func testACopysKeptExtentFollowsWhatIsWrittenOnIt() throws {
        let scene = Scene()
        let shape = ShapeLayer()
        shape.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        var small = Path()
        small.addRect(Rect(x: 10, y: 10, width: 20, height: 20))
        shape.path = small
        shape.strokeColor = .redColor
        shape.lineWidth = 4
        scene.root.addSublayer(shape)
        let copy = try XCTUnwrap(scene.frame(at: 0).presentation.sublayers.first as? ShapeLayer)
        XCTAssertEqual(copy.presentedExtent, copy.visualExtent())
        XCTAssertLessThan(copy.presentedExtent.width, 40)
        var large = Path()
        large.addRect(Rect(x: 10, y: 10, width: 150, height: 20))
        copy.path = large
        XCTAssertEqual(copy.presentedExtent, copy.visualExtent())
        XCTAssertGreaterThan(copy.presentedExtent.width, 150)
        copy.lineWidth = 20
        XCTAssertEqual(copy.presentedExtent, copy.visualExtent())
    }

    /// A finished animation held by its fill mode, and a paused layer, evaluate to the same
    /// copies frame after frame: the tree is not copied again and nothing is reported.
    func testHeldAndPausedAnimationsReuseTheWholeTree() {
        let scene = Scene()
        let held = Layer(), paused = Layer()
        held.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        paused.frame = Rect(x: 20, y: 0, width: 10, height: 10)
        scene.root.addSublayer(held)
        scene.root.addSublayer(paused)
        scene.frame(at: 0)
        let fade = linearAnimation("opacity", from: 1, to: 0.2, duration: 0.5)
        fade.isRemovedOnCompletion = false
        fade.fillMode = .forwards
        held.add(fade, forKey: "fade")
        paused.add(linearAnimation("position.x", from: 0, to: 100, duration: 1), forKey: "x")
        scene.frame(at: 0.1)
        paused.speed = 0
        paused.timeOffset = 0.3
        scene.frame(at: 0.6)
        let settled = scene.frame(at: 0.7)
        XCTAssertEqual(held.presentation()!.opacity, 0.2, accuracy: 1e-12)
        XCTAssertEqual(paused.presentation()!.position.x, 30, accuracy: 1e-12)
        for i in 1...10 {
            let update = scene.frame(at: 0.7 + Double(i) / 60)
            XCTAssertTrue(update.presentation === settled.presentation, "frame \(i) reuses the tree")
            XCTAssertTrue(update.changedLayers.isEmpty && update.dirtyRects.isEmpty && update.redrawLayers.isEmpty)
            XCTAssertFalse(update.isAnimating)
        }
        // Scrubbing the paused layer changes its sample: a new copy at the new place.
        paused.timeOffset = 0.6
        let scrubbed = scene.frame(at: 1)
        XCTAssertEqual(paused.presentation()!.position.x, 60, accuracy: 1e-12)
        XCTAssertEqual(scrubbed.changedLayers.map { $0 === paused }, [true])
    }

    /// A frame observer that changes one layer: only that layer (and the path to it) is
    /// evaluated again, and the frame shows the change.
    func testObserverChangesAreReevaluatedOnly() {
        let scene = Scene()
        let follower = Layer(), leader = Layer(), bystander = Layer()
        for (i, l) in [follower, leader, bystander].enumerated() {
            l.frame = Rect(x: Double(i) * 50, y: 0, width: 10, height: 10)
            scene.root.addSublayer(l)
        }
        scene.engine.addFrameObserver { _ in
            Transaction.begin()
            Transaction.setDisableActions(true)
            follower.position = Point(x: 5, y: leader.presentation()!.position.y)
            Transaction.commit()
        }
        let first = scene.frame(at: 0)
        leader.add(linearAnimation("position.y", from: 0, to: 100, duration: 1), forKey: "y")
        let update = scene.frame(at: 0.5)
        XCTAssertEqual(follower.presentation()!.position.y, 50, accuracy: 1e-12, "the observer's change is shown")
        XCTAssertTrue(update.presentation.sublayers[0].model() === follower)
        XCTAssertEqual(update.presentation.sublayers[0].position.y, 50, accuracy: 1e-12)
        XCTAssertTrue(update.presentation.sublayers[2] === first.presentation.sublayers[2], "the bystander is kept")
        XCTAssertEqual(
            Set(update.changedLayers.map(ObjectIdentifier.init)), [ObjectIdentifier(follower), ObjectIdentifier(leader)]
        )
    }

    /// Layers claim their slots in construction order, also when a layer makes other layers
    /// while its properties are initialised.
    func testNestedConstructionKeepsEachLayersSlots() {
        let pie = PieLayer()
        pie.opacity = 0.5
        pie.sliceContainer.opacity = 0.25
        XCTAssertEqual(pie.opacity, 0.5)
        XCTAssertEqual(pie.sliceContainer.opacity, 0.25)
        XCTAssertEqual(pie.labelContainer.opacity, 1)
        let copy = PieLayer(layer: pie)
        XCTAssertEqual(copy.opacity, 0.5)
        XCTAssertEqual(copy.propertyKeys, pie.propertyKeys)
        let shape = ShapeLayer(), text = TextLayer()
        shape.lineWidth = 3
        text.fontSize = 12
        XCTAssertEqual(shape.value(forKey: "lineWidth") as? Double, 3)
        XCTAssertEqual(text.value(forKey: "fontSize") as? Double, 12)
        XCTAssertEqual(shape.value(forKey: "opacity") as? Double, 1)
    }

    /// The first layer of a class whose superclass's slots are known already reflects its own
    /// class only and takes the superclass's slots as that layout names them: the keys, custom
    /// keys and slots of a class reflected whole, at every level of a three-level chain.
    func testAFirstInstanceTakesItsSuperclasssSlotsAsTheyAreKnown() {
        _ = SlotChainMiddle()
        for first in [SlotChainLeaf(), SlotChainLeaf()] {
            XCTAssertEqual(first.propertyKeys, ["tilt", "label", "lift"] + Layer().propertyKeys)
            XCTAssertEqual(SlotChainLeaf.customPropertyKeys, ["tilt", "label", "lift"])
            XCTAssertTrue(first.setStoredValue(7.0, forKey: "tilt"))
            XCTAssertTrue(first.setStoredValue(3.0, forKey: "lift"))
            XCTAssertTrue(first.setStoredValue("b", forKey: "label"))
            XCTAssertTrue(first.setStoredValue(0.5, forKey: "opacity"))
            XCTAssertEqual([first.tilt, first.lift, first.opacity], [7, 3, 0.5])
            XCTAssertEqual(first.label, "b")
            let copy = SlotChainLeaf(layer: first)
            XCTAssertEqual([copy.tilt, copy.lift, copy.opacity], [7, 3, 0.5])
            XCTAssertEqual(copy.value(forKey: "tilt") as? Double, 7)
        }
    }
}

/// Three levels below `Layer` for the slot test: the middle one is made first.
private class SlotChainBase: Layer {
    @Animatable var lift: Double = 1
}

private class SlotChainMiddle: SlotChainBase {
    @LayerProperty var label: String = "a"
}

private final class SlotChainLeaf: SlotChainMiddle {
    @Animatable var tilt: Double = 5
}
