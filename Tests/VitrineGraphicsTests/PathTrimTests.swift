import XCTest
import Foundation
@testable import VitrineGraphics

final class PathTrimTests: XCTestCase {
    private func P(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    private func line(from a: Point, to b: Point) -> Path {
        var path = Path()
        path.move(to: a)
        path.addLine(to: b)
        return path
    }

    private func circle(center c: Point, radius r: Double) -> Path {
        var path = Path()
        path.addEllipse(in: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
        return path
    }

    func testLineTrimmedToItsMiddleHalf() {
        let trimmed = line(from: P(0, 0), to: P(100, 0)).trimmed(from: 0.25, to: 0.75)
        XCTAssertEqual(trimmed.elements, [.move(to: P(25, 0)), .line(to: P(75, 0))])
    }

    func testEmptyFullAndClampedRanges() {
        let path = line(from: P(0, 0), to: P(100, 0))
        XCTAssertTrue(path.trimmed(from: 0.5, to: 0.5).isEmpty)
        XCTAssertTrue(path.trimmed(from: 0.8, to: 0.2).isEmpty)
        XCTAssertTrue(path.trimmed(from: .nan, to: 1).isEmpty)
        XCTAssertTrue(path.trimmed(from: 1.5, to: 2).isEmpty)
        XCTAssertEqual(path.trimmed(from: -1, to: 2), path)
        XCTAssertEqual(path.trimmed(from: 0, to: 1), path)
        XCTAssertEqual(path.trimmed(from: -1, to: 0.5).elements, [.move(to: P(0, 0)), .line(to: P(50, 0))])
        XCTAssertTrue(Path().trimmed(from: 0.2, to: 0.4).isEmpty)
    }

    func testTrimSpansSubpaths() {
        // 10-trim.toml: two 360-long lines, 0.25…0.75 of 720 is 180…540.
        var path = line(from: P(20, 260), to: P(380, 260))
        path.addPath(line(from: P(20, 285), to: P(380, 285)))
        XCTAssertEqual(
            path.trimmed(from: 0.25, to: 0.75).elements,
            [
                .move(to: P(200, 260)), .line(to: P(380, 260)),
                .move(to: P(20, 285)), .line(to: P(200, 285))
            ])
        // Ending exactly where a subpath ends draws nothing of the next one.
        XCTAssertEqual(
            path.trimmed(from: 0.25, to: 0.5).elements,
            [.move(to: P(200, 260)), .line(to: P(380, 260))])
        XCTAssertEqual(
            path.trimmed(from: 0.5, to: 0.75).elements,
            [.move(to: P(20, 285)), .line(to: P(200, 285))])
    }

    func testPolylineCornersAreKept() {
        var path = Path()
        path.move(to: P(0, 0)); path.addLine(to: P(10, 0)); path.addLine(to: P(10, 10)); path.addLine(to: P(20, 10))
        XCTAssertEqual(
            path.trimmed(from: 0.25, to: 0.75).elements,
            [.move(to: P(7.5, 0)), .line(to: P(10, 0)), .line(to: P(10, 10)), .line(to: P(12.5, 10))])
    }

    func testClosedSubpathInsideTheRangeComesOutOpen() {
        // Triangle 10 + 10 + 10√2, then a line of 10: the range covers the triangle whole.
        var path = Path()
        path.move(to: P(0, 0)); path.addLine(to: P(10, 0)); path.addLine(to: P(10, 10)); path.closeSubpath()
        path.addPath(line(from: P(20, 0), to: P(30, 0)))
        let total = 30 + 10 * 2.0.squareRoot()
        let trimmed = path.trimmed(from: 0, to: (total - 5) / total)
        XCTAssertEqual(trimmed.elements.count, 6)
        XCTAssertEqual(
            Array(trimmed.elements.prefix(4)),
            [.move(to: P(0, 0)), .line(to: P(10, 0)), .line(to: P(10, 10)), .line(to: P(0, 0))])
        XCTAssertEqual(trimmed.elements[4], .move(to: P(20, 0)))
        XCTAssertEqual(trimmed.elements[5].endPoint!.x, 25, accuracy: 1e-9)
        XCTAssertFalse(trimmed.elements.contains(.close))
    }

    func testTrimmedCircleStaysOnTheCircleAndSmooth() throws {
        // 10-trim.toml's red ring: 0.1…0.6 of a circle of radius 80, i.e. from 36° to 216°.
        let center = P(110, 110), r = 80.0
        let trimmed = circle(center: center, radius: r).trimmed(from: 0.1, to: 0.6)
        let elements = trimmed.elements
        guard case .move(let start) = elements.first else { return XCTFail("\(elements)") }
        XCTAssertEqual(elements.filter { if case .move = $0 { return true } else { return false } }.count, 1)
        func onCircle(angle degrees: Double) -> Point {
            Point(x: center.x + r * cos(degrees * .pi / 180), y: center.y + r * sin(degrees * .pi / 180))
        }
        XCTAssertEqual(start.distance(to: onCircle(angle: 36)), 0, accuracy: 0.05)
        XCTAssertEqual(elements.last!.endPoint!.distance(to: onCircle(angle: 216)), 0, accuracy: 0.05)

        var current = start
        var previousOutgoing: Point?
        for element in elements.dropFirst() {
            guard case .cubic(let c1, let c2, let p) = element else { return XCTFail("not a cubic: \(element)") }
            for i in 0...16 {
                let q = Path.cubicPoint(current, c1, c2, p, Double(i) / 16)
                XCTAssertEqual(q.distance(to: center), r, accuracy: r * 3e-4)
            }
            // Tangent continuity at every joint: the curve was cut, not re-approximated.
            if let outgoing = previousOutgoing {
                let incoming = c1 - current
                XCTAssertEqual(outgoing.cross(incoming) / (outgoing.length * incoming.length), 0, accuracy: 1e-9)
                XCTAssertGreaterThan(outgoing.dot(incoming), 0)
            }
            previousOutgoing = p - c2
            current = p
        }
        let full = PathMeasure(circle(center: center, radius: r)).length
        XCTAssertEqual(PathMeasure(trimmed).length, full / 2, accuracy: full * 1e-9)
    }

    func testTrimmedQuadStaysAQuad() throws {
        // The parabola y = x²/100: its middle by arc length is symmetric about the vertex.
        var path = Path()
        path.move(to: P(-100, 100))
        path.addQuadCurve(to: P(100, 100), control: P(0, -100))
        let trimmed = path.trimmed(from: 0.25, to: 0.75)
        XCTAssertEqual(trimmed.elements.count, 2)
        guard case .move(let a) = trimmed.elements[0],
            case .quad(let c, let b) = trimmed.elements[1]
        else { return XCTFail("\(trimmed.elements)") }
        XCTAssertEqual(a.x, -b.x, accuracy: 1e-7)
        XCTAssertEqual(a.y, b.y, accuracy: 1e-7)
        XCTAssertEqual(a.y, a.x * a.x / 100, accuracy: 1e-9)
        XCTAssertEqual(c.x, 0, accuracy: 1e-7)
        // The control point is where the parabola's end tangents meet: y = −a.y at x = 0.
        XCTAssertEqual(c.y, -a.y, accuracy: 1e-7)
    }

    /// The `stroke` rows of the shared timing vectors: strokeStart/strokeEnd on a straight
    /// line of length 100 cover the expected arc-length range.
    func testTimingVectorStrokeRows() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = repo.appendingPathComponent("Tests/Data/timing-vectors.tsv")
        let text = try String(contentsOf: file, encoding: .utf8)
        var rows = 0
        for row in text.split(separator: "\n") where !row.hasPrefix("#") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, fields[1] == "stroke" else { continue }
            var parameters: [String: Double] = [:]
            for pair in fields[2].split(separator: " ") {
                let kv = pair.split(separator: "=")
                if kv.count == 2, let v = Double(kv[1]) { parameters[String(kv[0])] = v }
            }
            let bounds = fields[4].components(separatedBy: "..").compactMap(Double.init)
            let start = try XCTUnwrap(parameters["strokeStart"], fields[0])
            let end = try XCTUnwrap(parameters["strokeEnd"], fields[0])
            XCTAssertEqual(bounds.count, 2, fields[0])
            let trimmed = line(from: P(0, 0), to: P(100, 0)).trimmed(from: start, to: end)
            XCTAssertEqual(trimmed.elements.count, 2, fields[0])
            XCTAssertEqual(trimmed.elements.first?.endPoint?.x ?? .nan, bounds[0], accuracy: 1e-9, fields[0])
            XCTAssertEqual(trimmed.elements.last?.endPoint?.x ?? .nan, bounds[1], accuracy: 1e-9, fields[0])
            XCTAssertEqual(PathMeasure(trimmed).length, bounds[1] - bounds[0], accuracy: 1e-9, fields[0])
            rows += 1
        }
        XCTAssertGreaterThan(rows, 0, "no stroke rows in \(file.path)")
    }
}
