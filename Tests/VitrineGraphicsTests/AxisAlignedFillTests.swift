import XCTest

@testable import VitrineGraphics

/// Rectangles the transform keeps axis-aligned fill the rows between their corners without the
/// rasterizer (`GraphicsContext.fillsAxisAligned`): every pixel, and what the context records
/// as drawn, must be what the rasterizer gives.
final class AxisAlignedFillTests: XCTestCase {
    /// Random rectangles at fractional places and sizes, rounded or not, under scales (mirrored
    /// ones too) and translations, in opaque and translucent colours, through device clips
    /// (damage rectangles), directly and inside a transparency layer: the same pixels and the
    /// same dirty rectangle with the rows between the corners filled straight as through the
    /// rasterizer alone.
    func testStraightRowsAreTheRasterizersPixels() {
        let width = 173, height = 131
        var rng = SplitMix64(seed: 0xA11_6ED)
        var straight = 0
        for trial in 0..<400 {
            // Mostly inside the bitmap; some reach past it (drawn by the rasterizer alone).
            let rect = Rect(
                x: rng.next(in: -5...70), y: rng.next(in: -5...40), width: rng.next(in: 0.2...70),
                height: rng.next(in: 0.2...80))
            let radius = trial % 3 == 0 ? 0 : rng.next(in: 0...30)
            let scale = (x: rng.next(in: 0.4...1.3) * (trial % 5 == 0 ? -1 : 1), y: rng.next(in: 0.4...1.3))
            let shift = (x: rng.next(in: 0...20) + (scale.x < 0 ? 150 : 0), y: rng.next(in: 0...20))
            let color = Color(
                red: rng.next(in: 0...1), green: rng.next(in: 0...1), blue: rng.next(in: 0...1),
                alpha: trial % 2 == 0 ? 1 : rng.next(in: 0.1...1))
            let clip =
                trial % 4 == 0
                ? nil
                : IntRect(
                    x: Int(rng.next(in: 0...120)), y: Int(rng.next(in: 0...100)), width: Int(rng.next(in: 1...80)),
                    height: Int(rng.next(in: 1...60)))
            let grouped = trial % 7 == 0
            func context(on bitmap: Bitmap, splits: Bool) -> GraphicsContext {
                let ctx = GraphicsContext(bitmap: bitmap)
                ctx.splitsAxisAlignedFills = splits
                if let clip { ctx.clip(toDeviceRect: clip) }
                ctx.translateBy(x: shift.x, y: shift.y)
                ctx.scaleBy(x: scale.x, y: scale.y)
                return ctx
            }
            let drawn = [true, false].map { splits -> (Bitmap, IntRect) in
                let bitmap = Bitmap(width: width, height: height)
                bitmap.fill(0xFF20_3040)
                let ctx = context(on: bitmap, splits: splits)
                if grouped { ctx.beginTransparencyLayer(alpha: 0.7) }
                if radius == 0 {
                    ctx.fill(rect, color: color)
                } else {
                    ctx.fill(rect, cornerRadius: radius, color: color)
                }
                if grouped { ctx.endTransparencyLayer() }
                return (bitmap, ctx.dirty)
            }
            // Whether this one took the straight rows (asked of a context of its own).
            let probe = context(on: Bitmap(width: width, height: height), splits: true)
            if probe.fillsAxisAligned(rect, cornerRadius: radius, pixel: ~0) { straight += 1 }
            XCTAssertEqual(drawn[0].1, drawn[1].1, "trial \(trial): dirty rectangle")
            for y in 0..<height {
                for x in 0..<width where drawn[0].0[x, y] != drawn[1].0[x, y] {
                    return XCTFail(
                        "trial \(trial) (\(rect), radius \(radius)): (\(x), \(y)) is "
                            + "\(String(drawn[0].0[x, y], radix: 16)), not \(String(drawn[1].0[x, y], radix: 16))")
                }
            }
        }
        // Most trials fill straight rows (the others reach past the bitmap, or have few rows
        // between their corners inside the clip).
        XCTAssertGreaterThan(straight, 80)
    }

    /// Rotated or skewed, through a clip mask, or reaching past the target: the rasterizer's.
    func testOnlyAxisAlignedRectanglesInsideTheTargetAreFilledStraight() {
        let ctx = GraphicsContext(bitmap: Bitmap(width: 100, height: 100))
        let rect = Rect(x: 10.3, y: 10.6, width: 50.2, height: 60.7)
        XCTAssertTrue(ctx.fillsAxisAligned(rect, cornerRadius: 6, pixel: 0xFFFF_FFFF))
        XCTAssertFalse(ctx.fillsAxisAligned(Rect(x: -5.5, y: 10, width: 50, height: 60), cornerRadius: 6, pixel: ~0))
        XCTAssertFalse(ctx.fillsAxisAligned(Rect(x: 10, y: 10, width: 50, height: 6), cornerRadius: 2, pixel: ~0))
        ctx.saveGState()
        ctx.rotate(by: 0.1)
        XCTAssertFalse(ctx.fillsAxisAligned(rect, cornerRadius: 6, pixel: ~0))
        ctx.restoreGState()
        ctx.saveGState()
        var mask = Path()
        mask.addEllipse(in: Rect(x: 0, y: 0, width: 90, height: 90))
        ctx.clip(to: mask)
        XCTAssertFalse(ctx.fillsAxisAligned(rect, cornerRadius: 6, pixel: ~0))
        ctx.restoreGState()
    }
}
