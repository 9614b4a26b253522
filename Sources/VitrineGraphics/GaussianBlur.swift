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

    /// `mask` blurred by σ (device pixels, at most 10⁴), over its bounds grown by
    /// `spread(sigma:)`.
    ///
    /// Every pass runs down columns, a strip of `stripColumns` of them at a time with a running
    /// sum per column, so it reads memory in order and the compiler vectorises it across the
    /// strip; the row passes run on strips of rows turned on their side. Each output is a box's
    /// sum divided by its width (`BoxMean`): the values of the plain loop, a row at a time and
    /// then a column at a time (`GaussianBlurTests` compares).
    static func blurred(_ mask: AlphaMask, sigma: Double) -> AlphaMask {
        let pad = spread(sigma: sigma)
        let b = mask.bounds
        let out = AlphaMask(
            bounds: IntRect(x: b.x - pad, y: b.y - pad, width: b.width + 2 * pad, height: b.height + 2 * pad))
        guard !b.isEmpty else { return out }
        let width = out.bounds.width, height = out.bounds.height
        for y in 0..<b.height {
            (out.bytes + (y + pad) * width + pad).update(from: mask.row(b.y + y), count: b.width)
        }
        guard pad > 0 else { return out }
        let boxes = self.boxes(sigma: sigma)
        let capacity = max(width, height) * stripColumns
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: stripColumns)
        defer {
            strip.deallocate()
            scratch.deallocate()
            sums.deallocate()
        }
        /// The three passes down `columns` columns of `rows` rows in `strip`; the result in `scratch`.
        func blurStrip(columns: Int, rows: Int) {
            for (k, box) in boxes.enumerated() {
                let (from, to) = k % 2 == 0 ? (strip, scratch) : (scratch, strip)
                blurColumns(from, into: to, columns: columns, rows: rows, box, sums: sums)
            }
        }
        // Across: the padding rows are 0 and stay 0. A strip of rows is laid with each row as a
        // column of `strip`.
        var top = pad
        while top < pad + b.height {
            let rows = min(stripColumns, pad + b.height - top)
            for r in 0..<rows {
                let row = out.bytes + (top + r) * width
                for x in 0..<width { strip[x &* rows &+ r] = row[x] }
            }
            blurStrip(columns: rows, rows: width)
            for r in 0..<rows {
                let row = out.bytes + (top + r) * width
                for x in 0..<width { row[x] = scratch[x &* rows &+ r] }
            }
            top += rows
        }
        // Down.
        var left = 0
        while left < width {
            let columns = min(stripColumns, width - left)
            for y in 0..<height { (strip + y * columns).update(from: out.bytes + y * width + left, count: columns) }
            blurStrip(columns: columns, rows: height)
            for y in 0..<height { (out.bytes + y * width + left).update(from: scratch + y * columns, count: columns) }
            left += columns
        }
        return out
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

    /// One box pass down `columns` columns of `rows` rows (`columns` bytes apart), every column
    /// with its own running sum in `sums`.
    private static func blurColumns(
        _ input: UnsafeMutablePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, columns: Int, rows: Int,
        _ box: Box, sums: UnsafeMutablePointer<Int32>
    ) {
        sums.update(repeating: 0, count: columns)
        @inline(__always) func add(row: Int, _ sign: Int32) {
            guard row >= 0 && row < rows else { return }
            let values = input + row &* columns
            for x in 0..<columns { sums[x] &+= sign &* Int32(values[x]) }
        }
        for k in 0..<box.size { add(row: box.offset &+ k, 1) }
        for i in 0..<rows {
            box.mean.write(sums, count: columns, to: output + i &* columns)
            add(row: i &+ box.offset &+ box.size, 1)
            add(row: i &+ box.offset, -1)
        }
    }
}
