import CPixelKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Gaussian blur of an 8-bit mask in time independent of its radius: three box blurs in each
/// direction approximate the Gaussian of standard deviation σ (the box width SVG's
/// feGaussianBlur prescribes, d = ⌊σ · 3√(2π) / 4 + ½⌋; an even d takes two boxes of d, offset
/// half a pixel each way, and one of d + 1).
enum GaussianBlur {
    /// How far the blur of σ spreads a pixel on each side.
    static func spread(sigma: Double) -> Int {
        guard sigma > 0 else { return 0 }
        let d = boxWidth(sigma: sigma)
        return 3 * (d / 2) + 2
    }

    static func boxWidth(sigma: Double) -> Int {
        max(1, Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down)))
    }

    /// `mask` blurred by σ (device pixels, above 0 and at most 10⁴), over its bounds grown by
    /// `spread(sigma:)`, or only over the part of those inside `window`: the values there are
    /// the same, and the work and memory are bounded by the window and the mask, not by the
    /// spread (a huge radius on a small screen).
    ///
    /// Every pass runs down columns, a strip of `stripColumns` of them at a time with a running
    /// sum per column, so it reads memory in order and the compiler vectorises it across the
    /// strip; the row passes run on strips of rows turned on their side. Each output is a box's
    /// sum divided by its width (`BoxMean`): the values of the plain loop, a row at a time and
    /// then a column at a time (`GaussianBlurTests` compares). A line equal to the one before it
    /// takes that one's result (`reusingRepeats`, off only to compare in tests). The box passes
    /// run in an AVX2 kernel where the processor has it (`avx2`, off to compare in tests).
    static func blurred(
        _ mask: AlphaMask, sigma: Double, within window: IntRect? = nil, reusingRepeats: Bool = true,
        avx2: Bool = PixelKernels.avx2
    ) -> AlphaMask {
        precondition(sigma > 0, "a blur of σ \(sigma)")
        let pad = spread(sigma: sigma)
        let b = mask.bounds
        let grown = b.outset(by: pad)
        guard !b.isEmpty else { return AlphaMask(bounds: IntRect(x: b.x, y: b.y, width: 0, height: 0)) }
        let out = AlphaMask(bounds: window.map { grown.intersection($0) } ?? grown)
        let o = out.bounds
        guard !o.isEmpty else { return out }
        let boxes = self.boxes(sigma: sigma)
        // Across, the rows of the mask the passes down can reach, into the window's columns;
        // the other rows are 0 and stay 0.
        let rows = max(b.y, o.y - pad)..<max(max(b.y, o.y - pad), min(b.maxY, o.maxY + pad))
        let across = Lines(boxes, input: b.x..<b.maxX, output: o.x..<o.maxX)
        // The rows (then the columns) that differ from the one before them, in order.
        let distinct = UnsafeMutablePointer<Int>.allocate(capacity: max(1, rows.count, o.width))
        // For each row, which of the distinct rows it repeats (its place among them).
        let rowSource = UnsafeMutablePointer<Int>.allocate(capacity: max(1, rows.count))
        let repeats = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, o.width))
        // A line equal to the one before it blurs to the same values along it, so only the
        // others are blurred (a shadow's card: every row but the corners' is the same, and so
        // is every column between them), and a repeat reads or copies its neighbour's result.
        var distinctCount = 0
        var run = (start: rows.lowerBound, longest: 0..<0)
        for y in rows {
            if !reusingRepeats || y == rows.lowerBound || memcmp(mask.row(y), mask.row(y - 1), b.width) != 0 {
                distinct[distinctCount] = y
                distinctCount += 1
                run.start = y
            }
            rowSource[y - rows.lowerBound] = distinctCount - 1
            if y + 1 - run.start > run.longest.count { run.longest = run.start..<(y + 1) }
        }
        let skipped = reusingRepeats ? Self.skippedRows(of: run.longest, boxes, output: o.y..<o.maxY) : 0..<0
        let down = Lines(
            boxes, input: rows.lowerBound..<(rows.upperBound - skipped.count),
            output: o.y..<(o.maxY - skipped.count))
        let capacity = max(across.longest, down.longest) * stripColumns
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: stripColumns)
        // The distinct rows blurred across, one after the other: a card's shadow keeps a few
        // hundred rows here, not all of them (at 4K, about 0.3 MB of memory to fault in instead
        // of 2.5 MB).
        let middleBytes = max(1, distinctCount * o.width)
        let middle = UnsafeMutablePointer<UInt8>.allocate(capacity: middleBytes)
        defer {
            strip.deallocate()
            scratch.deallocate()
            sums.deallocate()
            middle.deallocate()
            distinct.deallocate()
            rowSource.deallocate()
            repeats.deallocate()
        }

        // Across, in strips of rows turned on their side: the distinct rows into `middle`.
        var first = 0
        while first < distinctCount {
            let count = min(stripColumns, distinctCount - first)
            for r in 0..<count {
                let row = mask.row(distinct[first + r])
                for x in 0..<b.width { strip[x &* count &+ r] = row[x] }
            }
            let result = across.blur(strip, scratch, lanes: count, sums: sums, avx2: avx2)
            for r in 0..<count {
                let row = middle + (first + r) * o.width
                for x in 0..<o.width { row[x] = result[x &* count &+ r] }
            }
            first += count
        }

        // Down, in strips of columns of `middle`, into the output.
        // A column repeats the one before it where every row says so (1: so far it does).
        repeats.update(repeating: reusingRepeats && rows.count > 0 ? 1 : 0, count: o.width)
        repeats[0] = 0
        if reusingRepeats {
            for k in 0..<distinctCount {
                let row = middle + k * o.width
                for x in 1..<o.width { repeats[x] &= row[x] == row[x &- 1] ? 1 : 0 }
            }
        }
        distinctCount = 0
        for x in 0..<o.width where repeats[x] == 0 {
            distinct[distinctCount] = x
            distinctCount += 1
        }
        first = 0
        while first < distinctCount {
            let count = min(stripColumns, distinctCount - first)
            let left = distinct[first]
            // Side by side (no repeats among them): whole runs of a row at a time.
            let adjacent = distinct[first + count - 1] - left == count - 1
            // The rows `skipped` leaves out of the columns are taken out of the lines.
            for q in 0..<(rows.count - skipped.count) {
                let y = rows.lowerBound + q < skipped.lowerBound ? q : q + skipped.count
                let line = strip + q * count, row = middle + rowSource[y] * o.width
                if adjacent {
                    line.update(from: row + left, count: count)
                } else {
                    for j in 0..<count { line[j] = row[distinct[first + j]] }
                }
            }
            let result = down.blur(strip, scratch, lanes: count, sums: sums, avx2: avx2)
            for y in 0..<o.height {
                // A skipped row takes the result of the row just before the skipped ones,
                // which (like every row deep in the run) has the run's value on each column.
                let p = o.y + y
                let q =
                    p < skipped.lowerBound
                    ? y : (p >= skipped.upperBound ? y - skipped.count : skipped.lowerBound - 1 - o.y)
                let line = result + q * count, row = out.row(p)
                if adjacent {
                    (row + left).update(from: line, count: count)
                } else {
                    for j in 0..<count { row[distinct[first + j]] = line[j] }
                }
            }
            first += count
        }
        // Each run of repeated columns takes the value of the column before it, row by row.
        var x = 1
        while x < o.width {
            guard repeats[x] != 0 else {
                x += 1
                continue
            }
            var end = x + 1
            while end < o.width && repeats[end] != 0 { end += 1 }
            for y in 0..<o.height {
                let row = out.row(o.y + y)
                (row + x).update(repeating: row[x - 1], count: end - x)
            }
            x = end
        }
        return out
    }

    /// The rows of a run of equal mask rows (`run`) that the passes down can leave out, inside
    /// `output`. The three passes together read `before` rows above a row and `after` below it,
    /// so a row whose reach lies in the run gets the run's own values (a box's mean of equal
    /// values is that value), and a run shortened by rows deep inside it gives every row
    /// outside them the same values as the whole run. The rows left out start one row past
    /// `before` into the run, so that the row before them has the run's values to lend them,
    /// and end `after` before the run's end. A card's shadow: the rows between its corners,
    /// most of each column's length. None when that saves too little.
    private static func skippedRows(of run: Range<Int>, _ boxes: [Box], output: Range<Int>) -> Range<Int> {
        let before = boxes.reduce(0) { $0 - $1.offset }, after = boxes.reduce(0) { $0 + $1.offset + $1.size - 1 }
        let lower = max(run.lowerBound + before + 1, output.lowerBound + 1)
        let upper = min(run.upperBound - after, output.upperBound)
        return upper - lower >= 16 ? lower..<upper : 0..<0
    }

    /// The three passes along lines whose input is on positions `input` and whose result is
    /// wanted on `output`. Each pass computes only where its result can be other than 0 and
    /// the passes after it read; every position it does not compute is 0 to the next.
    private struct Lines {
        let boxes: [Box]
        let input: Range<Int>
        /// The positions each pass computes; the last one's is the output.
        let passes: [Range<Int>]

        init(_ boxes: [Box], input: Range<Int>, output: Range<Int>) {
            self.boxes = boxes
            self.input = input
            var passes: [Range<Int>] = []
            var reached = input
            for (k, box) in boxes.enumerated() {
                // The result at u reads positions u + offset ..< u + offset + size.
                reached = (reached.lowerBound - box.offset - box.size + 1)..<(reached.upperBound - box.offset)
                // The passes after it read from `lead` before an output position to `lag` after it.
                let later = boxes[(k + 1)...]
                let lead = later.reduce(0) { $0 - $1.offset }, lag = later.reduce(0) { $0 + $1.offset + $1.size - 1 }
                let read = (output.lowerBound - lead)..<(output.upperBound + lag)
                passes.append(k == boxes.count - 1 ? output : reached.clamped(to: read))
            }
            self.passes = passes
        }

        /// The most positions a buffer holds.
        var longest: Int { max(input.count, passes.map(\.count).max() ?? 0) }

        /// Blurs `lanes` lines laid across `strip` (position u of lane l at
        /// `(u - input.lowerBound) · lanes + l`); returns the buffer holding the result, laid
        /// out the same way from the output's first position.
        func blur(
            _ strip: UnsafeMutablePointer<UInt8>, _ scratch: UnsafeMutablePointer<UInt8>, lanes: Int,
            sums: UnsafeMutablePointer<Int32>, avx2: Bool
        ) -> UnsafeMutablePointer<UInt8> {
            var from = input
            for (k, box) in boxes.enumerated() {
                let (source, target) = k % 2 == 0 ? (strip, scratch) : (scratch, strip)
                GaussianBlur.blurColumns(
                    source, from, into: target, passes[k], columns: lanes, box, sums: sums, avx2: avx2)
                from = passes[k]
            }
            return boxes.count % 2 == 1 ? scratch : strip
        }
    }

    /// Columns blurred together: a strip this wide of a tall mask stays in a core's cache.
    static let stripColumns = 64

    /// One box of the three: its width, and the offset of its window's left end from the
    /// output pixel.
    struct Box {
        let size: Int
        let offset: Int
        let mean: BoxMean
        init(size: Int, offset: Int) {
            self.size = size
            self.offset = offset
            mean = BoxMean(size: size)
        }
    }

    /// The three boxes for σ (an even width d takes two boxes of d, offset half a pixel each
    /// way, and one of d + 1).
    static func boxes(sigma: Double) -> [Box] {
        let d = boxWidth(sigma: sigma)
        return d % 2 == 1
            ? [Box(size: d, offset: -(d / 2)), Box(size: d, offset: -(d / 2)), Box(size: d, offset: -(d / 2))]
            : [Box(size: d, offset: -(d / 2)), Box(size: d, offset: -(d / 2) + 1), Box(size: d + 1, offset: -(d / 2))]
    }

    /// A box's rounded mean, `(sum + size / 2) / size`, as a multiply and a shift. With
    /// n = sum + size / 2 < 256·size and m = ⌈2ˢ / size⌉, n·m / 2ˢ exceeds n / size by
    /// n·(m·size − 2ˢ) / (size·2ˢ) ≤ n·(size − 1) / (size·2ˢ), which stays below 1 / size (so the
    /// quotient never carries to the next integer) while 256·size·(size − 1) ≤ 2ˢ. Boxes up to
    /// 256 wide take s = 24, so n·m (below 255.5·2²⁴ + 256²) fits 32 bits and eight are computed
    /// at once; wider ones take s = 40 in 64 bits, one at a time, which holds below 2¹⁶. A
    /// shadow's σ is at most 10⁴ device pixels (`Shadow.device(under:)`), a box at most 18,801
    /// wide.
    struct BoxMean {
        static let widest = 1 << 16 - 1
        static let widestInVectors = 256
        let half: UInt32
        /// ⌈2²⁴ / size⌉, or 0 for a box wider than `widestInVectors`.
        let multiplier24: UInt32
        /// ⌈2⁴⁰ / size⌉.
        let multiplier40: UInt64

        init(size: Int) {
            precondition(size >= 1 && size <= BoxMean.widest, "a box of \(size) pixels")
            half = UInt32(size / 2)
            multiplier24 = size <= BoxMean.widestInVectors ? UInt32(((1 << 24) + size - 1) / size) : 0
            multiplier40 = ((1 << 40) + UInt64(size) - 1) / UInt64(size)
        }

        @inline(__always)
        func callAsFunction(_ sum: Int32) -> UInt8 {
            UInt8(truncatingIfNeeded: (UInt64(UInt32(bitPattern: sum) &+ half) &* multiplier40) >> 40)
        }

        /// The means of `count` sums, eight at a time where the box allows.
        @inline(__always)
        func write(_ sums: UnsafePointer<Int32>, count: Int, to out: UnsafeMutablePointer<UInt8>) {
            var x = 0
            if multiplier24 != 0 {
                let halves = SIMD8<UInt32>(repeating: half), m = SIMD8<UInt32>(repeating: multiplier24)
                while x &+ 8 <= count {
                    let sum = UnsafeRawPointer(sums + x).loadUnaligned(as: SIMD8<UInt32>.self)
                    let mean = ((sum &+ halves) &* m) &>> 24
                    UnsafeMutableRawPointer(out + x).storeBytes(
                        of: SIMD8<UInt8>(truncatingIfNeeded: mean), as: SIMD8<UInt8>.self)
                    x &+= 8
                }
            }
            while x < count {
                out[x] = self(sums[x])
                x &+= 1
            }
        }
    }

    /// One box pass down `columns` columns: `input` holds positions `from` (`columns` bytes
    /// apart), every other position being 0; the result for positions `to` goes to `output`,
    /// every column with its own running sum in `sums`. With `avx2`, a box up to 256 wide runs
    /// in `vitrine_box_pass_avx2`: the same values, eight columns a step.
    private static func blurColumns(
        _ input: UnsafeMutablePointer<UInt8>, _ from: Range<Int>, into output: UnsafeMutablePointer<UInt8>,
        _ to: Range<Int>, columns: Int, _ box: Box, sums: UnsafeMutablePointer<Int32>, avx2: Bool
    ) {
        if avx2, box.mean.multiplier24 != 0 {
            vitrine_box_pass_avx2(
                input, from.lowerBound, from.upperBound, output, to.lowerBound, to.upperBound, columns, box.size,
                box.offset, box.mean.half, box.mean.multiplier24, sums)
            return
        }
        sums.update(repeating: 0, count: columns)
        @inline(__always) func add(_ u: Int, _ sign: Int32) {
            guard u >= from.lowerBound && u < from.upperBound else { return }
            let values = input + (u &- from.lowerBound) &* columns
            for x in 0..<columns { sums[x] &+= sign &* Int32(values[x]) }
        }
        for u in (to.lowerBound &+ box.offset)..<(to.lowerBound &+ box.offset &+ box.size) { add(u, 1) }
        for u in to {
            box.mean.write(sums, count: columns, to: output + (u &- to.lowerBound) &* columns)
            add(u &+ box.offset &+ box.size, 1)
            add(u &+ box.offset, -1)
        }
    }
}
