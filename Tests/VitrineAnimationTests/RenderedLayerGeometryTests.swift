import Foundation
import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// The seed layers rendered at chosen times, checked pixel by pixel against the geometry they
/// should cover (sample points kept ≥ 2 px from every edge, so anti-aliasing cannot decide).
/// Every frame is also written to <tmp>/vitrine-render-tests/ for looking at.
final class RenderedLayerGeometryTests: XCTestCase {
    static let center = Point(x: 100, y: 100)

    // MARK: Seed 000: the arrow, and the arrow as a mask

    /// An arrow inscribed in 180 × 180 around the middle of the bitmap: outer radius 90,
    /// thickness 30 (mid radius 75), tail at −π/2, head π/8, `lengthRadians` 0 → 2π over 2 s,
    /// linear, autoreversing, added inside a transaction with a completion block.
    func makeArrowScene(fill: Color = .black) -> (RenderScene, ArrowLayer, () -> Bool) {
        let scene = RenderScene()
        let arrow = ArrowLayer()
        arrow.bounds = Rect(x: 0, y: 0, width: 180, height: 180)
        arrow.position = RenderedLayerGeometryTests.center
        arrow.thickness = 30
        arrow.startRadians = -.pi / 2
        arrow.headLengthRadians = .pi / 8
        arrow.fillColor = fill
        arrow.lengthRadians = 2 * .pi
        var completed = false
        Transaction.begin()
        Transaction.setCompletionBlock { completed = true }
        let a = linearAnimation("lengthRadians", from: 0, to: 2 * .pi, duration: 2)
        a.autoreverses = true
        arrow.add(a, forKey: "length")
        Transaction.commit()
        return (scene, arrow, { completed })
    }

    /// Checks the ring at length π/2: covered from the tail to the tip along the mid radius,
    /// the head narrowing to the tip, nothing beyond.
    func checkQuarterArrow(_ bitmap: Bitmap, covered: Color, uncovered: Color, _ name: String) {
        let c = RenderedLayerGeometryTests.center
        let start = -Double.pi / 2, tip = 0.0, head = tip - .pi / 8
        for angle in stride(from: start + 0.05, through: tip - 0.05, by: 0.05) {
            assertColor(bitmap, polar(c, 75, angle), covered, "\(name): mid radius at \(angle)")
        }
        for angle in stride(from: start + 0.05, through: head - 0.03, by: 0.1) {
            assertColor(bitmap, polar(c, 88, angle), covered, "\(name): outer band at \(angle)")
            assertColor(bitmap, polar(c, 62, angle), covered, "\(name): inner band at \(angle)")
        }
        // Near the tip the head is narrower than the band: the band's outer edge is uncovered.
        assertColor(bitmap, polar(c, 88, tip - 0.04), uncovered, "\(name): outside the head near the tip")
        assertColor(bitmap, polar(c, 62, tip - 0.04), uncovered, "\(name): inside the head near the tip")
        for angle in stride(from: tip + 0.06, through: start + 2 * .pi - 0.06, by: 0.1) {
            assertColor(bitmap, polar(c, 75, angle), uncovered, "\(name): beyond the tip at \(angle)")
        }
        assertColor(bitmap, c, uncovered, "\(name): the centre")
        assertColor(bitmap, polar(c, 95, -.pi / 4), uncovered, "\(name): outside the ring")
    }

    func testArrowAtAQuarterTurnCoversTheRingUpToItsTip() {
        let (scene, arrow, completed) = makeArrowScene()
        scene.root.addSublayer(arrow)
        scene.frame(at: 0)
        scene.frame(at: 0.5)
        savePNG(scene.bitmap, "arrow-t0.5")
        checkQuarterArrow(scene.bitmap, covered: .black, uncovered: .white, "arrow")
        // Autoreverses: at 3.5 s it is on its way back, at length π/2 again.
        scene.frame(at: 3.5)
        savePNG(scene.bitmap, "arrow-t3.5")
        checkQuarterArrow(scene.bitmap, covered: .black, uncovered: .white, "arrow on the way back")
        XCTAssertFalse(completed())
        let end = scene.frame(at: 4.01)
        XCTAssertTrue(completed(), "the transaction's completion runs when the animation ends")
        XCTAssertFalse(end.isAnimating)
        // Removed at the end: the model's full ring shows.
        for angle in stride(from: -Double.pi / 2 + 0.05, to: 1.5 * .pi - 0.45, by: 0.2) {
            assertColor(
                scene.bitmap, polar(RenderedLayerGeometryTests.center, 75, angle), .black, "full ring at \(angle)")
        }
        savePNG(scene.bitmap, "arrow-end")
    }

    func testArrowMasksAnImage() {
        let (scene, arrow, _) = makeArrowScene(fill: Color(red: 0.2, green: 0.3, blue: 0.9))
        let photo = Layer()
        photo.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
        photo.position = RenderedLayerGeometryTests.center
        let orange = Color(r8: 230, g8: 120, b8: 20)
        photo.contents = solidImage(orange, width: 50, height: 50)
        // In the photo's coordinates the arrow sits at the same place as in the root's.
        photo.mask = arrow
        scene.root.addSublayer(photo)
        scene.frame(at: 0)
        scene.frame(at: 0.5)
        savePNG(scene.bitmap, "arrow-mask-t0.5")
        checkQuarterArrow(scene.bitmap, covered: orange, uncovered: .white, "masked image")
        scene.frame(at: 1)
        savePNG(scene.bitmap, "arrow-mask-t1")
        // Half a turn: the bottom of the ring (angle π/2) shows the image, the left does not.
        assertColor(scene.bitmap, polar(RenderedLayerGeometryTests.center, 75, .pi / 4), orange)
        assertColor(scene.bitmap, polar(RenderedLayerGeometryTests.center, 75, .pi * 0.9), .white)
    }

    func testOnlyTheMasksAlphaCounts() {
        let scene = RenderScene()
        let photo = Layer()
        photo.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        photo.contents = solidImage(.redColor, width: 4, height: 4)
        let mask = Layer()
        mask.frame = Rect(x: 50, y: 50, width: 100, height: 100)
        mask.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)  // colour ignored
        photo.mask = mask
        scene.root.addSublayer(photo)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "mask-alpha")
        // Half-transparent red over white: (1, 0.5, 0.5).
        assertColor(scene.bitmap, Point(x: 100, y: 100), Color(red: 1, green: 0.5, blue: 0.5), tolerance: 3 / 255)
        assertColor(scene.bitmap, Point(x: 40, y: 100), .white)
        assertColor(scene.bitmap, Point(x: 160, y: 160), .white)
    }

    // MARK: Seed 004: the sector, and a path morph

    func testSectorAtAQuarterCoversExactlyTheQuarter() {
        let scene = RenderScene()
        let sector = SectorLayer()
        sector.bounds = Rect(x: 0, y: 0, width: 160, height: 160)
        sector.position = RenderedLayerGeometryTests.center
        sector.fillColor = .blueColor
        sector.progress = 1
        scene.root.addSublayer(sector)
        scene.frame(at: 0)
        sector.add(linearAnimation("progress", from: 0, to: 1, duration: 1), forKey: "grow")
        scene.frame(at: 0.25)
        savePNG(scene.bitmap, "sector-t0.25")
        let c = RenderedLayerGeometryTests.center
        // Progress 0.25 from angle 0: the quarter from +x clockwise to +y (bottom right).
        for r in [10.0, 40, 77] {
            for angle in stride(from: 0.04, through: .pi / 2 - 0.04, by: 0.1) {
                assertColor(scene.bitmap, polar(c, r, angle), .blueColor, "inside at r \(r), angle \(angle)")
            }
            for angle in stride(from: .pi / 2 + 0.06, through: 2 * .pi - 0.06, by: 0.1) {
                assertColor(scene.bitmap, polar(c, r, angle), .white, "outside at r \(r), angle \(angle)")
            }
        }
        assertColor(scene.bitmap, polar(c, 83, .pi / 4), .white, "beyond the radius")
        // The covered area is a quarter of the disc (π·80²/4), to within the edge pixels.
        let area = countPixels(scene.bitmap) { $0.blue > 0.5 && $0.red < 0.5 }
        XCTAssertEqual(Double(area), .pi * 80 * 80 / 4, accuracy: 80)
        scene.frame(at: 0.75)
        savePNG(scene.bitmap, "sector-t0.75")
        assertColor(scene.bitmap, polar(c, 40, .pi * 1.4), .blueColor)
        assertColor(scene.bitmap, polar(c, 40, .pi * 1.6), .white)
    }

    /// Seed 004's structural mismatch: a square (4 lines) morphs into a circle (4 arcs). The
    /// ends are exact; in between, the shape lies between the two (the square is inside the
    /// circle) and its area is between theirs.
    func testPathMorphFromSquareToCircle() {
        let scene = RenderScene()
        let shape = ShapeLayer()
        shape.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        shape.fillColor = .redColor
        var square = Path()
        square.addRect(Rect(x: 60, y: 60, width: 80, height: 80))
        var circle = Path()
        circle.addEllipse(in: Rect(x: 30, y: 30, width: 140, height: 140))
        shape.path = square
        scene.root.addSublayer(shape)
        scene.frame(at: 0)
        let morph = BasicAnimation(keyPath: "path")
        morph.fromValue = square
        morph.toValue = circle
        morph.duration = 1
        morph.timingFunction = .linear
        morph.fillMode = .forwards
        morph.isRemovedOnCompletion = false
        shape.add(morph, forKey: "morph")
        func redArea() -> Double { Double(countPixels(scene.bitmap) { $0.red > 0.5 && $0.green < 0.5 }) }

        scene.frame(at: 0.001)
        XCTAssertEqual(redArea(), 6400, accuracy: 60, "starts as the 80 × 80 square")
        scene.frame(at: 0.5)
        savePNG(scene.bitmap, "morph-t0.5")
        let middle = redArea()
        XCTAssertGreaterThan(middle, 6400 + 1000)
        XCTAssertLessThan(middle, .pi * 70 * 70 - 1000)
        for angle in stride(from: 0.0, to: 2 * .pi, by: 0.25) {
            assertColor(
                scene.bitmap, polar(RenderedLayerGeometryTests.center, 38, angle), .redColor,
                "inside the square at \(angle)")
            assertColor(
                scene.bitmap, polar(RenderedLayerGeometryTests.center, 73, angle), .white,
                "outside the circle at \(angle)")
        }
        scene.frame(at: 1.5)
        savePNG(scene.bitmap, "morph-end")
        XCTAssertEqual(redArea(), .pi * 70 * 70, accuracy: 100, "ends as the circle of radius 70")
        assertColor(scene.bitmap, polar(RenderedLayerGeometryTests.center, 67, 0.3), .redColor)
    }

    // MARK: Seed 003: strokeEnd

    func testStrokeEndDrawsTheFirstQuarterOfACircle() {
        let scene = RenderScene()
        let ring = ShapeLayer()
        ring.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        var circle = Path()
        circle.addArc(
            center: RenderedLayerGeometryTests.center, radius: 60, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        ring.path = circle
        ring.fillColor = nil
        ring.strokeColor = .blueColor
        ring.lineWidth = 10
        scene.root.addSublayer(ring)
        scene.frame(at: 0)
        ring.add(linearAnimation("strokeEnd", from: 0, to: 1, duration: 1), forKey: "draw")
        scene.frame(at: 0.25)
        savePNG(scene.bitmap, "strokeEnd-t0.25")
        let c = RenderedLayerGeometryTests.center
        for angle in stride(from: 0.05, through: .pi / 2 - 0.05, by: 0.1) {
            for r in [57.0, 60, 63] { assertColor(scene.bitmap, polar(c, r, angle), .blueColor, "stroked at \(angle)") }
        }
        for angle in stride(from: .pi / 2 + 0.05, through: 2 * .pi - 0.05, by: 0.1) {
            assertColor(scene.bitmap, polar(c, 60, angle), .white, "not yet stroked at \(angle)")
        }
        assertColor(scene.bitmap, polar(c, 67, 0.8), .white, "outside the line width")
        assertColor(scene.bitmap, polar(c, 53, 0.8), .white, "inside the line width")
    }

    // MARK: Seed 002: the wavy progress bar

    func testProgressBarAtHalfwayIsGreenUpToTheSaggingTip() {
        let scene = RenderScene(width: 200, height: 100)
        let bar = ProgressLayer()
        bar.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        bar.origin = Point(x: 10, y: 30)
        bar.maxLength = 180
        bar.maxOffset = 25
        bar.textRect = Rect(x: -5, y: 0, width: 30, height: 14)
        scene.root.addSublayer(bar)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "progress-t0")
        // At progress 0 the bar is straight and all grey; the label sits at textRect.
        let gray = Color(r8: 204, g8: 204, b8: 204), green = Color(r8: 66, g8: 255, b8: 66)
        for x in stride(from: 12.0, through: 188, by: 8) { assertColor(scene.bitmap, Point(x: x, y: 30), gray) }

        bar.add(linearAnimation("progress", from: 0, to: 1, duration: 2), forKey: "p")
        bar.add(linearAnimation("strokeEnd", from: 0, to: 1, duration: 2), forKey: "s")
        scene.frame(at: 1)
        savePNG(scene.bitmap, "progress-t1")
        let origin = Point(x: 10, y: 30), end = Point(x: 190, y: 30)
        let tip = Point(x: 100, y: 55)  // origin.x + 180·0.5, origin.y + maxOffset
        for f in stride(from: 0.03, through: 0.95, by: 0.04) {
            assertColor(scene.bitmap, origin.lerp(to: tip, f), green, "done part at \(f)")
        }
        for f in stride(from: 0.08, through: 0.97, by: 0.04) {
            assertColor(scene.bitmap, tip.lerp(to: end, f), gray, "remaining part at \(f)")
        }
        assertColor(scene.bitmap, tip, green, "the tip")
        assertColor(scene.bitmap, Point(x: 60, y: 30), .white, "the bar sags: nothing on the straight line")
        assertColor(scene.bitmap, Point(x: 100, y: 55 + 5), .white, "below the line width")
        // The label followed the tip: ink in textRect moved by (90, 25), none at the start.
        let moved = IntRect(x: 85, y: 25, width: 30, height: 14), start = IntRect(x: 0, y: 0, width: 25, height: 14)
        XCTAssertGreaterThan(countPixels(scene.bitmap, in: moved) { $0.red < 0.9 }, 20, "label at the tip")
        XCTAssertEqual(countPixels(scene.bitmap, in: start) { $0.red < 0.9 }, 0, "no label left behind")
    }

    // MARK: Seed 001: the pie

    func testPieSlicesGrowFromTheTop() {
        let scene = RenderScene()
        let pie = PieLayer()
        pie.bounds = Rect(x: 0, y: 0, width: 180, height: 180)
        pie.position = RenderedLayerGeometryTests.center
        scene.root.addSublayer(pie)
        pie.attach(to: scene.engine)
        pie.setValues([1, 1, 2], colors: [.redColor, .greenColor, .blueColor])
        scene.frame(at: 0)
        let c = RenderedLayerGeometryTests.center
        // easeInEaseOut is symmetric: half-way at 0.5 s each slice has grown half of its way
        // from −π/2: ends at −π/4, 0 and π/2.
        scene.frame(at: 0.5)
        savePNG(scene.bitmap, "pie-t0.5")
        let r = 20.0
        assertColor(scene.bitmap, polar(c, r, -3 * .pi / 8), .redColor)
        assertColor(scene.bitmap, polar(c, r, -.pi / 8), .greenColor)
        assertColor(scene.bitmap, polar(c, r, .pi / 4), .blueColor)
        assertColor(scene.bitmap, polar(c, r, .pi * 0.75), .white)
        assertColor(scene.bitmap, polar(c, r, .pi * 1.25), .white)
        scene.frame(at: 1.2)
        savePNG(scene.bitmap, "pie-end")
        // Final shares 25 %, 25 %, 50 % from the top.
        assertColor(scene.bitmap, polar(c, r, -.pi / 4), .redColor)
        assertColor(scene.bitmap, polar(c, r, .pi / 4), .greenColor)
        assertColor(scene.bitmap, polar(c, r, .pi), .blueColor)
        assertColor(scene.bitmap, polar(c, 85, .pi), .blueColor, "out to the radius 90")
        assertColor(scene.bitmap, polar(c, 93, .pi), .white)
        // The labels (white text at 0.7 r, mid-angle) are drawn over the slices.
        let label = IntRect(x: Int(c.x - 63 - 30), y: Int(c.y - 10), width: 60, height: 20)
        XCTAssertGreaterThan(
            countPixels(scene.bitmap, in: label) { $0.red > 0.6 && $0.green > 0.6 }, 10,
            "the 50 % label is written on the blue slice")
    }
}
