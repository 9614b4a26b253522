import Foundation
import XCTest
@testable import VitrineGraphics

/// Coverage of filled shapes, read back as the alpha of opaque black drawn on transparent
/// pixels: alpha = round(255 × covered fraction of the pixel).
final class RasterizerTests: XCTestCase {
    private func coverageBitmap(
        _ width: Int, _ height: Int, rule: FillRule = .nonZero,
        _ build: (inout Path) -> Void
    ) -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        var path = Path()
        build(&path)
        GraphicsContext(bitmap: bitmap).fill(path, color: .black, rule: rule)
        return bitmap
    }

    private func alpha(_ b: Bitmap, _ x: Int, _ y: Int) -> Int { Int(b[x, y] >> 24) }

    private func coveredArea(_ b: Bitmap) -> Double {
        var sum = 0
        for y in 0..<b.height { for x in 0..<b.width { sum += Int(b[x, y] >> 24) } }
        return Double(sum) / 255
    }

    func testFractionalRectEdgesGiveExactArea() {
        let b = coverageBitmap(40, 30) { $0.addRect(Rect(x: 10.25, y: 5.5, width: 10.5, height: 10)) }
        // x: 10.25…20.75 → pixels 10 and 20 are 75 % covered; y: 5.5…15.5 → rows 5 and 15 half.
        XCTAssertEqual(alpha(b, 9, 10), 0)
        XCTAssertEqual(alpha(b, 10, 10), 191)  // 0.75 · 255 = 191.25
        XCTAssertEqual(alpha(b, 15, 10), 255)
        XCTAssertEqual(alpha(b, 20, 10), 191)
        XCTAssertEqual(alpha(b, 21, 10), 0)
        XCTAssertEqual(alpha(b, 15, 5), 128)  // 0.5 · 255 = 127.5
        XCTAssertEqual(alpha(b, 15, 15), 128)
        XCTAssertEqual(alpha(b, 15, 16), 0)
        XCTAssertEqual(alpha(b, 10, 5), 96)  // 0.375 · 255 = 95.6
        // Each partly covered pixel rounds to 8 bits: at most 0.5/255 off.
        XCTAssertEqual(coveredArea(b), 10.5 * 10, accuracy: 42 * 0.5 / 255)
    }

    func testCircleAreaMatchesPiRSquared() {
        let r = 200.0
        let b = coverageBitmap(420, 420) { $0.addEllipse(in: Rect(x: 10.3, y: 9.7, width: 2 * r, height: 2 * r)) }
        let expected = Double.pi * r * r
        XCTAssertEqual(coveredArea(b), expected, accuracy: expected * 0.001)
    }

    func testArbitraryPolygonAreaIsExact() {
        // A rotated quadrilateral: the summed coverage equals its shoelace area, up to the
        // 8-bit rounding of each edge pixel and the 1/256-pixel vertex grid.
        let pts = [Point(13.37, 7.11), Point(91.9, 30.4), Point(70.25, 88.8), Point(5.5, 61.03)]
        var area = 0.0
        for i in 0..<4 { area += pts[i].cross(pts[(i + 1) % 4]) }
        area = abs(area) / 2
        let b = coverageBitmap(100, 100) { p in
            p.move(to: pts[0]); for q in pts.dropFirst() { p.addLine(to: q) }; p.closeSubpath()
        }
        XCTAssertEqual(coveredArea(b), area, accuracy: 1.0)
    }

    func testNonzeroAndEvenOddOnPentagram() {
        // A five-pointed star drawn in one stroke: its central pentagon winds twice.
        let c = Point(60, 60), r = 50.0
        func star(_ p: inout Path) {
            for i in 0..<5 {
                let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
                let q = Point(c.x + r * cos(a), c.y + r * sin(a))
                if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
            }
            p.closeSubpath()
        }
        let nonZero = coverageBitmap(120, 120, rule: .nonZero, star)
        let evenOdd = coverageBitmap(120, 120, rule: .evenOdd, star)
        XCTAssertEqual(alpha(nonZero, 60, 60), 255)
        XCTAssertEqual(alpha(evenOdd, 60, 60), 0)
        // Inside the top point: wound once.
        XCTAssertEqual(alpha(nonZero, 60, 20), 255)
        XCTAssertEqual(alpha(evenOdd, 60, 20), 255)
    }

    func testNestedSquaresSameAndOppositeDirection() {
        func nested(reverseInner: Bool) -> (inout Path) -> Void {
            { p in
                p.addRect(Rect(x: 10, y: 10, width: 80, height: 80))
                if reverseInner {
                    p.move(to: Point(30, 30)); p.addLine(to: Point(30, 70))
                    p.addLine(to: Point(70, 70)); p.addLine(to: Point(70, 30)); p.closeSubpath()
                } else {
                    p.addRect(Rect(x: 30, y: 30, width: 40, height: 40))
                }
            }
        }
        XCTAssertEqual(alpha(coverageBitmap(100, 100, rule: .nonZero, nested(reverseInner: false)), 50, 50), 255)
        XCTAssertEqual(alpha(coverageBitmap(100, 100, rule: .evenOdd, nested(reverseInner: false)), 50, 50), 0)
        XCTAssertEqual(alpha(coverageBitmap(100, 100, rule: .nonZero, nested(reverseInner: true)), 50, 50), 0)
        XCTAssertEqual(alpha(coverageBitmap(100, 100, rule: .nonZero, nested(reverseInner: true)), 20, 50), 255)
    }

    func testSelfOverlappingContoursClampToFullCoverage() {
        // Overlapping same-direction rectangles, as a stroker emits: the overlap is exactly
        // covered once, and the anti-aliased edges inside the overlap do not leave seams.
        let b = coverageBitmap(100, 60) { p in
            p.addRect(Rect(x: 10.5, y: 10, width: 50, height: 40))
            p.addRect(Rect(x: 40.3, y: 10, width: 50, height: 40))
        }
        for x in 11..<90 { XCTAssertEqual(alpha(b, x, 30), 255, "x = \(x)") }
        XCTAssertEqual(alpha(b, 10, 30), 128)
        XCTAssertEqual(alpha(b, 90, 30), 77)  // 0.3 · 255 = 76.5
        XCTAssertEqual(coveredArea(b), (90.3 - 10.5) * 40, accuracy: 80 * 0.5 / 255)
    }

    func testCurvesFlattenAfterTheTransform() {
        // A unit circle scaled 100×: flattened in device space, so still round to 0.1 px.
        let bitmap = Bitmap(width: 220, height: 220)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.translateBy(x: 110, y: 110)
        ctx.scaleBy(x: 100, y: 100)
        var p = Path()
        p.addEllipse(in: Rect(x: -1, y: -1, width: 2, height: 2))
        ctx.fill(p, color: .black)
        XCTAssertEqual(coveredArea(bitmap), Double.pi * 10_000, accuracy: Double.pi * 10_000 * 0.0015)
    }

    func testNonFiniteCoordinatesDrawNothing() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let b = coverageBitmap(50, 50) { p in
                p.addRect(Rect(x: 5, y: 5, width: 20, height: 20))
                p.move(to: Point(10, 10)); p.addLine(to: Point(bad, 30)); p.addLine(to: Point(30, 40))
            }
            XCTAssertEqual(coveredArea(b), 0, "coordinate \(bad)")
        }
        // A NaN transform is rejected too.
        let bitmap = Bitmap(width: 10, height: 10)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.concatenate(Transform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        ctx.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black)
        var p = Path(); p.addEllipse(in: Rect(x: 0, y: 0, width: 5, height: 5))
        ctx.fill(p, color: .black)
        XCTAssertEqual(coveredArea(bitmap), 0)
    }

    func testHugeCoordinatesAreClippedQuickly() {
        let start = Date()
        // A rectangle far larger than the bitmap covers it entirely.
        let huge = coverageBitmap(64, 48) { $0.addRect(Rect(x: -1e30, y: -1e30, width: 2e30, height: 2e30)) }
        XCTAssertEqual(coveredArea(huge), 64 * 48, accuracy: 1e-9)
        // The largest finite values: no crash, no hang (the geometry itself is beyond Double).
        let extreme = coverageBitmap(64, 48) { p in
            let m = Double.greatestFiniteMagnitude
            p.move(to: Point(-m, -m)); p.addLine(to: Point(m, -m)); p.addLine(to: Point(m, m)); p.closeSubpath()
        }
        XCTAssertGreaterThan(coveredArea(extreme), 0)
        // A triangle whose edge crosses the bitmap from ten million pixels away: inside the
        // bitmap it is the half-plane below the line y = x/2 + 5.
        let halfPlane = coverageBitmap(64, 48) { p in
            p.move(to: Point(-1e7, -0.5e7 + 5)); p.addLine(to: Point(1e7, 0.5e7 + 5))
            p.addLine(to: Point(-1e7, 1e7)); p.closeSubpath()
        }
        // Below y = x/2 + 5 inside 64×48: ∫ clamp(48 − (x/2 + 5), 0, 48) dx over 0…64.
        var expected = 0.0
        for i in 0..<6400 { let x = (Double(i) + 0.5) / 100; expected += min(max(48 - (x / 2 + 5), 0), 48) / 100 }
        XCTAssertEqual(coveredArea(halfPlane), expected, accuracy: 0.5)
        // Curves with absurd control points: bounded work.
        let curves = coverageBitmap(64, 48) { p in
            p.move(to: Point(10, 10))
            p.addCurve(to: Point(50, 40), control1: Point(1e200, -1e200), control2: Point(-1e250, 1e180))
            p.addQuadCurve(to: Point(10, 40), control: Point(3e307, 3e307))
            p.closeSubpath()
        }
        _ = coveredArea(curves)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.0)
    }

    func testTinyShapeOnBigBitmapTouchesOnlyItsPixels() {
        let bitmap = Bitmap(width: 1920, height: 1080)
        bitmap.fill(0x1234_5678)
        let ctx = GraphicsContext(bitmap: bitmap)
        var p = Path()
        p.addEllipse(in: Rect(x: 1000.25, y: 500.5, width: 2.5, height: 2))
        ctx.fill(p, color: Color(red: 1, green: 0, blue: 0))
        XCTAssertEqual(ctx.rasterizer.bounds, IntRect(x: 1000, y: 500, width: 3, height: 3))
        var changed = 0
        for y in 0..<1080 {
            for x in 0..<1920 where bitmap[x, y] != 0x1234_5678 {
                changed += 1
                XCTAssert((1000..<1003).contains(x) && (500..<503).contains(y), "pixel \(x),\(y) changed")
            }
        }
        XCTAssertGreaterThan(changed, 0)
        // Off-screen shapes, however large, are culled before any work.
        var far = Path()
        far.addEllipse(in: Rect(x: 5000, y: -9000, width: 4000, height: 4000))
        let t0 = Date()
        for _ in 0..<10_000 { ctx.fill(far, color: .black) }
        XCTAssertLessThan(Date().timeIntervalSince(t0), 0.5)
        XCTAssertTrue(ctx.rasterizer.bounds.isEmpty)
    }

    /// A shape taller than a band is accumulated a band at a time: each row still covers
    /// exactly its strip of the shape (edges cross band boundaries at fractional x, one edge
    /// spans every band), and nothing of it is left behind for the next shape, which draws
    /// exactly as on a fresh context.
    func testTallShapesAreSweptBandByBandExactly() {
        let band = Rasterizer.bandHeight
        let height = 4 * band + 37  // the last band is a short one
        let pts = [
            Point(7.3, 0.6), Point(93.7, Double(band) + 11.2), Point(61.1, Double(height) - 0.4),
            Point(12.9, Double(2 * band) + 0.5)
        ]
        let bitmap = Bitmap(width: 100, height: height)
        let ctx = GraphicsContext(bitmap: bitmap)
        var tall = Path()
        tall.move(to: pts[0]); for q in pts.dropFirst() { tall.addLine(to: q) }; tall.closeSubpath()
        ctx.fill(tall, color: .black)
        for row in 0..<height {
            var sum = 0
            for x in 0..<100 { sum += alpha(bitmap, x, row) }
            // Each row holds at most four partly covered pixels per edge it meets: 8-bit
            // rounding plus the 1/256-pixel vertex grid.
            XCTAssertEqual(
                Double(sum) / 255, stripArea(pts, from: Double(row), to: Double(row + 1)), accuracy: 0.05,
                "row \(row)")
        }
        var small = Path(); small.addEllipse(in: Rect(x: 20.4, y: 30.2, width: 50.5, height: 40.3))
        bitmap.fill(0)
        ctx.fill(small, color: .black)
        let fresh = Bitmap(width: 100, height: height)
        GraphicsContext(bitmap: fresh).fill(small, color: .black)
        for y in 0..<height {
            for x in 0..<100 where bitmap[x, y] != fresh[x, y] { return XCTFail("(\(x), \(y)) differs") }
        }
    }

    /// The clip never moves an edge: a shape drawn through a clip rectangle has, inside it,
    /// exactly the pixels it has when drawn whole. (Damage tracking relies on it: a repainted
    /// rectangle must match what surrounds it.) Clips cut curves, diagonals and a tall,
    /// banded shape from every side; a rectangle's fractional top and bottom give rows of
    /// partial coverage that the clips cut, in a translucent and an opaque colour over a
    /// background.
    func testAClipGivesExactlyTheUnclippedPixels() {
        let width = 300, height = 260
        var shape = Path()
        shape.addEllipse(in: Rect(x: 20.3, y: 15.7, width: 250.6, height: 230.1))
        shape.move(to: Point(10.2, 250.9)); shape.addLine(to: Point(290.7, 5.3)); shape.addLine(to: Point(150.1, 255.5))
        shape.closeSubpath()
        shape.addRect(Rect(x: 5.5, y: 100.3, width: 280.2, height: 30.4))
        let background = Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
        let plain = Bitmap(width: 1, height: 1)
        GraphicsContext(bitmap: plain).clear(background)
        let backgroundPixel = plain[0, 0]
        let translucent = Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8)
        for color in [translucent, Color(red: 0.1, green: 0.3, blue: 0.7, alpha: 1)] {
            let whole = Bitmap(width: width, height: height)
            let wholeContext = GraphicsContext(bitmap: whole)
            wholeContext.clear(background)
            wholeContext.fill(shape, color: color, rule: .evenOdd)
            let clips = [
                IntRect(x: 100, y: 90, width: 37, height: 41), IntRect(x: 0, y: 0, width: 61, height: 260),
                IntRect(x: 230, y: 3, width: 70, height: 200), IntRect(x: 13, y: 70, width: 250, height: 150),
                IntRect(x: 141, y: 0, width: 3, height: 260)
            ]
            for clip in clips {
                let clipped = Bitmap(width: width, height: height)
                let ctx = GraphicsContext(bitmap: clipped)
                ctx.clear(background)
                ctx.clip(to: clip.rect)
                ctx.fill(shape, color: color, rule: .evenOdd)
                for y in 0..<height {
                    for x in 0..<width {
                        let inside = x >= clip.x && x < clip.maxX && y >= clip.y && y < clip.maxY
                        let expected = inside ? whole[x, y] : backgroundPixel
                        if clipped[x, y] != expected {
                            return XCTFail(
                                "\(color), clip \(clip): (\(x), \(y)) is \(clipped[x, y]), not \(expected)")
                        }
                    }
                }
            }
        }
    }

    /// The grouped sweep (eight cells at a time into the solid blender) draws exactly what the
    /// run-by-run sweep and the blender's `run` draw: random polygons, curves, overlapping and
    /// self-crossing contours (pixels computed exactly), horizontal edges ending inside rows,
    /// shapes cut by the target's sides and by clips of every width (the last group of a row
    /// partly outside), both fill rules, opaque and translucent colours over a background; with
    /// the portable groups and, where the processor has it, the AVX2 kernel.
    func testTheGroupedSweepDrawsWhatTheRunByRunSweepDraws() {
        let width = 203, height = 150
        var rng = SplitMix64(seed: 0x5EED)
        let background = Color(red: 0.3, green: 0.7, blue: 0.2, alpha: 1).premultipliedPixel
        let rasterizer = Rasterizer(width: width, height: height)
        let spans = UnsafeMutablePointer<CoverageSpan>.allocate(capacity: Rasterizer.maxSpansPerRow(width: width))
        defer { spans.deallocate() }
        for trial in 0..<120 {
            let path = randomShape(trial, &rng)
            let rule: FillRule = trial % 3 == 0 ? .evenOdd : .nonZero
            let color = Color(
                red: rng.next(in: 0...1), green: rng.next(in: 0...1), blue: rng.next(in: 0...1),
                alpha: trial % 2 == 0 ? 1 : rng.next(in: 0...1))
            let pixel = color.premultipliedPixel
            let clip = randomClip(trial, &rng, width: width, height: height)
            let runs = Bitmap(width: width, height: height)
            runs.fill(background)
            rasterizer.reset(clip: clip)
            rasterizer.addPath(path, transform: .identity)
            for y in rasterizer.bounds.y..<rasterizer.bounds.maxY {
                var blender = SpanBlitter.SolidBlender(row: runs.row(y), color: pixel)
                for s in 0..<rasterizer.sweep(row: y, rule: rule, into: spans) {
                    blender.run(x: Int(spans[s].x), length: Int(spans[s].length), coverage: spans[s].coverage)
                }
            }
            for avx2 in [false] + (PixelKernels.avx2Available ? [true] : []) {
                let grouped = Bitmap(width: width, height: height)
                grouped.fill(background)
                sweepGrouped(path, rule: rule, clip: clip, pixel: pixel, into: grouped, by: rasterizer, avx2: avx2)
                if let (x, y) = firstDifference(grouped, runs) {
                    let name = avx2 ? "AVX2 kernels" : "portable groups"
                    return XCTFail("trial \(trial), \(name): (\(x), \(y)) is \(grouped[x, y]), not \(runs[x, y])")
                }
            }
        }
    }

    /// The pieces `accumulate` adds itself (inside one cell, across one boundary or more, either
    /// way) leave the cells `addRowPiece` leaves: the grouped sweep's random shapes, clipped or
    /// not, both fill rules, drawn both ways, are the same to the bit.
    func testInlinedShortPiecesAddWhatAddRowPieceAdds() {
        let width = 211, height = 157
        var rng = SplitMix64(seed: 0xC0FFEE)
        let rasterizer = Rasterizer(width: width, height: height)
        defer { rasterizer.inlinesShortPieces = true }
        for trial in 0..<160 {
            let path = randomShape(trial, &rng)
            let rule: FillRule = trial % 3 == 0 ? .evenOdd : .nonZero
            let clip = randomClip(trial, &rng, width: width, height: height)
            let drawn = [true, false].map { inlines in
                rasterizer.inlinesShortPieces = inlines
                let bitmap = Bitmap(width: width, height: height)
                sweepGrouped(path, rule: rule, clip: clip, pixel: 0xFFFF_FFFF, into: bitmap, by: rasterizer)
                return bitmap
            }
            if let (x, y) = firstDifference(drawn[0], drawn[1]) {
                return XCTFail("trial \(trial): (\(x), \(y)) is \(drawn[0][x, y]), not \(drawn[1][x, y])")
            }
        }
    }

    /// A random shape for drawing two ways, by `trial` in turn: a polygon; two ellipses; a
    /// rectangle drawn twice (an overlap in every edge pixel: computed exactly) with a triangle
    /// whose horizontal edge ends inside a row; a self-crossing five-pointed star.
    private func randomShape(_ trial: Int, _ rng: inout SplitMix64) -> Path {
        var path = Path()
        switch trial % 4 {
        case 0:
            path.move(to: Point(rng.next(in: -20...220), rng.next(in: -15...165)))
            for _ in 0..<(3 + trial % 9) { path.addLine(to: Point(rng.next(in: -20...220), rng.next(in: -15...165))) }
            path.closeSubpath()
        case 1:
            let r = rng.next(in: 2...72)
            path.addEllipse(
                in: Rect(x: rng.next(in: 0...200) - r, y: rng.next(in: 0...150) - r, width: 2 * r, height: 1.5 * r))
            path.addEllipse(
                in: Rect(x: rng.next(in: 0...200) - r, y: rng.next(in: 0...150) - r, width: 2 * r, height: 2 * r))
        case 2:
            let rect = Rect(
                x: rng.next(in: 0...150), y: rng.next(in: 0...100), width: rng.next(in: 3...63),
                height: rng.next(in: 2...42))
            path.addRect(rect)
            path.addRect(rect)
            path.move(to: Point(rng.next(in: 0...200), rng.next(in: 0...150)))
            path.addLine(to: Point(rng.next(in: 0...200), rng.next(in: 0...150).rounded() + 0.5))
            path.addLine(to: Point(rng.next(in: 0...200), path.currentPoint!.y))
            path.closeSubpath()
        default:
            let c = Point(rng.next(in: 0...200), rng.next(in: 0...150)), r = rng.next(in: 5...65)
            for k in 0..<5 {
                let a = Double(k * 2) * .pi * 2 / 5
                let p = Point(c.x + r * cos(a), c.y + r * sin(a))
                if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
            }
            path.closeSubpath()
        }
        return path
    }

    /// Every fifth trial a clip of random width (cutting rows' last groups), else the target.
    private func randomClip(_ trial: Int, _ rng: inout SplitMix64, width: Int, height: Int) -> IntRect {
        guard trial % 5 == 0 else { return IntRect(x: 0, y: 0, width: width, height: height) }
        return IntRect(
            x: Int(rng.next(in: 0...150)), y: Int(rng.next(in: 0...100)), width: 1 + Int(rng.next(in: 0...70)),
            height: 50)
    }

    /// `path` swept by groups into `bitmap` in `pixel`, through `clip`.
    private func sweepGrouped(
        _ path: Path, rule: FillRule, clip: IntRect, pixel: UInt32, into bitmap: Bitmap, by rasterizer: Rasterizer,
        avx2: Bool = PixelKernels.avx2
    ) {
        rasterizer.reset(clip: clip)
        rasterizer.addPath(path, transform: .identity)
        var blender = SpanBlitter.SolidBlender(
            row: bitmap.row(0), y: 0, pixelsPerRow: bitmap.stride, color: pixel, prefetchingAbove: bitmap.height,
            avx2: avx2)
        rasterizer.sweep(rows: rasterizer.bounds.y..<rasterizer.bounds.maxY, rule: rule, into: &blender)
    }

    /// The first pixel (row by row) where two bitmaps of one size differ.
    private func firstDifference(_ a: Bitmap, _ b: Bitmap) -> (Int, Int)? {
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { return (x, y) }
        }
        return nil
    }

    /// The area of a convex polygon between two horizontal lines (clipped, then shoelace).
    private func stripArea(_ polygon: [Point], from top: Double, to bottom: Double) -> Double {
        func clip(_ pts: [Point], keep: (Point) -> Bool, cut: (Point, Point) -> Point) -> [Point] {
            var out: [Point] = []
            for i in pts.indices {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                if keep(a) { out.append(a) }
                if keep(a) != keep(b) { out.append(cut(a, b)) }
            }
            return out
        }
        func atY(_ y: Double) -> (Point, Point) -> Point {
            { a, b in Point(a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y) }
        }
        let inside = clip(
            clip(polygon, keep: { $0.y >= top }, cut: atY(top)), keep: { $0.y <= bottom }, cut: atY(bottom))
        guard inside.count > 2 else { return 0 }
        var area = 0.0
        for i in inside.indices { area += inside[i].cross(inside[(i + 1) % inside.count]) }
        return abs(area) / 2
    }

    /// A thin stroke's two sides cross the same pixels all along it, and the chains pair them
    /// there (a cheap test per pixel) instead of marking the pixels to be computed exactly:
    /// along a 0.5-px circle, whose sides are polygons of many short edges, only the two pixels
    /// where the sides close on their starts are (a contour's last edge and its first are not
    /// consecutive in the path). The same circle filled twice over, whose contours do need exact
    /// pixels all round, shows the count is real.
    func testAThinStrokesSidesNeedNoExactPixels() {
        var circle = Path()
        circle.addEllipse(in: Rect(x: 6.3, y: 5.2, width: 50.4, height: 50.4))
        let stroke = circle.strokeOutline(StrokeStyle(lineWidth: 0.5))
        var twice = circle
        twice.addPath(circle)
        let rasterizer = Rasterizer(width: 64, height: 64)
        // The watch itself: trusted, the stroke's outline (two circles wound against each
        // other) would not be watched at all, and every watched shape's cells would wait for
        // the sweep.
        rasterizer.trustsWindsAtMostOnce = false
        func exactPixels(_ path: Path) -> Int {
            rasterizer.reset(clip: IntRect(x: 0, y: 0, width: 64, height: 64))
            rasterizer.addPath(path, transform: .identity)
            XCTAssertLessThanOrEqual(rasterizer.bounds.height, Rasterizer.bandHeight, "accumulated at once")
            var count = 0
            for word in 0..<(rasterizer.bandRows * rasterizer.wordsPerRow) {
                count += rasterizer.conflicts[word].nonzeroBitCount
            }
            rasterizer.discard()
            return count
        }
        XCTAssertLessThanOrEqual(exactPixels(stroke), 2)
        XCTAssertGreaterThan(exactPixels(twice), 100)
    }

    func testAccumulatorIsCleanAfterEveryDraw() {
        // Draw, then draw a disjoint shape: no residue of the first may leak into the second.
        let bitmap = Bitmap(width: 200, height: 100)
        let ctx = GraphicsContext(bitmap: bitmap)
        var a = Path(); a.addEllipse(in: Rect(x: 10.3, y: 10.7, width: 70.1, height: 60.2))
        ctx.fill(a, color: .black, rule: .evenOdd)
        let afterFirst = coveredArea(bitmap)
        var b = Path(); b.addRect(Rect(x: 120.5, y: 20.5, width: 40, height: 40))
        ctx.fill(b, color: .black)
        XCTAssertEqual(coveredArea(bitmap) - afterFirst, 1600, accuracy: 164 * 0.5 / 255)
    }

    func testClipBoxLimitsCoverageAndEdgesStayExact() {
        let bitmap = Bitmap(width: 100, height: 100)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.clip(to: Rect(x: 20, y: 20, width: 30, height: 30))
        var p = Path(); p.addEllipse(in: Rect(x: -50, y: -50, width: 300, height: 300))
        ctx.fill(p, color: .black)
        XCTAssertEqual(coveredArea(bitmap), 900, accuracy: 1e-9)
        XCTAssertEqual(alpha(bitmap, 19, 30), 0)
        XCTAssertEqual(alpha(bitmap, 50, 30), 0)
    }
}
