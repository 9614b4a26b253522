import Foundation
import XCTest
@testable import VitrineGraphics

/// The stroke of one subpath that turns one way, with the inside of every corner where its
/// offsets cross, winds 0 or 1 at every point, so the rasterizer does not watch who writes the
/// cells (`Stroker.windsAtMostOnce`): closed and once around, its inner contour is the subpath
/// shrunk by half the width and the outer one its widening, wound against each other (a ring);
/// open and by at most half a turn, its one contour is a simple polygon.
final class StrokeWindingTests: XCTestCase {
    private func regular(_ n: Int, step: Int = 1) -> [Point] { RandomShapes.regular(n, step: step, radius: 30) }

    /// A pie's wedge from its centre: `sweep` radians of a circle of radius 40.
    private func wedge(sweep: Double, from start: Double = -Double.pi / 2) -> Path {
        var path = Path()
        path.move(to: Point(50, 50))
        path.addArc(center: Point(50, 50), radius: 40, startAngle: start, endAngle: start + sweep, clockwise: true)
        path.closeSubpath()
        return path
    }

    private func windsAtMostOnce(_ path: Path, _ style: StrokeStyle) -> Bool {
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
            ("octagon", RandomShapes.polygon(regular(8)), StrokeStyle(lineWidth: 6, lineJoin: .miter)),
            (
                "octagon the other way", RandomShapes.polygon(regular(8).reversed()),
                StrokeStyle(lineWidth: 6, lineJoin: .round)
            ),
            (
                "triangle with a point on a side",
                RandomShapes.polygon([Point(0, 0), Point(20, 0), Point(40, 0), Point(20, 30)]), thin
            ),
            ("an ellipse then a lone move", ellipseThenAMove, thin)
        ]
        for (name, path, style) in rings { XCTAssertTrue(windsAtMostOnce(path, style), name) }

        var twoEllipses = ellipse
        twoEllipses.addEllipse(in: Rect(x: 100, y: 20, width: 10, height: 10))
        var arc = Path()
        arc.addArc(center: Point(50, 50), radius: 30, startAngle: 0, endAngle: 5, clockwise: true)
        let notRings: [(String, Path, StrokeStyle)] = [
            ("open arc of 286°", arc, thin),
            ("two ellipses", twoEllipses, thin),
            ("pentagram (round twice)", RandomShapes.polygon(regular(5, step: 2)), thin),
            ("chevron", RandomShapes.polygon([Point(0, 0), Point(40, 20), Point(0, 40), Point(16, 20)]), thin),
            ("wedge of 270°", wedge(sweep: 1.5 * Double.pi), thin),
            ("a line there and back", RandomShapes.polygon([Point(0, 0), Point(30, 15)]), thin),
            // Wider than the triangle: the insides of its corners go through the corners.
            (
                "thick stroke of a small triangle", RandomShapes.polygon([Point(0, 0), Point(6, 0), Point(3, 5)]),
                StrokeStyle(lineWidth: 8)
            ),
            ("thin stroke of a sliver", RandomShapes.polygon([Point(0, 0), Point(100, 0), Point(0, 0.02)]), thin)
        ]
        for (name, path, style) in notRings { XCTAssertFalse(windsAtMostOnce(path, style), name) }

        // Trimmed, the outline is an open piece that goes round once.
        var stroker = Stroker(style: thin, tolerance: Flattening.defaultTolerance)
        stroker.stroke(ellipse.elements, from: 0, to: 1)
        XCTAssertFalse(stroker.windsAtMostOnce, "trimmed ellipse")
        // A ring stroked after a simple open piece, and a simple open piece after a ring.
        stroker.reset(style: thin, tolerance: Flattening.defaultTolerance)
        var both = Path()
        both.addArc(center: Point(50, 50), radius: 30, startAngle: 0, endAngle: 1.5, clockwise: true)
        XCTAssertTrue(windsAtMostOnce(both, thin), "quarter arc")
        both.addEllipse(in: Rect(x: 10, y: 20, width: 80, height: 50))
        stroker.stroke(both.elements)
        XCTAssertFalse(stroker.windsAtMostOnce, "quarter arc then ellipse")
        both = ellipse
        both.move(to: Point(0, 0))
        both.addLine(to: Point(10, 10))
        stroker.stroke(both.elements)
        XCTAssertFalse(stroker.windsAtMostOnce, "ellipse then a line")
    }

    func testTheStrokerKnowsWhichOpenOutlinesAreSimple() {
        func arc(sweep: Double) -> Path {
            var path = Path()
            path.addArc(
                center: Point(50, 50), radius: 30, startAngle: 1, endAngle: 1 + sweep, clockwise: sweep > 0)
            return path
        }
        // Up from (0, 40), across the top `across` wide, and down again.
        func hairpin(across: Double) -> Path {
            RandomShapes.polygon(
                [Point(0, 40), Point(0, 0), Point(across, 0), Point(across, 40)], closed: false)
        }
        let wide = StrokeStyle(lineWidth: 6, lineCap: .square)
        let simple: [(String, Path, StrokeStyle)] = [
            ("a segment", RandomShapes.polygon([Point(0, 0), Point(30, 10)], closed: false), wide),
            ("arc of 90°, round caps", arc(sweep: Double.pi / 2), StrokeStyle(lineWidth: 4, lineCap: .round)),
            ("arc of 180°", arc(sweep: Double.pi), wide),
            ("arc of 180° the other way", arc(sweep: -Double.pi), StrokeStyle(lineWidth: 0.5)),
            ("hairpin a width across", hairpin(across: 6), wide),
            ("bent line", RandomShapes.polygon([Point(0, 0), Point(30, 0), Point(50, 20)], closed: false), wide)
        ]
        for (name, path, style) in simple { XCTAssertTrue(windsAtMostOnce(path, style), name) }
        var twoSegments = Path()
        twoSegments.move(to: Point(0, 0))
        twoSegments.addLine(to: Point(10, 0))
        twoSegments.move(to: Point(0, 5))
        twoSegments.addLine(to: Point(10, 5))
        let notSimple: [(String, Path, StrokeStyle)] = [
            ("arc of 270°", arc(sweep: 1.5 * Double.pi), StrokeStyle(lineWidth: 0.5)),
            (
                "zigzag",
                RandomShapes.polygon([Point(0, 0), Point(10, 10), Point(20, 0), Point(30, 10)], closed: false), wide
            ),
            ("there and back", RandomShapes.polygon([Point(0, 0), Point(30, 0), Point(10, 0)], closed: false), wide),
            // Narrower than the stroke: the insides of its corners go through them.
            ("hairpin narrower than a width", hairpin(across: 5), wide),
            ("two segments", twoSegments, wide)
        ]
        for (name, path, style) in notSimple { XCTAssertFalse(windsAtMostOnce(path, style), name) }
    }

    /// Strokes of random closed convex paths — ellipses, rounded rectangles, convex polygons,
    /// wedges —, of random closed polygons, of open arcs and of open lines that turn one way, in
    /// widths from a twentieth of a pixel to forty, every join and cap, under random turns,
    /// scales, skews and mirrors, through random clips,
    /// translucent, drawn twice by one context (the second time from its kept outline): the
    /// same pixels whether the cells' writers are watched or not.
    func testStrokesDrawTheSamePixelsWithTheirWritersUnwatched() {
        var shapes = RandomShapes(seed: 0x9E37_79B9_7F4A_7C15)
        func random(_ range: ClosedRange<Double>) -> Double { shapes.random(range) }
        var unwatched = 0, watchedWhenTrusting = 0
        for round in 0..<480 {
            let kind = round % 8
            var path = Path()
            let arcRadius = random(15...40)
            switch kind {
            case 0..<4:
                path = shapes.convexPath(kind: kind, widestWedge: 1.9 * Double.pi)
            case 4:
                // Any closed polygon, mostly neither convex nor simple.
                path = RandomShapes.polygon(
                    (0..<Int(random(3...9))).map { _ in Point(random(-10...70), random(-10...100)) })
            case 5:
                let start = random(0...(2 * Double.pi)), sweep = random(-1.9...1.9) * Double.pi
                path.addArc(
                    center: Point(random(10...50), random(10...70)), radius: random(1...60), startAngle: start,
                    endAngle: start + sweep, clockwise: sweep > 0)
            case 6:
                // A line turning one way by up to 1.3 half turns, in short and long steps.
                var point = Point(random(-10...60), random(-10...80))
                var angle = random(0...(2 * Double.pi))
                let turning = random(0...1.3) * Double.pi * (random(0...1) < 0.5 ? 1 : -1)
                let steps = Int(random(1...8))
                path.move(to: point)
                for _ in 0...steps {
                    let length = random(0...1) < 0.5 ? random(0.5...4) : random(4...40)
                    point = Point(point.x + length * cos(angle), point.y + length * sin(angle))
                    path.addLine(to: point)
                    angle += turning / Double(steps)
                }
            default:
                // An arc most of the way round, so wide (below) that its ends overlap.
                let start = random(0...(2 * Double.pi))
                let sweep = random(1.75...1.95) * Double.pi * (random(0...1) < 0.5 ? 1 : -1)
                path.addArc(
                    center: Point(random(20...40), random(20...60)), radius: arcRadius, startAngle: start,
                    endAngle: start + sweep, clockwise: sweep > 0)
            }
            let width =
                kind == 7
                ? arcRadius * random(0.8...1.6) : random(0...1) < 0.5 ? random(0.05...2) : random(2...40)
            let join: LineJoin = [.miter, .round, .bevel][round % 3]
            let cap: LineCap = [.butt, .round, .square][(round / 3) % 3]
            let style = StrokeStyle(lineWidth: width, lineCap: cap, lineJoin: join, miterLimit: random(1...12))
            let transform = shapes.placement()
            let color = shapes.translucentColor()
            let clip = shapes.clip()

            func draw(trusting: Bool) -> [UInt32] {
                RandomShapes.pixels(trusting: trusting, placement: transform, clip: clip) { ctx in
                    for _ in 0..<2 {
                        ctx.stroke(path, color: color, style: style)
                        if trusting {
                            if Rasterizer.ofThisThread.watchesWriters {
                                watchedWhenTrusting += 1
                            } else {
                                unwatched += 1
                            }
                        }
                    }
                }
            }
            let watched = draw(trusting: false)
            XCTAssertEqual(draw(trusting: true), watched, "round \(round), kind \(kind), width \(width)")
        }
        // Most convex paths' strokes are rings, many open ones simple; most random polygons'
        // are neither.
        XCTAssertGreaterThan(unwatched, 300, "strokes drawn without watching their writers")
        XCTAssertGreaterThan(watchedWhenTrusting, 150, "strokes still watched")
    }
}
