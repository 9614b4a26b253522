import XCTest
import Foundation
@testable import VitrineGraphics

final class PathDashTests: XCTestCase {
    private func P(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    private func line(from a: Point, to b: Point) -> Path {
        var path = Path()
        path.move(to: a)
        path.addLine(to: b)
        return path
    }

    /// A path of horizontal dashes on y = 0, one move + line each, from their x ranges.
    private func dashes(_ ranges: [(Double, Double)], y: Double = 0) -> [PathElement] {
        ranges.flatMap { [PathElement.move(to: P($0.0, y)), .line(to: P($0.1, y))] }
    }

    private func assertElements(
        _ actual: [PathElement], _ expected: [PathElement], accuracy: Double = 1e-9,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(actual.count, expected.count, "\(actual)", file: file, line: line)
        for (a, e) in zip(actual, expected) {
            switch (a, e) {
            case (.move(let p), .move(let q)), (.line(let p), .line(let q)):
                XCTAssertEqual(p.distance(to: q), 0, accuracy: accuracy, "\(a) vs \(e)", file: file, line: line)
            default:
                XCTAssertEqual(a, e, file: file, line: line)
            }
        }
    }

    private var line100: Path { line(from: P(0, 0), to: P(100, 0)) }

    func testTenFiveOnAHundredPixelLine() {
        assertElements(
            line100.dashed(pattern: [10, 5], phase: 0).elements,
            dashes([(0, 10), (15, 25), (30, 40), (45, 55), (60, 70), (75, 85), (90, 100)]))
    }

    func testPhaseShiftsThePattern() {
        // 5 into the first dash.
        assertElements(
            line100.dashed(pattern: [10, 5], phase: 5).elements,
            dashes([(0, 5), (10, 20), (25, 35), (40, 50), (55, 65), (70, 80), (85, 95)]))
        // 12 is 2 into the gap: 3 off first.
        assertElements(
            line100.dashed(pattern: [10, 5], phase: 12).elements,
            dashes([(3, 13), (18, 28), (33, 43), (48, 58), (63, 73), (78, 88), (93, 100)]))
        // A phase beyond the period wraps: 27 is 12.
        assertElements(
            line100.dashed(pattern: [10, 5], phase: 27).elements,
            line100.dashed(pattern: [10, 5], phase: 12).elements)
        // −5 counts back from the end: it is 10, the start of the gap.
        assertElements(
            line100.dashed(pattern: [10, 5], phase: -5).elements,
            dashes([(5, 15), (20, 30), (35, 45), (50, 60), (65, 75), (80, 90), (95, 100)]))
        assertElements(
            line100.dashed(pattern: [10, 5], phase: -20).elements,
            line100.dashed(pattern: [10, 5], phase: -5).elements)
    }

    func testOddPatternRepeatsTwice() {
        assertElements(
            line100.dashed(pattern: [10], phase: 0).elements,
            dashes([(0, 10), (20, 30), (40, 50), (60, 70), (80, 90)]))
        // [5, 10, 15] is on 5, off 10, on 15, off 5, on 10, off 15.
        assertElements(
            line100.dashed(pattern: [5, 10, 15], phase: 0).elements,
            dashes([(0, 5), (15, 30), (35, 45), (60, 65), (75, 90), (95, 100)]))
    }

    func testInvalidPatternsLeaveTheLineSolid() {
        let path = line100
        XCTAssertEqual(path.dashed(pattern: [], phase: 0), path)
        XCTAssertEqual(path.dashed(pattern: [0, 0], phase: 0), path)
        XCTAssertEqual(path.dashed(pattern: [10, -5], phase: 0), path)
        XCTAssertEqual(path.dashed(pattern: [10, .nan], phase: 0), path)
        XCTAssertEqual(path.dashed(pattern: [10, .infinity], phase: 0), path)
        XCTAssertEqual(path.dashed(pattern: [10, 5], phase: .infinity), path)
    }

    func testTooManyDashesLeaveThePathSolid() {
        let long = line(from: P(0, 0), to: P(Double(Path.maximumDashCount) * 2 + 10, 0))
        XCTAssertEqual(long.dashed(pattern: [1, 1], phase: 0), long)
        let fine = line(from: P(0, 0), to: P(100, 0))
        XCTAssertEqual(fine.dashed(pattern: [1e-6, 1e-6], phase: 0), fine)
        // Just under the limit still dashes.
        let under = line(from: P(0, 0), to: P(Double(Path.maximumDashCount) * 2 - 10, 0))
        XCTAssertNotEqual(under.dashed(pattern: [1, 1], phase: 0), under)
    }

    func testZeroLengthDashesAreZeroLengthLines() {
        assertElements(
            line(from: P(0, 0), to: P(30, 0)).dashed(pattern: [0, 10], phase: 0).elements,
            dashes([(0, 0), (10, 10), (20, 20)]))
    }

    func testPatternRestartsOnEverySubpath() {
        var path = line(from: P(0, 0), to: P(20, 0))
        path.addPath(line(from: P(0, 10), to: P(20, 10)))
        assertElements(
            path.dashed(pattern: [10, 5], phase: 0).elements,
            dashes([(0, 10), (15, 20)]) + dashes([(0, 10), (15, 20)], y: 10))
    }

    func testClosedSubpathJoinsLastDashWithFirst() {
        var square = Path()
        square.addRect(Rect(x: 0, y: 0, width: 10, height: 10))  // perimeter 40, clockwise from (0, 0)
        // Phase 2: the first dash is [0, 4]; the last starts at 38 and runs through the start point.
        assertElements(
            square.dashed(pattern: [6, 4], phase: 2).elements,
            [
                .move(to: P(8, 0)), .line(to: P(10, 0)), .line(to: P(10, 4)),
                .move(to: P(10, 8)), .line(to: P(10, 10)), .line(to: P(6, 10)),
                .move(to: P(2, 10)), .line(to: P(0, 10)), .line(to: P(0, 6)),
                .move(to: P(0, 2)), .line(to: P(0, 0)), .line(to: P(4, 0))
            ])
        // Phase 0: the pattern ends in a gap, so the first dash stands alone (drawn last).
        assertElements(
            square.dashed(pattern: [6, 4], phase: 0).elements,
            [
                .move(to: P(10, 0)), .line(to: P(10, 6)),
                .move(to: P(10, 10)), .line(to: P(4, 10)),
                .move(to: P(0, 10)), .line(to: P(0, 4)),
                .move(to: P(0, 0)), .line(to: P(6, 0))
            ])
    }

    func testDashedCircleFollowsThePatternAlongTheCurve() throws {
        // 08-dashes.toml: a circle of radius 120 from four SVG arcs, [30, 15] with phase 10.
        let circle = try Path(
            svgPathData: "M 290 150 A 120 120 0 0 1 170 270 A 120 120 0 0 1 50 150 "
                + "A 120 120 0 0 1 170 30 A 120 120 0 0 1 290 150 Z")
        let center = P(170, 150)
        let length = PathMeasure(circle).length
        let dashed = circle.dashed(pattern: [30, 15], phase: 10)

        // The expected "on" stretches, by arc length: [45k − 10, 45k + 20] within [0, length];
        // the one cut by the start joins the last one when that reaches the end.
        var expected: [Double] = []
        var k = 1.0
        while 45 * k - 10 < length {
            expected.append(min(45 * k + 20, length) - (45 * k - 10))
            k += 1
        }
        if 45 * (k - 1) + 20 >= length { expected[expected.count - 1] += 20 } else { expected.append(20) }

        // Split the result into its pieces and check each: cubics only, on the circle, right length.
        var pieces: [Path] = []
        for element in dashed.elements {
            if case .move = element { pieces.append(Path()) }
            pieces[pieces.count - 1].append(element)
        }
        XCTAssertEqual(pieces.count, expected.count)
        for (piece, expectedLength) in zip(pieces, expected) {
            XCTAssertEqual(PathMeasure(piece).length, expectedLength, accuracy: 1e-6)
            var current = Point.zero
            for element in piece.elements {
                switch element {
                case .move(let p): current = p
                case .cubic(let c1, let c2, let p):
                    for i in 0...8 {
                        let q = Path.cubicPoint(current, c1, c2, p, Double(i) / 8)
                        XCTAssertEqual(q.distance(to: center), 120, accuracy: 0.04)
                    }
                    current = p
                default: XCTFail("unexpected \(element)")
                }
            }
        }
    }
}
