import Foundation
import XCTest
@testable import VitrineGraphics

/// The stroke of one closed subpath that turns one way, once around, is a ring when the inside
/// of every corner is where its offsets cross: the inner contour is the subpath shrunk by half
/// the width and the outer one its widening, wound against each other, so every point winds 0
/// or 1 and the rasterizer does not watch who writes the cells (`Stroker.windsAtMostOnce`).
final class StrokeRingTests: XCTestCase {
    override func tearDown() {
        Rasterizer.ofThisThread.trustsConvexContours = true
    }

    private func polygon(_ points: [Point], closed: Bool = true) -> Path {
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.addLine(to: p) }
        if closed { path.closeSubpath() }
        return path
    }

    private func regular(_ n: Int, step: Int = 1, radius: Double = 30) -> [Point] {
        (0..<n).map { i in
            let a = Double(i * step) * 2 * Double.pi / Double(n)
            return Point(50 + radius * cos(a), 50 + radius * sin(a))
        }
    }

    /// A pie's wedge from its centre: `sweep` radians of a circle of radius 40.
    private func wedge(sweep: Double, from start: Double = -Double.pi / 2) -> Path {
        var path = Path()
        path.move(to: Point(50, 50))
        path.addArc(center: Point(50, 50), radius: 40, startAngle: start, endAngle: start + sweep, clockwise: true)
        path.closeSubpath()
        return path
    }

    private func isRing(_ path: Path, _ style: StrokeStyle) -> Bool {
        var stroker = Stroker(style: style, tolerance: Flattening.defaultTolerance)
        stroker.stroke(path.elements)
        return stroker.windsAtMostOnce
    }

    func testTheStrokerKnowsWhichOutlinesAreRings() {
        var ellipse = Path()
        ellipse.addEllipse(in: Rect(x: 10, y: 20, width: 80, height: 50))
        var rounded = Path()
        rounded.addRoundedRect(Rect(x: 5, y: 5, width: 60, height: 24), cornerRadius: 8)
        let thin = StrokeStyle(lineWidth: 0.5, lineJoin: .miter, miterLimit: 10)
        var ellipseThenAMove = ellipse
        ellipseThenAMove.move(to: Point(0, 0))
        let rings: [(String, Path, StrokeStyle)] = [
            ("thin ellipse", ellipse, thin),
            ("thick ellipse", ellipse, StrokeStyle(lineWidth: 12)),
            ("rounded rectangle, round joins", rounded, StrokeStyle(lineWidth: 3, lineJoin: .round)),
            ("wedge of 36°", wedge(sweep: 0.1 * 2 * Double.pi), thin),
            ("wedge of 108°, bevels", wedge(sweep: 0.3 * 2 * Double.pi), StrokeStyle(lineWidth: 2, lineJoin: .bevel)),
            ("half disc (straight through its centre)", wedge(sweep: Double.pi), thin),
            ("octagon", polygon(regular(8)), StrokeStyle(lineWidth: 6, lineJoin: .miter)),
            ("octagon the other way", polygon(regular(8).reversed()), StrokeStyle(lineWidth: 6, lineJoin: .round)),
            (
                "triangle with a point on a side",
                polygon([Point(0, 0), Point(20, 0), Point(40, 0), Point(20, 30)]), thin
            ),
            ("an ellipse then a lone move", ellipseThenAMove, thin)
        ]
        for (name, path, style) in rings { XCTAssertTrue(isRing(path, style), name) }

        var twoEllipses = ellipse
        twoEllipses.addEllipse(in: Rect(x: 100, y: 20, width: 10, height: 10))
        var arc = Path()
        arc.addArc(center: Point(50, 50), radius: 30, startAngle: 0, endAngle: 5, clockwise: true)
        let notRings: [(String, Path, StrokeStyle)] = [
            ("open arc", arc, thin),
            ("two ellipses", twoEllipses, thin),
            ("pentagram (round twice)", polygon(regular(5, step: 2)), thin),
            ("chevron", polygon([Point(0, 0), Point(40, 20), Point(0, 40), Point(16, 20)]), thin),
            ("wedge of 270°", wedge(sweep: 1.5 * Double.pi), thin),
            ("a line there and back", polygon([Point(0, 0), Point(30, 15)]), thin),
            // Wider than the triangle: the insides of its corners go through the corners.
            (
                "thick stroke of a small triangle", polygon([Point(0, 0), Point(6, 0), Point(3, 5)]),
                StrokeStyle(lineWidth: 8)
            ),
            ("thin stroke of a sliver", polygon([Point(0, 0), Point(100, 0), Point(0, 0.02)]), thin)
        ]
        for (name, path, style) in notRings { XCTAssertFalse(isRing(path, style), name) }

        // Trimmed, the outline is an open piece.
        var stroker = Stroker(style: thin, tolerance: Flattening.defaultTolerance)
        stroker.stroke(ellipse.elements, from: 0, to: 1)
        XCTAssertFalse(stroker.windsAtMostOnce, "trimmed ellipse")
        // A ring stroked after an open piece, and an open piece after a ring.
        stroker.reset(style: thin, tolerance: Flattening.defaultTolerance)
        var both = arc
        both.addEllipse(in: Rect(x: 10, y: 20, width: 80, height: 50))
        stroker.stroke(both.elements)
        XCTAssertFalse(stroker.windsAtMostOnce, "arc then ellipse")
        both = ellipse
        both.move(to: Point(0, 0))
        both.addLine(to: Point(10, 10))
        stroker.stroke(both.elements)
        XCTAssertFalse(stroker.windsAtMostOnce, "ellipse then a line")
    }

    /// Strokes of random closed convex paths — ellipses, rounded rectangles, convex polygons,
    /// wedges — and of random closed polygons, in widths from a twentieth of a pixel to forty,
    /// every join, under random turns, scales, skews and mirrors, through random clips,
    /// translucent, drawn twice by one context (the second time from its kept outline): the
    /// same pixels whether the cells' writers are watched or not.
    func testRingsDrawTheSamePixelsWithTheirWritersUnwatched() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + (range.upperBound - range.lowerBound) * Double(seed >> 11) / Double(1 << 53)
        }
        var unwatched = 0, watchedWhenTrusting = 0
        for round in 0..<300 {
            let kind = round % 5
            var path = Path()
            switch kind {
            case 0:
                path.addEllipse(
                    in: Rect(
                        x: random(-20...60), y: random(-20...80), width: random(0.3...90), height: random(0.3...120)))
            case 1:
                path.addRoundedRect(
                    Rect(x: random(-20...60), y: random(-20...80), width: random(1...90), height: random(1...120)),
                    cornerRadius: random(0...30))
            case 2:
                // A convex polygon: points on an ellipse in order.
                let count = Int(random(3...12))
                let angles = (0..<count).map { _ in random(0...(2 * Double.pi)) }.sorted()
                let c = Point(random(0...60), random(0...80)), rx = random(1...70), ry = random(1...90)
                path = polygon(angles.map { Point(c.x + rx * cos($0), c.y + ry * sin($0)) })
            case 3:
                path.move(to: Point(40, 40))
                let start = random(0...(2 * Double.pi))
                path.addArc(
                    center: Point(40, 40), radius: random(1...80), startAngle: start,
                    endAngle: start + random(0.05...(1.9 * Double.pi)), clockwise: true)
                path.closeSubpath()
            default:
                // Any closed polygon: mostly neither convex nor simple.
                path = polygon((0..<Int(random(3...9))).map { _ in Point(random(-10...70), random(-10...100)) })
            }
            let width = random(0...1) < 0.5 ? random(0.05...2) : random(2...40)
            let join: LineJoin = [.miter, .round, .bevel][round % 3]
            let style = StrokeStyle(lineWidth: width, lineJoin: join, miterLimit: random(1...12))
            let angle = random(0...(2 * Double.pi)), sx = random(0.2...2.5), sy = random(0.2...2.5)
            var transform = Transform2D(
                a: cos(angle) * sx, b: sin(angle) * sx, c: -sin(angle) * sy, d: cos(angle) * sy, tx: random(-10...50),
                ty: random(-10...60))
            transform.c += random(-0.5...0.5) * transform.a
            if random(0...1) < 0.3 { transform.a = -transform.a; transform.b = -transform.b }
            let color = Color(red: random(0...1), green: random(0...1), blue: random(0...1), alpha: random(0.2...1))
            let clip =
                random(0...1) < 0.5
                ? Rect(x: random(0...30), y: random(0...40), width: random(5...60), height: random(5...90)) : nil

            func draw(trusting: Bool) -> [UInt32] {
                Rasterizer.ofThisThread.trustsConvexContours = trusting
                let bitmap = Bitmap(width: 64, height: 90)
                let ctx = GraphicsContext(bitmap: bitmap)
                ctx.clear(Color(red: 0.1, green: 0.2, blue: 0.3))
                ctx.concatenate(transform)
                if let clip { ctx.clip(to: clip) }
                for _ in 0..<2 {
                    ctx.stroke(path, color: color, style: style)
                    if trusting {
                        if Rasterizer.ofThisThread.watchesWriters { watchedWhenTrusting += 1 } else { unwatched += 1 }
                    }
                }
                return (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap[$0, y] } }
            }
            let watched = draw(trusting: false)
            XCTAssertEqual(draw(trusting: true), watched, "round \(round), kind \(kind), width \(width)")
        }
        // Most convex paths' strokes are rings; most random polygons' are not.
        XCTAssertGreaterThan(unwatched, 200, "strokes drawn without watching their writers")
        XCTAssertGreaterThan(watchedWhenTrusting, 100, "strokes still watched")
    }
}
