import Foundation
import XCTest
@testable import VitrineGraphics

/// A shape that is one convex contour winds 0 or 1 at every point, so the accumulated area is
/// right in every pixel and the rasterizer does not watch who writes its cells
/// (`Rasterizer.watchesWriters`): the pixels are those of the watched path, to the bit.
final class ConvexContourTests: XCTestCase {
    /// A pie's wedge from its centre: `sweep` radians of a circle of radius 30.
    private func wedge(sweep: Double) -> Path {
        var path = Path()
        path.move(to: Point(40, 40))
        path.addArc(
            center: Point(40, 40), radius: 30, startAngle: -Double.pi / 2, endAngle: -Double.pi / 2 + sweep,
            clockwise: true)
        path.closeSubpath()
        return path
    }

    func testOneConvexContourIsRecognised() {
        var ellipse = Path()
        ellipse.addEllipse(in: Rect(x: 2, y: 3, width: 40, height: 25))
        var rounded = Path()
        rounded.addRoundedRect(Rect(x: 0, y: 0, width: 30, height: 12), cornerRadius: 6)
        var squircle = Path()
        squircle.move(to: Point(50, 20))
        squircle.addCurve(to: Point(100, 50), control1: Point(95, 20), control2: Point(100, 23))
        squircle.addCurve(to: Point(50, 80), control1: Point(100, 77), control2: Point(95, 80))
        squircle.addCurve(to: Point(0, 50), control1: Point(5, 80), control2: Point(0, 77))
        squircle.addCurve(to: Point(50, 20), control1: Point(0, 23), control2: Point(5, 20))
        squircle.closeSubpath()
        let convex: [(String, Path)] = [
            ("ellipse", ellipse), ("rounded rectangle", rounded), ("squircle", squircle),
            ("wedge of 108°", wedge(sweep: 0.3 * 2 * Double.pi)), ("half disc", wedge(sweep: Double.pi)),
            ("octagon", RandomShapes.polygon(RandomShapes.regular(8))),
            ("octagon the other way", RandomShapes.polygon(RandomShapes.regular(8).reversed())),
            ("triangle left open", RandomShapes.polygon([Point(0, 0), Point(10, 0), Point(5, 8)], closed: false)),
            (
                "square with a point repeated and one on a side",
                RandomShapes.polygon([Point(0, 0), Point(5, 0), Point(5, 0), Point(10, 0), Point(10, 10), Point(0, 10)])
            ),
            ("a line there and back", RandomShapes.polygon([Point(0, 0), Point(10, 5)]))
        ]
        for (name, path) in convex { XCTAssertTrue(Rasterizer.isOneConvexContour(path), name) }

        var twoEllipses = ellipse
        twoEllipses.addEllipse(in: Rect(x: 50, y: 3, width: 10, height: 10))
        let lShape = [Point(0, 0), Point(10, 0), Point(10, 5), Point(5, 5), Point(5, 10), Point(0, 10)]
        var moveAfterClose = RandomShapes.polygon(RandomShapes.regular(6))
        moveAfterClose.move(to: Point(0, 0))
        moveAfterClose.addLine(to: Point(1, 1))
        let notConvex: [(String, Path)] = [
            ("pentagram", RandomShapes.polygon(RandomShapes.regular(5, step: 2))),
            ("octagon gone round twice", RandomShapes.polygon(RandomShapes.regular(8, turns: 2))),
            ("chevron", RandomShapes.polygon([Point(0, 0), Point(10, 5), Point(0, 10), Point(4, 5)])),
            ("bow tie", RandomShapes.polygon([Point(0, 0), Point(10, 10), Point(10, 0), Point(0, 10)])),
            ("wedge of 270°", wedge(sweep: 1.5 * Double.pi)),
            ("two ellipses", twoEllipses), ("a second subpath", moveAfterClose),
            // Two chains, each monotone, crossing: only its turns tell.
            ("crossing chains", RandomShapes.polygon([Point(0, 0), Point(10, 10), Point(5, 8), Point(2, 0)])),
            // An L (its reversals those of a convex shape) so far out that the turns' products
            // overflow.
            ("an L at 1e160", RandomShapes.polygon(lShape.map { Point($0.x * 1e160, $0.y * 1e160) }))
        ]
        for (name, path) in notConvex { XCTAssertFalse(Rasterizer.isOneConvexContour(path), name) }
        XCTAssertFalse(Rasterizer.isOneConvexContour(RandomShapes.polygon(lShape)), "an L")
    }

    /// Random convex shapes — ellipses, rounded rectangles (as paths and as
    /// `fill(_:cornerRadius:)`), convex polygons, wedges, a segment's stroke with each cap —
    /// under random turns, scales, skews and mirrors, reaching past the target and through
    /// random clips, translucent, with either fill rule and taller than a band of cells or not:
    /// the same pixels whether the cells' writers are watched or not.
    func testConvexContoursDrawTheSamePixelsWithTheirWritersUnwatched() {
        var shapes = RandomShapes(seed: 0x2545_F491_4F6C_DD1D)
        func random(_ range: ClosedRange<Double>) -> Double { shapes.random(range) }
        var unwatched = 0
        for round in 0..<300 {
            let kind = round % 6
            let path = kind < 4 ? shapes.convexPath(kind: kind, widestWedge: Double.pi) : Path()
            let transform = shapes.placement()
            let rule: FillRule = random(0...1) < 0.5 ? .nonZero : .evenOdd
            let color = shapes.translucentColor()
            let clip = shapes.clip()
            let rectangle = Rect(
                x: random(-10...40), y: random(-10...60), width: random(1...60), height: random(1...90))
            let radius = random(0...25)

            func draw(trusting: Bool) -> [UInt32] {
                RandomShapes.pixels(trusting: trusting, placement: transform, clip: clip) { ctx in
                    if kind == 4 {
                        ctx.fill(rectangle, cornerRadius: radius, color: color)
                    } else if kind == 5 {
                        // A segment's stroke: convex with any cap (unwatched where the stroker
                        // outlines it as one polygon).
                        var segment = Path()
                        segment.move(to: Point(rectangle.minX, rectangle.minY))
                        segment.addLine(to: Point(rectangle.maxX, rectangle.maxY))
                        let cap: LineCap = [.butt, .round, .square][Int(radius) % 3]
                        ctx.stroke(segment, color: color, style: StrokeStyle(lineWidth: radius / 2, lineCap: cap))
                    } else {
                        ctx.fill(path, color: color, rule: rule)
                    }
                    if trusting, !Rasterizer.ofThisThread.watchesWriters { unwatched += 1 }
                }
            }
            let watched = draw(trusting: false)
            XCTAssertEqual(draw(trusting: true), watched, "round \(round), kind \(kind)")
        }
        // Most shapes reach the rasterizer (an axis-aligned rectangle does not).
        XCTAssertGreaterThan(unwatched, 200, "shapes drawn without watching their writers")
    }
}
