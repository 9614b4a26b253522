import Foundation
import XCTest
@testable import VitrineGraphics

/// A shape whose edges wind 0 or 1 at every point (a simple polygon, or simple contours nested
/// with alternate windings) has an exact accumulated area at every pixel, so the rasterizer
/// stops watching who writes its cells once `StripWindingCheck` has shown it, before its first
/// cell is written.
final class StripWindingCheckTests: XCTestCase {
    /// The rasterizer's edges of closed polygons given in pixels (kept as 24.8 fixed point,
    /// horizontal edges left out, each edge connected to the one before it in its contour).
    private func edges(_ contours: [[Point]]) -> [FixedEdge] {
        var edges: [FixedEdge] = []
        for contour in contours {
            var connected = false
            for (k, a) in contour.enumerated() {
                let b = contour[(k + 1) % contour.count]
                let (x0, y0) = (Int32((a.x * 256).rounded()), Int32((a.y * 256).rounded()))
                let (x1, y1) = (Int32((b.x * 256).rounded()), Int32((b.y * 256).rounded()))
                if y0 == y1 {
                    connected = false
                    continue
                }
                edges.append(FixedEdge(x0: x0, y0: y0, x1: x1, y1: y1, connected: connected))
                connected = true
            }
        }
        return edges
    }

    private func windsAtMostOnce(_ contours: [[Point]]) -> Bool {
        let edges = edges(contours)
        return edges.withUnsafeBufferPointer { StripWindingCheck().windsAtMostOnce($0.baseAddress!, count: $0.count) }
    }

    private func square(_ x: Double, _ y: Double, _ size: Double) -> [Point] {
        [Point(x, y), Point(x + size, y), Point(x + size, y + size), Point(x, y + size)]
    }

    /// `n` points round (60, 60), at radius `outer` and `inner` by turns.
    private func star(_ n: Int, outer: Double, inner: Double) -> [Point] {
        (0..<(2 * n)).map { i in
            let a = Double(i) * Double.pi / Double(n), r = i % 2 == 0 ? outer : inner
            return Point(60 + r * cos(a), 60 + r * sin(a))
        }
    }

    /// A ring's arrow, as the peers' scene draws it: 290° of a ring, a head, back along the
    /// inside.
    private func arrow() -> [Point] {
        func polar(_ r: Double, _ degrees: Double) -> Point {
            Point(100 + r * cos(degrees * Double.pi / 180), 100 + r * sin(degrees * Double.pi / 180))
        }
        let outside = stride(from: -90.0, through: 200, by: 5).map { polar(80, $0) }
        let inside = stride(from: 200.0, through: -90, by: -5).map { polar(60, $0) }
        return outside + [polar(90, 200), polar(70, 240), polar(50, 200)] + inside
    }

    /// A square with a notch cut from its bottom side up to `tip`, its top side at 10.
    private func notched(tip: Double) -> [Point] {
        [Point(10, 10), Point(110, 10), Point(110, 110), Point(61, 110), Point(60, tip), Point(59, 110), Point(10, 110)]
    }

    func testTheCheckKnowsWhichOutlinesWindAtMostOnce() {
        let teeth: [Point] = (0...10).map { k in Point(Double(k) * 10, k % 2 == 0 ? 0 : 60) }
        let comb: [Point] = [Point(0, 100)] + teeth + [Point(100, 100)]
        let windOnce: [(String, [[Point]])] = [
            ("square", [square(10, 10, 50)]),
            ("square the other way", [square(10, 10, 50).reversed()]),
            ("triangle", [[Point(0, 0), Point(90, 30), Point(20, 80)]]),
            ("star of twelve points", [star(12, outer: 50, inner: 20)]),
            ("ring's arrow", [arrow()]),
            ("ring's arrow the other way", [arrow().reversed()]),
            ("comb", [comb]),
            ("square with a hole wound the other way", [square(0, 0, 100), square(30, 30, 40).reversed()]),
            ("two squares apart", [square(0, 0, 40), square(60, 10, 40)]),
            ("two squares one above the other", [square(0, 0, 40), square(10, 50, 40)]),
            ("two squares touching at a corner", [square(0, 0, 40), square(40, 40, 40)]),
            (
                "two triangles meeting on a side",
                [[Point(0, 0), Point(100, 0), Point(100, 100), Point(50, 0), Point(0, 100)]]
            ),
            ("a notch reaching the far side", [notched(tip: 10)]),
            ("thin sliver", [[Point(0, 0), Point(100, 100), Point(100.01, 100.2)]]),
            ("nothing", [])
        ]
        for (name, contours) in windOnce { XCTAssertTrue(windsAtMostOnce(contours), name) }

        let manyCornered = (0..<70_000).map { i in
            let a = Double(i) * 2 * Double.pi / 70_000
            return Point(1100 + 1000 * cos(a), 1100 + 1000 * sin(a))
        }
        XCTAssertGreaterThan(edges([manyCornered]).count, StripWindingCheck.edgeLimit)
        let windMore: [(String, [[Point]])] = [
            (
                "pentagram",
                [
                    (0..<5).map { i in
                        let a = Double(i * 4) * Double.pi / 5
                        return Point(60 + 50 * cos(a), 60 + 50 * sin(a))
                    }
                ]
            ),
            ("bow tie", [[Point(0, 0), Point(100, 100), Point(100, 0), Point(0, 100)]]),
            ("two squares overlapping", [square(0, 0, 60), square(30, 30, 60)]),
            ("square with a hole wound the same way", [square(0, 0, 100), square(30, 30, 40)]),
            ("a square twice", [square(10, 10, 50), square(10, 10, 50)]),
            ("two squares wound either way", [square(0, 0, 40), square(60, 10, 40).reversed()]),
            ("a notch through the far side by a 256th", [notched(tip: 10 - 1.0 / 256)]),
            ("beyond 4096 pixels", [square(5000, 10, 50)]),
            ("a polygon of 70,000 corners (more edges than are checked)", [manyCornered])
        ]
        for (name, contours) in windMore { XCTAssertFalse(windsAtMostOnce(contours), name) }
    }

    /// Random polygons of 3 to 12 corners: every simple one (no two edges meeting but at the
    /// corner they share) passes, star-shaped ones included; whichever passes winds 0 or the
    /// one sign at every point sampled.
    func testSimplePolygonsPassAndWhateverPassesWindsAtMostOnce() {
        var shapes = RandomShapes(seed: 0xD1B5_4A32_D192_ED03)
        func random(_ range: ClosedRange<Double>) -> Double { shapes.random(range) }
        var simple = 0, passed = 0
        for round in 0..<1000 {
            let count = Int(random(3...12.99))
            var points: [Point]
            if round % 2 == 0 {
                points = (0..<count).map { _ in Point(random(0...120), random(0...120)) }
            } else {
                let angles = (0..<count).map { _ in random(0...(2 * Double.pi)) }.sorted()
                points = angles.map { a in
                    let r = random(5...55)
                    return Point(60 + r * cos(a), 60 + r * sin(a))
                }
            }
            // On the fixed-point grid the check sees.
            points = points.map { Point(($0.x * 256).rounded() / 256, ($0.y * 256).rounded() / 256) }
            let passes = windsAtMostOnce([points])
            if isSimple(points) {
                simple += 1
                XCTAssertTrue(passes, "round \(round): a simple polygon \(points)")
            }
            if passes {
                passed += 1
                XCTAssertTrue(windsAtMostOnceWhereSampled(points), "round \(round): \(points)")
            }
        }
        XCTAssertGreaterThan(simple, 500)
        XCTAssertGreaterThan(1000 - passed, 300, "polygons that fail")
    }

    /// No two edges of the closed polygon meet, but consecutive ones at their shared corner.
    private func isSimple(_ p: [Point]) -> Bool {
        let n = p.count
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        func onSegment(_ a: Point, _ b: Point, _ q: Point) -> Bool {
            cross(a, b, q) == 0 && min(a.x, b.x) <= q.x && q.x <= max(a.x, b.x) && min(a.y, b.y) <= q.y
                && q.y <= max(a.y, b.y)
        }
        func meet(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
            let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
            if (d1 > 0 && d2 < 0 || d1 < 0 && d2 > 0) && (d3 > 0 && d4 < 0 || d3 < 0 && d4 > 0) { return true }
            return onSegment(c, d, a) || onSegment(c, d, b) || onSegment(a, b, c) || onSegment(a, b, d)
        }
        for i in 0..<n {
            let (a, b) = (p[i], p[(i + 1) % n])
            if a == b { return false }
            for j in (i + 1)..<n {
                let (c, d) = (p[j], p[(j + 1) % n])
                if j == i + 1 || (i == 0 && j == n - 1) {
                    // Consecutive: meeting only at the shared corner (not folding back).
                    let shared = j == i + 1 ? b : a, farA = j == i + 1 ? a : b, farB = j == i + 1 ? d : c
                    if cross(shared, farA, farB) == 0
                        && (farA.x - shared.x) * (farB.x - shared.x) + (farA.y - shared.y) * (farB.y - shared.y) > 0
                    {
                        return false
                    }
                    continue
                }
                if meet(a, b, c, d) { return false }
            }
        }
        return true
    }

    /// The winding of the closed polygon at points of a fine grid off its corners' rows: 0 or
    /// one sign throughout.
    private func windsAtMostOnceWhereSampled(_ p: [Point]) -> Bool {
        var sign = 0
        for sy in 0..<97 {
            let y = Double(sy) * 1.25 + 0.123
            for sx in 0..<97 {
                let x = Double(sx) * 1.25 + 0.071
                var winding = 0
                for i in 0..<p.count {
                    let (a, b) = (p[i], p[(i + 1) % p.count])
                    guard (a.y <= y) != (b.y <= y) else { continue }
                    let crossing = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                    if crossing < x { winding += b.y > a.y ? 1 : -1 }
                }
                if winding == 0 { continue }
                if abs(winding) > 1 || sign != 0 && winding != sign { return false }
                sign = winding
            }
        }
        return true
    }

    /// Random polygons, stars, overlapping ellipses and outlines with holes, taller than a band
    /// of cells or not, under random turns, scales and mirrors, through random clips,
    /// translucent, with either fill rule: the same pixels whether the check may stop the
    /// rasterizer watching their writers or not.
    func testShapesDrawTheSamePixelsWhenTheCheckStopsTheWatch() {
        var shapes = RandomShapes(seed: 0x6A09_E667_F3BC_C908)
        func random(_ range: ClosedRange<Double>) -> Double { shapes.random(range) }
        var unwatched = 0, watched = 0
        for round in 0..<600 {
            var path = Path()
            switch round % 4 {
            case 0:
                path = RandomShapes.polygon(
                    (0..<Int(random(3...10))).map { _ in Point(random(-10...70), random(-10...100)) })
            case 1:
                let count = Int(random(3...14))
                let angles = (0..<count).map { _ in random(0...(2 * Double.pi)) }.sorted()
                path = RandomShapes.polygon(
                    angles.map { a in
                        let r = random(3...60)
                        return Point(30 + r * cos(a), 45 + r * sin(a))
                    })
            case 2:
                // Two ellipses overlapping, wound the same way: winding 2 where they overlap,
                // and 0, 1 and 2 inside the pixels where their outlines cross.
                for _ in 0..<2 {
                    path.addEllipse(
                        in: Rect(
                            x: random(-10...30), y: random(-10...20), width: random(20...60), height: random(60...90)))
                }
            default:
                // An outline with a hole, wound the other way or the same way.
                path.addEllipse(
                    in: Rect(x: random(-10...10), y: random(-10...10), width: random(40...70), height: random(70...100))
                )
                let hole = Rect(x: random(10...25), y: random(15...40), width: random(3...20), height: random(3...40))
                if random(0...1) < 0.5 {
                    path.addRoundedRect(hole, cornerRadius: random(0...3))
                } else {
                    path.move(to: Point(hole.minX, hole.minY))
                    path.addLine(to: Point(hole.minX, hole.maxY))
                    path.addLine(to: Point(hole.maxX, hole.maxY))
                    path.addLine(to: Point(hole.maxX, hole.minY))
                    path.closeSubpath()
                }
            }
            let transform = shapes.placement()
            let rule: FillRule = random(0...1) < 0.5 ? .nonZero : .evenOdd
            let color = shapes.translucentColor()
            let clip = shapes.clip()

            func draw(trusting: Bool) -> [UInt32] {
                RandomShapes.pixels(trusting: trusting, placement: transform, clip: clip) { ctx in
                    ctx.fill(path, color: color, rule: rule)
                    if trusting {
                        if Rasterizer.ofThisThread.watchesWriters { watched += 1 } else { unwatched += 1 }
                    }
                }
            }
            let watchedPixels = draw(trusting: false)
            XCTAssertEqual(draw(trusting: true), watchedPixels, "round \(round)")
        }
        // Half the polygons, the overlapping ellipses and the holes wound the same way stay
        // watched.
        XCTAssertGreaterThan(unwatched, 250, "shapes the check let go unwatched")
        XCTAssertGreaterThan(watched, 50, "shapes still watched")
    }
}
