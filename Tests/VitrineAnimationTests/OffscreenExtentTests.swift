import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// Group opacity and masks draw offscreen only over what the layers involved can cover, not
/// the whole target, with the same pixels as before.
final class OffscreenExtentTests: XCTestCase {
    private func square(_ frame: Rect, _ color: Color) -> Layer {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    func testGroupBufferCoversOnlyTheGroup() {
        let bitmap = Bitmap(width: 1000, height: 800)
        let ctx = GraphicsContext(bitmap: bitmap)
        let group = Layer()
        group.frame = Rect(x: 100, y: 100, width: 100, height: 50)
        group.opacity = 0.5
        group.addSublayer(square(Rect(x: 0, y: 0, width: 60, height: 50), .redColor))
        group.addSublayer(square(Rect(x: 40, y: 0, width: 60, height: 50), .redColor))
        LayerRenderer().render(group, into: ctx)
        // 100 × 50 pixels → the 5120-pixel class (4 bytes each), not 1000 × 800.
        XCTAssertEqual(ctx.pooledBufferBytes, 5120 * 4)
        // Red at 50 % throughout, the overlap included; nothing outside the group.
        XCTAssertEqual(bitmap[150, 120], 0x8080_0000)
        XCTAssertEqual(bitmap[110, 120], 0x8080_0000)
        XCTAssertEqual(bitmap[99, 120], 0)
        XCTAssertEqual(bitmap[200, 120], 0)
    }

    func testMaskCaptureCoversOnlyTheMask() {
        let bitmap = Bitmap(width: 1000, height: 800)
        let ctx = GraphicsContext(bitmap: bitmap)
        let masked = square(Rect(x: 0, y: 0, width: 1000, height: 800), Color(red: 0, green: 0, blue: 1))
        let mask = square(Rect(x: 300, y: 200, width: 40, height: 30), .black)
        masked.mask = mask
        LayerRenderer().render(masked, into: ctx)
        XCTAssertEqual(bitmap[310, 210], 0xFF00_00FF)
        XCTAssertEqual(bitmap[299, 210], 0)
        XCTAssertEqual(bitmap[340, 210], 0)
        // The capture's bitmap and its mask: 1200 pixels each, the smallest class.
        XCTAssertEqual(ctx.pooledBufferBytes, BufferPoolClass.minimum * 4 + BufferPoolClass.minimum)
    }
}

/// The pool's smallest size class, as documented: one 64 × 64 tile.
private enum BufferPoolClass { static let minimum = 64 * 64 }
