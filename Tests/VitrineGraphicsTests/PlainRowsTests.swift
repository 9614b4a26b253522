import XCTest
@testable import VitrineGraphics

/// A context that remembers which pixels of its bitmap hold an opaque colour it filled them
/// with (`remembersPlainPixels`) writes only the others when it fills with that colour again,
/// and draws the same pixels as one that writes them all.
final class PlainRowsTests: XCTestCase {
    private let background = Color(red: 0.08, green: 0.09, blue: 0.11)

    /// A frame's background filled over a square drawn by the frame before is written only
    /// in the square's rows, in the tiles of 8 columns it touched (a 100-pixel row has 13).
    func testAFillWritesOnlyWhereTheFrameBeforeDrewOver() {
        let bitmap = Bitmap(width: 100, height: 40)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.remembersPlainPixels = true
        let whole = Rect(x: 0, y: 0, width: 100, height: 40)
        ctx.fill(whole, color: background)
        XCTAssertEqual(ctx.plainPixelsSkipped, 0, "nothing known before the first fill")
        var square = Path()
        square.addRect(Rect(x: 10, y: 10, width: 10, height: 10))
        ctx.fill(square, color: .white)
        ctx.endFrame()
        ctx.fill(whole, color: background)
        XCTAssertEqual(ctx.plainPixelsSkipped, 100 * 40 - 10 * 16)
        XCTAssertEqual(bitmap[15, 15], bitmap[0, 0], "the square was painted over")
        // Filled again at once, every pixel holds the colour.
        ctx.fill(whole, color: background)
        XCTAssertEqual(ctx.plainPixelsSkipped, 2 * 100 * 40 - 10 * 16)
        // Another colour writes every pixel, and so does the background after it.
        ctx.fill(whole, color: .black)
        ctx.fill(whole, color: background)
        XCTAssertEqual(ctx.plainPixelsSkipped, 2 * 100 * 40 - 10 * 16)
        // Written from outside and forgotten: the next fill writes every pixel.
        bitmap.fill(0xFF00_FF00, in: IntRect(x: 50, y: 5, width: 3, height: 3))
        ctx.forgetPlainPixels()
        ctx.fill(whole, color: background)
        XCTAssertEqual(ctx.plainPixelsSkipped, 2 * 100 * 40 - 10 * 16)
        XCTAssertEqual(bitmap[51, 6], bitmap[0, 0])
    }

    /// A scene dissolving in over another (a group over its own background, as the player's
    /// fade draws it) composites only the tiles either scene drew in, and leaves the others
    /// recorded as background: the next frame's fill writes only those tiles, and both frames
    /// are what a context that composites and fills every pixel draws.
    func testADissolveLeavesTheTilesNeitherSceneDrewInPlain() {
        let remembering = GraphicsContext(bitmap: Bitmap(width: 100, height: 60))
        let writing = GraphicsContext(bitmap: Bitmap(width: 100, height: 60))
        remembering.remembersPlainPixels = true
        writing.compositesByTiles = false
        let whole = Rect(x: 0, y: 0, width: 100, height: 60)
        for ctx in [remembering, writing] {
            ctx.fill(whole, color: background)
            // The outgoing scene, top left; the incoming one, bottom right, in tiles of 8.
            ctx.fill(Rect(x: 10, y: 5, width: 10, height: 10), color: .white)
            ctx.beginTransparencyLayer(alpha: 0.4)
            ctx.fill(whole, color: background)
            ctx.fill(Rect(x: 70, y: 40, width: 10, height: 10), color: Color(red: 1, green: 0.2, blue: 0.1))
            ctx.endTransparencyLayer()
            XCTAssertEqual(ctx.underlayCount, 1)
            ctx.endFrame()
        }
        XCTAssertTrue(same(remembering.bitmap, writing.bitmap))
        XCTAssertNotEqual(remembering.bitmap[75, 45], remembering.bitmap[0, 0])
        for ctx in [remembering, writing] { ctx.fill(whole, color: background) }
        // Rows 5–14 in columns 8–23 and rows 40–49 in columns 64–79: 320 pixels written, not the
        // box around both (3,240).
        XCTAssertEqual(remembering.plainPixelsSkipped, 100 * 60 - 320)
        XCTAssertTrue(same(remembering.bitmap, writing.bitmap))
    }

    /// Random frames, each a background over all or part of the bitmap (a fill or a clear)
    /// and drawing over it (opaque and translucent rectangles, some of the background's own
    /// colour, shapes, groups, dissolves over the background, groups in groups, masked fills),
    /// and at times pixels written from outside (then forgotten): to the bit what a context
    /// that writes every pixel and composites its groups whole draws, frame after frame.
    func testRandomFramesDrawWhatFillingEveryPixelDraws() {
        let width = 97, height = 61
        let remembering = GraphicsContext(bitmap: Bitmap(width: width, height: height))
        let writing = GraphicsContext(bitmap: Bitmap(width: width, height: height))
        remembering.remembersPlainPixels = true
        writing.compositesByTiles = false
        var random = SplitMix64(seed: 0x91A1_2055)
        func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        func rect() -> IntRect {
            let x = int(-10..<width), y = int(-10..<height)
            return IntRect(x: x, y: y, width: int(1..<width + 20 - x), height: int(1..<height + 20 - y))
        }
        let colours = [
            background, .black, Color(red: 0.9, green: 0.3, blue: 0.1),
            Color(red: 0.2, green: 0.5, blue: 1, alpha: 0.6), Color(red: 1, green: 1, blue: 1, alpha: 0.3)
        ]
        let mask = AlphaMask(bounds: IntRect(x: 20, y: 10, width: 40, height: 30))
        for y in 10..<40 {
            for x in 0..<40 { mask.row(y)[x] = UInt8((x * 7 + y * 3) % 256) }
        }
        var differing: [Int] = []
        for frame in 0..<400 {
            let ops = (0..<int(0..<6)).map { _ in (int(0..<9), rect(), colours[int(0..<colours.count)], rect()) }
            let whole = int(0..<4) > 0
            let clip = whole ? IntRect(x: 0, y: 0, width: width, height: height) : rect()
            let clears = int(0..<4) == 0
            let outside = int(0..<20) == 0 ? rect() : nil
            for ctx in [remembering, writing] {
                if let outside {
                    ctx.bitmap.fill(
                        0xFF12_3456, in: outside.intersection(IntRect(x: 0, y: 0, width: width, height: height)))
                    ctx.forgetPlainPixels()
                }
                ctx.saveGState()
                ctx.clip(toDeviceRect: clip)
                if clears { ctx.clear(background) } else { ctx.fill(box(clip), color: background) }
                for (kind, r, colour, second) in ops {
                    switch kind {
                    case 0, 1: ctx.fill(box(r), color: colour)
                    case 2:
                        var ellipse = Path()
                        ellipse.addEllipse(in: box(r).insetBy(dx: 0.3, dy: 0.7))
                        ctx.fill(ellipse, color: colour)
                    case 3:
                        ctx.beginTransparencyLayer(alpha: 0.45)
                        ctx.fill(box(r), color: colour)
                        ctx.fill(box(second), color: background)
                        ctx.endTransparencyLayer()
                    case 4:
                        ctx.saveGState()
                        ctx.clip(toMask: mask)
                        ctx.fill(box(r), color: colour)
                        ctx.restoreGState()
                    case 5: ctx.fill(box(r), color: background)
                    case 6:
                        // A scene dissolving in: its background under a shape, over the frame's.
                        ctx.beginTransparencyLayer(alpha: 0.3)
                        ctx.fill(box(clip), color: background)
                        var ellipse = Path()
                        ellipse.addEllipse(in: box(r).insetBy(dx: 0.6, dy: 0.2))
                        ctx.fill(ellipse, color: colour)
                        ctx.endTransparencyLayer()
                    case 7:
                        ctx.beginTransparencyLayer(alpha: 0.8)
                        ctx.fill(box(r), color: colour)
                        ctx.beginTransparencyLayer(alpha: 0.5)
                        ctx.fill(box(second), color: colours[(kind + frame) % colours.count])
                        ctx.endTransparencyLayer()
                        ctx.endTransparencyLayer()
                    default:
                        ctx.saveGState()
                        ctx.clip(toDeviceRect: r)
                        ctx.clear(colour)
                        ctx.restoreGState()
                    }
                }
                ctx.restoreGState()
                ctx.endFrame()
            }
            for y in 0..<height
            where memcmp(remembering.bitmap.row(y), writing.bitmap.row(y), width * 4) != 0 {
                differing.append(frame)
                break
            }
        }
        XCTAssertEqual(differing, [], "frames that differ")
        XCTAssertEqual(writing.plainPixelsSkipped, 0)
        XCTAssertGreaterThan(remembering.plainPixelsSkipped, 400 * width * height / 4)
    }

    private func same(_ a: Bitmap, _ b: Bitmap) -> Bool {
        (0..<a.height).allSatisfy { y in memcmp(a.row(y), b.row(y), a.width * 4) == 0 }
    }

    private func box(_ r: IntRect) -> Rect {
        Rect(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }
}
