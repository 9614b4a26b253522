import XCTest
@testable import VitrineGraphics

/// Drawing through a projective transform (what a layer turned with perspective draws).
final class ProjectionTests: XCTestCase {
    /// (x / w + 320, y / w + 240) with w = 1 + 0.004·x: the plane passes through the eye at
    /// x = −250.
    private let steep = Projection(
        m00: 2.28, m01: 0, m02: 320, m10: 0.96, m11: 1, m12: 240, m20: 0.004, m21: 0, m22: 1)

    private func covered(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Bool { bitmap[x, y] >> 24 != 0 }

    func testThePartBehindTheEyeIsCutAway() {
        let bitmap = Bitmap(width: 640, height: 480)
        let ctx = GraphicsContext(bitmap: bitmap)
        var path = Path()
        path.addRect(Rect(x: -400, y: -10, width: 500, height: 20))
        ctx.fill(path, color: .black, through: steep)
        // x = 100 lands at 100 / 1.4 + 320 ≈ 391.4; nothing beyond it, and the strip widens
        // towards the left as its far end runs off to infinity.
        for x in 393..<640 { XCTAssertFalse(covered(bitmap, x, 240), "x = \(x)") }
        XCTAssertTrue(covered(bitmap, 300, 240))
        XCTAssertTrue(covered(bitmap, 10, 240))
        XCTAssertFalse(covered(bitmap, 380, 225), "the strip is 20 / 1.4 ≈ 14 px tall here")
        // Wholly behind the eye: nothing.
        let behind = Bitmap(width: 640, height: 480)
        var far = Path()
        far.addRect(Rect(x: -400, y: -10, width: 100, height: 20))
        GraphicsContext(bitmap: behind).fill(far, color: .black, through: steep)
        XCTAssertEqual((0..<480).reduce(0) { n, y in n + (0..<640).filter { covered(behind, $0, y) }.count }, 0)
    }

    func testAnAffineProjectionDrawsWhatTheTransformDraws() {
        let t = Transform2D(a: 0.8, b: 0.3, c: -0.2, d: 1.1, tx: 40.25, ty: 30.5)
        var path = Path()
        path.addEllipse(in: Rect(x: 0, y: 0, width: 120, height: 80))
        let direct = Bitmap(width: 200, height: 200), projected = Bitmap(width: 200, height: 200)
        let a = GraphicsContext(bitmap: direct)
        a.concatenate(t)
        a.fill(path, color: .black)
        a.stroke(path, color: Color(red: 1, green: 0, blue: 0), style: StrokeStyle(lineWidth: 6))
        let b = GraphicsContext(bitmap: projected)
        b.fill(path, color: .black, through: Projection(t))
        b.stroke(
            path, color: Color(red: 1, green: 0, blue: 0), style: StrokeStyle(lineWidth: 6), through: Projection(t))
        var worst = 0
        for y in 0..<200 {
            for x in 0..<200 {
                for shift: UInt32 in [0, 8, 16, 24] {
                    worst = max(
                        worst, abs(Int((direct[x, y] >> shift) & 0xFF) - Int((projected[x, y] >> shift) & 0xFF)))
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 3, "the same geometry, flattened a little differently")
    }

    /// The samplers filter all four channels at once in vector lanes: the same values as
    /// filtering across and then down with `PixelMath.lerp`, for any texels and fractions.
    func testTheFourChannelFilterEqualsTwoLinearSteps() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let p = (0..<4).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
            let fx = UInt32.random(in: 0...255, using: &random), fy = UInt32.random(in: 0...255, using: &random)
            let expected = PixelMath.lerp(PixelMath.lerp(p[0], p[1], fx), PixelMath.lerp(p[2], p[3], fx), fy)
            // The texels read from memory: a 2 × 2 image.
            let vector = p.withUnsafeBufferPointer { PixelMath.bilinear($0.baseAddress!, 2, UInt16(fx), UInt16(fy)) }
            XCTAssertEqual(vector, expected, "\(p) at \(fx), \(fy)")
        }
    }

    /// The sampler's four-wide filter gives each of its four pixels what the one-pixel filter
    /// gives it: random texels, positions and steps (forwards, backwards, across rows).
    func testTheFourWideFilterEqualsTheOnePixelFilter() {
        var random = SystemRandomNumberGenerator()
        let width = 37, height = 23
        var texels = (0..<(width * height)).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
        // Some runs of transparent and of opaque texels, as images have.
        for i in stride(from: 0, to: texels.count, by: 7) { texels[i] = 0 }
        for i in stride(from: 3, to: texels.count, by: 11) { texels[i] |= 0xFF00_0000 }
        texels.withUnsafeBufferPointer { buffer in
            let pixels = buffer.baseAddress!
            for _ in 0..<5_000 {
                // Four steps that stay inside, with the texel to the right and below.
                let u0 = Int.random(in: 0..<((width - 1) << 16), using: &random)
                let v0 = Int.random(in: 0..<((height - 1) << 16), using: &random)
                let u3 = Int.random(in: 0..<((width - 1) << 16), using: &random)
                let v3 = Int.random(in: 0..<((height - 1) << 16), using: &random)
                let du = (u3 - u0) / 3, dv = (v3 - v0) / 3
                let steps = SIMD4<Int32>(0, 1, 2, 3)
                let wide = PixelMath.bilinear4(
                    pixels, width, us: Int32(u0) &+ steps &* Int32(du), vs: Int32(v0) &+ steps &* Int32(dv))
                for k in 0..<4 {
                    let u = u0 + k * du, v = v0 + k * dv
                    let expected = PixelMath.bilinear(
                        pixels + (v >> 16) * width + (u >> 16), width, UInt16((u >> 8) & 0xFF),
                        UInt16((v >> 8) & 0xFF))
                    XCTAssertEqual(wide[k], expected, "lane \(k) at \(u), \(v)")
                }
            }
        }
    }

    /// A run of samples from the AVX2 kernel (eight at a time), and from the AVX-512 kernel
    /// before it (sixteen at a time) where the processor has it, is the one-pixel filter's at
    /// every stepped place, as the portable run is: runs of 8 to 45 samples between random
    /// places inside a small image, stepping either way along both axes.
    func testTheEightWideKernelEqualsTheOnePixelFilter() throws {
        guard PixelKernels.avx2Available else { throw XCTSkip("this processor has no AVX2") }
        var random = SystemRandomNumberGenerator()
        let width = 41, height = 29
        var texels = (0..<(width * height)).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
        for i in stride(from: 0, to: texels.count, by: 5) { texels[i] = 0 }
        for i in stride(from: 2, to: texels.count, by: 9) { texels[i] |= 0xFF00_0000 }
        let kernel = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        let widest = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        let portable = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        defer {
            kernel.deallocate()
            widest.deallocate()
            portable.deallocate()
        }
        let avx512 = PixelKernels.avx512Available
        texels.withUnsafeBufferPointer { buffer in
            let pixels = buffer.baseAddress!
            for _ in 0..<3_000 {
                let count = Int.random(in: 8...45, using: &random)
                let u0 = Int.random(in: 0..<((width - 1) << 16), using: &random)
                let v0 = Int.random(in: 0..<((height - 1) << 16), using: &random)
                let u1 = Int.random(in: 0..<((width - 1) << 16), using: &random)
                let v1 = Int.random(in: 0..<((height - 1) << 16), using: &random)
                let du = (u1 - u0) / (count - 1), dv = (v1 - v0) / (count - 1)
                PixelMath.bilinearRun(
                    pixels, width, u: u0, v: v0, du: du, dv: dv, count: count, lanes: true, into: kernel, avx2: true,
                    avx512: false)
                PixelMath.bilinearRun(
                    pixels, width, u: u0, v: v0, du: du, dv: dv, count: count, lanes: true, into: widest, avx2: true,
                    avx512: avx512)
                PixelMath.bilinearRun(
                    pixels, width, u: u0, v: v0, du: du, dv: dv, count: count, lanes: true, into: portable, avx2: false)
                for k in 0..<count {
                    let u = u0 + k * du, v = v0 + k * dv
                    let expected = PixelMath.bilinear(
                        pixels + (v >> 16) * width + (u >> 16), width, UInt16((u >> 8) & 0xFF), UInt16((v >> 8) & 0xFF))
                    XCTAssertEqual(kernel[k], expected, "sample \(k) of \(count) at \(u), \(v)")
                    XCTAssertEqual(widest[k], expected, "AVX-512: sample \(k) of \(count) at \(u), \(v)")
                    XCTAssertEqual(portable[k], expected, "sample \(k) of \(count) at \(u), \(v)")
                }
            }
        }
    }

    /// A 97 × 61 image of random texels.
    private func noiseImage(_ random: inout SystemRandomNumberGenerator) throws -> Image {
        let width = 97, height = 61
        let texels = (0..<(width * height)).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
        return try XCTUnwrap(Image(width: width, height: height, premultipliedPixels: texels))
    }

    /// A device → image map (a slant and a perspective divide, the image's middle near
    /// (300, 200)) and a row of up to 700 pixels to sample through it, inside, outside and
    /// across the image's edges, and near the eye.
    private func slantedRow(
        _ random: inout SystemRandomNumberGenerator
    ) -> (inverse: Projection, x: Int, y: Int, count: Int) {
        let inverse = Projection(
            m00: Double.random(in: 0.05...0.4, using: &random), m01: Double.random(in: -0.1...0.1, using: &random),
            m02: Double.random(in: -60...20, using: &random), m10: Double.random(in: -0.1...0.1, using: &random),
            m11: Double.random(in: 0.05...0.4, using: &random), m12: Double.random(in: -60...20, using: &random),
            m20: Double.random(in: -0.0015...0.0015, using: &random), m21: 0, m22: 1)
        let x = Int.random(in: -50...400, using: &random), y = Int.random(in: -20...420, using: &random)
        return (inverse, x, y, Int.random(in: 1...700, using: &random))
    }

    /// A row sampled through a projection with its stretches of whole chunks inside the image
    /// given to the C loop (their ends found there, their samples filtered by the AVX2 kernel, and
    /// the AVX-512 one where the machine has it) is the row sampled chunk by chunk in Swift, to the
    /// bit: maps seen at a slant, rows of every length, chunks inside, outside and across the
    /// image's edges, and near the eye.
    func testProjectiveSamplingThroughTheKernelsMatchesChunkByChunk() throws {
        try XCTSkipUnless(PixelKernels.avx2, "the C loop needs AVX2")
        var random = SystemRandomNumberGenerator()
        let image = try noiseImage(&random)
        let kernels = UnsafeMutablePointer<UInt32>.allocate(capacity: 700)
        let single = UnsafeMutablePointer<UInt32>.allocate(capacity: 700)
        defer {
            kernels.deallocate()
            single.deallocate()
        }
        var stretches = 0
        for _ in 0..<300 {
            let (inverse, x, y, count) = slantedRow(&random)
            let sampler = ProjectiveImageSampler(image: image, inverse: inverse)
            single.update(repeating: 0x8765_4321, count: count)
            sampler.sample(x: x, y: y, count: count, into: single, kernels: false)
            for avx512 in PixelKernels.avx512 ? [false, true] : [false] {
                kernels.update(repeating: 0x1234_5678, count: count)
                stretches += sampler.sample(x: x, y: y, count: count, into: kernels, kernels: true, avx512: avx512)
                XCTAssertEqual(
                    Array(UnsafeBufferPointer(start: kernels, count: count)),
                    Array(UnsafeBufferPointer(start: single, count: count)),
                    "row \(y) from \(x), \(count) samples, AVX-512 \(avx512)")
            }
        }
        // The C loop drew some of them (rows that cross the image for more than a chunk).
        XCTAssertGreaterThan(stretches, 50)
    }

    /// A row sampled through a projection steps linearly across each chunk of sixteen pixels
    /// from the image positions of the chunk's two ends (which the sampler finds four chunks at
    /// a time): the same samples as a chunk-by-chunk walk that finds each end on its own.
    func testProjectiveSamplingStepsEachChunkBetweenItsEnds() throws {
        var random = SystemRandomNumberGenerator()
        let image = try noiseImage(&random)
        let width = image.width, height = image.height
        let sampled = UnsafeMutablePointer<UInt32>.allocate(capacity: 700)
        defer { sampled.deallocate() }
        for _ in 0..<300 {
            let (inverse, x, y, count) = slantedRow(&random)
            ProjectiveImageSampler(image: image, inverse: inverse).sample(x: x, y: y, count: count, into: sampled)
            // The image position (16.16) at a device pixel's centre, as the sampler defines it
            // (none at or behind the eye).
            func position(_ px: Int) -> (u: Int, v: Int)? {
                let m = inverse, dx = Double(px) + 0.5, dy = Double(y) + 0.5
                let w = m.m20 * dx + m.m21 * dy + m.m22
                guard w > 0 else { return nil }
                let r = 1 / w
                let u = (m.m00 * dx + m.m01 * dy + m.m02) * r - 0.5, v = (m.m10 * dx + m.m11 * dy + m.m12) * r - 0.5
                return (Int(min(max(u, -1e6), 1e6) * 65536), Int(min(max(v, -1e6), 1e6) * 65536))
            }
            func texel(_ p: (u: Int, v: Int)) -> UInt32 {
                PixelMath.bilinearClamped(image.pixels, width, maxX: width - 1, maxY: height - 1, u: p.u, v: p.v)
            }
            var expected: [UInt32] = []
            for start in stride(from: 0, to: count, by: 16) {
                let n = min(16, count - start)
                guard let a = position(x + start), let b = position(x + start + n) else {
                    // A chunk touching the eye plane: each pixel on its own, none behind it.
                    for k in 0..<n { expected.append(position(x + start + k).map(texel) ?? 0) }
                    continue
                }
                let du = (b.u - a.u) / n, dv = (b.v - a.v) / n
                for k in 0..<n { expected.append(texel((a.u + k * du, a.v + k * dv))) }
            }
            if let k = (0..<count).first(where: { sampled[$0] != expected[$0] }) {
                return XCTFail("row \(y) from \(x), \(count) samples: sample \(k) is \(sampled[k]), not \(expected[k])")
            }
        }
    }

    /// A plane turned about y with perspective is foreshortened across and not down: its image
    /// needs fewer texels across than down. Unturned, one texel per pixel each way.
    func testAxisScalesFollowForeshortening() throws {
        let box = Rect(x: -150, y: -100, width: 300, height: 200)
        let flat = try XCTUnwrap(Projection(Transform2D.identity).axisScales(over: box))
        XCTAssertEqual(flat.x, 1, accuracy: 1e-6)
        XCTAssertEqual(flat.y, 1, accuracy: 1e-6)
        // Turned 60° about y, seen from 900 px: x → x·cos θ / w, y → y / w, w = 1 + x·sin θ / 900.
        let c = cos(Double.pi / 3), s = sin(Double.pi / 3)
        let turned = Projection(m00: c, m01: 0, m02: 0, m10: 0, m11: 1, m12: 0, m20: s / 900, m21: 0, m22: 1)
        let scales = try XCTUnwrap(turned.axisScales(over: box))
        let nearW = 1 - 150 * s / 900
        XCTAssertEqual(scales.y, 1 / nearW, accuracy: 1e-3, "down: the near edge's magnification")
        // Across, at a near corner (v = ±100): ∂x/∂u = c / w², ∂y/∂u = −v·sin θ / (900 w²).
        let across = (c * c + pow(100 * s / 900, 2)).squareRoot() / (nearW * nearW)
        XCTAssertEqual(scales.x, across, accuracy: 1e-3, "across: foreshortened, at the near edge")
        XCTAssertLessThan(scales.x, scales.y)
    }
}

/// Gradients are dithered: a long shallow ramp has no 8-bit bands, yet exact colours stay exact.
final class GradientDitherTests: XCTestCase {
    func testAShallowRampAveragesToTheExactValueWithoutBands() {
        let bitmap = Bitmap(width: 1024, height: 16)
        let ctx = GraphicsContext(bitmap: bitmap)
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 1024, height: 16))
        let ramp = Gradient(
            kind: .axial, colors: [Color(red: 0, green: 0, blue: 0), Color(red: 16 / 255, green: 0, blue: 0)],
            start: Point(x: 0, y: 0), end: Point(x: 1024, y: 0))
        ctx.fill(path, gradient: ramp, rule: .nonZero)
        var worst = 0.0
        for block in stride(from: 0, to: 1024, by: 4) {
            var sum = 0.0
            for y in 0..<4 {
                for x in block..<(block + 4) {
                    let red = Double((bitmap[x, y] >> 16) & 0xFF)
                    let exact = 16 * (Double(x) + 0.5) / 1024
                    XCTAssertLessThanOrEqual(abs(red - exact), 1, "(\(x), \(y)): only the two nearest levels")
                    sum += red
                }
            }
            let exact = 16 * (Double(block) + 2) / 1024
            worst = max(worst, abs(sum / 16 - exact))
        }
        // Undithered, a block's average sits up to half a level off (bands 64 px wide).
        XCTAssertLessThan(worst, 0.2)
    }

    func testExactColoursAreNotDithered() {
        let bitmap = Bitmap(width: 64, height: 8)
        let ctx = GraphicsContext(bitmap: bitmap)
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 64, height: 8))
        let colour = Color(red: 0.2, green: 0.4, blue: 0.6)
        ctx.fill(
            path, gradient: Gradient(kind: .axial, colors: [colour, colour], start: .zero, end: Point(x: 64, y: 0)))
        let expected = PixelMath.premultipliedPixel(colour, alpha: 1)
        for y in 0..<8 { for x in 0..<64 { XCTAssertEqual(bitmap[x, y], expected) } }
    }
}
