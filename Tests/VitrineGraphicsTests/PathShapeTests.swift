import Foundation
import VitrineGraphics
import XCTest

/// The shapes Path builds: arcs with CoreGraphics semantics, ovals, rounded rects and their
/// clamping, bounds and transforms.
final class PathShapeTests: XCTestCase {
    func endPoints(_ path: Path) -> [Point] { path.elements.compactMap(\.endPoint) }

    func assertPoint(
        _ p: Point?, _ q: Point, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let p else { return XCTFail("no point", file: file, line: line) }
        XCTAssertEqual(p.x, q.x, accuracy: accuracy, "x of \(p) vs \(q)", file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: accuracy, "y of \(p) vs \(q)", file: file, line: line)
    }

    func testArcStartEndAndDirection() {
        // Clockwise on screen from -90° (top) to 0° (right): a quarter through the upper right.
        var cw = Path()
        cw.addArc(center: Point(100, 100), radius: 50, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        assertPoint(cw.elements.first?.endPoint, Point(100, 50))
        assertPoint(cw.currentPoint, Point(150, 100))
        let cwMid = PathMeasure(cw).point(atLength: PathMeasure(cw).length / 2)!
        XCTAssertGreaterThan(cwMid.x, 100); XCTAssertLessThan(cwMid.y, 100)
        // The same angles counter-clockwise go the long way round, through the lower left.
        var ccw = Path()
        ccw.addArc(center: Point(100, 100), radius: 50, startAngle: -.pi / 2, endAngle: 0, clockwise: false)
        let measure = PathMeasure(ccw)
        XCTAssertEqual(measure.length, 2 * .pi * 50 * 0.75, accuracy: 1e-3)
        let ccwMid = measure.point(atLength: measure.length / 2)!
        XCTAssertLessThan(ccwMid.x, 100); XCTAssertGreaterThan(ccwMid.y, 100)
        // Every point of the arc lies on the circle.
        for i in 0...40 {
            let p = measure.point(atLength: measure.length * Double(i) / 40)!
            XCTAssertEqual(p.distance(to: Point(100, 100)), 50, accuracy: 50 * 1e-5)
        }
    }

    /// Arcs split on a grid from an anchor share the cubics of their common stretch bit for
    /// bit, in either direction, and still lie on their circle.
    func testArcsSplitOnAGridShareTheirCommonCubicsExactly() {
        let c = Point(400, 300), anchor = 0.3, step = Double.pi / 4
        func arc(_ length: Double) -> Path {
            var p = Path()
            p.addArc(
                center: c, radius: 250, startAngle: anchor, endAngle: anchor + length, clockwise: length > 0,
                splitAnchor: anchor)
            return p
        }
        // 2.0 and 2.5 rad both pass the grid angles anchor + π/4 and anchor + π/2: the move and
        // two whole 45° cubics are the same; the third cubic is where they part.
        let short = arc(2.0), long = arc(2.5)
        XCTAssertEqual(short.elements.count, 4)
        XCTAssertEqual(long.elements.count, 5, "π/4, π/2, 3π/4, then the end")
        XCTAssertEqual(Array(short.elements.prefix(3)), Array(long.elements.prefix(3)))
        XCTAssertNotEqual(short.elements[3], long.elements[3])
        assertPoint(
            long.elements[3].endPoint, Point(400 + 250 * cos(anchor + 3 * step), 300 + 250 * sin(anchor + 3 * step)))
        XCTAssertEqual(Path.lastSplit(from: anchor, distance: 2.0), anchor + 2 * step)
        XCTAssertEqual(Path.lastSplit(from: anchor, distance: -2.0), anchor - 2 * step)
        // Counter-clockwise the grid runs the other way from the anchor.
        XCTAssertEqual(Array(arc(-2.0).elements.prefix(3)), Array(arc(-2.5).elements.prefix(3)))
        for path in [short, long, arc(-2.5), arc(2 * .pi)] {
            let measure = PathMeasure(path)
            for i in 0...40 {
                let p = measure.point(atLength: measure.length * Double(i) / 40)!
                XCTAssertEqual(p.distance(to: c), 250, accuracy: 250 * 1e-5)
            }
        }
        // A full turn ends exactly where it began; an anchor that is not a number (or far
        // away) falls back to equal parts instead of looping.
        assertPoint(arc(2 * .pi).currentPoint, Point(400 + 250 * cos(anchor), 300 + 250 * sin(anchor)))
        for bad in [Double.nan, .infinity, 1e300] {
            var p = Path()
            p.addArc(center: c, radius: 10, startAngle: 0, endAngle: 3, clockwise: true, splitAnchor: bad)
            XCTAssertEqual(p.elements.count, 1 + 4, "3 rad in four equal parts")
        }
    }

    func testArcDrawsALineFromTheCurrentPoint() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.addArc(center: Point(100, 0), radius: 10, startAngle: .pi, endAngle: 0, clockwise: true)
        guard case .line(let to) = path.elements[1] else { return XCTFail("\(path.elements)") }
        assertPoint(to, Point(90, 0))
        assertPoint(path.currentPoint, Point(110, 0))
    }

    func testArcSweepClampsToOneTurn() {
        XCTAssertEqual(Path.arcSweep(startAngle: 0, endAngle: 10 * .pi, clockwise: true), 2 * .pi)
        XCTAssertEqual(Path.arcSweep(startAngle: 0, endAngle: -.pi / 2, clockwise: true), 1.5 * .pi, accuracy: 1e-12)
        XCTAssertEqual(Path.arcSweep(startAngle: 0, endAngle: .pi / 2, clockwise: false), -1.5 * .pi, accuracy: 1e-12)
        XCTAssertEqual(Path.arcSweep(startAngle: 1, endAngle: 1, clockwise: true), 0)
        XCTAssertEqual(Path.arcSweep(startAngle: 0, endAngle: .nan, clockwise: true), 0)
    }

    func testOvalStartsAtTheRightAndRunsClockwise() {
        var oval = Path()
        oval.addEllipse(in: Rect(x: 0, y: 0, width: 200, height: 100))
        assertPoint(oval.elements.first?.endPoint, Point(200, 50))
        // The next quarter ends at the bottom (y down): clockwise on screen.
        assertPoint(endPoints(oval)[2], Point(100, 100))
        XCTAssertEqual(oval.elements.last, .close)
        let b = oval.bounds
        XCTAssertEqual(b.minX, 0, accuracy: 1e-9); XCTAssertEqual(b.maxX, 200, accuracy: 1e-9)
        XCTAssertEqual(b.minY, 0, accuracy: 1e-9); XCTAssertEqual(b.maxY, 100, accuracy: 1e-9)
    }

    func testRoundedRectClampsItsRadius() {
        var path = Path()
        path.addRoundedRect(Rect(x: 0, y: 0, width: 100, height: 40), cornerRadius: 50)
        // Clamped to half the short side: the left and right ends are half circles.
        assertPoint(path.elements.first?.endPoint, Point(20, 0))
        let b = path.bounds
        XCTAssertEqual(b, Rect(x: 0, y: 0, width: 100, height: 40))
        XCTAssertEqual(PathMeasure(path).length, 2 * 60 + 2 * .pi * 20, accuracy: 1e-3)
    }

    func testPerCornerRadiiScaleTogetherLikeUIKit() {
        let radii = CornerRadii(topLeft: 60, topRight: 60, bottomRight: 10, bottomLeft: 0).clamped(to: Size(100, 200))
        // The top side needs 120 for 100: every radius shrinks by 100/120.
        XCTAssertEqual(radii.topLeft, 50, accuracy: 1e-12)
        XCTAssertEqual(radii.topRight, 50, accuracy: 1e-12)
        XCTAssertEqual(radii.bottomRight, 10 * 100 / 120, accuracy: 1e-12)
        XCTAssertEqual(CornerRadii(uniform: -3).clamped(to: Size(10, 10)), CornerRadii(uniform: 0))
        var path = Path()
        path.addRoundedRect(
            Rect(x: 0, y: 0, width: 100, height: 200),
            cornerRadii: CornerRadii(topLeft: 60, topRight: 60, bottomRight: 10, bottomLeft: 0))
        XCTAssertEqual(path.bounds, Rect(x: 0, y: 0, width: 100, height: 200))
        assertPoint(path.elements.first?.endPoint, Point(50, 0))
    }

    func testCommandsWithoutACurrentPointStartASubpath() {
        var path = Path()
        path.addLine(to: Point(3, 4))
        XCTAssertEqual(path.elements, [.move(to: Point(3, 4))])
        path.closeSubpath()
        path.addLine(to: Point(10, 4))
        // After close the current point is the subpath's start.
        XCTAssertEqual(path.currentPoint, Point(10, 4))
        XCTAssertEqual(path.flattened().last?.points, [Point(3, 4), Point(10, 4)])
    }

    func testAppendAndTransform() {
        var a = Path()
        a.addRect(Rect(x: 0, y: 0, width: 1, height: 1))
        var b = Path()
        b.addPath(a, transform: Transform2D(scaleX: 10, y: 10))
        b.addPath(a)
        XCTAssertEqual(b.elements.count, 2 * a.elements.count)
        XCTAssertEqual(b.bounds, Rect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(a.applying(Transform2D(translationX: 5, y: 6)).bounds, Rect(x: 5, y: 6, width: 1, height: 1))
    }

    func testTightBoundsIncludeCurveExtremaOnly() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.addCurve(to: Point(100, 0), control1: Point(0, 100), control2: Point(100, 100))
        // The curve peaks at y = 75 (t = ½), well inside its control points' y = 100.
        XCTAssertEqual(path.bounds.maxY, 75, accuracy: 1e-12)
        XCTAssertEqual(path.controlPointBounds.maxY, 100)
    }

    func testFlatteningMeetsItsTolerance() {
        var circle = Path()
        circle.addEllipse(in: Rect(x: -300, y: -300, width: 600, height: 600))
        for polyline in circle.flattened(tolerance: 0.1) {
            for (p, q) in zip(polyline.points, polyline.points.dropFirst()) {
                // The chord's midpoint is within the tolerance of the circle.
                XCTAssertEqual(p.lerp(to: q, 0.5).length, 300, accuracy: 0.1 + 300 * 1e-5)
            }
        }
        // Absurd coordinates stay bounded.
        var huge = Path()
        huge.move(to: Point(0, 0))
        huge.addCurve(to: Point(1e200, 0), control1: Point(0, 1e200), control2: Point(1e200, -1e200))
        XCTAssertLessThanOrEqual(huge.flattened().first!.points.count, Flattening.maxSegmentsPerCurve + 1)
    }
}
