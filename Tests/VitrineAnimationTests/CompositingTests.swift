import Foundation
import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// How the renderer composites layers: group opacity, clipping, stacking, placement, borders,
/// contents and text, each against colours and positions worked out by hand.
final class LayerCompositingTests: XCTestCase {
    func square(_ frame: Rect, _ color: Color) -> Layer {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    func testGroupOpacityDoesNotLetOverlapsShowThrough() {
        let scene = RenderScene()
        let group = Layer()
        group.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        group.opacity = 0.5
        group.addSublayer(square(Rect(x: 20, y: 20, width: 80, height: 60), .redColor))
        group.addSublayer(square(Rect(x: 60, y: 20, width: 80, height: 60), .redColor))
        scene.root.addSublayer(group)
        // The same two squares, each half transparent on its own: the overlap is darker.
        let loose = Layer()
        loose.frame = Rect(x: 0, y: 100, width: 200, height: 100)
        let a = square(Rect(x: 20, y: 20, width: 80, height: 60), .redColor),
            b = square(Rect(x: 60, y: 20, width: 80, height: 60), .redColor)
        a.opacity = 0.5; b.opacity = 0.5
        loose.addSublayer(a); loose.addSublayer(b)
        scene.root.addSublayer(loose)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "group-opacity")
        let half = Color(red: 1, green: 0.5, blue: 0.5), quarter = Color(red: 1, green: 0.25, blue: 0.25)
        assertColor(scene.bitmap, Point(x: 40, y: 50), half, tolerance: 3 / 255, "one square")
        assertColor(scene.bitmap, Point(x: 80, y: 50), half, tolerance: 3 / 255, "overlap in the group")
        assertColor(scene.bitmap, Point(x: 40, y: 150), half, tolerance: 3 / 255)
        assertColor(scene.bitmap, Point(x: 80, y: 150), quarter, tolerance: 3 / 255, "overlap of loose layers")
    }

    func testGroupOpacityOfAShapesFillAndStroke() {
        let scene = RenderScene()
        let shape = ShapeLayer()
        shape.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        var p = Path()
        p.addRect(Rect(x: 50, y: 50, width: 100, height: 100))
        shape.path = p
        shape.fillColor = .redColor
        shape.strokeColor = .redColor
        shape.lineWidth = 20
        shape.opacity = 0.5
        scene.root.addSublayer(shape)
        scene.frame(at: 0)
        // The inner half of the stroke overlaps the fill; as a group it is not darker.
        assertColor(scene.bitmap, Point(x: 55, y: 100), Color(red: 1, green: 0.5, blue: 0.5), tolerance: 3 / 255)
        assertColor(scene.bitmap, Point(x: 45, y: 100), Color(red: 1, green: 0.5, blue: 0.5), tolerance: 3 / 255)
        assertColor(scene.bitmap, Point(x: 100, y: 100), Color(red: 1, green: 0.5, blue: 0.5), tolerance: 3 / 255)
    }

    func testMasksToBoundsWithCornerRadiusClipsTheCorners() {
        let scene = RenderScene()
        let card = Layer()
        card.frame = Rect(x: 50, y: 50, width: 100, height: 100)
        card.cornerRadius = 30
        card.masksToBounds = true
        card.addSublayer(square(Rect(x: -20, y: -20, width: 140, height: 140), .blueColor))
        scene.root.addSublayer(card)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "masks-to-bounds")
        // Corner centres at (80, 80) etc.; points more than 30 from them, toward the corner, are cut.
        for corner in [Point(x: 55, y: 55), Point(x: 145, y: 55), Point(x: 55, y: 145), Point(x: 145, y: 145)] {
            assertColor(scene.bitmap, corner, .white, "cut corner \(corner)")
        }
        for inside in [Point(x: 100, y: 100), Point(x: 52, y: 100), Point(x: 100, y: 147), Point(x: 62, y: 62)] {
            assertColor(scene.bitmap, inside, .blueColor, "inside \(inside)")
        }
        assertColor(scene.bitmap, Point(x: 40, y: 100), .white, "the sublayer is cut at the bounds")
    }

    func testZPositionOrdersSiblingsStably() {
        let scene = RenderScene()
        let back = square(Rect(x: 20, y: 20, width: 100, height: 100), .redColor)
        back.zPosition = 1
        let front = square(Rect(x: 80, y: 80, width: 100, height: 100), .greenColor)
        scene.root.addSublayer(back)
        scene.root.addSublayer(front)
        // Equal z: order of addition (later on top).
        let first = square(Rect(x: 20, y: 140, width: 40, height: 40), .redColor)
        let second = square(Rect(x: 40, y: 150, width: 40, height: 40), .blueColor)
        first.zPosition = -1; second.zPosition = -1
        scene.root.addSublayer(first)
        scene.root.addSublayer(second)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "z-position")
        assertColor(scene.bitmap, Point(x: 100, y: 100), .redColor, "higher z draws on top")
        assertColor(scene.bitmap, Point(x: 150, y: 150), .greenColor)
        assertColor(scene.bitmap, Point(x: 50, y: 160), .blueColor, "same z: later sibling on top")
    }

    /// A 60 × 20 layer with anchor (0, 0) at (100, 100), turned by π/6: layer point (x, y)
    /// lands at (100 + x·cos − y·sin, 100 + x·sin + y·cos).
    func testRotatedLayerCornersLandWhereTheMatrixSays() {
        let scene = RenderScene()
        let bar = square(.zero, .blueColor)
        bar.bounds = Rect(x: 0, y: 0, width: 60, height: 20)
        bar.anchorPoint = .zero
        bar.position = Point(x: 100, y: 100)
        bar.transform = Transform3D(Transform2D(rotationAngle: .pi / 6))
        scene.root.addSublayer(bar)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "rotated")
        let cs = cos(Double.pi / 6), sn = sin(Double.pi / 6)
        func place(_ x: Double, _ y: Double) -> Point { Point(x: 100 + x * cs - y * sn, y: 100 + x * sn + y * cs) }
        // Just inside each corner, and just outside it along the diagonal.
        let corners = [(0.0, 0.0), (60.0, 0.0), (0.0, 20.0), (60.0, 20.0)]
        for (x, y) in corners {
            let inX = x == 0 ? 3.0 : x - 3, inY = y == 0 ? 3.0 : y - 3
            let outX = x == 0 ? -3.0 : x + 3, outY = y == 0 ? -3.0 : y + 3
            assertColor(scene.bitmap, place(inX, inY), .blueColor, "inside corner (\(x), \(y))")
            assertColor(scene.bitmap, place(outX, outY), .white, "outside corner (\(x), \(y))")
        }
        assertColor(scene.bitmap, place(30, 10), .blueColor, "middle")
        // A transform turns about the anchor point: centre anchor keeps the centre at position.
        let spun = square(.zero, .redColor)
        spun.bounds = Rect(x: 0, y: 0, width: 40, height: 10)
        spun.position = Point(x: 40, y: 160)
        spun.transform = Transform3D(Transform2D(rotationAngle: .pi / 2))
        scene.root.addSublayer(spun)
        scene.frame(at: 1)
        assertColor(scene.bitmap, Point(x: 40, y: 160 + 17), .redColor, "now 10 wide, 40 tall around its position")
        assertColor(scene.bitmap, Point(x: 40 + 8, y: 160), .white)
    }

    func testBorderIsDrawnAboveSublayersAndContentsHonourGravity() {
        let scene = RenderScene()
        let frame = Layer()
        frame.frame = Rect(x: 20, y: 20, width: 160, height: 160)
        frame.borderWidth = 6
        frame.borderColor = .redColor
        frame.contents = solidImage(.greenColor, width: 20, height: 10)
        frame.contentsGravity = .center
        frame.addSublayer(square(Rect(x: 0, y: 0, width: 40, height: 160), .blueColor))
        scene.root.addSublayer(frame)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "border-gravity")
        assertColor(scene.bitmap, Point(x: 23, y: 100), .redColor, "border over the blue sublayer")
        assertColor(scene.bitmap, Point(x: 30, y: 100), .blueColor)
        assertColor(scene.bitmap, Point(x: 177, y: 100), .redColor)
        // Centred 20 × 10 image: x 90…110, y 95…105 in the bitmap.
        assertColor(scene.bitmap, Point(x: 92, y: 97), .greenColor)
        assertColor(scene.bitmap, Point(x: 108, y: 103), .greenColor)
        assertColor(scene.bitmap, Point(x: 87, y: 100), .white)
        assertColor(scene.bitmap, Point(x: 100, y: 107), .white)
    }

    func testTextLayerIsTopAlignedAndAligned() throws {
        let font = try Font(size: 20)
        let scene = RenderScene()
        var layers: [TextLayer] = []
        for (i, mode) in [TextAlignmentMode.left, .center, .right].enumerated() {
            let text = TextLayer()
            text.frame = Rect(x: 10, y: 10 + Double(i) * 60, width: 180, height: 50)
            text.string = "Vitrine"
            text.fontSize = 20
            text.foregroundColor = .black
            text.alignmentMode = mode
            scene.root.addSublayer(text)
            layers.append(text)
        }
        scene.frame(at: 0)
        savePNG(scene.bitmap, "text")
        let ink = font.boundingBox(of: "Vitrine")
        let width = font.advance(of: "Vitrine")
        for (i, expectedStart) in [10.0, 10 + (180 - width) / 2, 190 - width].enumerated() {
            let top = 10 + Double(i) * 60
            let box = IntRect(x: 0, y: Int(top), width: 200, height: 50)
            var minX = 200, maxX = 0, minY = 1000, maxY = 0
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX where Color(premultipliedPixel: scene.bitmap[x, y]).red < 0.5 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            // Ink = the glyph bounds with the baseline one ascent below the top.
            XCTAssertEqual(Double(minX), expectedStart + ink.minX, accuracy: 1.5, "line \(i) left ink")
            XCTAssertEqual(Double(maxX + 1), expectedStart + ink.maxX, accuracy: 1.5, "line \(i) right ink")
            XCTAssertEqual(Double(minY), top + font.ascent + ink.minY, accuracy: 1.5, "line \(i) top ink")
            XCTAssertEqual(Double(maxY + 1), top + font.ascent + ink.maxY, accuracy: 1.5, "line \(i) bottom ink")
        }
    }

    func testWrappedTextBreaksBetweenWords() throws {
        let font = try Font(size: 16)
        let width = font.advance(of: "one two") + 1
        let lines = TextBox.lines(
            of: "one two three four", font: font, in: Size(width: width, height: 100), wrapped: true)
        XCTAssertEqual(lines.map(\.text), ["one two", "three", "four"])
        let unwrapped = TextBox.lines(of: "one\ntwo", font: font, in: Size(width: 1, height: 1), wrapped: false)
        XCTAssertEqual(unwrapped.map(\.text), ["one", "two"])
        XCTAssertEqual(unwrapped[0].width, font.advance(of: "one"), accuracy: 1e-9)
    }

    func testHiddenAndTransparentLayersDrawNothing() {
        let scene = RenderScene()
        let hidden = square(Rect(x: 0, y: 0, width: 100, height: 100), .redColor)
        hidden.isHidden = true
        let clear = square(Rect(x: 100, y: 0, width: 100, height: 100), .redColor)
        clear.opacity = 0
        scene.root.addSublayer(hidden)
        scene.root.addSublayer(clear)
        scene.frame(at: 0)
        XCTAssertEqual(countPixels(scene.bitmap) { $0 != .white }, 0)
    }
}
