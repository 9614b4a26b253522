import XCTest
@testable import VitrineGraphics

/// The blur's fast loops (columns in strips, the mean as a multiply) give the values of the
/// plain one: each pass a box's sum divided by its width, row by row and then column by column.
final class GaussianBlurTests: XCTestCase {
    func testTheBlurEqualsThePlainBoxPasses() {
        var random = SystemRandomNumberGenerator()
        // Odd and even box widths, a box wider than the mask, masks narrower and wider than a
        // strip of columns, a solid block (the card of a shadow) and noise.
        let cases: [(width: Int, height: Int, sigma: Double)] = [
            (1, 1, 0.4), (7, 3, 1), (40, 33, 3), (64, 10, 2.2), (65, 70, 5.5), (130, 90, 12), (3, 200, 20),
            (150, 140, 40), (31, 17, 80)
        ]
        for (width, height, sigma) in cases {
            for solid in [false, true] {
                let mask = AlphaMask(bounds: IntRect(x: 5, y: -3, width: width, height: height))
                for i in 0..<(width * height) {
                    let x = i % width, y = i / width
                    let inside = x > width / 5 && x < width * 4 / 5 && y > height / 6 && y < height * 5 / 6
                    mask.bytes[i] = solid ? (inside ? 255 : 0) : UInt8.random(in: 0...255, using: &random)
                }
                let plain = Self.plainBlur(mask, sigma: sigma)
                let pad = GaussianBlur.spread(sigma: sigma)
                // The Swift passes, and the AVX2 kernel's where the processor has it.
                for avx2 in Set([false, PixelKernels.avx2]) {
                    let fast = GaussianBlur.blurred(mask, sigma: sigma, avx2: avx2)
                    XCTAssertEqual(
                        fast.bounds, IntRect(x: 5 - pad, y: -3 - pad, width: width + 2 * pad, height: height + 2 * pad))
                    let count = fast.bounds.area
                    XCTAssertEqual(plain.count, count)
                    let differing = (0..<count).filter { fast.bytes[$0] != plain[$0] }.count
                    XCTAssertEqual(differing, 0, "\(width)x\(height) σ \(sigma) solid \(solid) AVX2 \(avx2)")
                }
            }
        }
    }

    /// Blurred only inside a window, the values are the whole blur's there, whether the window
    /// holds the mask, cuts it, lies beside it or is much smaller than the blur's reach.
    func testTheBlurInsideAWindowIsTheWholeBlurThere() {
        var random = SystemRandomNumberGenerator()
        let cases: [(width: Int, height: Int, sigma: Double)] = [(30, 20, 3), (70, 90, 12), (12, 9, 150)]
        for (width, height, sigma) in cases {
            let mask = AlphaMask(bounds: IntRect(x: -4, y: 7, width: width, height: height))
            for i in 0..<(width * height) { mask.bytes[i] = UInt8.random(in: 0...255, using: &random) }
            let plain = Self.plainBlur(mask, sigma: sigma)
            let pad = GaussianBlur.spread(sigma: sigma)
            let grown = IntRect(x: -4 - pad, y: 7 - pad, width: width + 2 * pad, height: height + 2 * pad)
            let windows = [
                grown, IntRect(x: 0, y: 0, width: 25, height: 17),
                IntRect(x: -4 - pad - 9, y: 3, width: 20, height: 300),
                IntRect(x: width + pad / 2, y: height + pad / 3, width: 70, height: 5),
                IntRect(x: 10, y: 9, width: 1, height: 1), IntRect(x: -1_000, y: 0, width: 5, height: 5)
            ]
            for window in windows {
                let fast = GaussianBlur.blurred(mask, sigma: sigma, within: window)
                let expected = grown.intersection(window)
                XCTAssertEqual(fast.bounds, expected, "σ \(sigma) window \(window)")
                var differing = 0
                for y in expected.y..<expected.maxY {
                    for x in expected.x..<expected.maxX {
                        let whole = plain[(y - grown.y) * grown.width + x - grown.x]
                        if fast.row(y)[x - expected.x] != whole { differing += 1 }
                    }
                }
                XCTAssertEqual(differing, 0, "σ \(sigma) window \(window)")
            }
        }
    }

    /// A card's mask repeats rows and columns (every row between the rounded corners is the
    /// same, and every column between them): those take their neighbour's result, which must be
    /// what blurring them gives. Repeats at the edges and in runs, a single differing row and
    /// column among them, a mask all one row, windows cutting the repeats.
    func testRepeatedLinesTakeTheirNeighboursBlur() {
        let width = 90, height = 70
        let card = AlphaMask(bounds: IntRect(x: 3, y: 2, width: width, height: height))
        var path = Path()
        path.addRoundedRect(Rect(x: 3.4, y: 2.7, width: 80.3, height: 60.5), cornerRadius: 11)
        let context = GraphicsContext(bitmap: Bitmap(width: 100, height: 80))
        let drawn = context.renderAlphaMask { context.fill(path, color: .black) }
        let d = drawn.bounds
        for y in 0..<height {
            for x in 0..<width {
                let (px, py) = (x + 3, y + 2)
                let inside = px >= d.x && px < d.maxX && py >= d.y && py < d.maxY
                card.bytes[y * width + x] = inside ? drawn.row(py)[px - d.x] : 0
            }
        }
        card.bytes[40 * width + 50] = 77  // one row and one column that differ
        let oneRow = AlphaMask(bounds: IntRect(x: 0, y: 0, width: 40, height: 30))
        for i in 0..<(40 * 30) { oneRow.bytes[i] = UInt8(truncatingIfNeeded: (i % 40) * 6) }
        for (mask, sigma) in [(card, 4.0), (card, 13.0), (oneRow, 2.5)] {
            let pad = GaussianBlur.spread(sigma: sigma)
            let grown = mask.bounds.outset(by: pad)
            let plain = Self.plainBlur(mask, sigma: sigma)
            let windows: [IntRect?] = [
                nil, IntRect(x: 20, y: 10, width: 30, height: 40), IntRect(x: -50, y: 45, width: 300, height: 3)
            ]
            for window in windows {
                let fast = GaussianBlur.blurred(mask, sigma: sigma, within: window)
                let everyLine = GaussianBlur.blurred(mask, sigma: sigma, within: window, reusingRepeats: false)
                let o = fast.bounds
                XCTAssertEqual(o, everyLine.bounds)
                var differing = 0
                for y in o.y..<o.maxY {
                    for x in o.x..<o.maxX {
                        let value = fast.row(y)[x - o.x]
                        if value != everyLine.row(y)[x - o.x]
                            || value != plain[(y - grown.y) * grown.width + x - grown.x]
                        {
                            differing += 1
                        }
                    }
                }
                XCTAssertEqual(differing, 0, "σ \(sigma) window \(String(describing: window))")
            }
        }
    }

    /// A tall card's columns are blurred without the rows deep inside its straight sides
    /// (every box of every pass reads only equal rows around them): the values are the plain
    /// blur's all the same, with the run of equal rows long or just long enough, even and odd
    /// boxes, and windows that begin, end or lie inside the left-out rows.
    func testRowsLeftOutOfTheColumnsGiveThePlainBlur() {
        func card(width: Int, height: Int, radius: Double) -> AlphaMask {
            let mask = AlphaMask(bounds: IntRect(x: -2, y: 4, width: width, height: height))
            var path = Path()
            path.addRoundedRect(
                Rect(x: 0.3, y: 5.6, width: Double(width) - 4.5, height: Double(height) - 3.2), cornerRadius: radius)
            let context = GraphicsContext(bitmap: Bitmap(width: width + 2, height: height + 8))
            let drawn = context.renderAlphaMask { context.fill(path, color: .black) }
            let d = drawn.bounds
            for y in 0..<height {
                for x in 0..<width {
                    let (px, py) = (x - 2, y + 4)
                    let inside = px >= d.x && px < d.maxX && py >= d.y && py < d.maxY
                    mask.bytes[y * width + x] = inside ? drawn.row(py)[px - d.x] : 0
                }
            }
            return mask
        }
        let cases: [(mask: AlphaMask, sigma: Double)] = [
            (card(width: 50, height: 400, radius: 9), 3), (card(width: 70, height: 300, radius: 20), 8),
            (card(width: 40, height: 260, radius: 4), 12.5), (card(width: 30, height: 120, radius: 6), 5)
        ]
        for (mask, sigma) in cases {
            let pad = GaussianBlur.spread(sigma: sigma)
            let grown = mask.bounds.outset(by: pad)
            let plain = Self.plainBlur(mask, sigma: sigma)
            let middle = grown.y + grown.height / 2
            let windows: [IntRect?] = [
                nil, IntRect(x: -100, y: middle, width: 300, height: 400),
                IntRect(x: 0, y: grown.y, width: 20, height: middle - grown.y),
                IntRect(x: -100, y: middle - 30, width: 300, height: 60),
                IntRect(x: 5, y: grown.y + 20, width: 9, height: grown.height - 40)
            ]
            for window in windows {
                for avx2 in Set([false, PixelKernels.avx2]) {
                    let fast = GaussianBlur.blurred(mask, sigma: sigma, within: window, avx2: avx2)
                    let o = fast.bounds
                    XCTAssertEqual(o, window.map { grown.intersection($0) } ?? grown)
                    var differing = 0
                    for y in o.y..<o.maxY {
                        for x in o.x..<o.maxX
                        where fast.row(y)[x - o.x] != plain[(y - grown.y) * grown.width + x - grown.x] {
                            differing += 1
                        }
                    }
                    XCTAssertEqual(
                        differing, 0, "\(mask.bounds) σ \(sigma) window \(String(describing: window)) AVX2 \(avx2)")
                }
            }
        }
    }

    /// The widest blur a shadow can ask for on a small target: a mask the size of the target,
    /// not one grown by the spread of 28,000 pixels each way.
    func testAHugeBlurInsideASmallWindowStaysItsSize() {
        let mask = AlphaMask(bounds: IntRect(x: 40, y: 30, width: 100, height: 80))
        mask.bytes.update(repeating: 255, count: 100 * 80)
        let window = IntRect(x: 0, y: 0, width: 320, height: 200)
        let blurred = GaussianBlur.blurred(mask, sigma: 1e4, within: window)
        XCTAssertEqual(blurred.bounds, window)
        // 8,000 opaque pixels spread over a Gaussian of σ 10⁴: far below one level everywhere.
        XCTAssertEqual((0..<window.area).map { Int(blurred.bytes[$0]) }.max(), 0)
    }

    /// The rounded means of every box up to 256 wide (eight at a time, in 32 bits) and of
    /// wider ones (one at a time, in 64 bits), up to the widest: for sums across 0…255·width,
    /// and every sum next to a multiple of the width, where a multiply too coarse would carry
    /// the quotient to the next integer.
    func testTheBoxMeanIsTheRoundedQuotient() {
        let sizes = Array(1...GaussianBlur.BoxMean.widestInVectors) + [257, 1000, 4095, 18801, 32768, 65535]
        for size in sizes {
            let mean = GaussianBlur.BoxMean(size: size)
            var sums = Array(stride(from: 0, through: 255 * size, by: size / 8 + 1))
            for k in 0...256 {
                for n in (k * size - 2)...(k * size + 1) where n - size / 2 >= 0 && n - size / 2 <= 255 * size {
                    sums.append(n - size / 2)
                }
            }
            let values = sums.map { Int32($0) }
            var out = [UInt8](repeating: 0, count: values.count)
            values.withUnsafeBufferPointer { sums in
                out.withUnsafeMutableBufferPointer {
                    mean.write(sums.baseAddress!, count: sums.count, to: $0.baseAddress!)
                }
            }
            var wrong = 0
            for (sum, value) in zip(values, out) {
                let expected = (Int(sum) + size / 2) / size
                if Int(value) != expected || Int(mean(sum)) != expected { wrong += 1 }
            }
            XCTAssertEqual(wrong, 0, "size \(size)")
        }
    }

    /// The three boxes per direction computed the plain way: every row through a line, every
    /// column gathered into one, a division per value.
    private static func plainBlur(_ mask: AlphaMask, sigma: Double) -> [UInt8] {
        let pad = GaussianBlur.spread(sigma: sigma)
        let b = mask.bounds
        let width = b.width + 2 * pad, height = b.height + 2 * pad
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<b.height {
            for x in 0..<b.width { out[(y + pad) * width + x + pad] = mask.bytes[y * b.width + x] }
        }
        let boxes = GaussianBlur.boxes(sigma: sigma)
        func pass(_ input: [UInt8], _ box: GaussianBlur.Box) -> [UInt8] {
            func value(_ i: Int) -> Int { i >= 0 && i < input.count ? Int(input[i]) : 0 }
            var sum = 0
            for k in 0..<box.size { sum += value(box.offset + k) }
            var output = [UInt8](repeating: 0, count: input.count)
            for i in input.indices {
                output[i] = UInt8((sum + box.size / 2) / box.size)
                sum += value(i + box.offset + box.size) - value(i + box.offset)
            }
            return output
        }
        for y in 0..<height {
            var line = Array(out[(y * width)..<((y + 1) * width)])
            for box in boxes { line = pass(line, box) }
            for x in 0..<width { out[y * width + x] = line[x] }
        }
        for x in 0..<width {
            var line = (0..<height).map { out[$0 * width + x] }
            for box in boxes { line = pass(line, box) }
            for y in 0..<height { out[y * width + x] = line[y] }
        }
        return out
    }
}
