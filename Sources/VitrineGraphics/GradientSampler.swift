import Glibc
import CPixelKernels

/// Premultiplied pixels of a gradient at device pixel centres: each pixel's place in the
/// gradient's space (the inverse of its transform), its position `t` along the gradient, and
/// the colour at `t` from a table of 1024 entries (finer than 8-bit colour steps).
///
/// Dithered, so a long shallow ramp shows no 8-bit bands: the table keeps four more bits per
/// channel, and each pixel adds the threshold of its place in a 4 × 4 ordered (Bayer) matrix
/// before dropping them. A colour that is exact in 8 bits comes out exact at every threshold
/// (solid stops stay solid), and a channel never exceeds its alpha (both round alike).
struct GradientSampler {
    private static let tableSize = 1024
    private let kind: Gradient.Kind
    /// 12-bit channels (8.4 fixed point), 16 bits apart: a, r, g, b from the top.
    private let table: [UInt64]
    /// Device → gradient space.
    private let inverse: Transform2D
    private let start: Point
    /// axial: the direction over its squared length; radial: 1 / radius; conic: the first
    /// colour's angle.
    private let axis: Point
    private let scale: Double
    private let angle0: Double
    /// Whether every pixel is opaque: every colour is, at full alpha (each entry's alpha is then
    /// 255 in 8.4 fixed point, whatever a pixel's dither threshold adds).
    let isOpaque: Bool

    /// A sampler of `gradient` drawn through `transform` (gradient space → device) at global
    /// alpha `alpha`; nil when the transform cannot be inverted.
    init?(_ gradient: Gradient, transform: Transform2D, alpha: Double, tables: GradientTables) {
        guard let inverse = transform.inverted(), !gradient.colors.isEmpty else { return nil }
        self.inverse = inverse
        kind = gradient.kind
        start = gradient.start
        let d = Point(x: gradient.end.x - gradient.start.x, y: gradient.end.y - gradient.start.y)
        let lengthSquared = d.x * d.x + d.y * d.y
        switch gradient.kind {
        case .axial:
            axis = lengthSquared > 0 ? Point(x: d.x / lengthSquared, y: d.y / lengthSquared) : .zero
            scale = 0
            angle0 = 0
        case .radial:
            axis = .zero
            scale = lengthSquared > 0 ? 1 / lengthSquared.squareRoot() : 0
            angle0 = 0
        case .conic:
            axis = .zero
            scale = 0
            angle0 = atan2(d.y, d.x)
        }
        // A degenerate axial or radial gradient is all beyond its end: the last colour.
        let degenerate = lengthSquared == 0 && gradient.kind != .conic
        table = tables.table(for: gradient, alpha: alpha, allAtEnd: degenerate)
        isOpaque = alpha >= 1 && gradient.colors.allSatisfy { $0.alpha >= 1 }
    }

    /// The premultiplied colours at 1024 evenly spaced positions of `gradient`, each channel
    /// in 8.4 fixed point.
    static func makeTable(_ gradient: Gradient, alpha: Double, allAtEnd: Bool) -> [UInt64] {
        let stops = gradient.stops
        let last = Double(tableSize - 1)
        @inline(__always) func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        return (0..<tableSize).map { i in
            let color = gradient.color(at: allAtEnd ? 1 : Double(i) / last, stops: stops)
            let a = unit(color.alpha) * unit(alpha)
            @inline(__always) func fixed(_ v: Double) -> UInt64 { UInt64((v * 255 * 16).rounded()) }
            return fixed(a) << 48 | fixed(unit(color.red) * a) << 32 | fixed(unit(color.green) * a) << 16
                | fixed(unit(color.blue) * a)
        }
    }

    /// `v.rounded()` (halves away from zero) for 0 ≤ v < 2⁵², exactly: the part below the
    /// whole number is exact in a Double. The baseline x86-64 build has no rounding instruction
    /// (SSE4.1's), so `rounded()` is a call to libm's `round`: 14 % of drawing a gradient.
    @inline(__always)
    static func roundedIndex(_ v: Double) -> Int {
        let whole = Int(v)
        return v - Double(whole) >= 0.5 ? whole &+ 1 : whole
    }

    /// The 4 × 4 Bayer matrix: thresholds 0…15, each spread as far from its neighbours as can be.
    private static let bayer: [UInt64] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// `count` pixels of row `y` from device x `x`, into `out`; a slanted axial gradient's through
    /// the AVX2 kernel when `kernels` (tests compare the two).
    func sample(
        x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, kernels: Bool = PixelKernels.avx2
    ) {
        // One loop per kind, the kind's position function inlined into it.
        switch kind {
        case .axial:
            if fillAxial(x: x, y: y, count: count, into: out, kernels: kernels) { return }
            let axis = axis
            fill(x: x, y: y, count: count, into: out) { px, py in px * axis.x + py * axis.y }
        case .radial:
            let scale = scale
            fill(x: x, y: y, count: count, into: out) { px, py in (px * px + py * py).squareRoot() * scale }
        case .conic:
            fillConic(x: x, y: y, count: count, into: out)
        }
    }

    /// A conic gradient's place (the turn from the first colour's angle, in [0, 1)) at `px`, `py`
    /// from its centre.
    @inline(__always)
    private func turn(_ px: Double, _ py: Double) -> Double {
        let turn = (Self.angle(py, px) - angle0) * (0.5 / Double.pi)
        // `turn - turn.rounded(.down)` for turn in [−1, 2), without libm's floor.
        return turn < 0 ? turn + 1 : turn >= 1 ? turn - 1 : turn
    }

    /// Pixels a conic row steps between exact angles, at most.
    static let conicStride = 16
    /// Table indices worked out at a time before a conic row's pixels are written.
    private static let conicBatch = 256

    /// A conic gradient's row: its table indices a batch at a time (`conicIndices`), then the
    /// pixels.
    private func fillConic(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: Self.conicBatch) { indices in
            // The place of the row's column 0, relative to the centre: a pixel's place is this plus
            // its column times the step, whichever span reads it.
            let origin = inverse.apply(to: Point(x: 0.5, y: Double(y) + 0.5))
            let rowOrigin = Point(x: origin.x - start.x, y: origin.y - start.y)
            var done = 0
            while done < count {
                let n = min(count - done, Self.conicBatch)
                conicIndices(row: rowOrigin, from: x + done, count: n, into: indices.baseAddress!)
                var k = 0
                writeRow(x: x + done, y: y, count: n, into: out + done) {
                    let index = Int(indices[k])
                    k &+= 1
                    return index
                }
                done += n
            }
        }
    }

    /// The table indices of the `count` pixels of a conic row from column `x` (`origin` is the
    /// place of column 0, relative to the centre, in gradient space). The angle along a straight
    /// row bends slowly far from the centre, so it is computed exactly at every 16th column (or
    /// 8th) and stepped linearly in between, in 16.16 fixed point, where that is close enough;
    /// elsewhere (near the centre) every pixel gets its own. The pieces lie on the row's own
    /// grid of columns, so a pixel's index does not depend on the span that asks for it (a clip
    /// cutting a row short changes nothing it leaves). Close enough: along a line the angle's
    /// second derivative is at most 1 / r² at distance r from the centre, so a straight step
    /// over a length L strays from the angle by at most L² / (8 r²) radian, below 1/32 of a
    /// table entry (2π / 1023 radian) where the piece stays 25.5 L from the centre, as it does
    /// when both its ends are 26 L away. An index then differs from the exact one only where
    /// the exact place is that close to halfway between two entries.
    private func conicIndices(row origin: Point, from x: Int, count: Int, into indices: UnsafeMutablePointer<UInt16>) {
        let stepX = inverse.a, stepY = inverse.b
        let stepSquared = stepX * stepX + stepY * stepY
        let last = Double(Self.tableSize - 1)
        // A whole turn in fixed point: stepped places wrap around it.
        let wholeTurn = Int64(Self.tableSize - 1) << 16
        @inline(__always) func place(_ column: Int) -> (x: Double, y: Double) {
            (origin.x + Double(column) * stepX, origin.y + Double(column) * stepY)
        }
        // The exact turn at `knownColumn` (the end of the last stepped piece).
        var knownColumn = Int.min, known = 0.0
        @inline(__always) func turn(at column: Int) -> Double {
            if column == knownColumn { return known }
            let p = place(column)
            return self.turn(p.x, p.y)
        }
        /// Writes the indices of columns `from..<to` (inside the piece of `length` columns from
        /// `piece`) stepped across the piece, if both its ends are far enough from the centre.
        func stepped(piece: Int, length: Int, from: Int, to: Int) -> Bool {
            let p0 = place(piece), p1 = place(piece &+ length)
            let r0 = p0.x * p0.x + p0.y * p0.y, r1 = p1.x * p1.x + p1.y * p1.y
            guard min(r0, r1) >= 676 * Double(length * length) * stepSquared, r0.isFinite, r1.isFinite else {
                return false
            }
            let t0 = turn(at: piece), t1 = turn(at: piece &+ length)
            knownColumn = piece &+ length
            known = t1
            var delta = t1 - t0
            if delta > 0.5 { delta -= 1 } else if delta < -0.5 { delta += 1 }
            let u0 = Int64((t0 * last * 65536).rounded(.down))
            let du = Int64((delta * last * 65536 / Double(length)).rounded())
            for column in from..<to {
                // Less than half a turn from u0, which lies within one turn: one wrap at most.
                var u = u0 &+ Int64(column &- piece) &* du
                if u < 0 { u &+= wholeTurn } else if u >= wholeTurn { u &-= wholeTurn }
                indices[column &- x] = UInt16(truncatingIfNeeded: (u &+ 32768) >> 16)
            }
            return true
        }
        let end = x &+ count
        var column = x
        while column < end {
            let piece = column & ~(Self.conicStride &- 1)
            let pieceEnd = min(end, piece &+ Self.conicStride)
            if !stepped(piece: piece, length: Self.conicStride, from: column, to: pieceEnd) {
                // Its halves, each stepped if it can be, else pixel by pixel.
                let half = Self.conicStride / 2
                for start in stride(from: piece, to: piece &+ Self.conicStride, by: half) {
                    let from = max(column, start), to = min(pieceEnd, start &+ half)
                    if from >= to || stepped(piece: start, length: half, from: from, to: to) { continue }
                    for c in from..<to {
                        let t = turn(at: c)
                        indices[c &- x] = UInt16(
                            truncatingIfNeeded: Self.roundedIndex((t.isNaN ? 0 : min(max(t, 0), 1)) * last))
                    }
                }
            }
            column = pieceEnd
        }
    }

    /// `atan2(y, x)` to within 10⁻¹⁰ radian, inlined: a conic gradient asks it of every pixel
    /// near its centre and every 8 or 16 farther out, and libm's costs a call and more than
    /// the table lookup. The angle is folded into
    /// [0, π/4] by the octant (a = low / high of |x| and |y|), then below π/8 by
    /// atan a = π/4 + atan((a − 1)/(a + 1)) = π/4 + atan((low − high)/(low + high)); there
    /// atan z is its series, z · Σ (−z²)ᵏ / (2k + 1), whose terms after the twelfth are below
    /// 0.4143²⁵ / 25 < 10⁻¹¹. (A table entry is 6·10⁻³ radian wide: the index differs from
    /// libm's only where the angle lies that close to halfway between two entries.) Not
    /// finite, or at the origin, it is libm's.
    @inline(__always)
    static func angle(_ y: Double, _ x: Double) -> Double {
        let ax = abs(x), ay = abs(y)
        guard ax.isFinite, ay.isFinite, ax > 0 || ay > 0 else { return atan2(y, x) }
        let high = max(ax, ay), low = min(ax, ay)
        let folds = low > 0.414_213_562_373_095_1 * high
        let a = (folds ? low - high : low) / (folds ? low + high : high)
        let base = folds ? Double.pi / 4 : 0
        // The twelve terms in pairs, then pairs of pairs (Estrin's scheme): a few multiplies
        // deep instead of a chain of twelve, so neighbouring pixels' work overlaps.
        let w = a * a, w2 = w * w
        let w4 = w2 * w2
        let p0 = (1 - w * (1.0 / 3)) + (1.0 / 5 - w * (1.0 / 7)) * w2
        let p1 = (1.0 / 9 - w * (1.0 / 11)) + (1.0 / 13 - w * (1.0 / 15)) * w2
        let p2 = (1.0 / 17 - w * (1.0 / 19)) + (1.0 / 21 - w * (1.0 / 23)) * w2
        let series = p0 + (p1 + p2 * w4) * w4
        var angle = base + a * series
        if ay > ax { angle = Double.pi / 2 - angle }
        if x < 0 { angle = Double.pi - angle }
        return y < 0 ? -angle : angle
    }

    /// An axial gradient's row: its place along the gradient is linear in x, so the table
    /// index is stepped in 16.16 fixed point rather than computed in Double and rounded per
    /// pixel. The stepped place drifts from the exact one by at most 2⁻¹⁷ of an entry a pixel
    /// (0.03 of an entry across a 4K row), so an index differs only where the exact place is
    /// that close to halfway between two entries. False (nothing written) when the row's places
    /// are too far out for fixed point; `fill` draws it then.
    private func fillAxial(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, kernels: Bool) -> Bool {
        // Stepped from the row's column 0, so a pixel's index does not depend on the span.
        let origin = inverse.apply(to: Point(x: 0.5, y: Double(y) + 0.5))
        let last = Double(Self.tableSize - 1)
        let start = ((origin.x - self.start.x) * axis.x + (origin.y - self.start.y) * axis.y) * last
        let step = (inverse.a * axis.x + inverse.b * axis.y) * last
        let first = start + step * Double(x), end = start + step * Double(x + count)
        // Within ±2²⁰ entries from column 0 to the span's end: no step can overflow 64-bit
        // fixed point.
        guard start.isFinite, step.isFinite, abs(start) < 1_048_576, abs(first) < 1_048_576, abs(end) < 1_048_576
        else { return false }
        // Rounded half up by the half entry added once; clamped to the table before that.
        let du = Int64((step * 65536).rounded())
        var u = Int64((start * 65536).rounded(.down)) &+ Int64(x) &* du
        let top = Int64(Self.tableSize - 1) << 16
        if du == 0 {
            // Across the gradient (a vertical one's rows): one entry, dithered four ways.
            writeRow(
                x: x, y: y, count: count, into: out,
                index: Int(truncatingIfNeeded: (min(max(u, 0), top) &+ 32768) >> 16))
            return true
        }
        // Eight pixels at a time through the AVX2 kernel (the same pixels), the rest here.
        var done = 0
        if kernels && count >= 8 {
            let thresholds = Self.thresholds(x: x, y: y)
            done = table.withUnsafeBufferPointer { table in
                withUnsafePointer(to: thresholds) {
                    $0.withMemoryRebound(to: UInt64.self, capacity: 4) {
                        vitrine_gradient_axial_avx2(table.baseAddress!, u, du, top, $0, count, out)
                    }
                }
            }
            u &+= Int64(done) &* du
        }
        writeRow(x: x &+ done, y: y, count: count &- done, into: out + done) {
            let index = Int(truncatingIfNeeded: (min(max(u, 0), top) &+ 32768) >> 16)
            u &+= du
            return index
        }
        return true
    }

    /// The dither thresholds of the four pixels of row `y` from device x `x` (then repeating),
    /// each added to all four channels of its pixel's entry.
    @inline(__always)
    private static func thresholds(x: Int, y: Int) -> SIMD4<UInt64> {
        let row = (y & 3) * 4
        @inline(__always) func threshold(_ k: Int) -> UInt64 { bayer[row + ((x &+ k) & 3)] &* 0x0001_0001_0001_0001 }
        return SIMD4(threshold(0), threshold(1), threshold(2), threshold(3))
    }

    /// The pixels of `sample`, `position` giving each one's place along the gradient from its
    /// place in gradient space relative to the start.
    @inline(__always)
    private func fill(
        x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, _ position: (Double, Double) -> Double
    ) {
        // Each place from the row's column 0, not stepped from the span's start: a pixel's place
        // does not depend on the span.
        let origin = inverse.apply(to: Point(x: 0.5, y: Double(y) + 0.5))
        let originX = origin.x - start.x, originY = origin.y - start.y
        let stepX = inverse.a, stepY = inverse.b
        let last = Double(Self.tableSize - 1)
        var column = Double(x)
        writeRow(x: x, y: y, count: count, into: out) {
            let t = position(originX + column * stepX, originY + column * stepY)
            column += 1
            return Self.roundedIndex((t.isNaN ? 0 : min(max(t, 0), 1)) * last)
        }
    }

    /// The 8-bit pixel of a table entry with `threshold` (the same in all four channels) added
    /// before each channel's four extra bits are dropped.
    @inline(__always)
    private static func pixel(_ entry: UInt64, threshold: UInt64) -> UInt32 {
        let s = (entry &+ threshold) >> 4
        return UInt32(
            truncatingIfNeeded: (s >> 24) & 0xFF00_0000 | (s >> 16) & 0x00FF_0000 | (s >> 8) & 0x0000_FF00 | s & 0xFF)
    }

    /// Writes `count` pixels of row `y` from device x `x`: the table entries at the indices
    /// `nextIndex` gives, one call per pixel in order, dithered. The threshold is added to all
    /// four channels at once (none carries into the next: 4080 + 15 < 2¹⁶), then each
    /// channel's 8-bit part taken. The matrix's row repeats every four pixels, so the loop
    /// takes four a turn with their thresholds held, no lookup per pixel.
    @inline(__always)
    private func writeRow(
        x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, _ nextIndex: () -> Int
    ) {
        let thresholds = Self.thresholds(x: x, y: y)
        let th0 = thresholds[0], th1 = thresholds[1], th2 = thresholds[2]
        table.withUnsafeBufferPointer { table in
            @inline(__always) func next(_ threshold: UInt64) -> UInt32 {
                Self.pixel(table[nextIndex()], threshold: threshold)
            }
            // Four pixels a turn as one vector of sixteen 16-bit channels: thresholds added,
            // four bits dropped, each channel narrowed to its byte (b, g, r, a: the pixels).
            let thresholds = unsafeBitCast(thresholds, to: SIMD16<UInt16>.self)
            let raw = UnsafeMutableRawPointer(out)
            var i = 0
            while i &+ 4 <= count {
                let e0 = table[nextIndex()], e1 = table[nextIndex()]
                let e2 = table[nextIndex()], e3 = table[nextIndex()]
                let channels = unsafeBitCast(SIMD4<UInt64>(e0, e1, e2, e3), to: SIMD16<UInt16>.self)
                raw.storeBytes(
                    of: SIMD16<UInt8>(truncatingIfNeeded: (channels &+ thresholds) &>> 4), toByteOffset: i &* 4,
                    as: SIMD16<UInt8>.self)
                i &+= 4
            }
            if i < count { out[i] = next(th0) }
            if i &+ 1 < count { out[i &+ 1] = next(th1) }
            if i &+ 2 < count { out[i &+ 2] = next(th2) }
        }
    }

    /// Writes `count` pixels of row `y` from device x `x`, all of table entry `index`: its four
    /// dithered values, then the row as that pattern repeated, four pixels a store.
    private func writeRow(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, index: Int) {
        let thresholds = Self.thresholds(x: x, y: y)
        var pattern = SIMD4<UInt32>()
        table.withUnsafeBufferPointer { table in
            for k in 0..<4 { pattern[k] = Self.pixel(table[index], threshold: thresholds[k]) }
        }
        let raw = UnsafeMutableRawPointer(out)
        var i = 0
        while i &+ 4 <= count {
            raw.storeBytes(of: pattern, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            i &+= 4
        }
        for k in 0..<(count &- i) { out[i &+ k] = pattern[k] }
    }
}

/// The colour tables of the last few gradients drawn: a gradient drawn again (each frame of an
/// animation that leaves its colours alone, each dirty rectangle) reuses its table.
final class GradientTables {
    /// A table depends on the colours and their places, not on the gradient's geometry.
    private struct Entry {
        var colors: [Color]
        var locations: [Double]?
        var alpha: Double
        var allAtEnd: Bool
        var table: [UInt64]
    }
    private static let slots = 8
    private var entries: [Entry] = []
    private var nextSlot = 0

    func table(for gradient: Gradient, alpha: Double, allAtEnd: Bool) -> [UInt64] {
        if let entry = entries.first(where: {
            $0.alpha == alpha && $0.allAtEnd == allAtEnd && $0.colors == gradient.colors
                && $0.locations == gradient.locations
        }) {
            return entry.table
        }
        let entry = Entry(
            colors: gradient.colors, locations: gradient.locations, alpha: alpha, allAtEnd: allAtEnd,
            table: GradientSampler.makeTable(gradient, alpha: alpha, allAtEnd: allAtEnd))
        if entries.count < Self.slots {
            entries.append(entry)
        } else {
            entries[nextSlot] = entry
            nextSlot = (nextSlot + 1) % Self.slots
        }
        return entry.table
    }
}
