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

    func testEmptyPathFallsBackToBounds() {
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 10, height: 20)
        XCTAssertEqual(shape.visualExtent(), Rect(x: 0, y: 0, width: 10, height: 20))
    }
}
