import Foundation
import VitrineAnimation
import VitrineGraphics
import XCTest

/// What a shape layer can paint: its path (plus the stroke's reach), and its bounds only when it
/// paints them itself — so a canvas-sized shape layer with a small moving path damages little.
final class ShapeExtentTests: XCTestCase {
    func testCanvasSizedShapeLayerExtentIsItsPath() {
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 1920, height: 1080)
        var path = Path()
        path.addRect(Rect(x: 100, y: 200, width: 50, height: 40))
        shape.path = path
        XCTAssertEqual(shape.visualExtent(), Rect(x: 100, y: 200, width: 50, height: 40))
        shape.strokeColor = .white
        shape.lineWidth = 4
        shape.lineJoin = .round
        // Half the line width, plus a pixel of anti-aliasing.
        XCTAssertEqual(shape.visualExtent(), Rect(x: 97, y: 197, width: 56, height: 46))
        shape.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        XCTAssertEqual(shape.visualExtent(), Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    /// A text layer draws where its glyphs are: a centred title across a wide layer has an
    /// extent about its words (whole units, around the ink), its bounds only when it paints them,
    /// wraps, or a transition moves its looks across them, none without text; drawn into a store over
    /// that extent, it has the pixels it has drawn straight over its bounds.
    func testTextLayerExtentIsItsInk() throws {
        let title = TextLayer()
        title.bounds = Rect(x: 0, y: 0, width: 600, height: 60)
        title.position = Point(x: 300, y: 50)
        title.string = "Line 3"
        title.fontSize = 40
        title.alignmentMode = .center
        title.foregroundColor = .black
        let extent = title.visualExtent()
        let font = try Font.recent(family: title.font, size: 40)
        let ink = font.boundingBox(
            of: "Line 3", at: Point(x: (600 - font.advance(of: "Line 3")) / 2, y: font.ascent))
        XCTAssertTrue(extent.contains(ink.insetBy(dx: -4, dy: -4)), "\(extent) around \(ink)")
        XCTAssertLessThan(extent.width, 200)
        XCTAssertEqual(extent.minX, extent.minX.rounded())
        XCTAssertEqual(extent.maxY, extent.maxY.rounded())
        XCTAssertTrue(Rect(x: 0, y: 0, width: 600, height: 60).contains(extent))

        // Drawn through its store (the extent), the same pixels as drawn whole without one.
        let render = RenderScene(width: 600, height: 100)
        render.root.addSublayer(title)
        render.frame(at: 0)
        let direct = Bitmap(width: 600, height: 100)
        direct.fill(Color.white.premultipliedPixel, in: IntRect(x: 0, y: 0, width: 600, height: 100))
        let ctx = GraphicsContext(bitmap: direct)
        ctx.translateBy(x: 0, y: 20)
        let model = TextLayer()
        model.bounds = title.bounds
        (model.string, model.fontSize, model.alignmentMode, model.foregroundColor) = ("Line 3", 40, .center, .black)
        model.draw(in: ctx)
        var differing = 0
        for y in 0..<100 { for x in 0..<600 where render.bitmap[x, y] != direct[x, y] { differing += 1 } }
        XCTAssertEqual(differing, 0)

        title.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        XCTAssertEqual(title.visualExtent(), Rect(x: 0, y: 0, width: 600, height: 60))
        title.backgroundColor = nil
        // Wrapped text fills the width: not laid out a second time for its extent.
        title.isWrapped = true
        XCTAssertEqual(title.visualExtent(), Rect(x: 0, y: 0, width: 600, height: 60))
        title.isWrapped = false
        XCTAssertEqual(title.visualExtent(), extent)
        title.string = ""
        XCTAssertTrue(title.visualExtent().isNull)
    }

    /// A stroke revealed by `strokeEnd` (or hidden by `strokeStart`) repaints only around the
    /// segments its moving end crosses, and every frame matches a whole repaint.
    func testMovingStrokeEndsRepaintOnlyTheSegmentsTheyCross() {
        // A three-quarter arc of radius 200 (six 45° cubics) and a zigzag with miter joins.
        var arc = Path()
        arc.addArc(center: Point(300, 300), radius: 200, startAngle: .pi / 2, endAngle: 0, clockwise: true)
        var zigzag = Path()
        zigzag.move(to: Point(50, 550))
        for i in 1...10 { zigzag.addLine(to: Point(50 + Double(i) * 50, i % 2 == 0 ? 550 : 480)) }
        // The zigzag turns by about 110° at each corner: miters reach 1.7 half-widths out,
        // within the default limit of 10 and beyond a limit of 1.5 (bevels).
        for (path, key, cap, join, limit) in [
            (arc, "strokeEnd", LineCap.round, LineJoin.round, 10.0),
            (arc, "strokeStart", .square, .miter, 10),
            (zigzag, "strokeEnd", .butt, .miter, 10),
            (zigzag, "strokeStart", .butt, .miter, 1.5)
        ] {
            func scene() -> (RenderScene, ShapeLayer) {
                let scene = RenderScene(width: 600, height: 600, background: .black)
                let shape = ShapeLayer()
                shape.frame = Rect(x: 0, y: 0, width: 600, height: 600)
                shape.path = path
                shape.fillColor = nil
                shape.strokeColor = Color(red: 1, green: 0.27, blue: 0.23, alpha: 0.8)
                shape.lineCap = cap
                shape.lineJoin = join
                shape.miterLimit = limit
                shape.lineWidth = limit < 2 ? 30 : 16
                scene.root.addSublayer(shape)
                scene.frame(at: 0)
                let animation = linearAnimation(
                    key, from: key == "strokeEnd" ? 0 : 1, to: key == "strokeEnd" ? 1 : 0,
                    duration: 1)
                shape.add(animation, forKey: "reveal")
                return (scene, shape)
            }
            let (tracked, shape) = scene()
            let (full, _) = scene()
            full.frames.damageTracking = false
            let extent = IntRect(enclosing: shape.visualExtent())
            var partial = 0
            for i in 1..<30 {
                let t = Double(i) / 30
                let result = tracked.frame(at: t)
                full.frame(at: t)
                if i > 1 && result.pixelsRedrawn < extent.area / 3 { partial += 1 }
                if !samePixels(tracked.bitmap, full.bitmap) {
                    savePNG(tracked.bitmap, "stroke-end-tracked")
                    savePNG(full.bitmap, "stroke-end-full")
                    let difference = maximumChannelDifference(tracked.bitmap, full.bitmap)
                    return XCTFail(
                        "\(key) \(cap) \(join) \(limit), frame \(i): differs by \(difference) from a whole repaint")
                }
            }
            XCTAssertGreaterThanOrEqual(
                partial, 20, "\(key) \(cap) \(join) \(limit): most frames repaint under a third of the shape's box")
        }
    }

    /// A filled path whose outline moves (the default playlist's wave dropping down; a star
    /// turning into another under the even-odd rule, edges crossing) repaints a band along the
    /// edges that differ, not the whole shape, and every frame matches a whole repaint.
    func testAMovingOutlineRepaintsAlongTheEdgesThatDiffer() throws {
        let wave = (
            from: try Path(svgPathData: "M0 0 L0 300 Q400 400 800 300 L800 0 Z"),
            to: try Path(svgPathData: "M0 0 L0 420 Q400 330 800 420 L800 0 Z"), rule: FillRule.nonZero,
            partialBelow: 0.35
        )
        let stars = (
            from: try Path(svgPathData: "M400 40 L520 400 L210 170 L590 170 L280 400 Z M60 60 L140 60 L140 140 Z"),
            to: try Path(svgPathData: "M400 80 L560 420 L180 200 L620 190 L250 430 Z M60 60 L140 60 L140 140 Z"),
            rule: FillRule.evenOdd, partialBelow: 0.9
        )
        for (index, (from, to, rule, partialBelow)) in [wave, stars].enumerated() {
            func scene() -> RenderScene {
                let scene = RenderScene(width: 800, height: 450, background: .black)
                let shape = ShapeLayer()
                shape.frame = Rect(x: 0, y: 0, width: 800, height: 450)
                shape.path = to
                shape.fillRule = rule
                shape.fillColor = Color(red: 1, green: 0.62, blue: 0.04, alpha: 0.9)
                scene.root.addSublayer(shape)
                scene.frame(at: 0)
                let morph = BasicAnimation(keyPath: "path")
                morph.fromValue = from
                morph.toValue = to
                morph.duration = 1
                shape.add(morph, forKey: "morph")
                return scene
            }
            let tracked = scene(), full = scene()
            full.frames.damageTracking = false
            var partial = 0
            for i in 1..<30 {
                let t = Double(i) / 30
                let result = tracked.frame(at: t)
                full.frame(at: t)
                if Double(result.pixelsRedrawn) < partialBelow * 800 * 450 { partial += 1 }
                let difference = maximumChannelDifference(tracked.bitmap, full.bitmap)
                guard difference == 0 else {
                    savePNG(tracked.bitmap, "outline-\(index)-tracked")
                    savePNG(full.bitmap, "outline-\(index)-full")
                    return XCTFail("shape \(index), frame \(i): differs by \(difference) from a whole repaint")
                }
            }
            XCTAssertGreaterThanOrEqual(partial, 25, "shape \(index): frames repaint a band, not the whole shape")
        }
    }

    /// Dashes run from the stroke's start: moving `strokeStart` moves every dash, so the whole
    /// shape repaints.
    func testMovingTheStartOfADashedStrokeRepaintsTheWholeShape() {
        let scene = RenderScene(width: 300, height: 300, background: .black)
        let shape = ShapeLayer()
        shape.frame = Rect(x: 0, y: 0, width: 300, height: 300)
        var path = Path()
        path.move(to: Point(20, 150))
        path.addLine(to: Point(280, 150))
        shape.path = path
        shape.strokeColor = .white
        shape.lineWidth = 10
        shape.lineDashPattern = [20, 10]
        scene.root.addSublayer(shape)
        scene.frame(at: 0)
        shape.add(linearAnimation("strokeStart", from: 0, to: 0.5, duration: 1), forKey: "s")
        scene.frame(at: 0.2)
        let r = scene.frame(at: 0.3)
        let whole = IntRect(enclosing: shape.visualExtent()).intersection(IntRect(x: 0, y: 0, width: 300, height: 300))
        XCTAssertEqual(r.dirty.first.map { $0.intersection(whole) }, whole)
    }

    /// A progress bar draws its line and label: a wide, tall bar layer damages the strip its
    /// line covers (out to the round caps) and the label, not its whole bounds.
    func testProgressBarExtentIsItsLineAndLabel() {
        let bar = ProgressLayer()
        bar.bounds = Rect(x: 0, y: 0, width: 1400, height: 300)
        bar.origin = Point(x: 0, y: 150)
        bar.maxLength = 1400
        bar.maxOffset = 60
        bar.lineWidth = 14
        bar.textRect = Rect(x: -60, y: 190, width: 120, height: 48)
        bar.progress = 0.5
        // The line runs from (0, 150) through the tip (700, 210) to (1400, 150), widened by the
        // line width; the label moves with the tip to (640, 250, 120, 48), widened by its
        // height on either side for a percentage wider than the rectangle.
        XCTAssertEqual(
            bar.visualExtent(),
            Rect(x: -14, y: 136, width: 1428, height: 88)
                .union(Rect(x: 592, y: 249, width: 216, height: 50)))
        bar.backgroundColor = .black
        XCTAssertEqual(bar.visualExtent().intersection(bar.bounds), bar.bounds)
    }

    func testEmptyPathFallsBackToBounds() {
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 10, height: 20)
        XCTAssertEqual(shape.visualExtent(), Rect(x: 0, y: 0, width: 10, height: 20))
    }
}
