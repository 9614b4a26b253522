import XCTest
import Foundation
@testable import VitrineGraphics

final class PathMeasureTests: XCTestCase {
    private func P(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    private func assertPoint(
        _ p: Point?, _ expected: Point, accuracy: Double = 1e-9,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let p else { return XCTFail("no point", file: file, line: line) }
        XCTAssertEqual(p.x, expected.x, accuracy: accuracy, "\(p)", file: file, line: line)
        XCTAssertEqual(p.y, expected.y, accuracy: accuracy, "\(p)", file: file, line: line)
    }

    private func circle(radius r: Double) -> Path {
        var path = Path()
        path.addEllipse(in: Rect(x: -r, y: -r, width: 2 * r, height: 2 * r))
        return path
    }

    /// The length of the path's cubics by summing a very fine chord polygon (error ~ 1e-11 here),
    /// independent of the measure's quadrature.
    private func chordLength(_ path: Path, chordsPerCurve: Int) -> Double {
        var total = 0.0
        var current = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p): current = p
            case .cubic(let c1, let c2, let p):
                var previous = current
                for i in 1...chordsPerCurve {
                    let q = Path.cubicPoint(current, c1, c2, p, Double(i) / Double(chordsPerCurve))
                    total += q.distance(to: previous)
                    previous = q
                }
                current = p
            default: break
            }
        }
        return total
    }

    func testCircleLength() {
        let r = 100.0
        let measure = PathMeasure(circle(radius: r))
        // Path's circle is eight 45° cubics whose radius bulges by at most 4·10⁻⁶, so its length
        // is 2πr to well within the required 0.01 %; the measure is also held to the cubics' own
        // length, found independently by summing chords.
        let cubicLength = chordLength(circle(radius: r), chordsPerCurve: 50_000)
        XCTAssertEqual(measure.length, cubicLength, accuracy: cubicLength * 1e-7)
        XCTAssertEqual(measure.length, 2 * .pi * r, accuracy: 2 * .pi * r * 1e-4)
        XCTAssertGreaterThan(measure.length, 2 * .pi * r)
        XCTAssertEqual(measure.subpathLengths.count, 1)
    }

    func testParabolaLengthMatchesClosedForm() {
        // (−100, 100) (0, −100) (100, 100) is the parabola y = x²/100 for x in [−100, 100]; its
        // length is 100 (√5 + asinh(2) / 2).
        var path = Path()
        path.move(to: P(-100, 100))
        path.addQuadCurve(to: P(100, 100), control: P(0, -100))
        let measure = PathMeasure(path)
        let exact = 100 * (5.0.squareRoot() + asinh(2) / 2)
        XCTAssertEqual(measure.length, exact, accuracy: exact * 1e-9)
        // The vertex is halfway by symmetry.
        assertPoint(measure.point(atLength: exact / 2), P(0, 0), accuracy: 1e-7)
        assertPoint(measure.tangent(atLength: exact / 2), P(1, 0), accuracy: 1e-7)
    }

    func testCirclePointsAtArcLengths() throws {
        let measure = PathMeasure(circle(radius: 100))
        let quarter = measure.length / 4
        // The circle starts at its rightmost point and runs clockwise on screen (y down).
        assertPoint(measure.point(atLength: 0), P(100, 0))
        assertPoint(measure.point(atLength: quarter), P(0, 100), accuracy: 1e-7)
        assertPoint(measure.point(atLength: 2 * quarter), P(-100, 0), accuracy: 1e-7)
        // Each 45° cubic is symmetric, so half its length is at t = 1/2, at 22.5° exactly.
        let first = try XCTUnwrap(circle(radius: 100).elements.dropFirst().first)
        guard case .cubic(let c1, let c2, let end) = first else { return XCTFail() }
        assertPoint(measure.point(atLength: quarter / 4), Path.cubicPoint(P(100, 0), c1, c2, end, 0.5), accuracy: 1e-7)
        let angle = Double.pi / 8
        assertPoint(measure.tangent(atLength: quarter / 4), P(-sin(angle), cos(angle)), accuracy: 1e-7)
        assertPoint(measure.tangent(atLength: 0), P(0, 1))
        // Every point is on the circle, to the cubics' radial error.
        for i in 0...64 {
            let p = try XCTUnwrap(measure.point(atLength: measure.length * Double(i) / 64))
            XCTAssertEqual(p.length, 100, accuracy: 0.001)
        }
    }

    func testLinePointAndTangent() {
        var path = Path()
        path.move(to: P(0, 0))
        path.addLine(to: P(30, 40))
        let measure = PathMeasure(path)
        XCTAssertEqual(measure.length, 50)
        assertPoint(measure.point(atLength: 10), P(6, 8))
        assertPoint(measure.point(atLength: 25), P(15, 20))
        assertPoint(measure.tangent(atLength: 10), P(0.6, 0.8))
        // Distances outside the path clamp to its ends.
        assertPoint(measure.point(atLength: -5), P(0, 0))
        assertPoint(measure.point(atLength: 1000), P(30, 40))
    }

    func testCornerTangentIsTheArrivingDirection() {
        var path = Path()
        path.move(to: P(0, 0))
        path.addLine(to: P(10, 0))
        path.addLine(to: P(10, 10))
        let measure = PathMeasure(path)
        assertPoint(measure.point(atLength: 10), P(10, 0))
        assertPoint(measure.tangent(atLength: 10), P(1, 0))
        assertPoint(measure.tangent(atLength: 10.5), P(0, 1))
        assertPoint(measure.point(atLength: 15), P(10, 5))
    }

    func testDegenerateControlPointsStillGiveATangent() {
        var path = Path()
        path.move(to: P(0, 0))
        path.addCurve(to: P(10, 10), control1: P(0, 0), control2: P(10, 0))
        let measure = PathMeasure(path)
        // B'(0) vanishes; the curve leaves towards its second control point.
        assertPoint(measure.tangent(atLength: 0), P(1, 0), accuracy: 1e-4)
    }

    func testMultipleSubpaths() {
        var path = Path()
        path.move(to: P(0, 0)); path.addLine(to: P(10, 0))  // 10
        path.move(to: P(0, 10)); path.addLine(to: P(0, 30)); path.closeSubpath()  // 20 + 20 closing
        path.move(to: P(5, 5)); path.addLine(to: P(5, 5))  // zero length
        path.move(to: P(50, 0)); path.addLine(to: P(60, 0)); path.closeSubpath()
        path.addLine(to: P(50, 10))  // after close: from (50, 0)
        let measure = PathMeasure(path)
        XCTAssertEqual(measure.subpathLengths, [10, 40, 0, 20, 10])
        XCTAssertEqual(measure.length, 80)
        XCTAssertEqual(measure.subpathLengths.count, path.flattened().count)
        assertPoint(measure.point(atLength: 10), P(10, 0))  // the end of the first subpath
        assertPoint(measure.point(atLength: 10.5), P(0, 10.5))
        assertPoint(measure.point(atLength: 40), P(0, 20))  // on the closing segment
        assertPoint(measure.tangent(atLength: 40), P(0, -1))
        assertPoint(measure.point(atLength: 75), P(50, 5))
    }

    func testEmptyAndZeroLengthPaths() {
        XCTAssertEqual(PathMeasure(Path()).length, 0)
        XCTAssertNil(PathMeasure(Path()).point(atLength: 0))
        var dot = Path()
        dot.move(to: P(3, 3)); dot.addLine(to: P(3, 3))
        let measure = PathMeasure(dot)
        XCTAssertEqual(measure.subpathLengths, [0])
        XCTAssertNil(measure.tangent(atLength: 0))
        XCTAssertNil(PathMeasure(circle(radius: 10)).point(atLength: .nan))
    }

    func testNonFiniteSubpathIsNotMeasured() {
        var path = Path()
        path.move(to: P(0, 0)); path.addLine(to: P(.infinity, 0))
        path.move(to: P(0, 0)); path.addLine(to: P(0, 7))
        let measure = PathMeasure(path)
        XCTAssertEqual(measure.subpathLengths, [0, 7])
        assertPoint(measure.point(atLength: 3), P(0, 3))
    }
}
