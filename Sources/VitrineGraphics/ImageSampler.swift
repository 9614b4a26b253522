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
        rows?.fill(row)
        return pixels + row * width + column
    }

    /// Makes sure the row of a resampled copy that device row `y` reads is filtered, as a draw
    /// reading it would (nothing to do when the sampler filters the image itself).
    func fillRow(y: Int) {
        guard let rows, let offset else { return }
        rows.fill(min(max(y &- anchor.y + offset.y, 0), height - 1))
    }

    /// Writes the samples for device pixels `x..<x+count` of row `y` into `out`.
    func sample(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let maxX = width - 1, maxY = height - 1
        let x = x &- anchor.x, y = y &- anchor.y
        if let offset {
            // A copy: the row's edge texel left and right of the image, one block between.
            let row = min(max(y + offset.y, 0), maxY)
            rows?.fill(row)
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
        // Runs of 16 whose first and last pixels are inside (so all are: stepping is linear)
        // are filtered four at a time (`PixelMath.bilinearRun`); the others pixel by pixel.
        let lanes = width < 32_768 && height < 32_768
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

    /// 16.16 fixed point, clamped far beyond any image so stepping cannot overflow.
    @inline(__always)
    private static func fixed(_ v: Double) -> Int64 {
        if v.isNaN { return 0 }
        return Int64((min(max(v, -1e12), 1e12) * 65536).rounded())
    }
}
