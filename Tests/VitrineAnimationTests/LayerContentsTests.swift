import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// contentsRect (sprite-sheet cells) and contentsCenter (nine-slice scaling).
final class LayerContentsTests: XCTestCase {
    private static let cellColours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FF00]

    /// A 4 × 1 sheet of 8 × 8 cells: red, green, blue, yellow.
    private func sheet() -> Image {
        var pixels: [UInt32] = []
        for _ in 0..<8 {
            for cell in 0..<4 { pixels += Array(repeating: LayerContentsTests.cellColours[cell], count: 8) }
        }
        return Image(width: 32, height: 8, premultipliedPixels: pixels)!
    }

    private func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> UInt32 { bitmap.row(y)[x] }

    func testSpriteSheetStepsThroughItsCellsWithoutBleeding() {
        let scene = RenderScene(width: 100, height: 100, background: .white)
        let sprite = Layer()
        sprite.frame = Rect(x: 10, y: 10, width: 80, height: 80)
        sprite.contents = sheet()
        sprite.contentsRect = Rect(x: 0, y: 0, width: 0.25, height: 1)
        scene.root.addSublayer(sprite)
        scene.frame(at: 0)
        let steps = KeyframeAnimation(keyPath: "contentsRect")
        steps.values = (0..<4).map { Rect(x: Double($0) * 0.25, y: 0, width: 0.25, height: 1) }
        steps.calculationMode = .discrete
        steps.duration = 4
        sprite.add(steps, forKey: "steps")
        for cell in 0..<4 {
            scene.frame(at: Double(cell) + 0.5)
            // The whole cell, scaled ten times, edges included: no filtering across into the next.
            for (x, y) in [(10, 10), (89, 10), (50, 50), (10, 89), (89, 89)] {
                XCTAssertEqual(
                    pixel(scene.bitmap, x, y), LayerContentsTests.cellColours[cell], "cell \(cell) at (\(x), \(y))")
            }
            XCTAssertEqual(pixel(scene.bitmap, 5, 50), 0xFFFF_FFFF)
        }
        savePNG(scene.bitmap, "sprite-cell")
    }

    func testContentsRectPlacesItsPartByGravity() {
        let scene = RenderScene(width: 100, height: 100, background: .white)
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        layer.contents = sheet()
        layer.contentsRect = Rect(x: 0.5, y: 0, width: 0.25, height: 1)  // the blue cell, 8 × 8
        layer.contentsGravity = .center
        scene.root.addSublayer(layer)
        scene.frame(at: 0)
        XCTAssertEqual(pixel(scene.bitmap, 46, 46), 0xFF00_00FF)
        XCTAssertEqual(pixel(scene.bitmap, 53, 53), 0xFF00_00FF)
        XCTAssertEqual(pixel(scene.bitmap, 45, 50), 0xFFFF_FFFF)
        XCTAssertEqual(pixel(scene.bitmap, 54, 50), 0xFFFF_FFFF)
    }

    /// A 30 × 30 frame image: a 10-pixel red border around a blue centre, nine-sliced at its
    /// thirds and stretched to 200 × 100: the border stays 10 pixels wide all round.
    func testNineSliceKeepsCornersAndStretchesEdgesOneWay() {
        var pixels: [UInt32] = []
        for y in 0..<30 {
            for x in 0..<30 {
                pixels.append((10..<20).contains(x) && (10..<20).contains(y) ? 0xFF00_00FF : 0xFFFF_0000)
            }
        }
        let frame = Image(width: 30, height: 30, premultipliedPixels: pixels)!
        let scene = RenderScene(width: 240, height: 140, background: .white)
        let panel = Layer()
        panel.frame = Rect(x: 20, y: 20, width: 200, height: 100)
        panel.contents = frame
        panel.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        scene.root.addSublayer(panel)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "nine-slice")
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF
        for x in [20, 29, 100, 210, 219] { XCTAssertEqual(pixel(scene.bitmap, x, 25), red, "top border at \(x)") }
        for y in [20, 29, 70, 110, 119] { XCTAssertEqual(pixel(scene.bitmap, 25, y), red, "left border at \(y)") }
        for (x, y) in [(30, 30), (209, 30), (30, 109), (209, 109), (120, 70)] {
            XCTAssertEqual(pixel(scene.bitmap, x, y), blue, "centre at (\(x), \(y))")
        }
        // Without nine-slice the border would be stretched to 66.7 × 33.3 pixels.
        panel.contentsCenter = Rect(x: 0, y: 0, width: 1, height: 1)
        scene.frame(at: 1)
        XCTAssertEqual(pixel(scene.bitmap, 40, 70), red)
    }

    func testZeroSizeOrNonFiniteContentsRectDrawsNothing() {
        let scene = RenderScene(width: 50, height: 50, background: .white)
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 50, height: 50)
        layer.contents = sheet()
        scene.root.addSublayer(layer)
        for (i, rect) in [
            Rect(x: 0, y: 0, width: 0, height: 1), Rect(x: .nan, y: 0, width: 1, height: 1),
            Rect(x: 0, y: 0, width: .infinity, height: 1), Rect(x: 1e300, y: 0, width: 1, height: 1)
        ].enumerated() {
            layer.contentsRect = rect
            scene.frame(at: Double(i))
            XCTAssertEqual(countPixels(scene.bitmap) { $0 != .white }, 0, "\(rect)")
        }
    }
}
