import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// The custom layers (arrow, sector, progress bar, pie): geometry checked against independently
/// computed points, behaviour through the engine.
final class CustomLayerGeometryTests: XCTestCase {
    /// End points of the path's elements, in order (nil for close).
    func endPoints(_ path: Path) -> [Point?] { path.elements.map(\.endPoint) }

    // MARK: ArrowLayer (seed 000)

    /// The arrow of the reference image 11-arrow-ring: centre (200, 150), outer radius 130,
    /// thickness 40, tail at −π/2, head π/8 long, tip at (104.1267, 203.9287).
    func testArrowGeometryMatchesTheReferenceRing() {
        let center = Point(x: 200, y: 150)
        let tipAngle = atan2(203.9287 - 150, 104.1267 - 200)
        let path = ArrowLayer.arrowPath(
            in: Rect(x: 70, y: 20, width: 260, height: 260), thickness: 40,
            startRadians: -.pi / 2, lengthRadians: tipAngle + .pi / 2,
            headLengthRadians: .pi / 8)
        let ends = endPoints(path)
        guard case .move(let tip)? = path.elements.first else { return XCTFail("starts with a move") }
        assertPoint(tip, 104.1267, 203.9287, accuracy: 1e-3, "tip")
        XCTAssertEqual(tip.distance(to: center), 110, accuracy: 1e-9, "tip radius = outer − thickness/2")
        // Line to the head on the outer circle, outer arc back to the tail at the top,
        // line to the inner circle, inner arc forward to the head, close.
        let lines = path.elements.enumerated().filter {
            if case .line = $0.element { return true }; return false
        }
        XCTAssertEqual(lines.count, 2)
        assertPoint(lines[0].element.endPoint!, 119.7099, 252.2423, accuracy: 1e-3, "outer head")
        assertPoint(ends[lines[1].offset - 1]!, 200, 20, accuracy: 1e-9, "outer arc ends at the tail")
        assertPoint(lines[1].element.endPoint!, 200, 60, accuracy: 1e-9, "inner tail")
        assertPoint(ends[ends.count - 2]!, 144.4145, 220.7832, accuracy: 1e-3, "inner head")
        XCTAssertEqual(path.elements.last, .close)
        // The outer arc runs backwards through angle 0 (x = 330), never through angle π.
        let b = path.bounds
        XCTAssertEqual(b.maxX, 330, accuracy: 0.02, "cubic arcs stray < 1e-4 of the radius")
        XCTAssertEqual(b.minX, 104.1267, accuracy: 1e-3)
        XCTAssertEqual(b.minY, 20, accuracy: 1e-6)
    }

    func testClippedHeadStartsExactlyAtTheTail() {
        for start in [-Double.pi / 2, 0.3, 1.234567, -2.9] {
            for length in [0.1, -0.07, 1e-9, 0] {
                let a = ArrowLayer.angles(start: start, length: length, headLength: .pi / 8)
                XCTAssertEqual(a.head, start, "head clipped to the length must equal the start exactly")
                XCTAssertEqual(a.tip, start + length)
            }
        }
        let unclipped = ArrowLayer.angles(start: 1, length: 2, headLength: -0.5)
        XCTAssertEqual(unclipped.head, 2.5, accuracy: 1e-15, "head takes the sign of the length")
        // A clipped arrow is a triangle-like wedge: no stray full-circle arc from rounding.
        let path = ArrowLayer.arrowPath(
            in: Rect(x: 0, y: 0, width: 200, height: 200), thickness: 20,
            startRadians: 0.3, lengthRadians: 0.1, headLengthRadians: 1)
        let cubics = path.elements.filter {
            if case .cubic = $0 { return true }; return false
        }
        XCTAssertEqual(cubics.count, 0, "outer and inner arcs are empty")
        XCTAssertLessThan(path.bounds.width, 30)
    }

    func testNegativeLengthRunsTheOtherWay() {
        let bounds = Rect(x: 0, y: 0, width: 200, height: 200)
        let path = ArrowLayer.arrowPath(
            in: bounds, thickness: 20, startRadians: 0, lengthRadians: -.pi / 2,
            headLengthRadians: 0.2)
        guard case .move(let tip)? = path.elements.first else { return XCTFail() }
        assertPoint(tip, 100, 10, accuracy: 1e-9, "tip at −π/2, radius 90")
        // Everything lies in the upper-right quadrant (angles −π/2…0).
        let b = path.bounds
        XCTAssertGreaterThanOrEqual(b.minX, 100 - 1e-9)
        XCTAssertLessThanOrEqual(b.maxY, 100 + 1e-9)
        XCTAssertEqual(b.maxX, 200, accuracy: 1e-9)
    }

    func testArrowCustomPropertiesAreKeysAndRedraw() {
        XCTAssertEqual(
            ArrowLayer.customPropertyKeys,
            [
                "thickness", "startRadians", "lengthRadians", "headLengthRadians",
                "fillColor", "strokeColor", "lineWidth", "lineJoin"
            ])
        XCTAssertTrue(ArrowLayer.needsDisplay(forKey: "lengthRadians"))
        XCTAssertFalse(ArrowLayer.needsDisplay(forKey: "position"))
        let arrow = ArrowLayer()
        arrow.thickness = 60
        arrow.lineJoin = .round
        let copy = ArrowLayer(layer: arrow)
        XCTAssertEqual(copy.thickness, 60, "init(layer:) carries custom properties")
        XCTAssertEqual(copy.lineJoin, .round)
        XCTAssertTrue(copy.needsDisplayOnBoundsChange)
        XCTAssertEqual(arrow.value(forKey: "thickness") as? Double, 60)
    }

    // MARK: SectorLayer (seed 004)

    func testSectorPath() {
        let bounds = Rect(x: 0, y: 0, width: 200, height: 200)
        XCTAssertTrue(SectorLayer.sectorPath(in: bounds, startAngle: 0, progress: 0).isEmpty)
        let quarter = SectorLayer.sectorPath(in: bounds, startAngle: 0, progress: 0.25)
        let ends = endPoints(quarter)
        assertPoint(ends[0]!, 100, 100)
        assertPoint(ends[1]!, 200, 100)  // line to angle 0
        assertPoint(ends[ends.count - 2]!, 100, 200, accuracy: 1e-9)  // clockwise to π/2 (down)
        let b = quarter.bounds
        XCTAssertEqual(b.minX, 100, accuracy: 1e-9); XCTAssertEqual(b.minY, 100, accuracy: 1e-9)
        XCTAssertEqual(b.maxX, 200, accuracy: 1e-9); XCTAssertEqual(b.maxY, 200, accuracy: 1e-9)
        let full = SectorLayer.sectorPath(in: bounds, startAngle: 0, progress: 1).bounds
        XCTAssertEqual(full.width, 200, accuracy: 1e-9); XCTAssertEqual(full.height, 200, accuracy: 1e-9)
    }

    func testSectorDrivenByABasicAnimationRedrawsOnlyWhileMoving() {
        let scene = Scene()
        let sector = SectorLayer()
        sector.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        scene.root.addSublayer(sector)
        scene.frame(at: 0)
        let a = BasicAnimation(keyPath: "progress")
        a.duration = 3
        a.fromValue = 0.0
        a.toValue = 1.0
        a.isRemovedOnCompletion = false
        a.fillMode = .forwards
        sector.add(a, forKey: nil)
        var redraws = 0
        for i in 1...40 {
            let t = Double(i) * 0.1
            let update = scene.frame(at: t)
            let p = sector.presentation()!.progress
            XCTAssertEqual(p, min(t / 3, 1), accuracy: 1e-9)
            let redrew = update.redrawLayers.contains { $0 === sector }
            if t < 3 - 1e-9 {
                XCTAssertTrue(redrew, "redraw while progress moves (t=\(t))")
                XCTAssertTrue(update.isAnimating)
            } else if t > 3.05 {
                XCTAssertFalse(redrew, "held by fillMode forwards: no redraw (t=\(t))")
                XCTAssertTrue(update.changedLayers.isEmpty)
                XCTAssertTrue(update.dirtyRects.isEmpty)
                XCTAssertFalse(update.isAnimating)
            }
            if redrew { redraws += 1 }
        }
        XCTAssertEqual(redraws, 30, "one redraw per frame up to and including the end")
        XCTAssertEqual(sector.presentation()!.sectorPath.bounds.width, 100, accuracy: 1e-9)
    }

    // MARK: ProgressLayer (seed 002)

    func testProgressLayoutMatchesTheReferenceBar() {
        // Reference 13-wave-progress: progress = strokeEnd = 0.37, origin (25, 150), length 350.
        let l = ProgressLayer.layout(
            origin: Point(x: 25, y: 150), maxLength: 350, maxOffset: 25, progress: 0.37,
            strokeEnd: 0.37, textRect: Rect(x: 0, y: 100, width: 40, height: 20))
        assertPoint(l.tip, 154.5, 168.5, accuracy: 1e-9)
        XCTAssertEqual(l.track.count, 2); assertPoint(l.track[0], 154.5, 168.5, accuracy: 1e-9);
        assertPoint(l.track[1], 375, 150)
        XCTAssertEqual(l.done.count, 2); assertPoint(l.done[0], 25, 150);
        assertPoint(l.done[1], 154.5, 168.5, accuracy: 1e-9)
        XCTAssertEqual(l.labelText, "37%")
        assertPoint(l.labelRect.origin, 129.5, 118.5, accuracy: 1e-9)
    }

    func testProgressStrokeEndSplitsTheBentLine() {
        let origin = Point(x: 25, y: 150), end = Point(x: 375, y: 150)
        // strokeEnd beyond progress: the contact lies on tip → end, green covers origin → tip → contact.
        let ahead = ProgressLayer.layout(
            origin: origin, maxLength: 350, maxOffset: 25, progress: 0.5, strokeEnd: 0.75,
            textRect: .zero)
        let tip = Point(x: 200, y: 175)
        assertPoint(ahead.tip, tip.x, tip.y)
        let onTipToEnd = tip.lerp(to: end, (287.5 - tip.x) / (end.x - tip.x))
        assertPoint(ahead.contact, onTipToEnd.x, onTipToEnd.y, accuracy: 1e-9)
        XCTAssertEqual(ahead.done, [origin, tip, ahead.contact])
        XCTAssertEqual(ahead.track, [ahead.contact, end])
        // strokeEnd behind progress: the contact lies on origin → tip.
        let behind = ProgressLayer.layout(
            origin: origin, maxLength: 350, maxOffset: 25, progress: 0.5, strokeEnd: 0.25,
            textRect: .zero)
        let onOriginToTip = origin.lerp(to: tip, (112.5 - origin.x) / (tip.x - origin.x))
        assertPoint(behind.contact, onOriginToTip.x, onOriginToTip.y, accuracy: 1e-9)
        XCTAssertEqual(behind.done, [origin, behind.contact])
        XCTAssertEqual(behind.track, [behind.contact, tip, end])
        // Nothing green at progress 0, whatever strokeEnd says.
        let zero = ProgressLayer.layout(
            origin: origin, maxLength: 350, maxOffset: 25, progress: 0, strokeEnd: 0.5,
            textRect: .zero)
        XCTAssertTrue(zero.done.isEmpty)
        XCTAssertEqual(zero.track, [origin, end])
        XCTAssertEqual(zero.labelText, "0%")
        // Out-of-range values are clamped, not trusted.
        let wild = ProgressLayer.layout(
            origin: origin, maxLength: 350, maxOffset: 25, progress: 7, strokeEnd: .nan,
            textRect: .zero)
        XCTAssertEqual(wild.labelText, "100%")
        XCTAssertTrue(wild.done.isEmpty)
    }

    func testProgressColoursSurviveCopies() {
        let layer = ProgressLayer()
        layer.strokeColor = Color(red: 0.1, green: 0.2, blue: 0.3)
        let copy = ProgressLayer(layer: layer)
        XCTAssertEqual(copy.strokeColor, Color(red: 0.1, green: 0.2, blue: 0.3))
        XCTAssertEqual(copy.trackColor, Color(r8: 204, g8: 204, b8: 204))
    }

    // MARK: Pie (seed 001)

    func testPieSlicesGrowFromTheTopWithTheDelegateAction() {
        let scene = Scene()
        let pie = PieLayer()
        pie.frame = Rect(x: 80, y: 80, width: 240, height: 240)
        scene.root.addSublayer(pie)
        pie.attach(to: scene.engine)
        let values = [1.0, 2, 3, 4, 10]
        pie.setValues(values, colors: [.black, .white])
        let total = values.reduce(0, +)
        var targets: [Double] = []
        var end = PieLayer.initialAngle
        for v in values { end += 2 * .pi * v / total; targets.append(end) }
        XCTAssertEqual(pie.slices.map(\.sliceAngle), targets, "the model holds the targets")
        for slice in pie.slices {
            let a = slice.animation(forKey: "sliceAngle") as? BasicAnimation
            XCTAssertEqual(a?.fromValue as? Double, PieLayer.initialAngle, "fromValue only")
            XCTAssertNil(a?.toValue)
            XCTAssertEqual(a?.duration, 1)
            XCTAssertEqual(a?.timingFunction, .easeInEaseOut)
            XCTAssertTrue(a?.delegate === pie)
        }
        scene.frame(at: 0)
        XCTAssertEqual(pie.runningAnimations.count, 5)
        let center = pie.center, radius = pie.radius
        for t in [0.25, 0.5, 0.9] {
            scene.frame(at: t)
            let eased = TimingFunction.easeInEaseOut.value(at: t)
            var start = PieLayer.initialAngle
            for (i, slice) in pie.slices.enumerated() {
                let endAngle = PieLayer.initialAngle + (targets[i] - PieLayer.initialAngle) * eased
                XCTAssertEqual(slice.presentation()!.sliceAngle, endAngle, accuracy: 1e-9)
                // The path the frame callback built from presentation values.
                let ends = endPoints(slice.path!)
                assertPoint(ends[0]!, center.x, center.y, accuracy: 1e-9)
                assertPoint(ends[1]!, center.x + radius * cos(start), center.y + radius * sin(start), accuracy: 1e-9)
                assertPoint(
                    ends[ends.count - 2]!, center.x + radius * cos(endAngle),
                    center.y + radius * sin(endAngle), accuracy: 1e-9)
                start = endAngle
            }
        }
        scene.frame(at: 1.0)
        XCTAssertTrue(pie.runningAnimations.isEmpty, "animationDidStop for every slice")
        XCTAssertFalse(pie.needsFrameUpdates, "the display link pauses")
        let last = endPoints(pie.slices[4].path!)
        assertPoint(
            last[last.count - 2]!, center.x + radius * cos(targets[4]), center.y + radius * sin(targets[4]),
            accuracy: 1e-9)
        // Changing values on rendered slices goes through the delegate's action again.
        // (The last slice still ends at 3π/2: an unchanged value runs no action.)
        pie.setValues([1, 1, 1, 1, 1], colors: [.black])
        XCTAssertEqual(pie.slices.map { $0.animation(forKey: "sliceAngle") != nil }, [true, true, true, true, false])
    }
}
