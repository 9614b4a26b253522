import XCTest

@testable import VitrineGraphics

/// A gradient's rows drawn a run at a time (stepped places, repeated patterns) against the same
/// pixels worked out one at a time.
final class GradientRowTests: XCTestCase {
    private static let bayer: [UInt64] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Table entry `entry` dithered as the pixel at (x, y): the threshold of its place in the
    /// 4 × 4 Bayer matrix added to each 8.4 channel, four bits dropped.
    private func dithered(_ entry: UInt64, x: Int, y: Int) -> UInt32 {
        let s = (entry + Self.bayer[(y & 3) * 4 + (x & 3)] * 0x0001_0001_0001_0001) >> 4
        return UInt32(
            truncatingIfNeeded: (s >> 24) & 0xFF00_0000 | (s >> 16) & 0xFF_0000 | (s >> 8) & 0xFF00 | s & 0xFF)
    }

    private func row(_ sampler: GradientSampler, x: Int, y: Int, count: Int, onePixelAtATime: Bool) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            if onePixelAtATime {
                for i in 0..<count { sampler.sample(x: x + i, y: y, count: 1, into: buffer.baseAddress! + i) }
            } else {
                sampler.sample(x: x, y: y, count: count, into: buffer.baseAddress!)
            }
        }
        return out
    }

    /// Across a vertical ramp every pixel of a row has the row's entry: the row is written as
    /// its four dithered values repeated, in the matrix's phase at each pixel's own x.
    func testRowsAcrossAnAxialGradientAreItsEntryDithered() throws {
        let ramp = Gradient(
            kind: .axial, colors: [Color(red: 0.1, green: 0.2, blue: 0.3), Color(red: 0.9, green: 0.5, blue: 0.2)],
            start: Point(x: 0, y: 0), end: Point(x: 0, y: 100))
        let table = GradientSampler.makeTable(ramp, alpha: 1, allAtEnd: false)
        let sampler = try XCTUnwrap(GradientSampler(ramp, transform: .identity, alpha: 1, tables: GradientTables()))
        for y in [0, 1, 2, 3, 37, 99] {
            let entry = table[Int((Double(y) + 0.5) / 100 * 1023 + 0.5)]
            for (x, count) in [(0, 64), (3, 1), (5, 2), (6, 7), (13, 33)] {
                let expected = (x..<(x + count)).map { dithered(entry, x: $0, y: y) }
                XCTAssertEqual(
                    row(sampler, x: x, y: y, count: count, onePixelAtATime: false), expected, "y \(y), x \(x)")
            }
        }
    }

    /// Along a ramp whose places fall a quarter or three quarters of an entry from the nearest
    /// (never halfway), every pixel is the nearest entry dithered at its own place: the vector
    /// loop's four pixels a turn and the one-by-one tail alike, from any start.
    func testRowsAlongAnAxialGradientAreTheirEntriesDithered() throws {
        let ramp = Gradient(
            kind: .axial, colors: [Color(red: 0, green: 1, blue: 0.2, alpha: 0.5), Color(red: 1, green: 0, blue: 0.9)],
            start: Point(x: 0, y: 0), end: Point(x: 2046, y: 0))
        let table = GradientSampler.makeTable(ramp, alpha: 1, allAtEnd: false)
        let sampler = try XCTUnwrap(GradientSampler(ramp, transform: .identity, alpha: 1, tables: GradientTables()))
        for y in [0, 1, 2, 3] {
            for (x, count) in [(0, 2046), (1, 3), (5, 37), (1000, 10), (2040, 6)] {
                // Place × 1023 is (x + 0.5) / 2: the entry is x / 2 rounded half up.
                let expected = (x..<(x + count)).map { dithered(table[($0 + 1) / 2], x: $0, y: y) }
                XCTAssertEqual(
                    row(sampler, x: x, y: y, count: count, onePixelAtATime: false), expected, "y \(y), x \(x)")
            }
        }
    }

    /// A pixel does not depend on the span that reads it (places step from the row's column 0,
    /// a conic row's pieces lie on the row's grid of columns): a row read whole, one pixel at a
    /// time and in pieces of every length is the same, for every kind, scaled, turned and
    /// sheared, near a conic gradient's centre and far from it. (A clip cutting a row short, a
    /// damage rectangle, must not change the pixels it leaves.)
    func testAPixelIsTheSameWhateverSpanReadsIt() throws {
        let colors = [Color(red: 0, green: 0.78, blue: 1), Color(red: 1, green: 0.31, blue: 0.6, alpha: 0.7)]
        let transforms = [
            Transform2D.identity, Transform2D(scaleX: 1.7, y: 0.6).rotated(by: 0.4),
            Transform2D(a: 0.8, b: 0.3, c: -0.5, d: 1.2, tx: 13.5, ty: -7.25)
        ]
        for kind in [Gradient.Kind.axial, .radial, .conic] {
            let gradient = Gradient(
                kind: kind, colors: colors, start: Point(x: 200, y: 150), end: Point(x: 330, y: 100))
            for transform in transforms {
                let sampler = try XCTUnwrap(
                    GradientSampler(gradient, transform: transform, alpha: 1, tables: GradientTables()))
                let centre = transform.apply(to: gradient.start)
                for y in [Int(centre.y), Int(centre.y) + 2, Int(centre.y) - 90, Int(centre.y) + 300] {
                    let x = Int(centre.x) - 400, count = 800
                    let whole = row(sampler, x: x, y: y, count: count, onePixelAtATime: false)
                    XCTAssertEqual(row(sampler, x: x, y: y, count: count, onePixelAtATime: true), whole)
                    var pieces = [UInt32](repeating: 0, count: count), done = 0
                    while done < count {
                        let n = min(count - done, 1 + (done * 13 + y + 1000) % 37)
                        pieces.withUnsafeMutableBufferPointer {
                            sampler.sample(x: x + done, y: y, count: n, into: $0.baseAddress! + done)
                        }
                        done += n
                    }
                    XCTAssertEqual(pieces, whole, "\(kind) \(transform) row \(y)")
                }
            }
        }
    }

    /// A conic row's angle is stepped between exact angles where the row is far from the centre:
    /// the pixels are those of exact angles to within one level (one table entry), and almost
    /// all are the same. Rows cross the first colour's angle (the seam, where the places wrap
    /// from 1 to 0) and pass through, near and far from the centre, at several scales and
    /// rotations.
    func testConicRowsAreTheExactAnglesToWithinOneEntry() throws {
        let colors = [
            Color(red: 0, green: 0.78, blue: 1), Color(red: 0.48, green: 0.38, blue: 1),
            Color(red: 1, green: 0.31, blue: 0.6), Color(red: 1, green: 0.7, blue: 0.28)
        ]
        let conic = Gradient(kind: .conic, colors: colors, start: Point(x: 200, y: 150), end: Point(x: 230, y: 100))
        let transforms = [
            Transform2D.identity, Transform2D(scaleX: 2, y: 2), Transform2D(scaleX: 0.5, y: 0.5),
            Transform2D(rotationAngle: 0.5), Transform2D(scaleX: 3, y: 1.5).rotated(by: -2)
        ]
        let table = GradientSampler.makeTable(conic, alpha: 1, allAtEnd: false)
        let angle0 = atan2(conic.end.y - conic.start.y, conic.end.x - conic.start.x)
        var compared = 0, differing = 0
        for transform in transforms {
            let sampler = try XCTUnwrap(
                GradientSampler(conic, transform: transform, alpha: 1, tables: GradientTables()))
            let inverse = try XCTUnwrap(transform.inverted())
            let centre = transform.apply(to: conic.start)
            let centreRow = Int(centre.y.rounded(.down))
            for y in [
                centreRow, centreRow + 1, centreRow - 3, centreRow + 20, centreRow - 150, centreRow - 600,
                centreRow + 400
            ] {
                let x = Int(centre.x) - 500
                let stepped = row(sampler, x: x, y: y, count: 1000, onePixelAtATime: false)
                // Each pixel's own angle, by libm, its entry rounded to the nearest.
                let exact = (x..<(x + 1000)).map { column -> UInt32 in
                    let place = inverse.apply(to: Point(x: Double(column) + 0.5, y: Double(y) + 0.5))
                    var turn = (atan2(place.y - conic.start.y, place.x - conic.start.x) - angle0) / (2 * Double.pi)
                    turn -= turn.rounded(.down)
                    return dithered(table[Int((turn * 1023).rounded())], x: column, y: y)
                }
                for i in 0..<1000 {
                    for shift: UInt32 in [0, 8, 16, 24] {
                        let a = Int((stepped[i] >> shift) & 0xFF), b = Int((exact[i] >> shift) & 0xFF)
                        XCTAssertLessThanOrEqual(abs(a - b), 1, "\(transform) row \(y), x \(x + i)")
                    }
                }
                compared += 1000
                differing += zip(stepped, exact).filter { $0 != $1 }.count
            }
        }
        XCTAssertLessThan(Double(differing) / Double(compared), 0.01, "\(differing) of \(compared) pixels differ")
    }

    /// An opaque gradient's fully covered runs are written straight into the target: the same
    /// pixels as blending them (as a clip mask that hides nothing makes it do), over a
    /// background of any colour, for each kind, filled and stroked with round caps; a
    /// translucent one is blended either way.
    func testOpaqueGradientsWrittenStraightInAreTheBlendedPixels() {
        let opaque = [Color(red: 0.9, green: 0.2, blue: 0.1), Color(red: 0.1, green: 0.6, blue: 1)]
        let translucent = [Color(red: 0.9, green: 0.2, blue: 0.1), Color(red: 0.1, green: 0.6, blue: 1, alpha: 0.6)]
        var shape = Path()
        shape.addRoundedRect(Rect(x: 7.3, y: 5.6, width: 101.2, height: 60.9), cornerRadius: 14.5)
        var arc = Path()
        arc.addEllipse(in: Rect(x: 20.5, y: 12.25, width: 80, height: 50))
        var whole = Path()
        whole.addEllipse(in: Rect(x: -200, y: -200, width: 540, height: 480))
        for kind in Gradient.Kind.allCases {
            for colors in [opaque, translucent] {
                let gradient = Gradient(
                    kind: kind, colors: colors, start: Point(x: 60, y: 40), end: Point(x: 110, y: 70))
                func draw(maskingNothing: Bool) -> Bitmap {
                    let bitmap = Bitmap(width: 120, height: 80)
                    for y in 0..<80 {
                        for x in 0..<120 { bitmap[x, y] = 0xFF00_0000 | UInt32(x * 2) << 16 | UInt32(y * 3) }
                    }
                    let ctx = GraphicsContext(bitmap: bitmap)
                    if maskingNothing { ctx.clip(to: whole) }
                    ctx.fill(shape, gradient: gradient)
                    ctx.stroke(arc, gradient: gradient, style: StrokeStyle(lineWidth: 9, lineCap: .round))
                    return bitmap
                }
                let straight = draw(maskingNothing: false), blended = draw(maskingNothing: true)
                var differing = 0
                for y in 0..<80 { for x in 0..<120 where straight[x, y] != blended[x, y] { differing += 1 } }
                XCTAssertEqual(differing, 0, "\(kind), \(colors)")
            }
        }
    }

    /// A slanted axial gradient's rows through the AVX2 kernel (eight pixels at a time, the rest
    /// in Swift) are the Swift loop's pixels: any slant and scale, places before the start and
    /// past the end (clamped to the table), any span start (the dither's phase), any length.
    func testAxialRowsThroughTheKernelAreTheSwiftLoopsPixels() throws {
        try XCTSkipUnless(PixelKernels.avx2, "the kernel needs AVX2")
        var random = SystemRandomNumberGenerator()
        let tables = GradientTables()
        var compared = 0
        for _ in 0..<200 {
            let colors = (0..<Int.random(in: 2...5, using: &random)).map { _ in
                Color(
                    red: .random(in: 0...1, using: &random), green: .random(in: 0...1, using: &random),
                    blue: .random(in: 0...1, using: &random), alpha: .random(in: 0.2...1, using: &random))
            }
            let start = Point(x: .random(in: -100...300, using: &random), y: .random(in: -100...300, using: &random))
            let end = Point(x: .random(in: -100...300, using: &random), y: .random(in: -100...300, using: &random))
            let gradient = Gradient(kind: .axial, colors: colors, start: start, end: end)
            let transform = Transform2D.identity.rotated(by: .random(in: -3...3, using: &random))
                .scaledBy(x: .random(in: 0.2...4, using: &random), y: .random(in: 0.2...4, using: &random))
            let alpha = Double.random(in: 0.3...1, using: &random)
            let sampler = try XCTUnwrap(GradientSampler(gradient, transform: transform, alpha: alpha, tables: tables))
            let x = Int.random(in: -300...600, using: &random), y = Int.random(in: -300...600, using: &random)
            let count = Int.random(in: 1...400, using: &random)
            var kernel = [UInt32](repeating: 0x1234_5678, count: count)
            var swift = [UInt32](repeating: 0x8765_4321, count: count)
            kernel.withUnsafeMutableBufferPointer { sampler.sample(x: x, y: y, count: count, into: $0.baseAddress!) }
            swift.withUnsafeMutableBufferPointer {
                sampler.sample(x: x, y: y, count: count, into: $0.baseAddress!, kernels: false)
            }
            XCTAssertEqual(
                kernel, swift,
                "row \(y) from \(x), \(count) pixels, \(start) → \(end), colours \(colors), \(transform), alpha \(alpha)"
            )
            compared += count
        }
        XCTAssertGreaterThan(compared, 10_000)
    }
}
