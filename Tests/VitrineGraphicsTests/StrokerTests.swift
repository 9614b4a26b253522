import Foundation
import XCTest
import VitrineGraphics

/// Stroke outlines checked against geometry computed here independently: exact corners,
/// analytic areas, distances to the centre line, and nonzero winding at sample points.
final class StrokerTests: XCTestCase {

    // MARK: - Reach

    /// `strokeReach` bounds every stroke outline (the path's bounds grown by it hold the
    /// outline, up to the flattening tolerance), and a path without sharp corners reaches half
    /// the width where the miter limit alone would allow five times that.
    func testStrokeReachHoldsTheOutlineAndFollowsTheCorners() {
        var circle = Path()
        circle.addEllipse(in: Rect(x: 650, y: 250, width: 620, height: 620))
        let wide = StrokeStyle(lineWidth: 180)
        XCTAssertLessThan(circle.strokeReach(wide), 180 * 0.72)
        assertReachHolds(circle, wide)
        // A 20° spike keeps its miter under the default limit (1 / sin 10° ≈ 5.76), not under 4,
        // where the 80° corners at its base reach farthest (1 / sin 40°).
        let spike = Path(elements: [.move(to: P(0, 0)), .line(to: P(400, 70.5)), .line(to: P(0, 141)), .close])
        let tip = 0.5 / sin(10 * Double.pi / 180)
        XCTAssertEqual(spike.strokeReach(StrokeStyle(lineWidth: 10)), 10 * tip, accuracy: 0.3)
        XCTAssertEqual(
            spike.strokeReach(StrokeStyle(lineWidth: 10, miterLimit: 4)), 5 / sin(40 * Double.pi / 180), accuracy: 0.05)
        assertReachHolds(spike, StrokeStyle(lineWidth: 10))
        var rng = SplitMix64(seed: 0x57_20_4E_AC)
        for _ in 0..<2000 {
            let path = randomPath(&rng)
            let style = StrokeStyle(
                lineWidth: rng.next(in: 0.5...40), lineCap: [.butt, .round, .square][Int(rng.next(in: 0...2.999))],
                lineJoin: [.miter, .round, .bevel][Int(rng.next(in: 0...2.999))], miterLimit: rng.next(in: 1...12))
            assertReachHolds(path, style)
        }
    }

    /// A corner's turn and the spread of a curve's chords are angles: the reach of a path is
    /// the same whatever its size, down to tiny coordinates and up to those whose squares'
    /// squares would overflow a double.
    func testStrokeReachDoesNotDependOnThePathsScale() {
        var rng = SplitMix64(seed: 0x5C_A1_ED)
        for _ in 0..<300 {
            let path = randomPath(&rng)
            let style = StrokeStyle(lineWidth: 10, miterLimit: rng.next(in: 1.5...12))
            let reach = path.strokeReach(style)
            for scale in [1e-90, 1e90, 1e140] {
                let scaled = path.applying(Transform2D(scaleX: scale, y: scale))
                XCTAssertEqual(scaled.strokeReach(style), reach, accuracy: reach * 1e-9, "\(scale): \(path.elements)")
            }
        }
    }

    /// A path of up to six lines, quadratic and cubic curves and subpaths in a 200-unit square,
    /// half of them closed.
    private func randomPath(_ rng: inout SplitMix64) -> Path {
        var path = Path()
        path.move(to: P(rng.next(in: 0...200), rng.next(in: 0...200)))
        for _ in 0..<Int(rng.next(in: 1...6)) {
            let p = P(rng.next(in: 0...200), rng.next(in: 0...200))
            let c = P(rng.next(in: 0...200), rng.next(in: 0...200))
            switch Int(rng.next(in: 0...3.999)) {
            case 0: path.addLine(to: p)
            case 1: path.addQuadCurve(to: p, control: c)
            case 2: path.addCurve(to: p, control1: c, control2: P(rng.next(in: 0...200), rng.next(in: 0...200)))
            default: path.closeSubpath(); path.move(to: p)
            }
        }
        if rng.next(in: 0...1) < 0.5 { path.closeSubpath() }
        return path
    }

    private func assertReachHolds(
        _ path: Path, _ style: StrokeStyle, file: StaticString = #filePath, line: UInt = #line
    ) {
        let reach = path.strokeReach(style) + Flattening.defaultTolerance
        let allowed = path.bounds.insetBy(dx: -reach, dy: -reach)
        let drawn = path.strokeOutline(style).bounds
        XCTAssertTrue(
            allowed.contains(drawn), "\(path.elements) \(style): \(drawn) outside \(allowed)", file: file, line: line)
    }

    // MARK: - Caps

    func testButtCapsGiveTheExactRectangle() {
        let outline = Outline(line(10, 20, 110, 20), StrokeStyle(lineWidth: 8))
        XCTAssertEqual(outline.contours.count, 1)
        assertSameCorners(outline.contours[0], [P(10, 16), P(110, 16), P(110, 24), P(10, 24)])
    }

    func testSquareCapsExtendByHalfTheWidth() {
        let outline = Outline(line(10, 20, 110, 20), StrokeStyle(lineWidth: 8, lineCap: .square))
        XCTAssertEqual(outline.contours.count, 1)
        assertSameCorners(outline.contours[0], [P(6, 16), P(114, 16), P(114, 24), P(6, 24)])
        XCTAssertEqual(outline.nonzeroArea(), 108 * 8, accuracy: 0.01)
    }

    func testRoundCapsAddASemicircleAtEachEnd() {
        let r = 12.0
        let outline = Outline(line(60, 150, 340, 150), StrokeStyle(lineWidth: 2 * r, lineCap: .round))
        let expected = 280 * 2 * r + Double.pi * r * r
        XCTAssertEqual(outline.nonzeroArea(), expected, accuracy: expected * 0.005)
        let segment = [P(60, 150), P(340, 150)]
        let tolerance = Flattening.defaultTolerance
        for p in outline.points {
            let d = distance(p, toPolyline: segment)
            XCTAssertEqual(d, r, accuracy: tolerance, "every vertex of a round-capped line lies at r from it")
        }
        XCTAssertEqual(outline.bounds.minX, 60 - r, accuracy: tolerance)
        XCTAssertEqual(outline.bounds.maxX, 340 + r, accuracy: tolerance)
    }

    // MARK: - Joins

    /// An L with arms of 100 and half width 5: two 100×10 bars overlapping in a 5×5 square,
    /// plus the outer corner's fill (a full square for miter, half of it for bevel, a quarter
    /// disc for round).
    private func lShape(_ join: LineJoin) -> Outline {
        Outline(polyline([P(0, 0), P(100, 0), P(100, 100)]), StrokeStyle(lineWidth: 10, lineJoin: join))
    }

    func testMiterJoinOfARightAngleReachesTheCorner() {
        let outline = lShape(.miter)
        XCTAssertTrue(outline.hasPoint(P(105, -5)), "outer miter point")
        XCTAssertTrue(outline.hasPoint(P(95, 5)), "inner corner")
        XCTAssertEqual(outline.nonzeroArea(), 2 * 1000 - 25 + 25, accuracy: 0.5)
    }

    func testBevelJoinCutsTheCorner() {
        let outline = lShape(.bevel)
        XCTAssertTrue(outline.hasPoint(P(100, -5)))
        XCTAssertTrue(outline.hasPoint(P(105, 0)))
        XCTAssertFalse(outline.hasPoint(P(105, -5)))
        XCTAssertEqual(outline.nonzeroArea(), 2 * 1000 - 25 + 12.5, accuracy: 0.5)
    }

    func testRoundJoinAddsAQuarterDisc() {
        let outline = lShape(.round)
        XCTAssertEqual(
            outline.nonzeroArea(), 2 * 1000 - 25 + Double.pi * 25 / 4,
            accuracy: Double.pi * 5 / 2 * Flattening.defaultTolerance)
        let centerline = [P(0, 0), P(100, 0), P(100, 100)]
        for p in outline.points {
            XCTAssertLessThanOrEqual(distance(p, toPolyline: centerline), 5 + Flattening.defaultTolerance)
        }
    }

    func testSharpAngleBeyondTheMiterLimitBecomesABevel() {
        // Interior angle atan(10/100): miter length / width = 1 / sin(angle / 2) ≈ 20.06.
        let vertex = P(100, 0)
        let path = polyline([P(0, 0), vertex, P(0, 10)])
        let ratio = 1 / sin(atan2(10.0, 100.0) / 2)
        let r = 5.0

        let beveled = Outline(path, StrokeStyle(lineWidth: 2 * r, lineJoin: .miter, miterLimit: 10))
        for p in beveled.points {
            XCTAssertLessThanOrEqual(distance(p, toPolyline: [P(0, 0), vertex, P(0, 10)]), r + 1e-9)
        }

        // Just above the ratio the miter is drawn: its tip lies on the outer bisector.
        let mitered = Outline(path, StrokeStyle(lineWidth: 2 * r, lineJoin: .miter, miterLimit: ratio + 0.01))
        let u1 = P(-1, 0), u2 = unit(P(0, 10) - vertex)
        let tip = vertex - unit(u1 + u2) * (r * ratio)
        XCTAssertTrue(mitered.hasPoint(tip, tolerance: 1e-6), "miter tip at \(tip)")

        let justBelow = Outline(path, StrokeStyle(lineWidth: 2 * r, lineJoin: .miter, miterLimit: ratio - 0.01))
        XCTAssertFalse(justBelow.hasPoint(tip, tolerance: 1e-3))
    }

    func testZigZagJoinsMatchTheirStyles() {
        // 05-joins: a sharp zig-zag, miter limit 10 not reached (ratio ≈ 6.5).
        let points = [P(20, 230), P(45, 70), P(70, 230), P(95, 70), P(120, 230)]
        let r = 8.0
        let half = atan2(25.0, 160.0)  // half the interior angle at each vertex
        for join in LineJoin.allCases {
            let outline = Outline(polyline(points), StrokeStyle(lineWidth: 2 * r, lineJoin: join))
            outline.assertWindingNeverCancels()
            let farthest = outline.points.map { distance($0, toPolyline: points) }.max()!
            switch join {
            case .miter: XCTAssertEqual(farthest, r / sin(half), accuracy: 1e-6)
            case .round: XCTAssertEqual(farthest, r, accuracy: Flattening.defaultTolerance)
            case .bevel: XCTAssertEqual(farthest, r, accuracy: 1e-9)
            }
        }
    }

    // MARK: - Closed subpaths and curves

    func testClosedRectangleHasOuterAndInnerContoursAndNoCaps() {
        var path = Path()
        path.addRect(Rect(x: 50, y: 50, width: 100, height: 100))
        for cap in LineCap.allCases {
            let outline = Outline(path, StrokeStyle(lineWidth: 10, lineCap: cap))
            XCTAssertEqual(outline.contours.count, 2)
            XCTAssertEqual(outline.nonzeroArea(), 110 * 110 - 90 * 90, accuracy: 0.5)
            XCTAssertTrue(outline.hasPoint(P(45, 45)) && outline.hasPoint(P(55, 55)), "start corner is mitered")
        }
    }

    func testCircleStrokeIsAnAnnulus() {
        let (c, radius, w) = (P(200, 150), 50.0, 10.0)
        var path = Path()
        path.addEllipse(in: Rect(x: c.x - radius, y: c.y - radius, width: 2 * radius, height: 2 * radius))
        let tolerance = 0.1
        for join in LineJoin.allCases {
            let outline = Outline(path, StrokeStyle(lineWidth: w, lineJoin: join), tolerance: tolerance)
            XCTAssertEqual(outline.contours.count, 2)
            let annulus = Double.pi * ((radius + w / 2) * (radius + w / 2) - (radius - w / 2) * (radius - w / 2))
            // Outer minus inner contour, exactly.
            let areas = outline.contours.map { abs(signedArea($0)) }
            let area = areas.max()! - areas.min()!
            XCTAssertEqual(area, annulus, accuracy: annulus * 0.001, "\(join)")
            // Both boundaries within the tolerance of the exact circles, vertices and chords alike.
            for contour in outline.contours {
                for (i, p) in contour.enumerated() {
                    let q = contour[(i + 1) % contour.count]
                    for s in [p, p.lerp(to: q, 0.5)] {
                        let d = s.distance(to: c)
                        let off = min(abs(d - (radius + w / 2)), abs(d - (radius - w / 2)))
                        XCTAssertLessThanOrEqual(off, tolerance, "\(join) at \(s)")
                    }
                }
            }
        }
    }

    func testCurveOffsetsStayWithinTolerance() {
        // 18-degenerate's cubic (coincident control points) and a steep quadratic.
        var cubic = Path()
        cubic.move(to: P(40, 220))
        cubic.addCurve(to: P(360, 220), control1: P(200, 120), control2: P(200, 120))
        var quad = Path()
        quad.move(to: P(220, 260))
        quad.addQuadCurve(to: P(340, 260), control: P(280, 120))
        let tolerance = 0.1
        for (path, w) in [(cubic, 14.0), (quad, 30.0)] {
            // Round caps: the stroke is then every point within w/2 of the curve.
            let outline = Outline(path, StrokeStyle(lineWidth: w, lineCap: .round), tolerance: tolerance)
            let samples = densePoints(path)
            for contour in outline.contours {
                for (i, p) in contour.enumerated() {
                    let mid = p.lerp(to: contour[(i + 1) % contour.count], 0.5)
                    for s in [p, mid] {
                        XCTAssertLessThanOrEqual(distance(s, toPolyline: samples), w / 2 + tolerance)
                    }
                }
            }
            outline.assertCovers(samples, within: w / 2 - tolerance * 1.001)
            outline.assertWindingNeverCancels()
        }
    }

    func testCubicCuspHasNoSpikeAndNoHole() {
        // Derivative of this cubic vanishes at t = 0.5: a cusp at (50, 75). Skia puts a disc of
        // the stroke's radius there, whatever the join.
        var path = Path()
        path.move(to: P(0, 0))
        path.addCurve(to: P(100, 0), control1: P(100, 100), control2: P(0, 100))
        let r = 10.0
        for join in LineJoin.allCases {
            let outline = Outline(path, StrokeStyle(lineWidth: 2 * r, lineCap: .round, lineJoin: join))
            let samples = densePoints(path)
            for p in outline.points {
                XCTAssertLessThanOrEqual(distance(p, toPolyline: samples), r + 0.1, "\(join)")
            }
            outline.assertCovers(samples, within: r - 0.1001)
            XCTAssertNotEqual(outline.winding(at: P(50, 75 + r - 0.2)), 0, "disc beyond the cusp (\(join))")
            outline.assertWindingNeverCancels()
        }
    }

    func testTightCircleIsAFilledDisc() {
        // Half width 20 around a circle of radius 10: the inner offset folds over the centre;
        // the stroke still covers the whole disc of radius 30.
        var path = Path()
        path.addEllipse(in: Rect(x: 190, y: 140, width: 20, height: 20))
        let outline = Outline(path, StrokeStyle(lineWidth: 40))
        XCTAssertNotEqual(outline.winding(at: P(200, 150)), 0)
        XCTAssertEqual(outline.nonzeroArea(), Double.pi * 900, accuracy: Double.pi * 900 * 0.005)
        outline.assertWindingNeverCancels()
    }

    // MARK: - Degenerate input

    func testZeroLengthSegmentsDrawTheirCaps() {
        let r = 15.0
        let p = P(80, 80)
        let tolerance = Flattening.defaultTolerance
        let zeroLength = line(80, 80, 80, 80)

        let round = Outline(zeroLength, StrokeStyle(lineWidth: 2 * r, lineCap: .round))
        XCTAssertEqual(round.contours.count, 1)
        for q in round.points { XCTAssertEqual(q.distance(to: p), r, accuracy: Flattening.defaultTolerance) }
        // Round arcs stray from the circle by at most the tolerance: so can the area, per unit of arc.
        XCTAssertEqual(round.nonzeroArea(), Double.pi * r * r, accuracy: 2 * Double.pi * r * tolerance)

        let square = Outline(zeroLength, StrokeStyle(lineWidth: 2 * r, lineCap: .square))
        XCTAssertEqual(square.contours.count, 1)
        assertSameCorners(square.contours[0], [P(65, 65), P(95, 65), P(95, 95), P(65, 95)])

        XCTAssertTrue(zeroLength.strokeOutline(StrokeStyle(lineWidth: 2 * r, lineCap: .butt)).isEmpty)
    }

    func testDegenerateSubpathsFollowSkia() {
        let style = StrokeStyle(lineWidth: 10, lineCap: .round)
        let disc = 25 * Double.pi, discError = 10 * Double.pi * Flattening.defaultTolerance
        // A move then close, or lines that all coincide, closed or not: a dot.
        for elements: [PathElement] in [
            [.move(to: P(10, 10)), .close],
            [.move(to: P(10, 10)), .line(to: P(10, 10)), .line(to: P(10, 10)), .close],
            [.move(to: P(10, 10)), .cubic(control1: P(10, 10), control2: P(10, 10), to: P(10, 10))]
        ] {
            let outline = Outline(Path(elements: elements), style)
            XCTAssertEqual(outline.contours.count, 1, "\(elements)")
            XCTAssertEqual(outline.nonzeroArea(), disc, accuracy: discError)
        }
        // A lone move draws nothing, and does not disturb the next subpath.
        XCTAssertTrue(Path(elements: [.move(to: P(10, 10))]).strokeOutline(style).isEmpty)
        let twoMoves = Outline(
            Path(elements: [.move(to: P(10, 10)), .move(to: P(50, 50)), .line(to: P(60, 50))]), style)
        XCTAssertEqual(twoMoves.contours.count, 1)
        XCTAssertGreaterThan(twoMoves.bounds.minX, 40)
    }

    func testCoincidentPointsAreDropped() {
        let style = StrokeStyle(lineWidth: 10, lineJoin: .miter)
        let path = polyline([P(0, 0), P(50, 0), P(50, 0), P(50, 0), P(100, 0)])
        let outline = Outline(path, style)
        XCTAssertEqual(outline.nonzeroArea(), 1000, accuracy: 0.01)
        for p in outline.points { XCTAssertEqual(abs(p.y), 5, accuracy: 1e-12) }
    }

    func testUTurnHasNoSpike() {
        // 18-degenerate: back along the same line.
        let points = [P(40, 160), P(200, 160), P(120, 160)]
        let r = 5.0
        for join in LineJoin.allCases {
            let outline = Outline(polyline(points), StrokeStyle(lineWidth: 2 * r, lineJoin: join))
            for p in outline.points {
                XCTAssertLessThanOrEqual(distance(p, toPolyline: points), r + Flattening.defaultTolerance, "\(join)")
            }
            outline.assertWindingNeverCancels()
            switch join {
            case .round:
                XCTAssertNotEqual(outline.winding(at: P(200 + 0.9 * r, 160)), 0, "half disc at the turn")
                XCTAssertEqual(
                    outline.nonzeroArea(), 160 * 2 * r + Double.pi * r * r / 2,
                    accuracy: Double.pi * r * Flattening.defaultTolerance)
            case .miter, .bevel:
                XCTAssertEqual(outline.winding(at: P(201, 160)), 0, "flat at the turn")
                XCTAssertEqual(outline.nonzeroArea(), 160 * 2 * r, accuracy: 0.05)
            }
        }
    }

    func testClosedTwoPointSubpathGetsJoinsAtBothEnds() {
        let path = Path(elements: [.move(to: P(300, 40)), .line(to: P(360, 40)), .close])
        let round = Outline(path, StrokeStyle(lineWidth: 20, lineCap: .butt, lineJoin: .round))
        XCTAssertEqual(
            round.nonzeroArea(), 60 * 20 + Double.pi * 100, accuracy: 20 * Double.pi * Flattening.defaultTolerance)
        let miter = Outline(path, StrokeStyle(lineWidth: 20, lineCap: .round, lineJoin: .miter))
        XCTAssertEqual(miter.nonzeroArea(), 60 * 20, accuracy: 0.05)
    }

    func testThinLinesAreThinPolygons() {
        for (w, end) in [(0.5, P(366.298, 203.576)), (1.0, P(72.721, 51.005)), (0.05, P(200, 290))] {
            let start = P(200, 150)
            let outline = Outline(line(start.x, start.y, end.x, end.y), StrokeStyle(lineWidth: w))
            XCTAssertEqual(outline.contours.count, 1)
            XCTAssertEqual(outline.contours[0].count, 4)
            XCTAssertEqual(
                abs(signedArea(outline.contours[0])), start.distance(to: end) * w,
                accuracy: 1e-9 * start.distance(to: end))
        }
    }

    func testInvalidInputGivesAnEmptyOutline() {
        let good = line(0, 0, 10, 0)
        for width in [0.0, -1, .nan, .infinity] {
            XCTAssertTrue(good.strokeOutline(StrokeStyle(lineWidth: width)).isEmpty, "width \(width)")
        }
        for bad in [Double.nan, .infinity, -.infinity] {
            XCTAssertTrue(line(0, 0, bad, 5).strokeOutline(StrokeStyle(lineWidth: 2)).isEmpty)
            var curve = Path()
            curve.move(to: P(0, 0))
            curve.addCurve(to: P(10, 10), control1: P(bad, 0), control2: P(5, 5))
            XCTAssertTrue(curve.strokeOutline(StrokeStyle(lineWidth: 2, lineCap: .round)).isEmpty)
        }
        // Nonsense tolerances fall back to the default instead of looping or dividing by zero.
        for tolerance in [0.0, -1, .nan, .infinity] {
            XCTAssertFalse(good.strokeOutline(StrokeStyle(lineWidth: 2, lineCap: .round), tolerance: tolerance).isEmpty)
        }
    }

    func testHugeInputStaysBounded() {
        // Up to coordinates whose differences overflow to infinity: no trap, finite output.
        for scale in [1e6, 1e150, 1e300, 1.7e308] {
            var path = Path()
            path.move(to: P(-scale, 0))
            path.addCurve(to: P(scale, scale), control1: P(scale, -scale), control2: P(-scale, scale))
            path.addLine(to: P(0, -scale))
            for width in [1.0, scale] {
                let outline = path.strokeOutline(StrokeStyle(lineWidth: width, lineCap: .round, lineJoin: .round))
                XCTAssertLessThan(outline.elements.count, 40_000, "scale \(scale) width \(width)")
                XCTAssertTrue(outline.isFinite)
            }
        }
    }

    // MARK: - Performance

    func testWavePolylineStrokesQuickly() {
        // The seed's wavy progress bar: ~200 points across 1920 px, round caps and joins.
        var path = Path()
        for i in 0...200 {
            let x = 1920.0 * Double(i) / 200
            path.addLine(to: P(x, 540 + 20 * sin(x / 40)))
        }
        let style = StrokeStyle(lineWidth: 6, lineCap: .round, lineJoin: .round)
        let outline = Outline(path, style)
        outline.assertWindingNeverCancels()
        let runs = 500
        let start = DispatchTime.now().uptimeNanoseconds
        var total = 0
        for _ in 0..<runs { total &+= path.strokeOutline(style).elements.count }
        let perStroke = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(runs) / 1e6
        XCTAssertGreaterThan(total, 0)
        print("wave polyline: \(outline.points.count) outline points, \(perStroke) ms per stroke")
        // Generous for a loaded machine; a release build takes far less (see the report).
        XCTAssertLessThan(perStroke, 0.5, "ms per stroke")
    }

    // MARK: - Helpers

    private func assertSameCorners(
        _ contour: [Point], _ expected: [Point], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(contour.count, expected.count, "\(contour)", file: file, line: line)
        for e in expected {
            XCTAssertTrue(
                contour.contains { $0.distance(to: e) < 1e-9 }, "\(e) missing from \(contour)",
                file: file, line: line)
        }
    }
}

// MARK: - Geometry for the tests

private func P(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

private func unit(_ v: Point) -> Point { v * (1 / v.length) }

private func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
    Path(elements: [.move(to: P(x0, y0)), .line(to: P(x1, y1))])
}

private func polyline(_ points: [Point]) -> Path {
    var path = Path()
    for p in points { path.addLine(to: p) }
    return path
}

/// A path's centre line within 1/1000 of a unit: exact enough for distance checks against
/// a tolerance of 1/10.
private func densePoints(_ path: Path) -> [Point] {
    path.flattened(tolerance: 1e-3).flatMap(\.points)
}

private func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
    let ab = b - a
    let t = ab.dot(ab) == 0 ? 0 : max(0, min(1, (p - a).dot(ab) / ab.dot(ab)))
    return p.distance(to: a + ab * t)
}

private func distance(_ p: Point, toPolyline points: [Point]) -> Double {
    if points.count == 1 { return p.distance(to: points[0]) }
    var best = Double.infinity
    for i in 1..<points.count { best = min(best, distance(p, toSegment: points[i - 1], points[i])) }
    return best
}

/// Shoelace area; the sign tells the orientation.
private func signedArea(_ contour: [Point]) -> Double {
    var sum = 0.0
    for (i, p) in contour.enumerated() {
        let q = contour[(i + 1) % contour.count]
        sum += p.x * q.y - q.x * p.y
    }
    return sum / 2
}

/// A stroke outline split into closed polygons, with the measurements the tests need.
private struct Outline {
    var contours: [[Point]] = []

    init(_ path: Path, _ style: StrokeStyle, tolerance: Double = Flattening.defaultTolerance) {
        for element in path.strokeOutline(style, tolerance: tolerance).elements {
            switch element {
            case .move(let p): contours.append([p])
            case .line(let p): contours[contours.count - 1].append(p)
            case .close: break
            case .quad, .cubic: XCTFail("curves in a stroke outline")
            }
        }
    }

    var points: [Point] { contours.flatMap { $0 } }

    var bounds: Rect {
        let xs = points.map(\.x), ys = points.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    func hasPoint(_ q: Point, tolerance: Double = 1e-9) -> Bool {
        points.contains { $0.distance(to: q) <= tolerance }
    }

    /// Signed crossings of a ray towards +x.
    func winding(at p: Point) -> Int {
        var w = 0
        for c in contours {
            for (i, a) in c.enumerated() {
                let b = c[(i + 1) % c.count]
                if a.y <= p.y, b.y > p.y, (b - a).cross(p - a) > 0 { w += 1 }
                if b.y <= p.y, a.y > p.y, (b - a).cross(p - a) < 0 { w -= 1 }
            }
        }
        return w
    }

    /// Area where the winding number is not zero, integrated over horizontal lines 1/100 apart.
    func nonzeroArea() -> Double {
        let b = bounds
        let dy = 0.01
        var area = 0.0
        var y = b.minY + dy * 0.5001
        while y < b.maxY {
            let spans = windingSpans(atY: y)
            for i in spans.indices.dropLast() where spans[i].winding != 0 {
                area += (spans[i + 1].x - spans[i].x) * dy
            }
            y += dy
        }
        return area
    }

    /// The winding numbers along one horizontal line: the crossings sorted by x, each with the
    /// winding just to its right.
    func windingSpans(atY y: Double) -> [(x: Double, winding: Int)] {
        var crossings: [(x: Double, w: Int)] = []
        for c in contours {
            for (i, a) in c.enumerated() {
                let q = c[(i + 1) % c.count]
                guard (a.y <= y) != (q.y <= y) else { continue }
                crossings.append((a.x + (y - a.y) / (q.y - a.y) * (q.x - a.x), q.y > a.y ? 1 : -1))
            }
        }
        crossings.sort { $0.x < $1.x }
        var w = 0
        return crossings.map {
            w += $0.w; return ($0.x, w)
        }
    }

    /// Every point of the stroke's normals shortened to `reach` on each side (and of the disc of
    /// that radius around each end, for round caps) is filled.
    func assertCovers(
        _ centerline: [Point], within reach: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var probes: [Point] = []
        var arcLength = 0.0
        for i in 1..<centerline.count {
            let a = centerline[i - 1], b = centerline[i]
            arcLength += a.distance(to: b)
            guard arcLength >= 0.5, a != b else { continue }
            arcLength = 0
            let n = unit(P(a.y - b.y, b.x - a.x))
            for k in -8...8 { probes.append(b + n * (reach * Double(k) / 8)) }
        }
        for end in [centerline.first!, centerline.last!] {
            for k in 0..<32 {
                let angle = Double(k) * .pi / 16
                probes.append(end + P(cos(angle), sin(angle)) * reach)
            }
        }
        for p in probes where winding(at: p) == 0 {
            XCTFail("hole at \(p)", file: file, line: line)
            return
        }
    }

    /// Contours never cancel one another: along horizontal lines every 1/4 unit, all nonzero
    /// windings have one sign.
    func assertWindingNeverCancels(file: StaticString = #filePath, line: UInt = #line) {
        let b = bounds
        var signs = Set<Int>()
        var y = b.minY + 0.113
        while y < b.maxY {
            for span in windingSpans(atY: y) where span.winding != 0 { signs.insert(span.winding.signum()) }
            y += 0.25
        }
        XCTAssertLessThanOrEqual(signs.count, 1, "windings of both signs", file: file, line: line)
    }
}

extension SplitMix64 {
    /// A number evenly in `range`.
    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
