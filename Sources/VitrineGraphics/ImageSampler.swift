/// Reads an image under an affine map, a row span at a time: bilinear filtering of
/// premultiplied pixels, edges extended (clamp to edge), since coverage already limits the
/// drawing to the image's rectangle.
///
/// A pixel's sample does not depend on the span it is read in: positions step from the
/// sampler's anchor column (where the image's origin lies), not from the span's first pixel,
/// so a span cut short by a clip (a damage rectangle) reads what the whole row reads there,
/// and a resampled copy made from column 0 of an anchor holds what drawing directly draws.
struct ImageSampler {
    private let pixels: UnsafePointer<UInt32>
    private let width: Int
    private let height: Int
    /// The device pixel whose top-left corner is (0, 0) of the coordinates `inverse` maps.
    private let anchor: (x: Int, y: Int)
    /// Device space, from `anchor`, → image pixel space.
    private let inverse: Transform2D
    /// Set when the map is a whole-pixel translation: pixels are copied, not filtered.
    private let offset: (x: Int, y: Int)?
    /// Held while the sampler reads its pixels: another thread may let go of a resampled copy
    /// (`ResampledImageCache`) in the middle of a draw from it.
    private let image: Image
    /// A resampled copy's rows still to be filtered, each before it is first read.
    private let rows: ResampledRows?
    /// Where the drawing thread keeps image rows filtered across for the device rows after
    /// this one (`FilteredRows`); nil: every row is filtered whole.
    var filteredRows: FilteredRows?

    /// `inverse` maps device coordinates to image pixel coordinates (pixel (i, j) covers
    /// i…i+1 × j…j+1). The image must not be empty. `anchor` is the device pixel positions
    /// are stepped from (see above). `rows`, when given, fills the rows of `image` (a
    /// resampled copy drawn where it was made) as they are read.
    init(image: Image, inverse: Transform2D, anchor: (x: Int, y: Int) = (0, 0), filling rows: ResampledRows? = nil) {
        self.image = image
        self.rows = rows
        pixels = image.pixels
        width = image.width
        height = image.height
        self.anchor = anchor
        let inverse =
            anchor == (0, 0)
            ? inverse : Transform2D(translationX: Double(anchor.x), y: Double(anchor.y)).concatenating(inverse)
        self.inverse = inverse
        if inverse.a == 1, inverse.b == 0, inverse.c == 0, inverse.d == 1,
            inverse.tx == inverse.tx.rounded(), inverse.ty == inverse.ty.rounded(),
            abs(inverse.tx) < 1e9, abs(inverse.ty) < 1e9
        {
            offset = (Int(inverse.tx), Int(inverse.ty))
        } else {
            offset = nil
        }
    }

    /// The samples for device pixels `x..<x+count` of row `y` where they are the image's own
    /// pixels, in place (a whole-pixel translation with the span inside the image): a blend
    /// reads them there instead of from a copy. Nil otherwise.
    func pixelsInPlace(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>? {
        guard let offset else { return nil }
        let x = x &- anchor.x, y = y &- anchor.y
        let column = x + offset.x, row = y + offset.y
        guard column >= 0, column + count <= width, row >= 0, row < height else { return nil }
        rows?.fill(row, through: filteredRows)
        return pixels + row * width + column
    }

    /// Makes sure the row of a resampled copy that device row `y` reads is filtered, as a draw
    /// reading it would (nothing to do when the sampler filters the image itself).
    func fillRow(y: Int) {
        guard let rows, let offset else { return }
        rows.fill(min(max(y &- anchor.y + offset.y, 0), height - 1), through: filteredRows)
    }

    /// Writes the samples for device pixels `x..<x+count` of row `y` into `out`.
    func sample(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let maxX = width - 1, maxY = height - 1
        let x = x &- anchor.x, y = y &- anchor.y
        if let offset {
            // A copy: the row's edge texel left and right of the image, one block between.
            let row = min(max(y + offset.y, 0), maxY)
            rows?.fill(row, through: filteredRows)
            let source = pixels + row * width
            let first = x + offset.x
            let lower = min(count, max(0, -first)), upper = max(lower, min(count, maxX - first + 1))
            let inside = lower..<upper
            var i = 0
            while i < lower {
                out[i] = source[0]
                i += 1
            }
            if !inside.isEmpty {
                (out + inside.lowerBound).update(from: source + (first + inside.lowerBound), count: inside.count)
                i = inside.upperBound
            }
            while i < count {
                out[i] = source[maxX]
                i += 1
            }
            return
        }
        // 16.16 fixed-point position relative to texel centres, stepped along the row from the
        // anchor's column.
        let cy = Double(y) + 0.5
        let du = ImageSampler.fixed(inverse.a), dv = ImageSampler.fixed(inverse.b)
        var u = ImageSampler.fixed(inverse.a * 0.5 + inverse.c * cy + inverse.tx - 0.5) &+ Int64(x) &* du
        var v = ImageSampler.fixed(inverse.b * 0.5 + inverse.d * cy + inverse.ty - 0.5) &+ Int64(x) &* dv
        let lanes = width < 32_768 && height < 32_768
        if let filteredRows, dv == 0, inverse.c == 0, inverse.d.magnitude <= FilteredRows.largestStep,
            du.magnitude < 1 << 40, v >= 0, Int(v >> 16) < maxY
        {
            // The image drawn taller than it is, without turning: the next device rows read
            // the same two image rows at the same positions across. The pixels whose texels
            // lie inside the image go through the kept rows; the few at its sides are clamped.
            let inside = ImageSampler.inside(u: u, du: du, count: count, maxX: maxX)
            if inside.count > 1 {
                let (start, row) = (u, Int(v))
                func clamped(_ range: Range<Int>) {
                    for i in range {
                        out[i] = PixelMath.bilinearClamped(
                            pixels, width, maxX: maxX, maxY: maxY, u: Int(start &+ Int64(i) &* du), v: row)
                    }
                }
                clamped(0..<inside.lowerBound)
                clamped(inside.upperBound..<count)
                filteredRows.sample(
                    pixels, width, row: row >> 16, fy: UInt32(truncatingIfNeeded: (row >> 8) & 0xFF),
                    u: start &+ Int64(inside.lowerBound) &* du, du: du, count: inside.count, lanes: lanes,
                    into: out + inside.lowerBound)
                return
            }
        }
        // Runs of 16 whose first and last pixels are inside (so all are: stepping is linear)
        // are filtered four at a time (`PixelMath.bilinearRun`); the others pixel by pixel.
        // Steps this small cannot wrap within a run, wherever the run starts.
        let linear = du.magnitude < 1 << 40 && dv.magnitude < 1 << 40
        var i = 0
        while i < count {
            let n = min(Self.run, count &- i)
            let lastU = u &+ Int64(n &- 1) &* du, lastV = v &+ Int64(n &- 1) &* dv
            if n > 1, linear, min(u, lastU) >= 0, max(u, lastU) >> 16 < maxX,
                min(v, lastV) >= 0, max(v, lastV) >> 16 < maxY
            {
                PixelMath.bilinearRun(
                    pixels, width, u: Int(u), v: Int(v), du: Int(du), dv: Int(dv), count: n, lanes: lanes,
                    into: out + i)
                u &+= Int64(n) &* du
                v &+= Int64(n) &* dv
                i &+= n
                continue
            }
            out[i] = PixelMath.bilinearClamped(pixels, width, maxX: maxX, maxY: maxY, u: Int(u), v: Int(v))
            u &+= du
            v &+= dv
            i &+= 1
        }
    }

    /// Pixels a row is filtered in at a time where they lie inside the image.
    private static let run = 16

    /// The pixels `i` of `0..<count` whose position `u + i·du` (16.16) has its texel and the one
    /// right of it inside an image whose last column is `maxX`: one range, as positions step
    /// linearly.
    static func inside(u: Int64, du: Int64, count: Int, maxX: Int) -> Range<Int> {
        let high = Int64(maxX) << 16  // positions below this, and not below 0, are inside
        var first = 0, end = count
        if du > 0 {
            if u < 0 { first = Int(min(Int64(count), (-u + du - 1) / du)) }
            if u >= high { return 0..<0 }
            end = Int(min(Int64(count), (high - 1 - u) / du + 1))
        } else if du < 0 {
            if u >= high { first = Int(min(Int64(count), (u - high) / -du + 1)) }
            if u < 0 { return 0..<0 }
            end = Int(min(Int64(count), u / -du + 1))
        } else if u < 0 || u >= high {
            return 0..<0
        }
        return first < end ? first..<end : 0..<0
    }

    /// 16.16 fixed point, clamped far beyond any image so stepping cannot overflow.
    @inline(__always)
    private static func fixed(_ v: Double) -> Int64 {
        if v.isNaN { return 0 }
        return Int64((min(max(v, -1e12), 1e12) * 65536).rounded())
    }
}

/// The bilinear filter in its two steps, across then down (`PixelMath.lerp`'s rounding after
/// each, as every sampling path rounds): an image drawn larger than it is, without turning,
/// reads each of its rows in several device rows at the same positions across, so the rows
/// filtered across are kept and only the step down is made again: the same pixels as filtering
/// each device row whole (`testRowsFilteredAcrossGiveThePixelsOfTheWholeFilter`). One per
/// drawing context (one thread). Kept rows are known by the address of the image's pixels and
/// where they are read: `reset` when a draw begins, as a new image may lie where a freed one did.
final class FilteredRows {
    /// The largest step down the image per device row that reuses rows: below that, each image
    /// row serves at least one and a half device rows, and filtering it across (a whole bilinear
    /// run, as costly as one device row) pays.
    static let largestStep = 2.0 / 3.0

    private var upper: UnsafeMutablePointer<UInt32>
    private var lower: UnsafeMutablePointer<UInt32>
    private var capacity = 0
    /// The image rows `upper` and `lower` hold filtered across (−1: none), and where.
    private var upperRow = -1, lowerRow = -1
    private var image: UnsafePointer<UInt32>?
    private var u: Int64 = 0, du: Int64 = 0, count = 0
    /// How many image rows were filtered across (tests check that rows are reused).
    private(set) var rowsFilteredAcross = 0

    init() {
        upper = .allocate(capacity: 1)
        lower = .allocate(capacity: 1)
        capacity = 1
    }

    deinit {
        upper.deallocate()
        lower.deallocate()
    }

    /// Forgets the rows kept: the next image may lie where the last one did.
    func reset() {
        (upperRow, lowerRow, image) = (-1, -1, nil)
    }

    /// `count` bilinear samples of the image `pixels` (`width` texels a row) between its rows
    /// `row` and `row + 1` at `fy`, from 16.16 position `u` stepping by `du`; every texel read,
    /// and the one right of it, inside the image.
    func sample(
        _ pixels: UnsafePointer<UInt32>, _ width: Int, row: Int, fy: UInt32, u: Int64, du: Int64, count: Int,
        lanes: Bool, into out: UnsafeMutablePointer<UInt32>
    ) {
        if pixels != image || u != self.u || du != self.du || count != self.count {
            (image, self.u, self.du, self.count) = (pixels, u, du, count)
            (upperRow, lowerRow) = (-1, -1)
            if count > capacity {
                upper.deallocate()
                lower.deallocate()
                capacity = count
                upper = .allocate(capacity: capacity)
                lower = .allocate(capacity: capacity)
            }
        }
        // Down the image the lower row becomes the upper one; up it (an image drawn upside
        // down), the upper one becomes the lower.
        if lowerRow == row {
            swap(&upper, &lower)
            (upperRow, lowerRow) = (row, -1)
        } else if upperRow == row &+ 1 {
            swap(&upper, &lower)
            (upperRow, lowerRow) = (-1, row &+ 1)
        }
        if upperRow != row {
            filterAcross(pixels + row &* width, lanes: lanes, into: upper)
            upperRow = row
        }
        if lowerRow != row &+ 1 {
            filterAcross(pixels + (row &+ 1) &* width, lanes: lanes, into: lower)
            lowerRow = row &+ 1
        }
        FilteredRows.filterDown(upper, lower, fy: fy, count: count, into: out)
    }

    /// One image row filtered across at the kept positions: the bilinear run over a row that
    /// is also its own next row (a width of 0), which weighs across and leaves the result as it is.
    private func filterAcross(_ row: UnsafePointer<UInt32>, lanes: Bool, into out: UnsafeMutablePointer<UInt32>) {
        PixelMath.bilinearRun(row, 0, u: Int(u), v: 0, du: Int(du), dv: 0, count: count, lanes: lanes, into: out)
        rowsFilteredAcross &+= 1
    }

    /// `PixelMath.lerp(upper[i], lower[i], fy)` for each pixel, eight at a time in 16-bit lanes.
    static func filterDown(
        _ upper: UnsafePointer<UInt32>, _ lower: UnsafePointer<UInt32>, fy: UInt32, count: Int,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        let down = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: fy))
        let up = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: 256 &- fy))
        let half = SIMD16<UInt16>(repeating: 128), lowBytes = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let a = UnsafeRawPointer(upper), b = UnsafeRawPointer(lower), o = UnsafeMutableRawPointer(out)
        var i = 0
        while i &+ 8 <= count {
            let p = a.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            let q = b.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            let redBlue =
                (unsafeBitCast(p & lowBytes, to: SIMD16<UInt16>.self) &* up
                    &+ unsafeBitCast(q & lowBytes, to: SIMD16<UInt16>.self) &* down &+ half) &>> 8
            let alphaGreen =
                (unsafeBitCast((p &>> 8) & lowBytes, to: SIMD16<UInt16>.self) &* up
                    &+ unsafeBitCast((q &>> 8) & lowBytes, to: SIMD16<UInt16>.self) &* down &+ half) &>> 8
            let pixels =
                unsafeBitCast(redBlue, to: SIMD8<UInt32>.self)
                | (unsafeBitCast(alphaGreen, to: SIMD8<UInt32>.self) &<< 8)
            o.storeBytes(of: pixels, toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            i &+= 8
        }
        while i < count {
            out[i] = PixelMath.lerp(upper[i], lower[i], fy)
            i &+= 1
        }
    }
}
