import Dispatch
import XCTest
@testable import VitrineGraphics

/// Blending, clips, masks and layers, against values computed from the compositing formula
/// (premultiplied source-over in sRGB-encoded 8-bit values).
final class CompositingTests: XCTestCase {
    private func channels(_ p: UInt32) -> (a: Int, r: Int, g: Int, b: Int) {
        (Int(p >> 24), Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }

    private func assertPixel(
        _ p: UInt32, a: Int, r: Int, g: Int, b: Int, tolerance: Int = 1,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let c = channels(p)
        for (got, want, name) in [(c.a, a, "a"), (c.r, r, "r"), (c.g, g, "g"), (c.b, b, "b")] {
            XCTAssertLessThanOrEqual(abs(got - want), tolerance, "\(name): \(got) vs \(want)", file: file, line: line)
        }
    }

    func testDivideBy255IsExactlyRounded() {
        for a in 0...255 {
            for b in stride(from: 0, through: 255, by: 3) {
                let exact = Int((Double(a * b) / 255).rounded())
                XCTAssertEqual(Int(PixelMath.mul255(UInt32(a), UInt32(b))), exact)
                let p = UInt32(a) << 24 | UInt32(b) << 16 | UInt32(a) << 8 | UInt32(b)
                let s = channels(PixelMath.scale(p, UInt32(b)))
                XCTAssertEqual(s.a, Int((Double(a * b) / 255).rounded()))
                XCTAssertEqual(s.r, Int((Double(b * b) / 255).rounded()))
            }
        }
    }

    /// The gradient table's index rounds as `rounded()` does, halves and the values just below
    /// them included, over the table's whole range.
    func testTheGradientIndexRoundsAsRoundDoes() {
        var values: [Double] = [0, 0.5, 1.5, 2.5, 1022.5, 1023, 0.49999999999999994, 1022.4999999999999]
        for n in 0...1023 {
            let v = Double(n) + 0.5
            values += [v, v.nextDown, v.nextUp, Double(n), Double(n).nextUp]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 { values.append(Double.random(in: 0...1023, using: &generator)) }
        for v in values {
            XCTAssertEqual(GradientSampler.roundedIndex(v), Int(v.rounded()), "\(v)")
        }
    }

    /// The conic gradient's angle is libm's `atan2` to within 10⁻¹⁰ radian everywhere: on the
    /// axes and diagonals, next to the octant folds, near and far from the centre, and at random.
    func testTheConicAngleIsAtan2() {
        var points: [(Double, Double)] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)]
        let fold = 0.414_213_562_373_095_1
        for (y, x) in [(fold, 1.0), (fold.nextUp, 1), (fold.nextDown, 1), (1, fold), (1e-300, 1), (1, 1e-300)] {
            points += [(y, x), (-y, x), (y, -x), (-y, -x)]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            let scale = Double.random(in: -6...6, using: &generator)
            points.append(
                (
                    Double.random(in: -1...1, using: &generator) * pow(10, scale),
                    Double.random(in: -1...1, using: &generator) * pow(10, scale)
                ))
        }
        var worst = 0.0
        for (y, x) in points { worst = max(worst, abs(GradientSampler.angle(y, x) - atan2(y, x))) }
        XCTAssertLessThan(worst, 1e-10)
        // Not finite or at the origin: libm's own.
        for (y, x) in [(0.0, 0.0), (-0.0, -0.0), (Double.nan, 1), (1, Double.infinity), (Double.infinity, 2)] {
            XCTAssertEqual(GradientSampler.angle(y, x).bitPattern, atan2(y, x).bitPattern, "\(y), \(x)")
        }
    }

    /// The versions of the wide loops this machine runs: the portable one, the AVX2 kernels where
    /// the processor has them, and the AVX-512 kernels before them where it has those too.
    static let kernelChoices: [(avx2: Bool, avx512: Bool)] =
        [(false, false)] + (PixelKernels.avx2Available ? [(true, false)] : [])
        + (PixelKernels.avx512Available ? [(true, true)] : [])

    static func name(_ kernels: (avx2: Bool, avx512: Bool)) -> String {
        kernels.avx512 ? "AVX-512" : kernels.avx2 ? "AVX2" : "portable"
    }

    func testVectorBlendsMatchTheScalarFormula() {
        // Pseudo-random premultiplied pixels, with blocks of sixteen that are all transparent
        // and all opaque (which the wide paths skip or copy); the wide paths must agree bit for
        // bit with s + d·(255 − αs)/255 computed one pixel at a time.
        var numbers = PixelNumbers(seed: 12345)
        let n = 61
        let dst = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        defer { dst.deallocate(); src.deallocate() }
        for (avx2, avx512) in Self.kernelChoices {
            let kernels = Self.name((avx2, avx512))
            for factor: UInt32 in [255, 128, 7] {
                var expected: [UInt32] = []
                for i in 0..<n {
                    dst[i] = numbers.premultiplied(); src[i] = numbers.premultiplied()
                    if i / 16 % 3 == 1 { src[i] = 0 }
                    if i / 16 % 3 == 2 { src[i] |= 0xFF00_0000 }
                    let s = PixelMath.scale(src[i], factor)
                    expected.append(s &+ PixelMath.scale(dst[i], 255 - (s >> 24)))
                }
                let blended = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
                defer { blended.deallocate() }
                blended.update(from: dst, count: n)
                SpanBlitter.blendPixels(
                    blended, x: 0, src, count: n, factor: factor, mask: nil, avx2: avx2, avx512: avx512)
                XCTAssertEqual((0..<n).map { blended[$0] }, expected, "factor \(factor), \(kernels)")
                // A transparency layer's composite gives the same pixels and leaves its own clear.
                SpanBlitter.composite(dst, x: 0, consuming: src, count: n, factor: factor, avx2: avx2, avx512: avx512)
                XCTAssertEqual((0..<n).map { dst[$0] }, expected, "composite, factor \(factor), \(kernels)")
                XCTAssertEqual((0..<n).filter { src[$0] != 0 }, [], "source left, factor \(factor), \(kernels)")
            }
            let c: UInt32 = 0xC010_2030  // alpha 192, channels below it
            var expected: [UInt32] = []
            for i in 0..<n {
                dst[i] = numbers.premultiplied(); expected.append(c &+ PixelMath.scale(dst[i], 255 - (c >> 24)))
            }
            SpanBlitter.blendConstant(dst, n, c, avx2: avx2, avx512: avx512)
            XCTAssertEqual((0..<n).map { dst[$0] }, expected, kernels)
        }
    }

    /// A replicator's instance colour multiplies each channel of its copy's pixels: eight at a
    /// time, then one by one, every pixel is `(v·f + 128 + (v·f + 128) >> 8) >> 8` of each
    /// colour channel and keeps its alpha (tints of white, black and between; lengths off the
    /// eight-pixel step).
    func testATintMultipliesEveryChannelAsTheScalarFormula() {
        var numbers = PixelNumbers(seed: 4242)
        @inline(__always) func times(_ v: UInt32, _ f: UInt32) -> UInt32 {
            let x = v * f + 128
            return (x + (x >> 8)) >> 8
        }
        for tint: UInt32 in [0xFF00_0000, 0xFFE0_7F10, 0x80FF_FF00, 0xFF01_FEFF] {
            for n in [0, 5, 8, 29, 64] {
                let pixels = (0..<n).map { i in i % 7 == 3 ? 0 : numbers.premultiplied() }
                let expected = pixels.map { p in
                    p & 0xFF00_0000 | times((p >> 16) & 0xFF, (tint >> 16) & 0xFF) << 16
                        | times((p >> 8) & 0xFF, (tint >> 8) & 0xFF) << 8 | times(p & 0xFF, tint & 0xFF)
                }
                var multiplied = pixels
                multiplied.withUnsafeMutableBufferPointer {
                    if let base = $0.baseAddress { GraphicsContext.multiply(base, count: n, by: tint) }
                }
                XCTAssertEqual(multiplied, expected, "tint \(String(tint, radix: 16)), \(n) pixels")
            }
        }
    }

    /// A colour through per-pixel coverage (a shadow's mask): the 8-wide path, its skipping of
    /// zero runs and its scalar tail give `sourceOver(scale(colour, c), d)` for every pixel.
    func testCoverageBlendMatchesTheScalarFormula() {
        var numbers = PixelNumbers(seed: 777)
        let n = 61
        let dst = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        let coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        defer { dst.deallocate(); coverage.deallocate() }
        for (avx2, avx512) in Self.kernelChoices {
            for colour: UInt32 in [0xFF10_8040, 0x8040_2010, 0x0101_0000] {
                var expected: [UInt32] = []
                for i in 0..<n {
                    dst[i] = numbers.premultiplied()
                    // Runs of zeros (skipped whole), full and partial coverage.
                    let c = (8..<32).contains(i) ? 0 : i % 5 == 0 ? 255 : numbers.next() & 0xFF
                    coverage[i] = UInt8(c)
                    expected.append(
                        c == 0 ? dst[i] : PixelMath.sourceOver(PixelMath.scale(colour, c), dst[i]))
                }
                SpanBlitter.blendSolid(dst, coverage: coverage, count: n, color: colour, avx2: avx2, avx512: avx512)
                XCTAssertEqual(
                    (0..<n).map { dst[$0] }, expected,
                    "colour \(String(colour, radix: 16)), \(Self.name((avx2, avx512)))")
            }
        }
    }

    /// Source pixels through a mask (an image under a shape mask): hidden blocks, whole blocks
    /// and mixed ones of the 8-wide path and its scalar tail all give
    /// `sourceOver(scale(s, mul255(factor, m)), d)`.
    func testMaskedBlendMatchesTheScalarFormula() {
        var numbers = PixelNumbers(seed: 4242)
        let n = 61
        let dst = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        defer { dst.deallocate(); src.deallocate(); mask.deallocate() }
        for (avx2, avx512) in Self.kernelChoices {
            for factor: UInt32 in [255, 200, 3] {
                var expected: [UInt32] = []
                for i in 0..<n {
                    dst[i] = numbers.premultiplied()
                    src[i] = numbers.premultiplied()
                    // Blocks the mask hides, shows whole and shows partly, eight and sixteen long.
                    let m: UInt32 =
                        (0..<8).contains(i) || (16..<32).contains(i)
                        ? 0
                        : (8..<16).contains(i) || (32..<48).contains(i) ? 255 : numbers.next() & 0xFF
                    mask[i] = UInt8(m)
                    let f = PixelMath.mul255(factor, m)
                    expected.append(
                        f == 0 ? dst[i] : PixelMath.sourceOver(f == 255 ? src[i] : PixelMath.scale(src[i], f), dst[i]))
                }
                SpanBlitter.blendPixels(
                    dst, x: 0, src, count: n, factor: factor, mask: mask, avx2: avx2, avx512: avx512)
                XCTAssertEqual((0..<n).map { dst[$0] }, expected, "factor \(factor), \(Self.name((avx2, avx512)))")
            }
        }
    }

    func testOpaqueFullCoverageWritesTheExactColour() {
        let bitmap = Bitmap(width: 64, height: 64)
        bitmap.fill(0xFF80_8080)
        let ctx = GraphicsContext(bitmap: bitmap)
        let colour = Color(r8: 31, g8: 119, b8: 180)
        var p = Path()
        p.addEllipse(in: Rect(x: 2.3, y: 4.1, width: 50, height: 50))
        ctx.fill(p, color: colour)
        XCTAssertEqual(bitmap[27, 29], 0xFF1F_77B4)
        ctx.fill(Rect(x: 40.5, y: 1.5, width: 20, height: 2), color: colour)
        XCTAssertEqual(bitmap[45, 2], 0xFF1F_77B4)
    }

    func testHalfAlphaOverWhite() {
        let bitmap = Bitmap(width: 8, height: 8)
        bitmap.fill(0xFFFF_FFFF)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.fill(Rect(x: 0, y: 0, width: 4, height: 8), color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        assertPixel(bitmap[1, 1], a: 255, r: 128, g: 128, b: 128)  // 255 · (1 − 0.5) = 127.5
        // A translucent colour over white: c·α + 255·(1 − α), and the path (non-aligned) route.
        let colour = Color(red: 0.2, green: 0.6, blue: 1.0, alpha: 0.3)
        var p = Path()
        p.addRect(Rect(x: 4, y: 0.5, width: 4, height: 7))
        ctx.fill(p, color: colour)
        func over(_ c: Double) -> Int { Int((c * 0.3 * 255 + 255 * 0.7).rounded()) }
        assertPixel(bitmap[5, 3], a: 255, r: over(0.2), g: over(0.6), b: over(1.0))
    }

    func testGlobalAlphaMultipliesColourAlpha() {
        let bitmap = Bitmap(width: 4, height: 4)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.setAlpha(0.5)
        ctx.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        assertPixel(bitmap[1, 1], a: 64, r: 64, g: 0, b: 0)
        ctx.saveGState()
        ctx.setAlpha(1)
        ctx.restoreGState()
        XCTAssertEqual(ctx.alpha, 0.5)
    }

    func testGroupOpacityDoesNotDarkenTheOverlap() {
        let bitmap = Bitmap(width: 60, height: 40)
        bitmap.fill(0xFFFF_FFFF)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.beginTransparencyLayer(alpha: 0.5)
        ctx.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: Color(red: 1, green: 0, blue: 0))
        ctx.fill(Rect(x: 20, y: 0, width: 40, height: 40), color: Color(red: 0, green: 0, blue: 1))
        ctx.endTransparencyLayer()
        // Blue at 50 % over white, whether or not red is underneath it in the group.
        assertPixel(bitmap[30, 20], a: 255, r: 128, g: 128, b: 255)
        assertPixel(bitmap[50, 20], a: 255, r: 128, g: 128, b: 255)
        assertPixel(bitmap[10, 20], a: 255, r: 255, g: 128, b: 128)
        // Without the group, the overlap mixes both colours.
        let plain = Bitmap(width: 60, height: 40)
        plain.fill(0xFFFF_FFFF)
        let c2 = GraphicsContext(bitmap: plain)
        c2.setAlpha(0.5)
        c2.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: Color(red: 1, green: 0, blue: 0))
        c2.fill(Rect(x: 20, y: 0, width: 40, height: 40), color: Color(red: 0, green: 0, blue: 1))
        assertPixel(plain[30, 20], a: 255, r: 128, g: 64, b: 191)
    }

    /// Fills `rect` as a rectangle, or when `painted` through the rasterizer (a path), which is
    /// never taken as a group's underlay nor as a uniform fill: the reference the fast paths are
    /// compared with.
    private func fill(_ ctx: GraphicsContext, _ rect: Rect, color: Color, painted: Bool) {
        guard painted else { return ctx.fill(rect, color: color) }
        var path = Path()
        path.addRect(rect)
        ctx.fill(path, color: color)
    }

    /// A group whose first drawing is an opaque fill of all of it (a scene fading in over
    /// another fills its group with its background) keeps that colour as an underlay, laid
    /// under the group's drawing as it composites. Drawn with the fill painted (a path, which
    /// never becomes an underlay), the group gives the same pixels: to the bit where the
    /// drawing is one layer of translucent pixels, within one level where translucent drawings
    /// overlap (rounding comes in another order).
    func testAnOpaqueFirstFillOfAGroupIsLaidUnderItsDrawing() {
        let background = Color(red: 0.08, green: 0.09, blue: 0.11)
        func draw(underlay: Bool, overlapping: Bool) -> (Bitmap, Int) {
            let bitmap = Bitmap(width: 64, height: 48)
            let ctx = GraphicsContext(bitmap: bitmap)
            // What the group fades in over: stripes, so the blend is seen over varied pixels.
            for x in stride(from: 0, to: 64, by: 8) {
                ctx.fill(
                    Rect(x: Double(x), y: 0, width: 4, height: 48),
                    color: Color(red: Double(x) / 64, green: 0.6, blue: 0.2))
            }
            ctx.clip(toDeviceRect: IntRect(x: 4, y: 2, width: 56, height: 44))
            ctx.beginTransparencyLayer(alpha: 0.37)
            let whole = Rect(x: 4, y: 2, width: 56, height: 44)
            fill(ctx, whole, color: background, painted: !underlay)
            var circle = Path()
            circle.addEllipse(in: Rect(x: 10.3, y: 6.6, width: 30, height: 30))
            ctx.fill(circle, color: Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.7))
            if overlapping {
                ctx.fill(
                    Rect(x: 25.5, y: 20.25, width: 30, height: 20),
                    color: Color(red: 0.2, green: 0.5, blue: 1, alpha: 0.6))
            }
            ctx.endTransparencyLayer()
            return (bitmap, ctx.underlayCount)
        }
        for overlapping in [false, true] {
            let (fast, taken) = draw(underlay: true, overlapping: overlapping)
            let (painted, notTaken) = draw(underlay: false, overlapping: overlapping)
            XCTAssertEqual(taken, 1)
            XCTAssertEqual(notTaken, 0)
            var differing = 0, largest: UInt32 = 0
            for y in 0..<48 {
                for x in 0..<64 where fast[x, y] != painted[x, y] {
                    differing += 1
                    for shift: UInt32 in [0, 8, 16, 24] {
                        let a = (fast[x, y] >> shift) & 0xFF, b = (painted[x, y] >> shift) & 0xFF
                        largest = max(largest, a > b ? a - b : b - a)
                    }
                }
            }
            if overlapping {
                XCTAssertLessThanOrEqual(largest, 1, "overlapping translucent drawing: rounding only")
            } else {
                XCTAssertEqual(differing, 0, "one layer of drawing: the same pixels")
            }
        }
    }

    /// A dissolve over a frame filled with the group's underlay colour composites only where
    /// the group drew or the frame was drawn on since that fill: elsewhere the composite would
    /// give the pixels back unchanged. The frame is the same to the bit as with every pixel
    /// composited (a background painted as a path, which is not taken as a uniform fill).
    func testADissolveOverItsOwnColourCompositesOnlyWhereSomethingWasDrawn() {
        let background = Color(red: 0.08, green: 0.09, blue: 0.11)
        func draw(uniform: Bool) -> (Bitmap, Int) {
            let bitmap = Bitmap(width: 80, height: 60)
            bitmap.fill(0xFF00_FF00)
            let ctx = GraphicsContext(bitmap: bitmap)
            let whole = Rect(x: 0, y: 0, width: 80, height: 60)
            fill(ctx, whole, color: background, painted: !uniform)
            // The outgoing scene draws on the left, the incoming one on the right.
            var outgoing = Path()
            outgoing.addEllipse(in: Rect(x: 4.5, y: 10.25, width: 20, height: 30))
            ctx.fill(outgoing, color: Color(red: 1, green: 1, blue: 1, alpha: 0.8))
            ctx.beginTransparencyLayer(alpha: 0.4)
            ctx.fill(whole, color: background)
            var incoming = Path()
            incoming.addEllipse(in: Rect(x: 50.5, y: 20.5, width: 20, height: 20))
            ctx.fill(incoming, color: Color(red: 1, green: 0.2, blue: 0.1))
            ctx.endTransparencyLayer()
            return (bitmap, ctx.compositedPixelCount)
        }
        let (skipping, composited) = draw(uniform: true), (whole, all) = draw(uniform: false)
        XCTAssertEqual(all, 80 * 60)
        XCTAssertLessThan(composited, 80 * 60 / 2, "the box around the two circles, not the frame")
        XCTAssertGreaterThan(composited, 0)
        let same = (0..<60).allSatisfy { y in (0..<80).allSatisfy { x in skipping[x, y] == whole[x, y] } }
        XCTAssertTrue(same)

        // A fill holds only within the drawing that made it: after its state is restored the
        // bitmap may be written by others (here, set to green), and the next group composites
        // all of itself.
        let bitmap = Bitmap(width: 40, height: 30)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.saveGState()
        ctx.fill(Rect(x: 0, y: 0, width: 40, height: 30), color: background)
        ctx.restoreGState()
        bitmap.fill(0xFF00_FF00)
        ctx.beginTransparencyLayer(alpha: 0.5)
        ctx.fill(Rect(x: 0, y: 0, width: 40, height: 30), color: background)
        ctx.endTransparencyLayer()
        XCTAssertEqual(ctx.compositedPixelCount, 40 * 30)
        XCTAssertNotEqual(bitmap[20, 15], 0xFF00_FF00)
    }

    /// A clear, or an additive layer, inside a group with an underlay reads the group's pixels:
    /// the underlay is painted first, and the result is the painted group's.
    func testAClearOrAnAdditiveLayerInAGroupPaintsItsUnderlayFirst() {
        func draw(underlay: Bool, additive: Bool) -> Bitmap {
            let bitmap = Bitmap(width: 40, height: 30)
            bitmap.fill(0xFF80_4020)
            let ctx = GraphicsContext(bitmap: bitmap)
            ctx.beginTransparencyLayer(alpha: 0.5)
            let whole = Rect(x: 0, y: 0, width: 40, height: 30)
            fill(ctx, whole, color: Color(red: 0.1, green: 0.7, blue: 0.3), painted: !underlay)
            if additive {
                ctx.beginAdditiveTransparencyLayer(alpha: 0.5)
                ctx.fill(Rect(x: 5, y: 5, width: 20, height: 10), color: Color(red: 0.5, green: 0.1, blue: 0.9))
                ctx.endTransparencyLayer()
            } else {
                ctx.saveGState()
                ctx.clip(toDeviceRect: IntRect(x: 10, y: 10, width: 12, height: 8))
                ctx.clear(Color(red: 1, green: 1, blue: 1, alpha: 0.5))
                ctx.restoreGState()
            }
            ctx.endTransparencyLayer()
            XCTAssertEqual(ctx.underlayCount, underlay ? 1 : 0)
            return bitmap
        }
        for additive in [false, true] {
            let fast = draw(underlay: true, additive: additive), painted = draw(underlay: false, additive: additive)
            let same = (0..<30).allSatisfy { y in (0..<40).allSatisfy { x in fast[x, y] == painted[x, y] } }
            XCTAssertTrue(same, additive ? "additive layer" : "clear")
        }
    }

    func testTheUnderlayBlendMatchesTheScalarFormula() {
        var numbers = PixelNumbers(seed: 777)
        let n = 75
        let dst = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        defer { dst.deallocate(); src.deallocate() }
        let underlay: UInt32 = 0xFF14_181D
        for (avx2, avx512) in Self.kernelChoices {
            for factor: UInt32 in [255, 200, 3] {
                var expected: [UInt32] = []
                for i in 0..<n {
                    // Blocks of sixteen (two of eight): drawn, then nothing drawn over the underlay's
                    // own colour (left as it is), drawn over it, nothing drawn over other pixels with
                    // a few drawn, drawn opaque (hiding the underlay).
                    let block = i / 16
                    dst[i] = block == 1 || block == 2 || i % 3 == 0 ? underlay : numbers.premultiplied()
                    src[i] = block % 2 == 0 || (block == 3 && i % 5 == 0) ? numbers.premultiplied() : 0
                    if block == 4 { src[i] |= 0xFF00_0000 }
                    let over = src[i] &+ PixelMath.scale(underlay, 255 - (src[i] >> 24))
                    let s = PixelMath.scale(over, factor)
                    expected.append(s &+ PixelMath.scale(dst[i], 255 - (s >> 24)))
                }
                SpanBlitter.composite(
                    dst, consuming: src, count: n, factor: factor, over: underlay, avx2: avx2, avx512: avx512)
                let kernels = Self.name((avx2, avx512))
                XCTAssertEqual((0..<n).map { dst[$0] }, expected, "factor \(factor), \(kernels)")
                XCTAssertEqual((0..<n).filter { src[$0] != 0 }, [], "source left, factor \(factor), \(kernels)")
            }
        }
        // What lets a block over the underlay's colour be skipped: an opaque colour blended
        // over itself at any factor is itself.
        for c: UInt32 in 0...255 {
            let colour = 0xFF00_0000 | c << 16 | (255 - c) << 8 | c / 3
            for f: UInt32 in 0...255 where PixelMath.sourceOver(PixelMath.scale(colour, f), colour) != colour {
                XCTFail("\(String(colour, radix: 16)) at \(f)")
            }
        }
    }

    /// The AVX2 kernels, and the AVX-512 kernels before them, against the portable loops over
    /// many rows: random lengths, factors and places (unaligned), blocks of eight or sixteen
    /// transparent, opaque, equal to the underlay and mixed, masks and coverage with hidden,
    /// whole and partial blocks. Every pixel must be the same.
    func testTheAVX2KernelsGiveThePortableLoopsPixels() throws {
        guard PixelKernels.avx2Available else { throw XCTSkip("this processor has no AVX2") }
        var numbers = PixelNumbers(seed: 9001)
        let capacity = 200
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let before = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let portable = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let wide = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let consumed = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer {
            for p in [src, before, portable, wide, consumed] { p.deallocate() }
            mask.deallocate()
        }
        let underlay: UInt32 = 0xFF20_3040
        var compared = 0
        for round in 0..<600 {
            let offset = Int(numbers.next() % 8), count = Int(numbers.next() % 150)
            let factors: [UInt32] = [255, 0, 1, 128, 254]
            let factor = round % 2 == 0 ? factors[round / 2 % factors.count] : numbers.next() & 0xFF
            let block = round % 3 == 0 ? 16 : 8
            for i in 0..<capacity {
                let kind = (i / block + round) % 5
                src[i] = kind == 0 ? 0 : numbers.premultiplied()
                if kind == 1 { src[i] |= 0xFF00_0000 }
                before[i] = kind == 2 || numbers.next() % 4 == 0 ? underlay : numbers.premultiplied()
                let m = (i / block + round) % 4
                mask[i] = m == 0 ? 0 : m == 1 ? 255 : UInt8(truncatingIfNeeded: numbers.next())
            }
            let colour = numbers.premultiplied(), operation = round % 6
            // The row drawn with one choice of kernels into `d` (a copy of `before`); a composite
            // consumes a copy of the source, which must be left clear where it was read.
            func draw(into d: UnsafeMutablePointer<UInt32>, _ avx2: Bool, _ avx512: Bool) -> Bool {
                d.update(from: before, count: capacity)
                consumed.update(from: src, count: capacity)
                let s = UnsafePointer(src + offset), p = d + offset, m = UnsafePointer(mask + offset)
                switch operation {
                case 0:
                    SpanBlitter.blendPixels(
                        p, x: 0, s, count: count, factor: factor, mask: nil, avx2: avx2, avx512: avx512)
                case 1:
                    SpanBlitter.blendPixels(
                        p, x: 0, s, count: count, factor: factor, mask: m, avx2: avx2, avx512: avx512)
                case 2:
                    SpanBlitter.composite(
                        p, consuming: consumed + offset, count: count, factor: factor, over: underlay, avx2: avx2,
                        avx512: avx512)
                case 3:
                    SpanBlitter.composite(
                        p, x: 0, consuming: consumed + offset, count: count, factor: factor, avx2: avx2,
                        avx512: avx512)
                case 4:
                    SpanBlitter.blendSolid(p, coverage: m, count: count, color: colour, avx2: avx2, avx512: avx512)
                default: SpanBlitter.blendConstant(p, count, colour, avx2: avx2, avx512: avx512)
                }
                guard operation == 2 || operation == 3 else { return true }
                return (0..<capacity).allSatisfy { i in consumed[i] == (i >= offset && i < offset + count ? 0 : src[i])
                }
            }
            XCTAssertTrue(draw(into: portable, false, false), "round \(round): source left")
            for (avx2, avx512) in Self.kernelChoices.dropFirst() {
                let kernels = Self.name((avx2, avx512))
                XCTAssertTrue(draw(into: wide, avx2, avx512), "round \(round), \(kernels): source left")
                for i in 0..<capacity where portable[i] != wide[i] {
                    XCTFail(
                        "round \(round), \(kernels), pixel \(i): \(String(wide[i], radix: 16)) vs "
                            + String(portable[i], radix: 16))
                    return
                }
                compared += count
            }
        }
        XCTAssertGreaterThan(compared, 40_000)
    }

    func testLayerBuffersAreReusedAndLeftTransparent() {
        let bitmap = Bitmap(width: 50, height: 50)
        let ctx = GraphicsContext(bitmap: bitmap)
        for i in 0..<3 {
            ctx.beginTransparencyLayer(alpha: 1)
            ctx.fill(Rect(x: Double(i * 10), y: 0, width: 10, height: 10), color: .black)
            ctx.beginTransparencyLayer(alpha: 0.5)  // nested
            ctx.fill(Rect(x: 0, y: 20, width: 10, height: 10), color: .black)
            ctx.endTransparencyLayer()
            ctx.endTransparencyLayer()
        }
        // Each draw landed once: earlier layers left nothing behind in the pooled buffer.
        for i in 0..<3 { XCTAssertEqual(bitmap[i * 10 + 5, 5] >> 24, 255) }
        XCTAssertEqual(bitmap[45, 5] >> 24, 0)
        // Three successive nested 50 % layers of black: 1 − 0.5³.
        XCTAssertEqual(Int(bitmap[5, 25] >> 24), Int((255 * (1 - 0.125)).rounded()), accuracy: 1)
    }

    /// A discarded layer paints nothing, whatever is drawn in it or in a group begun inside it:
    /// its own pixels stay transparent and undrawn, the bitmap stays as it was, and its pooled
    /// buffer is transparent for the next layer. A mask captured inside it is kept.
    func testADiscardedLayerPaintsNothingAndKeepsTheMasksCapturedInIt() throws {
        let bitmap = Bitmap(width: 50, height: 50)
        bitmap.fill(0xFF00_FF00)
        let ctx = GraphicsContext(bitmap: bitmap)
        var circle = Path()
        circle.addEllipse(in: Rect(x: 3.5, y: 4.25, width: 40, height: 30))
        let image = try XCTUnwrap(
            Image(width: 2, height: 2, premultipliedPixels: [0xFF00_00FF, 0xFFFF_0000, 0x8000_0080, 0xFF00_0000]))
        let stamp = Bitmap(width: 10, height: 10)
        stamp.fill(0xFF12_3456)
        let black = Color.black
        ctx.beginDiscardedLayer()
        XCTAssertTrue(ctx.discardsDrawing)
        ctx.fill(Rect(x: 0, y: 0, width: 30, height: 30), color: black)
        ctx.fill(Rect(x: 1.5, y: 2.5, width: 30, height: 30), color: black)
        ctx.fill(Rect(x: 1.5, y: 2.5, width: 30, height: 30), cornerRadius: 4, color: black)
        ctx.fill(circle, color: black)
        ctx.fill(
            circle, gradient: Gradient(kind: .axial, colors: [black, .white], start: .zero, end: Point(x: 40, y: 0)))
        ctx.stroke(circle, color: black, style: StrokeStyle(lineWidth: 3))
        ctx.stroke(
            circle, gradient: Gradient(kind: .axial, colors: [black, .white], start: .zero, end: Point(x: 40, y: 0)),
            style: StrokeStyle(lineWidth: 3))
        ctx.fill(circle, color: black, through: Projection(Transform2D(rotationAngle: 0.1)))
        ctx.stroke(
            circle, color: black, style: StrokeStyle(lineWidth: 3), through: Projection(Transform2D(rotationAngle: 0.1))
        )
        ctx.draw(image, in: Rect(x: 2.5, y: 3.5, width: 40, height: 40))
        ctx.draw(
            image, in: Rect(x: 2, y: 3, width: 40, height: 40), through: Projection(Transform2D(rotationAngle: 0.1)))
        ctx.composite(stamp, from: IntRect(x: 0, y: 0, width: 10, height: 10), toX: 5, y: 5)
        ctx.clear(.white)
        ctx.drawWithShadow(Shadow(opacity: 1, offset: Point(x: 2, y: 2), radius: 4)) {
            ctx.fill(Rect(x: 10, y: 10, width: 10, height: 10), color: black)
        }
        ctx.fill(
            AlphaMask(bounds: IntRect(x: 0, y: 0, width: 50, height: 50), value: 255), offsetX: 0, offsetY: 0,
            color: black, opacity: 1)
        ctx.beginTransparencyLayer(alpha: 0.5)
        XCTAssertTrue(ctx.discardsDrawing, "a group inside a discarded layer is discarded with it")
        ctx.fill(Rect(x: 20, y: 20, width: 30, height: 30), color: black)
        ctx.endTransparencyLayer()
        let mask = ctx.renderAlphaMask {
            XCTAssertFalse(ctx.discardsDrawing)
            ctx.fill(Rect(x: 10, y: 10, width: 10, height: 10), color: black)
        }
        XCTAssertEqual(mask.deviceRow(15)[15], 255, "the mask captured inside is kept")
        XCTAssertTrue(ctx.dirty.isEmpty, "nothing was drawn in the level")
        let level = ctx.target
        for y in 0..<50 { for x in 0..<50 where level.row(y)[x] != 0 { return XCTFail("level (\(x), \(y))") } }
        ctx.endTransparencyLayer()
        XCTAssertFalse(ctx.discardsDrawing)
        for y in 0..<50 { for x in 0..<50 where bitmap[x, y] != 0xFF00_FF00 { return XCTFail("(\(x), \(y))") } }
        ctx.beginTransparencyLayer(alpha: 1)
        ctx.fill(Rect(x: 0, y: 0, width: 50, height: 50), color: Color(red: 0, green: 0, blue: 1, alpha: 0.5))
        ctx.endTransparencyLayer()
        assertPixel(bitmap[10, 10], a: 255, r: 0, g: 128, b: 128)
        assertPixel(bitmap[40, 40], a: 255, r: 0, g: 128, b: 128)
    }

    /// An image drawn in a discarded layer paints nothing but makes what drawing it leaves: the
    /// rows of its resampled copy that the draw reads, no others (those under the clip, and
    /// under a mask only those it shows).
    func testAnImageDrawnUnseenFiltersTheRowsOfItsCopyThatItReads() throws {
        let image = try randomImage(seed: 3, width: 48, height: 40)
        let place = Rect(x: 3.25, y: 5.5, width: 81.6, height: 68)  // device rows 5..<74
        func unseenRows(maskRows: Range<Int>?) -> Int {
            let bitmap = Bitmap(width: 90, height: 80)
            bitmap.fill(0xFF00_FF00)
            let context = GraphicsContext(bitmap: bitmap)
            context.draw(image, in: place)  // the mapping is seen: the next frame copies it
            context.endFrame()
            bitmap.fill(0xFF00_FF00)
            context.forgetPlainPixels()
            context.saveGState()
            context.clip(to: Rect(x: 0, y: 0, width: 90, height: 30))
            if let maskRows {
                let mask = AlphaMask(bounds: IntRect(x: 0, y: 0, width: 90, height: 80))
                for y in maskRows { mask.row(y)[40] = 1 }
                context.clip(toMask: mask)
            }
            context.beginDiscardedLayer()
            context.draw(image, in: place)
            context.endTransparencyLayer()
            context.restoreGState()
            XCTAssertGreaterThan(context.resampledImagePixels, 0, "a copy is made")
            for y in 0..<80 { for x in 0..<90 where bitmap[x, y] != 0xFF00_FF00 { XCTFail("(\(x), \(y))"); return -1 } }
            return context.resampledImageRowsFiltered
        }
        XCTAssertEqual(unseenRows(maskRows: nil), 25, "device rows 5..<30")
        XCTAssertEqual(unseenRows(maskRows: 12..<20), 8)
        XCTAssertEqual(unseenRows(maskRows: 50..<60), 0, "the mask shows nothing within the clip")
    }

    func testClearSetsPixelsInsideTheClipOnly() {
        let bitmap = Bitmap(width: 20, height: 20)
        bitmap.fill(0xFF00_FF00)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.saveGState()
        ctx.clip(to: Rect(x: 5, y: 5, width: 10, height: 10))
        ctx.setAlpha(0.2)
        ctx.clear(Color(red: 0, green: 0, blue: 1, alpha: 0.5))
        ctx.restoreGState()
        assertPixel(bitmap[7, 7], a: 128, r: 0, g: 0, b: 128)
        XCTAssertEqual(bitmap[2, 7], 0xFF00_FF00)
        XCTAssertEqual(ctx.clipBoundingBox, IntRect(x: 0, y: 0, width: 20, height: 20))
    }

    func testRoundedRectClip() {
        let bitmap = Bitmap(width: 130, height: 130)
        let ctx = GraphicsContext(bitmap: bitmap)
        let r = 20.0
        ctx.clip(toRoundedRect: Rect(x: 10, y: 10, width: 100, height: 80), cornerRadius: r)
        ctx.fill(Rect(x: 0, y: 0, width: 130, height: 130), color: .black)
        XCTAssertEqual(bitmap[10, 10] >> 24, 0)  // corner cut away
        XCTAssertEqual(bitmap[14, 14] >> 24, 0)  // (14.5,14.5) is 21.9 from the arc centre
        XCTAssertEqual(bitmap[60, 50] >> 24, 255)
        XCTAssertEqual(bitmap[10, 50] >> 24, 255)  // straight edge on a pixel boundary
        XCTAssertEqual(bitmap[9, 50] >> 24, 0)
        let partial = bitmap[15, 15] >> 24  // on the arc: anti-aliased
        XCTAssert(partial > 0 && partial < 255, "arc pixel \(partial)")
        var sum = 0.0
        for y in 0..<130 { for x in 0..<130 { sum += Double(bitmap[x, y] >> 24) / 255 } }
        // The arcs are flattened to chords within 0.1 px, which lose at most
        // 2/3 · 0.1 · (arc length) each: 4 · 2/3 · 0.1 · 31.4 ≈ 8.4 pixels in all.
        let exact = 100 * 80 - (4 - Double.pi) * r * r
        XCTAssertLessThanOrEqual(sum, exact + 0.5)
        XCTAssertGreaterThanOrEqual(sum, exact - 8.4)
    }

    func testFractionalRectClipIsAntiAliased() {
        let bitmap = Bitmap(width: 40, height: 20)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.clip(to: Rect(x: 10.5, y: 0, width: 10, height: 20))
        ctx.fill(Rect(x: 0, y: 0, width: 40, height: 20), color: .black)
        XCTAssertEqual(bitmap[10, 5] >> 24, 128)
        XCTAssertEqual(bitmap[15, 5] >> 24, 255)
        XCTAssertEqual(bitmap[20, 5] >> 24, 128)
        XCTAssertEqual(bitmap[21, 5] >> 24, 0)
    }

    func testPathClipIntersectsAndRestores() {
        let bitmap = Bitmap(width: 100, height: 100)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.saveGState()
        var circle = Path()
        circle.addEllipse(in: Rect(x: 0, y: 0, width: 100, height: 100))
        ctx.clip(to: circle, rule: .nonZero)
        ctx.clip(to: Rect(x: 50, y: 0, width: 50, height: 100))
        ctx.fill(Rect(x: 0, y: 0, width: 100, height: 100), color: .black)
        ctx.restoreGState()
        var sum = 0.0
        for y in 0..<100 { for x in 0..<100 { sum += Double(bitmap[x, y] >> 24) / 255 } }
        XCTAssertEqual(sum, Double.pi * 2500 / 2, accuracy: Double.pi * 2500 * 0.002)
        XCTAssertEqual(bitmap[25, 50] >> 24, 0)
        // Restored: no clip any more.
        ctx.fill(Rect(x: 0, y: 0, width: 2, height: 2), color: .black)
        XCTAssertEqual(bitmap[0, 0] >> 24, 255)
    }

    func testAlphaMaskScalesCoverage() {
        let bitmap = Bitmap(width: 16, height: 4)
        let ctx = GraphicsContext(bitmap: bitmap)
        let mask = AlphaMask(bounds: IntRect(x: 4, y: 1, width: 8, height: 2))
        for x in 4..<12 { for y in 1..<3 { mask[x, y] = UInt8((x - 4) * 32) } }
        ctx.clip(toMask: mask)
        ctx.fill(Rect(x: 0, y: 0, width: 16, height: 4), color: Color(red: 1, green: 1, blue: 1))
        for x in 0..<16 {
            for y in 0..<4 {
                let expected = (4..<12).contains(x) && (1..<3).contains(y) ? (x - 4) * 32 : 0
                XCTAssertEqual(Int(bitmap[x, y] >> 24), expected, "(\(x), \(y))")
                XCTAssertEqual(Int((bitmap[x, y] >> 16) & 0xFF), expected)
            }
        }
    }

    func testAnImageThroughAMaskShowsWhereTheMaskDoesByItsValue() {
        // Runs of every length up to 19, shown and hidden, at every alignment, with values on
        // both sides of 0x80: the mask is scanned eight bytes at a time where it can be.
        let width = 160, height = 4
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let mask = AlphaMask(bounds: IntRect(x: 0, y: 0, width: width, height: height))
        for y in 0..<height {
            var x = 0, shown = y % 2 == 1
            while x < width {
                let run = next(20)
                for i in x..<min(width, x + run) { mask[i, y] = shown ? UInt8(1 + next(255)) : 0 }
                x += run
                shown.toggle()
            }
        }
        var pixels: [UInt32] = []
        for i in 0..<(width * height) {
            pixels.append(0xFF00_0000 | UInt32(i % 251) << 16 | UInt32((i * 7) % 253) << 8 | UInt32((i * 13) % 255))
        }
        let image = Image(width: width, height: height, premultipliedPixels: pixels)!
        let bitmap = Bitmap(width: width, height: height)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.clip(toMask: mask)
        ctx.draw(image, in: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        for y in 0..<height {
            for x in 0..<width {
                let m = Int(mask[x, y]), source = pixels[y * width + x]
                func scaled(_ shift: UInt32) -> UInt32 {
                    UInt32((Double(Int(source >> shift) & 0xFF * m) / 255).rounded()) << shift
                }
                let expected = scaled(24) | scaled(16) | scaled(8) | scaled(0)
                XCTAssertEqual(bitmap[x, y], expected, "(\(x), \(y)) mask \(m)")
            }
        }
    }

    func testMaskCaptureThenClip() {
        let bitmap = Bitmap(width: 60, height: 60)
        bitmap.fill(0xFFFF_FFFF)
        let ctx = GraphicsContext(bitmap: bitmap)
        let mask = ctx.renderAlphaMask {
            ctx.fill(
                Rect(x: 10, y: 10, width: 20, height: 20), color: Color(red: 0.3, green: 0.1, blue: 0.9, alpha: 0.5))
        }
        // Capturing drew nothing visible, and yields the drawn alpha over the drawn region.
        XCTAssertEqual(bitmap[15, 15], 0xFFFF_FFFF)
        XCTAssertEqual(mask.bounds, IntRect(x: 10, y: 10, width: 20, height: 20))
        XCTAssertEqual(mask[15, 15], 128)
        XCTAssertEqual(mask[5, 5], 0)
        ctx.saveGState()
        ctx.clip(toMask: mask)
        ctx.fill(Rect(x: 0, y: 0, width: 60, height: 60), color: .black)
        ctx.restoreGState()
        assertPixel(bitmap[15, 15], a: 255, r: 127, g: 127, b: 127)
        XCTAssertEqual(bitmap[40, 40], 0xFFFF_FFFF)
        // The pool hands the mask out again only once nobody holds it.
        let second = ctx.renderAlphaMask { ctx.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black) }
        XCTAssertFalse(second === mask)
        XCTAssertEqual(mask[15, 15], 128)
    }

    func testImageBilinearScaling() {
        let a: UInt32 = 0xFFFF_0000, b: UInt32 = 0xFF00_FF00, c: UInt32 = 0xFF00_00FF, d: UInt32 = 0xFFFF_FFFF
        let image = Image(width: 2, height: 2, premultipliedPixels: [a, b, c, d])!
        let bitmap = Bitmap(width: 8, height: 8)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.draw(image, in: Rect(x: 0, y: 0, width: 8, height: 8))
        // Device pixel centre (x + 0.5) maps to image u = (x + 0.5)/4; texel centres at 0.5, 1.5.
        func expected(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let u = min(max((Double(x) + 0.5) / 4 - 0.5, 0), 1), v = min(max((Double(y) + 0.5) / 4 - 0.5, 0), 1)
            func ch(_ s: UInt32) -> Double {
                let top = Double((a >> s) & 0xFF) * (1 - u) + Double((b >> s) & 0xFF) * u
                let bottom = Double((c >> s) & 0xFF) * (1 - u) + Double((d >> s) & 0xFF) * u
                return top * (1 - v) + bottom * v
            }
            return (Int(ch(16).rounded()), Int(ch(8).rounded()), Int(ch(0).rounded()))
        }
        for (x, y) in [(0, 0), (3, 3), (4, 4), (2, 5), (7, 7), (5, 1)] {
            let e = expected(x, y)
            assertPixel(bitmap[x, y], a: 255, r: e.0, g: e.1, b: e.2, tolerance: 2)
        }
        // Scaled to 9×9, the centre pixel samples the image's centre: the mean of all four.
        let odd = Bitmap(width: 9, height: 9)
        GraphicsContext(bitmap: odd).draw(image, in: Rect(x: 0, y: 0, width: 9, height: 9))
        assertPixel(odd[4, 4], a: 255, r: 128, g: 128, b: 128)  // (255 + 0 + 0 + 255) / 4 = 127.5
    }

    func testImageAtWholePixelOffsetIsCopiedExactly() {
        var pixels: [UInt32] = []
        for i in 0..<12 { pixels.append(UInt32(i * 20) << 24 | UInt32(i * 10) << 16 | UInt32(i * 5)) }
        let image = Image(width: 4, height: 3, premultipliedPixels: pixels)!
        let bitmap = Bitmap(width: 10, height: 10)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.translateBy(x: 3, y: 2)
        ctx.draw(image, in: Rect(x: 1, y: 1, width: 4, height: 3))
        for y in 0..<3 { for x in 0..<4 { XCTAssertEqual(bitmap[x + 4, y + 3], pixels[y * 4 + x]) } }
        XCTAssertEqual(bitmap[3, 3], 0)
        // Global alpha scales image pixels.
        let faded = Bitmap(width: 10, height: 10)
        let c2 = GraphicsContext(bitmap: faded)
        c2.setAlpha(0.5)
        c2.draw(image, in: Rect(x: 0, y: 0, width: 4, height: 3))
        XCTAssertEqual(faded[3, 2] >> 24, PixelMath.mul255(pixels[11] >> 24, 128))
    }

    func testDegenerateAndNaNInputsDoNotCrash() {
        let bitmap = Bitmap(width: 10, height: 10)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.fill(Rect(x: 1, y: 1, width: 5, height: 5), color: Color(red: .nan, green: 2, blue: -1, alpha: .nan))
        ctx.setAlpha(.nan)
        ctx.fill(Rect(x: 1, y: 1, width: 5, height: 5), color: .black)
        ctx.setAlpha(1)
        ctx.scaleBy(x: 0, y: 0)
        ctx.draw(
            Image(width: 1, height: 1, premultipliedPixels: [0xFFFF_FFFF])!, in: Rect(x: 0, y: 0, width: 5, height: 5))
        ctx.clip(toRoundedRect: Rect(x: .nan, y: 0, width: 5, height: 5), cornerRadius: .nan)
        ctx.restoreGState()
        ctx.endTransparencyLayer()
        XCTAssertEqual(ctx.endMaskCapture().bounds.area, 0)
        XCTAssertEqual(bitmap[3, 3], 0)
    }
}

final class StrokeReuseTests: XCTestCase {
    /// A trimmed, dashed stroke drawn again is the same pixels (the kept result is the right one),
    /// and a changed trim is not served from the old result.
    func testRepeatedTrimmedDashedStrokeReusesItsPathAndStaysCorrect() {
        var circle = Path()
        circle.addEllipse(in: Rect(x: 20, y: 20, width: 160, height: 160))
        let style = StrokeStyle(lineWidth: 8, lineCap: .round, dashPattern: [20, 10], dashPhase: 3)
        func draw(_ end: Double, into context: GraphicsContext) -> [UInt32] {
            context.clear(.white)
            context.stroke(circle, color: .black, style: style, strokeStart: 0.1, strokeEnd: end)
            return Array(UnsafeBufferPointer(start: context.bitmap.pixels, count: 200 * 200))
        }
        let context = GraphicsContext(bitmap: Bitmap(width: 200, height: 200))
        let first = draw(0.6, into: context)
        XCTAssertEqual(draw(0.6, into: context), first)
        let longer = draw(0.9, into: context)
        XCTAssertNotEqual(longer, first)
        // A fresh context agrees with the reused one.
        XCTAssertEqual(draw(0.9, into: GraphicsContext(bitmap: Bitmap(width: 200, height: 200))), longer)
    }

    /// The stroker's own trim draws what `Path.trimmed` then a stroke draws: corners keep their
    /// joins, a closed subpath inside the range runs open from its start around to it, subpaths
    /// of no length draw nothing, and pieces of several subpaths come out in order. The two
    /// measure length differently (the flattened line, the curve), so the cuts may sit a
    /// little apart: pixels differ freely only within the stroke's reach of a cut; elsewhere a
    /// cut curve flattens into other chords, each within the tolerance (0.05 px on the centre
    /// line, an edge's coverage within 16 levels), and a missing join, piece or subpath would
    /// be off by far more. Odd paths draw nothing.
    func testTheStrokersTrimDrawsWhatATrimmedPathDraws() {
        var shapes: [Path] = []
        var corners = Path()
        corners.move(to: Point(20, 30)); corners.addLine(to: Point(180, 40)); corners.addLine(to: Point(60, 170))
        corners.addLine(to: Point(170, 160))
        shapes.append(corners)
        var closed = Path()
        closed.addRoundedRect(Rect(x: 30, y: 30, width: 140, height: 120), cornerRadius: 30)
        shapes.append(closed)
        var several = Path()
        several.addEllipse(in: Rect(x: 20, y: 20, width: 70, height: 70))
        several.move(to: Point(120, 120)); several.addLine(to: Point(120, 120))  // no length
        several.move(to: Point(110, 30))
        several.addCurve(to: Point(180, 180), control1: Point(200, 40), control2: Point(90, 150))
        shapes.append(several)
        let style = StrokeStyle(lineWidth: 9, lineCap: .round, lineJoin: .miter)
        for (index, path) in shapes.enumerated() {
            let measure = PathMeasure.measure(of: path)
            for (start, end) in [(0.1, 0.6), (0.0, 0.35), (0.45, 1.0), (0.2, 0.95)] {
                let ours = Bitmap(width: 200, height: 200), theirs = Bitmap(width: 200, height: 200)
                GraphicsContext(bitmap: ours).stroke(
                    path, color: .black, style: style, strokeStart: start, strokeEnd: end)
                GraphicsContext(bitmap: theirs).stroke(path.trimmed(from: start, to: end), color: .black, style: style)
                let cuts = [start, end].compactMap { measure.point(atLength: $0 * measure.length) }
                for y in 0..<200 {
                    for x in 0..<200 where ours[x, y] != theirs[x, y] {
                        let pixel = Point(Double(x) + 0.5, Double(y) + 0.5)
                        let nearCut = cuts.contains { ($0 - pixel).length < style.lineWidth / 2 + 2 }
                        let a = Int(ours[x, y] >> 24), b = Int(theirs[x, y] >> 24)
                        if !nearCut && abs(a - b) > 16 {
                            return XCTFail("shape \(index), \(start)…\(end): (\(x), \(y)) \(a) against \(b)")
                        }
                    }
                }
                XCTAssertGreaterThan(ours[Int(cuts[0].x), Int(cuts[0].y)] >> 24, 0, "shape \(index) drawn at its cut")
            }
        }
        // Odd paths: nothing drawn, nothing crashes.
        var odd = Path()
        odd.move(to: Point(5, 5))
        var huge = Path()
        huge.move(to: Point(0, 0)); huge.addLine(to: Point(1e300, 1e300)); huge.addLine(to: Point(-1e300, 5))
        for path in [Path(), odd, huge] {
            let bitmap = Bitmap(width: 20, height: 20)
            GraphicsContext(bitmap: bitmap).stroke(path, color: .black, style: style, strokeStart: 0.2, strokeEnd: 0.7)
            XCTAssertEqual((0..<20).flatMap { y in (0..<20).map { bitmap[$0, y] } }.filter { $0 != 0 }.count, 0)
        }
    }

    /// A trim that moves changes the stroke only around the cut: the rest of the outline is the
    /// whole path's, so its pixels are the same from frame to frame (damage tracking repaints
    /// only around the cut, and the frame must equal a whole repaint). An arc of cubics,
    /// closed circle and open arc, gradient and colour, trimmed from either end.
    func testAMovingTrimChangesOnlyThePixelsAroundTheCut() {
        let centre = Point(100, 100), radius = 70.0
        var circle = Path()
        circle.addEllipse(in: Rect(x: 30, y: 30, width: 140, height: 140))
        var arc = Path()
        arc.addArc(center: centre, radius: radius, startAngle: 0.3, endAngle: 5.5, clockwise: false)
        let style = StrokeStyle(lineWidth: 12, lineCap: .round)
        let gradient = Gradient(
            kind: .axial, colors: [Color(red: 1, green: 0.2, blue: 0.1, alpha: 1), .black], locations: [0, 1],
            start: Point(30, 30), end: Point(170, 170))
        for path in [circle, arc] {
            for useGradient in [false, true] {
                func draw(start: Double, end: Double) -> Bitmap {
                    let bitmap = Bitmap(width: 200, height: 200)
                    let context = GraphicsContext(bitmap: bitmap)
                    context.clear(.white)
                    if useGradient {
                        context.stroke(path, gradient: gradient, style: style, strokeStart: start, strokeEnd: end)
                    } else {
                        context.stroke(path, color: .black, style: style, strokeStart: start, strokeEnd: end)
                    }
                    return bitmap
                }
                // The cuts between the two frames lie on the path between fractions `from` and
                // `to`: every differing pixel is within the stroke's reach of that part.
                func check(_ a: Bitmap, _ b: Bitmap, cutBetween from: Double, and to: Double) {
                    let measure = PathMeasure.measure(of: path)
                    let places = stride(from: from, through: to, by: 0.002).compactMap {
                        measure.point(atLength: $0 * measure.length)
                    }
                    var differing = 0
                    for y in 0..<200 {
                        for x in 0..<200 where a[x, y] != b[x, y] {
                            differing += 1
                            let pixel = Point(Double(x) + 0.5, Double(y) + 0.5)
                            let near = places.contains { ($0 - pixel).length < style.lineWidth / 2 + 2 }
                            if !near {
                                return XCTFail("\(path.elements.count) elements: (\(x), \(y)) changed far from the cut")
                            }
                        }
                    }
                    XCTAssertGreaterThan(differing, 0, "the trim moved")
                }
                check(draw(start: 0, end: 0.5), draw(start: 0, end: 0.53), cutBetween: 0.5, and: 0.53)
                check(draw(start: 0.2, end: 1), draw(start: 0.23, end: 1), cutBetween: 0.2, and: 0.23)
            }
        }
    }
}

final class ResampledImageTests: XCTestCase {
    /// An image drawn again at the same scale and phase (in the next frame) comes from a
    /// resampled copy: the pixels must be those of filtering the image directly, exactly,
    /// through a mask too (whose spans start where the copy's rows do not).
    func testRepeatedScaledDrawMatchesDirectFiltering() throws {
        var texels: [UInt32] = []
        for y in 0..<64 {
            for x in 0..<64 {
                texels.append(0xFF00_0000 | UInt32(x * 4) << 16 | UInt32(y * 4) << 8 | UInt32((x ^ y) & 0xFF))
            }
        }
        let image = try XCTUnwrap(Image(width: 64, height: 64, premultipliedPixels: texels))
        let rect = Rect(x: 10.3, y: 7.6, width: 34.5, height: 40.2)
        func draw(times: Int) -> Bitmap {
            let bitmap = Bitmap(width: 60, height: 60)
            let context = GraphicsContext(bitmap: bitmap)
            for _ in 0..<times {
                context.clear(.white)
                context.saveGState()
                var ring = Path()
                ring.addEllipse(in: Rect(x: 12, y: 10, width: 30, height: 30))
                context.clip(to: ring, rule: .nonZero)
                context.draw(image, in: rect)
                context.restoreGState()
                context.endFrame()
            }
            XCTAssertEqual(context.resampledImagePixels > 0, times > 1, "a copy from the second frame")
            return bitmap
        }
        let direct = draw(times: 1), cached = draw(times: 3)
        var worst = 0
        for y in 0..<60 {
            for x in 0..<60 {
                for shift: UInt32 in [0, 8, 16, 24] {
                    worst = max(worst, abs(Int((direct[x, y] >> shift) & 0xFF) - Int((cached[x, y] >> shift) & 0xFF)))
                }
            }
        }
        XCTAssertEqual(worst, 0)
        // The image really is there: not background.
        XCTAssertNotEqual(cached[27, 25], Color.white.premultipliedPixel)
    }

    /// A sample does not depend on the span it is read in (positions step from the sampler's
    /// anchor): a row read whole equals the row read in pieces starting anywhere, scaled,
    /// rotated and sheared, inside and across the image's edges. (A clip that cuts a span short,
    /// a damage rectangle, must not change the pixels it leaves.)
    func testASampleIsTheSameWhateverSpanReadsIt() throws {
        let image = try randomImage(seed: 3, width: 37, height: 29)
        let maps = [
            Transform2D(scaleX: 0.43, y: 0.51).concatenating(Transform2D(translationX: -3.3, y: 1.7)),
            Transform2D(rotationAngle: 0.3).concatenating(Transform2D(scaleX: 0.6, y: 0.45)),
            Transform2D(a: 0.7, b: 0.1, c: -0.2, d: 0.55, tx: 2.25, ty: -1.5)
        ]
        for (index, inverse) in maps.enumerated() {
            let sampler = ImageSampler(image: image, inverse: inverse, anchor: (7, -4))
            let width = 90
            for y in stride(from: -5, to: 70, by: 7) {
                var whole = [UInt32](repeating: 0, count: width), pieces = whole
                sampler.sample(x: -10, y: y, count: width, into: &whole)
                var x = 0
                while x < width {
                    let n = min(width - x, 1 + (x * 7 + y + 50) % 23)
                    pieces.withUnsafeMutableBufferPointer {
                        sampler.sample(x: x - 10, y: y, count: n, into: $0.baseAddress! + x)
                    }
                    x += n
                }
                XCTAssertEqual(pieces, whole, "map \(index), row \(y)")
            }
        }
    }

    /// An image drawn larger than it is reads each of its rows in several device rows: the
    /// rows filtered across are kept (`FilteredRows`) and give the pixels of filtering every
    /// device row whole, read top to bottom, bottom to top, out of order, in spans that change,
    /// flipped, and across the image's edges (where the whole filter takes over) — and fewer
    /// image rows are filtered across than device rows read.
    func testRowsFilteredAcrossGiveThePixelsOfTheWholeFilter() throws {
        let (width, height) = (37, 29)
        let image = try randomImage(seed: 11, width: width, height: height)
        let maps = [
            Transform2D(scaleX: 0.2, y: 0.2).concatenating(Transform2D(translationX: 0.37, y: -0.61)),
            Transform2D(scaleX: 0.43, y: 0.51).concatenating(Transform2D(translationX: -3.3, y: 1.7)),
            Transform2D(scaleX: 1.7, y: 0.31).concatenating(Transform2D(translationX: 2.1, y: 0.25)),
            Transform2D(scaleX: -0.45, y: -0.3).concatenating(Transform2D(translationX: 36.2, y: 28.4))
        ]
        let rowCount = 110
        let orders = [
            Array(0..<rowCount), Array((0..<rowCount).reversed()), (0..<rowCount).map { ($0 * 37) % rowCount }
        ]
        for (index, inverse) in maps.enumerated() {
            let whole = ImageSampler(image: image, inverse: inverse, anchor: (3, -2))
            var kept = whole
            let filteredRows = FilteredRows()
            kept.filteredRows = filteredRows
            for (o, order) in orders.enumerated() {
                filteredRows.reset()
                let before = filteredRows.rowsFilteredAcross
                for y in order {
                    // Spans that change every 25 and 40 rows, reaching past the image's sides.
                    let x = -12 + (y / 25) % 3 * 5, count = 100 - (y / 40) % 2 * 40
                    var expected = [UInt32](repeating: 0, count: count), actual = expected
                    whole.sample(x: x, y: y - 5, count: count, into: &expected)
                    kept.sample(x: x, y: y - 5, count: count, into: &actual)
                    if actual != expected { return XCTFail("map \(index), order \(o), row \(y - 5) differs") }
                }
                if o == 0 {
                    let filtered = filteredRows.rowsFilteredAcross - before
                    XCTAssertGreaterThan(filtered, 0, "map \(index): rows kept at all")
                    XCTAssertLessThan(filtered, rowCount, "map \(index): image rows reused")
                }
            }
        }
        // A resampled copy's rows filtered through the drawing thread's kept rows.
        let direct = ImageSampler(image: image, inverse: maps[0])
        let (copyWidth, copyHeight) = (180, 140)
        let copy = Image(width: copyWidth, height: copyHeight, unwrittenOpaque: image.isOpaque)
        let rows = ResampledRows(of: copy, from: direct)
        let filteredRows = FilteredRows()
        let reader = ImageSampler(image: copy, inverse: Transform2D(translationX: 0, y: 0), filling: rows)
        for y in 0..<copyHeight {
            rows.fill(y, through: filteredRows)
            var expected = [UInt32](repeating: 0, count: copyWidth)
            direct.sample(x: 0, y: y, count: copyWidth, into: &expected)
            let filled = Array(
                UnsafeBufferPointer(start: reader.pixelsInPlace(x: 0, y: y, count: copyWidth), count: copyWidth))
            if filled != expected { return XCTFail("copy row \(y) differs") }
        }
        XCTAssertLessThan(filteredRows.rowsFilteredAcross, copyHeight, "the copy's rows reuse image rows")
    }

    /// `ImageSampler.inside` is the run of positions a pixel-by-pixel test finds inside,
    /// stepping either way, from inside, outside or across the image.
    func testTheInsideOfASpanIsWhatEachPositionSays() {
        var state: UInt64 = 0x1234_5678
        func next(_ range: ClosedRange<Int64>) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int64(state >> 33) % (range.upperBound - range.lowerBound + 1)
        }
        for _ in 0..<2000 {
            let maxX = Int(next(1...40)), count = Int(next(0...60))
            let u = next(-20 << 16...60 << 16), du = next(-3 << 16...3 << 16)
            let expected = (0..<count).filter { i in
                let position = u + Int64(i) * du
                return position >= 0 && position >> 16 < maxX
            }
            let inside = ImageSampler.inside(u: u, du: du, count: count, maxX: maxX)
            XCTAssertEqual(Array(inside), expected, "u \(u), du \(du), count \(count), maxX \(maxX)")
        }
    }

    /// The same image at the same scale and phase in two places of a frame (two photos side by
    /// side on a 4K screen): each place reads the one copy where it is drawn, frame after frame.
    /// (The copy's position was once the first draw's, so the second frame on drew the photo on
    /// the left where the one on the right was.)
    func testACopyServesTheImageWhereverItIsDrawn() throws {
        var texels: [UInt32] = []
        for y in 0..<20 { for x in 0..<20 { texels.append(0xFF00_0000 | UInt32(x * 12) << 16 | UInt32(y * 12)) } }
        let image = try XCTUnwrap(Image(width: 20, height: 20, premultipliedPixels: texels))
        let bitmap = Bitmap(width: 200, height: 100)
        let context = GraphicsContext(bitmap: bitmap)
        context.scaleBy(x: 2, y: 2)
        var frames: [[UInt32]] = []
        for _ in 0..<3 {
            context.clear(.clear)
            context.draw(image, in: Rect(x: 5, y: 5, width: 20, height: 20))
            context.draw(image, in: Rect(x: 55, y: 5, width: 20, height: 20))
            frames.append((0..<100).flatMap { y in (0..<200).map { bitmap[$0, y] } })
            context.endFrame()
        }
        XCTAssertGreaterThan(context.resampledImagePixels, 0, "drawn from a copy")
        XCTAssertEqual(frames[1], frames[0], "the second frame, from the copy")
        XCTAssertEqual(frames[2], frames[0])
        XCTAssertNotEqual(bitmap[120, 20], 0, "the right-hand image is drawn")
    }

    /// An image drawn at the same scale and phase in two places of one frame (a scene fading
    /// in shows one photo twice) is copied at its second place, in that first frame: its
    /// pixels those direct draws make, the same image drawn twice at one place (a draw split
    /// into bands) is not copied, and a copy the next frame does not draw is let go then.
    func testAnImageDrawnInTwoPlacesIsCopiedInItsFirstFrame() throws {
        let image = try randomImage(seed: 5, width: 20, height: 20)
        let places = [Rect(x: 3, y: 5, width: 20, height: 20), Rect(x: 51, y: 5, width: 20, height: 20)]
        func pixels(_ context: GraphicsContext) -> [UInt32] {
            (0..<100).flatMap { y in (0..<100).map { context.bitmap[$0, y] } }
        }
        let both = Self.contextDrawingTwiceTheSize()
        for place in places { both.draw(image, in: place) }
        XCTAssertEqual(both.resampledImagePixels, 40 * 40, "copied at the second place")
        // Each place drawn alone, in a context of its own, straight from the image.
        var direct = [UInt32](repeating: 0, count: 100 * 100)
        for place in places {
            let alone = Self.contextDrawingTwiceTheSize()
            alone.draw(image, in: place)
            XCTAssertEqual(alone.resampledImagePixels, 0)
            for (i, pixel) in pixels(alone).enumerated() where pixel != 0 { direct[i] = pixel }
        }
        XCTAssertEqual(pixels(both), direct)
        both.endFrame()
        XCTAssertEqual(both.resampledImagePixels, 40 * 40)
        both.endFrame()
        XCTAssertEqual(both.resampledImagePixels, 0, "not drawn in the next frame: let go")

        let bands = Self.contextDrawingTwiceTheSize()
        for top in [0, 20] {
            bands.saveGState()
            bands.clip(toDeviceRect: IntRect(x: 0, y: top, width: 100, height: 20))
            bands.draw(image, in: places[0])
            bands.restoreGState()
        }
        XCTAssertEqual(bands.resampledImagePixels, 0, "one place, drawn in two bands")
    }

    /// A copy made while a clip shows only the top of the image (the rows drawn so far
    /// filtered, the others not yet) draws the rest right once it appears: the last frame is
    /// the one a context drawing the image whole all along made.
    func testACopyMadeWhilePartlyShownDrawsTheRestWhenItAppears() throws {
        let image = try randomImage(seed: 11, width: 48, height: 40)
        func lastFrame(showingTheTopFirst: Bool) -> [UInt32] {
            let bitmap = Bitmap(width: 90, height: 80)
            let context = GraphicsContext(bitmap: bitmap)
            for frame in 0..<4 {
                context.clear(.white)
                context.saveGState()
                if showingTheTopFirst && frame < 3 { context.clip(to: Rect(x: 0, y: 0, width: 90, height: 17)) }
                context.draw(image, in: Rect(x: 3.25, y: 5.5, width: 81.6, height: 68))
                context.restoreGState()
                XCTAssertEqual(context.resampledImagePixels > 0, frame > 0, "a copy from the second frame")
                context.endFrame()
            }
            return (0..<80).flatMap { y in (0..<90).map { bitmap[$0, y] } }
        }
        let whole = lastFrame(showingTheTopFirst: false)
        XCTAssertEqual(lastFrame(showingTheTopFirst: true), whole)
        XCTAssertNotEqual(whole[60 * 90 + 40], Color.white.premultipliedPixel, "the image is drawn low down")
    }

    /// A copy's rows are filtered when first read, by whichever thread reads them: four
    /// threads reading every row at once, in opposite orders, through the copying read and
    /// the in-place one, each get the direct filter's rows, and the copy holds them after.
    /// Until every row has been read the copy is not complete.
    func testACopysRowsAreFilteredWhenFirstReadByAnyThread() throws {
        let (width, height) = (23, 19)
        let image = try randomImage(seed: 5, width: width, height: height)
        let direct = ImageSampler(
            image: image,
            inverse: Transform2D(scaleX: 0.37, y: 0.41).concatenating(Transform2D(translationX: 0.2, y: 0.3)))
        let (copyWidth, copyHeight) = (61, 47)
        let expected = (0..<copyHeight).map { y in
            [UInt32](unsafeUninitializedCapacity: copyWidth) { row, count in
                direct.sample(x: 0, y: y, count: copyWidth, into: row.baseAddress!)
                count = copyWidth
            }
        }
        let copy = Image(width: copyWidth, height: copyHeight, unwrittenOpaque: image.isOpaque)
        let rows = ResampledRows(of: copy, from: direct)
        let reader = ImageSampler(image: copy, inverse: Transform2D(translationX: 0, y: 0), filling: rows)
        for y in stride(from: 0, to: copyHeight, by: 3) {
            XCTAssertEqual(
                Array(UnsafeBufferPointer(start: reader.pixelsInPlace(x: 0, y: y, count: copyWidth), count: copyWidth)),
                expected[y])
        }
        XCTAssertFalse(rows.areAllFiltered)
        let wrongRows = UnsafeMutablePointer<Int>.allocate(capacity: 4)
        defer { wrongRows.deallocate() }
        wrongRows.initialize(repeating: 0, count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let out = UnsafeMutablePointer<UInt32>.allocate(capacity: copyWidth)
            defer { out.deallocate() }
            for k in 0..<copyHeight {
                let y = thread % 2 == 0 ? k : copyHeight - 1 - k
                var read: UnsafePointer<UInt32>
                if thread < 2 {
                    reader.sample(x: 0, y: y, count: copyWidth, into: out)
                    read = UnsafePointer(out)
                } else {
                    guard let inPlace = reader.pixelsInPlace(x: 0, y: y, count: copyWidth) else { continue }
                    read = inPlace
                }
                if Array(UnsafeBufferPointer(start: read, count: copyWidth)) != expected[y] { wrongRows[thread] += 1 }
            }
        }
        XCTAssertEqual((0..<4).map { wrongRows[$0] }, [0, 0, 0, 0])
        XCTAssertTrue(rows.areAllFiltered)
        for y in 0..<copyHeight {
            XCTAssertEqual(
                Array(UnsafeBufferPointer(start: copy.pixels + y * copyWidth, count: copyWidth)), expected[y])
        }
    }

    /// An opaque image at full alpha is written straight to the target where its coverage is
    /// full: the same pixels as blending it (an image with one transparent texel in a corner
    /// takes the blend, and agrees away from that corner), whatever was below.
    func testAnOpaqueImageReplacesWhatIsBelowAsBlendingWould() throws {
        var texels: [UInt32] = []
        for y in 0..<32 {
            for x in 0..<32 { texels.append(0xFF00_0000 | UInt32(x * 8) << 16 | UInt32(y * 8) << 8 | 0x40) }
        }
        let opaque = try XCTUnwrap(Image(width: 32, height: 32, premultipliedPixels: texels))
        texels[0] = 0
        let holed = try XCTUnwrap(Image(width: 32, height: 32, premultipliedPixels: texels))
        XCTAssertTrue(opaque.isOpaque)
        XCTAssertFalse(holed.isOpaque)
        func draw(_ image: Image, over background: Color) -> Bitmap {
            let bitmap = Bitmap(width: 80, height: 80)
            let context = GraphicsContext(bitmap: bitmap)
            context.clear(background)
            context.scaleBy(x: 1.7, y: 1.3)
            context.draw(image, in: Rect(x: 3.25, y: 4.5, width: 40, height: 50))
            return bitmap
        }
        let onRed = draw(opaque, over: Color(red: 1, green: 0, blue: 0)), onClear = draw(opaque, over: .clear)
        let blended = draw(holed, over: Color(red: 0, green: 0, blue: 1))
        var compared = 0
        for y in 8..<70 {
            for x in 7..<73 {
                XCTAssertEqual(onRed[x, y], onClear[x, y], "(\(x), \(y))")
                if x > 20 || y > 20 {
                    XCTAssertEqual(onRed[x, y], blended[x, y], "(\(x), \(y))")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 3000)
    }

    /// A whole-pixel translation copies texels, the edge ones held beyond the image: runs that
    /// start left of it, end right of it, lie inside, or miss it on either side. Runs inside it
    /// are also read in place.
    func testAWholePixelSamplerCopiesWithEdgesHeld() throws {
        let texels = (0..<(7 * 3)).map { 0xFF00_0000 | UInt32($0) }
        let image = try XCTUnwrap(Image(width: 7, height: 3, premultipliedPixels: texels))
        let out = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        defer { out.deallocate() }
        for dx in [-20, -9, -3, 0, 2, 11] {
            for dy in [-5, 0, 1, 4] {
                let sampler = ImageSampler(image: image, inverse: Transform2D(translationX: Double(dx), y: Double(dy)))
                for (x, count) in [
                    (-30, 5), (-12, 20), (-2, 9), (0, 7), (0, 8), (3, 2), (5, 2), (6, 2), (5, 30), (40, 6), (-4, 40)
                ] {
                    sampler.sample(x: x, y: 1, count: count, into: out)
                    let row = min(max(1 + dy, 0), 2)
                    for i in 0..<count {
                        let column = min(max(x + i + dx, 0), 6)
                        XCTAssertEqual(out[i], texels[row * 7 + column], "dx \(dx) dy \(dy) x \(x) i \(i)")
                    }
                    // In place exactly where the run lies inside the image, and the same pixels.
                    let inside = x + dx >= 0 && x + dx + count <= 7 && (0..<3).contains(1 + dy)
                    let inPlace = sampler.pixelsInPlace(x: x, y: 1, count: count)
                    XCTAssertEqual(inPlace != nil, inside, "dx \(dx) dy \(dy) x \(x) count \(count)")
                    if let inPlace { XCTAssertEqual((0..<count).map { inPlace[$0] }, (0..<count).map { out[$0] }) }
                }
            }
        }
        let filtering = ImageSampler(image: image, inverse: Transform2D(translationX: 0.5, y: 0))
        XCTAssertNil(filtering.pixelsInPlace(x: 0, y: 0, count: 2), "filtered, not in place")
    }

    /// A filtering sampler's rows are the bilinear filter at positions stepped along the row in
    /// 16.16 fixed point from the anchor's column, 0 here (as the one-pixel formula gives
    /// them): four at once where all four are
    /// inside the image, one at a time at its edges and beyond; scaled up and down, turned,
    /// sheared, rows starting outside it and ending outside it.
    func testAFilteringSamplersRowsAreTheFilterAtSteppedPlaces() throws {
        var numbers = PixelNumbers(seed: 77)
        let (width, height) = (37, 23)
        let texels = (0..<(width * height)).map { _ in numbers.premultiplied() }
        let image = try XCTUnwrap(Image(width: width, height: height, premultipliedPixels: texels))
        let maps = [
            Transform2D(scaleX: 0.37, y: 0.41).concatenating(Transform2D(translationX: -3.3, y: 1.7)),
            Transform2D(scaleX: 2.6, y: 1.9).concatenating(Transform2D(translationX: 5.25, y: -2.5)),
            Transform2D(rotationAngle: 0.3).concatenating(Transform2D(translationX: 4, y: -6)),
            Transform2D(a: 0.8, b: 0.25, c: -0.4, d: 1.1, tx: -7.5, ty: 3.25)
        ]
        func fixed(_ v: Double) -> Int { Int((v * 65536).rounded()) }
        /// The filter at 16.16 texel-centre position (u, v), texels beyond the edges held.
        func filtered(_ u: Int, _ v: Int) -> UInt32 {
            let fx = UInt32((u >> 8) & 0xFF), fy = UInt32((v >> 8) & 0xFF)
            let xa = min(max(u >> 16, 0), width - 1), xb = min(max((u >> 16) + 1, 0), width - 1)
            let ya = min(max(v >> 16, 0), height - 1), yb = min(max((v >> 16) + 1, 0), height - 1)
            let top = PixelMath.lerp(texels[ya * width + xa], texels[ya * width + xb], fx)
            let bottom = PixelMath.lerp(texels[yb * width + xa], texels[yb * width + xb], fx)
            return PixelMath.lerp(top, bottom, fy)
        }
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: 200)
        defer { row.deallocate() }
        for inverse in maps {
            let sampler = ImageSampler(image: image, inverse: inverse)
            for y in stride(from: -10, to: 90, by: 3) {
                for (x, count) in [(-20, 200), (3, 4), (7, 9), (40, 31)] {
                    sampler.sample(x: x, y: y, count: count, into: row)
                    let cy = Double(y) + 0.5
                    let du = fixed(inverse.a), dv = fixed(inverse.b)
                    let u0 = fixed(inverse.a * 0.5 + inverse.c * cy + inverse.tx - 0.5) + x * du
                    let v0 = fixed(inverse.b * 0.5 + inverse.d * cy + inverse.ty - 0.5) + x * dv
                    for i in 0..<count {
                        XCTAssertEqual(row[i], filtered(u0 + i * du, v0 + i * dv), "\(inverse) row \(y), x \(x + i)")
                    }
                }
            }
        }
    }

    /// A copy is kept while its image is drawn, and let go once it has not been drawn for
    /// `BufferPool.idleFrames` frames (the photo of a scene that has ended).
    func testACopyNotDrawnForAWhileIsReleased() throws {
        let image = try Self.square(20, 0xFF33_6699)
        let context = Self.contextDrawingTwiceTheSize()
        for _ in 0..<3 {
            context.draw(image, in: Rect(x: 5, y: 5, width: 20, height: 20))
            context.endFrame()
        }
        XCTAssertEqual(context.resampledImagePixels, 40 * 40)
        // Frames without it: kept through 59 of them, released at the end of the 60th.
        for _ in 1..<BufferPool.idleFrames {
            context.endFrame()
            XCTAssertEqual(context.resampledImagePixels, 40 * 40, "still within its idle frames")
        }
        context.endFrame()
        XCTAssertEqual(context.resampledImagePixels, 0)
    }

    /// Before a still frame a copy the frame just ended did not draw is let go at once (no
    /// frames will count its idle frames), and one it drew is kept.
    func testACopyTheLastFrameDidNotDrawIsReleasedBeforeAStillFrame() throws {
        let photo = try Self.square(20, 0xFF33_6699)
        let sprite = try Self.square(10, 0xFF99_3366)
        let context = Self.contextDrawingTwiceTheSize()
        for _ in 0..<3 {
            context.draw(photo, in: Rect(x: 5, y: 5, width: 20, height: 20))
            context.draw(sprite, in: Rect(x: 30, y: 5, width: 10, height: 10))
            context.endFrame()
        }
        XCTAssertEqual(context.resampledImagePixels, 40 * 40 + 20 * 20)
        context.draw(photo, in: Rect(x: 5, y: 5, width: 20, height: 20))
        context.endFrame()
        context.releaseUnused()
        XCTAssertEqual(context.resampledImagePixels, 40 * 40, "the sprite was not drawn in the last frame")
        // The copy drawn from after the release is the one kept: the same pixels as before.
        let before = Array(UnsafeBufferPointer(start: context.bitmap.row(0), count: 100 * 100))
        context.draw(photo, in: Rect(x: 5, y: 5, width: 20, height: 20))
        XCTAssertEqual(Array(UnsafeBufferPointer(start: context.bitmap.row(0), count: 100 * 100)), before)
        context.endFrame()
        context.releaseUnused()
        XCTAssertEqual(context.resampledImagePixels, 40 * 40)
        context.endFrame()
        context.releaseUnused()
        XCTAssertEqual(context.resampledImagePixels, 0)
    }

    /// An opaque square image of `side` pixels, all `pixel`.
    private static func square(_ side: Int, _ pixel: UInt32) throws -> Image {
        try XCTUnwrap(
            Image(width: side, height: side, premultipliedPixels: Array(repeating: pixel, count: side * side)))
    }

    /// A context on a 100x100 bitmap that draws at twice the size: images drawn in it are
    /// scaled, so they are resampled (from a copy once drawn two frames in a row).
    private static func contextDrawingTwiceTheSize() -> GraphicsContext {
        let context = GraphicsContext(bitmap: Bitmap(width: 100, height: 100))
        context.scaleBy(x: 2, y: 2)
        return context
    }
}

/// A `width` × `height` image of random premultiplied pixels, the same for the same `seed`.
private func randomImage(seed: UInt32, width: Int, height: Int) throws -> Image {
    var numbers = PixelNumbers(seed: seed)
    let texels = (0..<(width * height)).map { _ in numbers.premultiplied() }
    return try XCTUnwrap(Image(width: width, height: height, premultipliedPixels: texels))
}

/// Pseudo-random pixels from a seed (a linear congruential generator), so a failing case
/// reproduces.
private struct PixelNumbers {
    var state: UInt32
    init(seed: UInt32) { state = seed }

    mutating func next() -> UInt32 {
        state = state &* 1_664_525 &+ 1_013_904_223
        return state >> 8
    }

    /// A valid premultiplied pixel: each channel at most the alpha.
    mutating func premultiplied() -> UInt32 {
        let a = next() & 0xFF
        return a << 24 | (next() % (a + 1)) << 16 | (next() % (a + 1)) << 8 | next() % (a + 1)
    }
}
