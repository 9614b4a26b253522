import XCTest
@testable import VitrineGraphics

final class PathDataTests: XCTestCase {
    private func elements(_ data: String) throws -> [PathElement] {
        try Path(svgPathData: data).elements
    }

    private func P(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    private func assertThrows(
        _ data: String, offset: Int, _ fragment: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try Path(svgPathData: data), file: file, line: line) { error in
            guard let e = error as? PathDataError else {
                return XCTFail("not a PathDataError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(e.offset, offset, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(fragment), "\(e)", file: file, line: line)
        }
    }

    // MARK: - Commands

    func testMoveAndLineAbsoluteAndRelative() throws {
        XCTAssertEqual(try elements("M 10 20 L 30 40"), [.move(to: P(10, 20)), .line(to: P(30, 40))])
        XCTAssertEqual(
            try elements("m 10 20 l 30 40 l -5 -5"),
            [.move(to: P(10, 20)), .line(to: P(40, 60)), .line(to: P(35, 55))])
        // A second relative m is relative to the current point.
        XCTAssertEqual(
            try elements("M 10 10 L 20 10 m 5 5"),
            [.move(to: P(10, 10)), .line(to: P(20, 10)), .move(to: P(25, 15))])
    }

    func testHorizontalAndVertical() throws {
        XCTAssertEqual(
            try elements("M 10 20 H 50 V 60 h -5 v -10"),
            [
                .move(to: P(10, 20)), .line(to: P(50, 20)), .line(to: P(50, 60)),
                .line(to: P(45, 60)), .line(to: P(45, 50))
            ])
    }

    func testCubicAbsoluteAndRelative() throws {
        XCTAssertEqual(
            try elements("M 0 0 C 10 0 20 10 20 20 c 0 10 -10 20 -20 20"),
            [
                .move(to: P(0, 0)),
                .cubic(control1: P(10, 0), control2: P(20, 10), to: P(20, 20)),
                .cubic(control1: P(20, 30), control2: P(10, 40), to: P(0, 40))
            ])
    }

    func testSmoothCubicReflectsOnlyAfterCubic() throws {
        // After C, S's first control is the previous second control mirrored about the current point.
        let expected: [PathElement] = [
            .move(to: P(0, 0)),
            .cubic(control1: P(10, 0), control2: P(20, 10), to: P(20, 20)),
            .cubic(control1: P(20, 30), control2: P(30, 40), to: P(40, 40))
        ]
        XCTAssertEqual(try elements("M 0 0 C 10 0 20 10 20 20 S 30 40 40 40"), expected)
        XCTAssertEqual(try elements("M 0 0 C 10 0 20 10 20 20 s 10 20 20 20"), expected)
        // S after S reflects the previous S's second control.
        XCTAssertEqual(
            try elements("M 0 0 S 10 10 20 0 S 40 -10 40 0").last,
            .cubic(control1: P(30, -10), control2: P(40, -10), to: P(40, 0)))
        // First command, or after a quadratic: the current point is the first control.
        XCTAssertEqual(
            try elements("M 0 0 S 10 10 20 0").last,
            .cubic(control1: P(0, 0), control2: P(10, 10), to: P(20, 0)))
        XCTAssertEqual(
            try elements("M 0 0 Q 5 5 10 0 S 15 5 20 0").last,
            .cubic(control1: P(10, 0), control2: P(15, 5), to: P(20, 0)))
    }

    func testQuadAbsoluteAndRelative() throws {
        XCTAssertEqual(
            try elements("M 0 0 Q 10 10 20 0 q 10 -10 20 0"),
            [
                .move(to: P(0, 0)), .quad(control: P(10, 10), to: P(20, 0)),
                .quad(control: P(30, -10), to: P(40, 0))
            ])
    }

    func testSmoothQuadReflectsThroughChainsOfT() throws {
        XCTAssertEqual(
            try elements("M 0 0 Q 10 10 20 0 T 40 0 t 20 0"),
            [
                .move(to: P(0, 0)), .quad(control: P(10, 10), to: P(20, 0)),
                .quad(control: P(30, -10), to: P(40, 0)),
                .quad(control: P(50, 10), to: P(60, 0))
            ])
        // After a cubic, or first: no reflection.
        XCTAssertEqual(try elements("M 0 0 C 0 5 5 5 10 0 T 20 0").last, .quad(control: P(10, 0), to: P(20, 0)))
        XCTAssertEqual(try elements("M 0 0 T 20 0").last, .quad(control: P(0, 0), to: P(20, 0)))
    }

    func testCloseThenCommandStartsAtSubpathStart() throws {
        XCTAssertEqual(
            try elements("M 10 10 l 10 0 z l 0 10"),
            [
                .move(to: P(10, 10)), .line(to: P(20, 10)), .close,
                .move(to: P(10, 10)), .line(to: P(10, 20))
            ])
        XCTAssertEqual(
            try elements("M 10 10 L 20 10 Z M 50 50 Z m 1 1"),
            [
                .move(to: P(10, 10)), .line(to: P(20, 10)), .close,
                .move(to: P(50, 50)), .close, .move(to: P(51, 51))
            ])
        // Reflection does not cross a close.
        XCTAssertEqual(
            try elements("M 0 0 C 0 5 5 5 10 0 Z S 5 5 10 10").last,
            .cubic(control1: P(0, 0), control2: P(5, 5), to: P(10, 10)))
    }

    func testImplicitRepeats() throws {
        XCTAssertEqual(
            try elements("M 0 0 10 0 10 10"),
            [.move(to: P(0, 0)), .line(to: P(10, 0)), .line(to: P(10, 10))])
        XCTAssertEqual(
            try elements("m 5 5 10 0 0 10"),
            [.move(to: P(5, 5)), .line(to: P(15, 5)), .line(to: P(15, 15))])
        XCTAssertEqual(
            try elements("M 0 0 h 5 5 v 1, 2"),
            [
                .move(to: P(0, 0)), .line(to: P(5, 0)), .line(to: P(10, 0)),
                .line(to: P(10, 1)), .line(to: P(10, 3))
            ])
        XCTAssertEqual(
            try elements("M0 0c1 0 2 0 3 0 1 1 2 2 3 3"),
            [
                .move(to: P(0, 0)), .cubic(control1: P(1, 0), control2: P(2, 0), to: P(3, 0)),
                .cubic(control1: P(4, 1), control2: P(5, 2), to: P(6, 3))
            ])
    }

    func testNumberForms() throws {
        XCTAssertEqual(try elements("M.5.5L-1-2"), [.move(to: P(0.5, 0.5)), .line(to: P(-1, -2))])
        XCTAssertEqual(
            try elements("M1e-3,1E+1L1.5.5 +2,-.25e1"),
            [.move(to: P(0.001, 10)), .line(to: P(1.5, 0.5)), .line(to: P(2, -2.5))])
        XCTAssertEqual(try elements("M 5. 6.L0,0"), [.move(to: P(5, 6)), .line(to: P(0, 0))])
        XCTAssertEqual(try elements("\tM\n1\r2 ,3 4"), [.move(to: P(1, 2)), .line(to: P(3, 4))])
        XCTAssertEqual(try elements("M1.e1 .5e-1L1e1.5"), [.move(to: P(10, 0.05)), .line(to: P(10, 0.5))])
        XCTAssertEqual(try elements("M-0-.0"), [.move(to: P(0, 0))])
        XCTAssertEqual(try elements(""), [])
        XCTAssertEqual(try elements("  \n "), [])
    }

    // MARK: - Arcs

    /// The points where an arc's cubics meet, and its last end point.
    private func joints(_ e: [PathElement]) -> [Point] { e.dropFirst().compactMap(\.endPoint) }

    func testArcQuarterEndpointAndMidpointOnCircle() throws {
        // From (10, 0) to (0, 10), radius 10, sweep 1 (clockwise on screen), small: centre (0, 0).
        // A quarter is two 45° cubics meeting at 45° on the circle.
        let e = try elements("M 10 0 A 10 10 0 0 1 0 10")
        XCTAssertEqual(e.count, 3)
        XCTAssertEqual(e.last?.endPoint, P(0, 10))
        let mid = try XCTUnwrap(e[1].endPoint)
        XCTAssertEqual(mid.length, 10, accuracy: 1e-9)
        XCTAssertEqual(mid.x, mid.y, accuracy: 1e-9)
        XCTAssertGreaterThan(mid.x, 0)
        // Each cubic's own midpoint strays from the circle by its small radial error only.
        guard case .cubic(let c1, let c2, let p) = e[1] else { return XCTFail("\(e)") }
        XCTAssertEqual(Path.cubicPoint(P(10, 0), c1, c2, p, 0.5).length, 10, accuracy: 10 * 1e-5)
        // Sweep 0 takes the other small arc, around (10, 10).
        let other = try elements("M 10 0 A 10 10 0 0 0 0 10")
        let mid0 = try XCTUnwrap(other[1].endPoint)
        XCTAssertEqual(mid0.distance(to: P(10, 10)), 10, accuracy: 1e-9)
        XCTAssertEqual(mid0.x, 10 - 10 / 2.0.squareRoot(), accuracy: 1e-9)
    }

    func testLargeArcSplitsIntoEighthCubics() throws {
        // 270° around (10, 10): six 45° cubics, every joint on the circle.
        let e = try elements("M 10 0 A 10 10 0 1 1 0 10")
        XCTAssertEqual(e.count, 7)
        for element in e.dropFirst() {
            guard case .cubic(_, _, let p) = element else { return XCTFail("\(element)") }
            XCTAssertEqual(p.distance(to: P(10, 10)), 10, accuracy: 1e-9)
        }
        XCTAssertEqual(e.last?.endPoint, P(0, 10))
        // A full half turn is four cubics.
        XCTAssertEqual(try elements("M 0 0 A 5 5 0 0 1 10 0").count, 5)
    }

    func testArcRadiiScaledUpWhenTooSmall() throws {
        // Radius 1 cannot span 10: scaled to 5, a half circle through (5, -5) (sweep 1 from 180°).
        let e = try elements("M 0 0 A 1 1 0 0 1 10 0")
        XCTAssertEqual(e.count, 5)
        let top = joints(e)[1]
        XCTAssertEqual(top.x, 5, accuracy: 1e-9)
        XCTAssertEqual(top.y, -5, accuracy: 1e-9)
        XCTAssertEqual(e.last?.endPoint, P(10, 0))
    }

    func testRotatedEllipticArc() throws {
        // rx 20 along screen y (rotation 90°), ry 10 along x: a quarter from (10, 0) to (0, 20)
        // around (0, 0); the joint of its two cubics is at the ellipse's parametric 45° point.
        let e = try elements("M 10 0 A 20 10 90 0 1 0 20")
        XCTAssertEqual(e.count, 3)
        XCTAssertEqual(e.last?.endPoint, P(0, 20))
        let mid = try XCTUnwrap(e[1].endPoint)
        XCTAssertEqual(mid.x, 10 / 2.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(mid.y, 20 / 2.0.squareRoot(), accuracy: 1e-9)
    }

    func testDegenerateArcs() throws {
        XCTAssertEqual(try elements("M 0 0 A 0 5 0 0 1 10 0"), [.move(to: P(0, 0)), .line(to: P(10, 0))])
        XCTAssertEqual(try elements("M 5 5 A 10 10 0 0 1 5 5"), [.move(to: P(5, 5))])
        // Negative radii count by magnitude.
        XCTAssertEqual(try elements("M 10 0 A -10 -10 0 0 1 0 10"), try elements("M 10 0 A 10 10 0 0 1 0 10"))
    }

    func testArcFlagsWithoutSeparators() throws {
        // Flags are single characters: "00" is two flags, "011" two flags and the start of x.
        let spaced = try elements("M 0 0 a 1 1 0 0 0 1 1")
        XCTAssertEqual(try elements("M0 0a1 1 0 00 1 1"), spaced)
        XCTAssertEqual(try elements("M0,0a1,1,0,0,0,1,1"), spaced)
        XCTAssertEqual(try elements("M0 0a1 1 0 011 1"), try elements("M 0 0 a 1 1 0 0 1 1 1"))
        XCTAssertEqual(spaced.last?.endPoint, P(1, 1))
    }

    func testReferenceSpecShapes() throws {
        // 16-svg-commands.toml: a 100×60 rectangle, a 120×80 ellipse from two arcs, smooth waves.
        let data =
            "m 40 40 h 100 v 60 h -100 z M 200 40 a 60 40 0 1 0 120 0 a 60 40 0 1 0 -120 0 "
            + "M 40 180 c 20 -40 60 -40 80 0 s 60 40 80 0 s 60 -40 80 0 M 40 270 q 40 -50 80 0 t 80 0 t 80 0"
        let path = try Path(svgPathData: data)
        let polylines = path.flattened()
        XCTAssertEqual(polylines.count, 4)
        XCTAssertEqual(polylines[0].points, [P(40, 40), P(140, 40), P(140, 100), P(40, 100)])
        XCTAssertTrue(polylines[0].isClosed)
        var ellipse = Path()
        for p in polylines[1].points { ellipse.addLine(to: p) }
        let b = ellipse.bounds
        XCTAssertEqual(b.minX, 200, accuracy: 1e-9); XCTAssertEqual(b.maxX, 320, accuracy: 1e-9)
        XCTAssertEqual(b.minY, 0, accuracy: 0.05); XCTAssertEqual(b.maxY, 80, accuracy: 0.05)
        XCTAssertEqual(polylines[2].points.last, P(280, 180))
        XCTAssertEqual(polylines[3].points.last, P(280, 270))
    }

    // MARK: - Errors

    func testErrorOffsets() {
        assertThrows("M 10 10 X 5", offset: 8, "unknown command")
        assertThrows("L 10 10", offset: 0, "must begin with a move-to")
        assertThrows("  l 1 1", offset: 2, "must begin with a move-to")
        assertThrows("10 10", offset: 0, "must begin with a move-to")
        assertThrows("M 10", offset: 4, "expected a number")
        assertThrows("M 10 10 L 5 L 1 1", offset: 12, "expected a number")
        assertThrows("M 1e 5", offset: 2, "exponent")
        assertThrows("M - 5", offset: 2, "malformed number")
        assertThrows("M 0 . 5", offset: 4, "malformed number")
        assertThrows("M 1e999 0", offset: 2, "out of range")
        assertThrows("M 0 0 A 1 1 0 2 0 5 5", offset: 14, "arc flag")
        assertThrows("M 0 0 A 1 1 0 0", offset: 15, "arc flag")
        assertThrows("M 0 0 Z 5 5", offset: 8, "after Z")
        assertThrows("M 0,,0", offset: 4, "expected a number")
        assertThrows("M,0 0", offset: 1, "expected a number")
        assertThrows("M 0 0 é", offset: 6, "expected a number")
        assertThrows("M 0 0 L 1 1 e", offset: 12, "unknown command")
    }

    func testExtremeValuesSurviveEveryOperation() throws {
        for data in [
            "M -1e308 0 C 1e308 1e308 -1e308 -1e308 1e308 0 Z",
            "M 0 0 A 1e308 1e-308 1e300 1 1 1e308 -1e308 L 5 5",
            "M 0 0 A 1e-300 1e-300 0 0 1 1e-320 0 a 1 1 0 1 1 1e-300 0",
            "M 1e200 1e200 q 1e200 -1e200 1e-200 1e200 t 1 1 Z l 1 1"
        ] {
            let path = try Path(svgPathData: data)
            let measure = PathMeasure(path)
            _ = measure.tangent(atLength: 1)
            _ = path.trimmed(from: 0.1, to: 0.9)
            _ = path.dashed(pattern: [1, 2], phase: -3)
        }
    }

    // MARK: - Fuzz

    /// Random bytes and random mutations of valid data: every input must return or throw, an
    /// error must point inside the input, and whatever parses must survive measuring, trimming
    /// and dashing.
    func testFuzzNeverCrashesOrHangs() {
        var rng = SplitMix64(seed: 0x5EED_0F_9A7D)
        let seeds = [
            "M 10 20 L 30 40 H 5 V 7 Z",
            "m0 0c1 2 3 4 5 6s1 2 3 4q1 1 2 2t3 3z",
            "M 290 150 A 120 120 0 0 1 170 270 A 120 120 0 1 0 50 150 Z",
            "M.5.5l-1-2e3 1e-3,4a1 1 0 00 1 1"
        ]
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZzEe0123456789.-+, \n\t01#é".utf8)
        var parsed = 0
        for iteration in 0..<3000 {
            var bytes: [UInt8]
            if iteration % 3 == 0 {
                bytes = (0..<Int(rng.next() % 40)).map { _ in
                    rng.next() % 4 == 0
                        ? UInt8(truncatingIfNeeded: rng.next()) : alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            } else {
                bytes = Array(seeds[Int(rng.next() % UInt64(seeds.count))].utf8)
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    let position = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count))
                    let byte = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                    switch rng.next() % 3 {
                    case 0: bytes.insert(byte, at: position)
                    case 1: if !bytes.isEmpty { bytes.remove(at: position) }
                    default: if !bytes.isEmpty { bytes[position] = byte }
                    }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let path = try Path(svgPathData: text)
                let measure = PathMeasure(path)
                _ = measure.point(atLength: measure.length / 2)
                _ = path.trimmed(from: 0.2, to: 0.7)
                _ = path.dashed(pattern: [3, 2], phase: 1)
                parsed += 1
            } catch let error as PathDataError {
                XCTAssertTrue((0...text.utf8.count).contains(error.offset), "\(text): \(error)")
            } catch {
                XCTFail("unexpected error \(error)")
            }
        }
        // Enough inputs survive parsing for the path operations to be exercised too.
        XCTAssertGreaterThan(parsed, 300)
    }
}

/// A tiny deterministic generator, so a failing fuzz case reproduces.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
