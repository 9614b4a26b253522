import CPixelKernels

/// The pixel loops: coverage spans of one row blended into a row of premultiplied pixels,
/// source-over, optionally through a clip mask. Everything here runs on raw pointers and
/// value types; nothing allocates.
///
/// A mask row pointer is indexed by device x (it points `bounds.x` bytes before the mask
/// row's first byte) and is only read inside the clip box, which lies within the mask.
enum SpanBlitter {
    // MARK: - Solid colour

    /// Blends a premultiplied colour through the spans of one row.
    static func fillSolid(
        row: UnsafeMutablePointer<UInt32>, spans: UnsafePointer<CoverageSpan>, count: Int,
        color: UInt32, mask: UnsafePointer<UInt8>?
    ) {
        if let mask {
            for s in 0..<count {
                let span = spans[s]
                fillSolidMasked(
                    row, from: Int(span.x), to: Int(span.x) + Int(span.length),
                    coverage: UInt32(span.coverage), color: color, mask: mask)
            }
            return
        }
        var blender = SolidBlender(row: row, color: color)
        for s in 0..<count {
            let span = spans[s]
            blender.run(x: Int(span.x), length: Int(span.length), coverage: span.coverage)
        }
    }

    /// Blends a premultiplied colour, unmasked, into one row through runs of coverage:
    /// the sink of a fused sweep-and-fill. Every pixel gets `sourceOver(scale(color, c), d)`,
    /// alone or in a run: where the clip cuts a run (damage-tracked frames), the pixels stay
    /// those of the whole frame, and a shape drawn into a transparency layer and composited
    /// (a fade's last frames) leaves the pixels drawing it directly gives.
    struct SolidBlender: CoverageGroupSink {
        var row: UnsafeMutablePointer<UInt32>
        let color: UInt32
        let isOpaque: Bool
        /// Pixels from a run to where the same run lies `Prefetch.rowsAhead` rows below, to
        /// prefetch there (shapes are mostly alike from one row to the next); 0: none.
        var prefetchDistance = 0
        /// Whether groups of cells go to the AVX2 kernel, which does the sweep's arithmetic and
        /// the blend on one 256-bit vector.
        let sweepsCells: Bool
        /// For `moveToRow`: the row the blender started on and its first pixel, pixels from a
        /// row to the next (0: it stays on `row`), and the row from which the rows
        /// `Prefetch.rowsAhead` below are no longer the shape's (nothing is prefetched there).
        private let startY: Int
        private let startRow: UnsafeMutablePointer<UInt32>
        private let pixelsPerRow: Int
        private let prefetchEnd: Int

        /// A blender for one row.
        init(row: UnsafeMutablePointer<UInt32>, color: UInt32, avx2: Bool = PixelKernels.avx2) {
            self.init(row: row, y: 0, pixelsPerRow: 0, color: color, prefetchingAbove: 0, avx2: avx2)
        }

        /// A blender starting on `row`, device row `y`, moving `pixelsPerRow` pixels a row, for a
        /// shape whose rows end at `end`: rows near it prefetch nothing (the rows ahead are not
        /// the shape's).
        init(
            row: UnsafeMutablePointer<UInt32>, y: Int, pixelsPerRow: Int, color: UInt32, prefetchingAbove end: Int,
            avx2: Bool = PixelKernels.avx2
        ) {
            self.row = row
            self.color = color
            isOpaque = color >> 24 == 255
            sweepsCells = avx2
            (startY, startRow, self.pixelsPerRow, prefetchEnd) = (y, row, pixelsPerRow, end &- Prefetch.rowsAhead)
        }

        @inline(__always)
        mutating func moveToRow(_ y: Int) {
            row = startRow + (y &- startY) &* pixelsPerRow
            prefetchDistance = y < prefetchEnd ? Prefetch.rowsAhead &* pixelsPerRow : 0
        }

        @inline(__always)
        mutating func run(x: Int, length: Int, coverage: Int32) {
            let start = row + x
            if coverage == 255 && isOpaque {
                // Write-only: nothing to prefetch.
                PixelFill.fill(start, color, count: length)
                return
            }
            // Blending reads the destination.
            if prefetchDistance != 0 { Prefetch.pixels(start + prefetchDistance, count: length) }
            if coverage == 255 {
                blendConstant(start, length, color)
            } else if length == 1 {
                // Edge pixels: most runs of partial coverage are one pixel long. The scaled
                // colour's alpha is c when the colour is opaque, so its two scalings need not
                // wait for each other (the same pixel as `sourceOver`).
                let c = UInt32(truncatingIfNeeded: coverage)
                start.pointee =
                    isOpaque
                    ? PixelMath.scale(color, c) &+ PixelMath.scale(start.pointee, 255 &- c)
                    : PixelMath.sourceOver(PixelMath.scale(color, c), start.pointee)
            } else {
                blendConstant(start, length, PixelMath.scale(color, UInt32(coverage)))
            }
        }

        /// Eight pixels, each `sourceOver(scale(color, c), d)` with its own coverage: the value
        /// `run` gives every pixel, whatever its run (a pixel of coverage 0 keeps its value).
        @inline(__always)
        mutating func group(x: Int, coverage: SIMD8<UInt32>) {
            let start = row + x
            if prefetchDistance != 0 { Prefetch.eightPixels(start + prefetchDistance) }
            let source = scaleWide(SIMD8(repeating: color), lanes(coverage))
            sourceOverWide(source, onto: UnsafeMutableRawPointer(start), at: 0)
        }

        @inline(__always)
        mutating func group(x: Int, cells: UnsafeMutablePointer<Int32>, sum: Int32, evenOdd: Bool) -> Int32 {
            let start = row + x
            if prefetchDistance != 0 { Prefetch.eightPixels(start + prefetchDistance) }
            return vitrine_sweep_group_solid_avx2(cells, sum, start, color, evenOdd ? 1 : 0)
        }

        @inline(__always)
        mutating func lastGroup(
            x: Int, count: Int, cells: UnsafeMutablePointer<Int32>, sum: Int32, evenOdd: Bool
        ) -> Int32 {
            vitrine_sweep_last_group_solid_avx2(cells, sum, row + x, count, color, evenOdd ? 1 : 0)
        }

        /// The AVX2 kernel's loop over rows (`vitrine_sweep_rows_solid_avx2`): in Swift, the
        /// sweep's loop kept more values than there are registers and spilled them group after
        /// group, and a call per row to a kernel for its words cost more than it saved.
        @inline(__always)
        mutating func sweepRows(
            cells: UnsafeMutablePointer<Int32>, cellStride: Int, marks: UnsafeMutablePointer<UInt64>, words: Int,
            events: UnsafeMutablePointer<Bool>, conflicted: UnsafeMutablePointer<Bool>, count: Int, end: Int,
            origin: Int, y: Int, evenOdd: Bool
        ) -> Int {
            moveToRow(y)
            return vitrine_sweep_rows_solid_avx2(
                cells, cellStride, marks, words, events, conflicted, count, end, row + origin, pixelsPerRow,
                max(0, prefetchEnd &- y), Prefetch.rowsAhead &* pixelsPerRow, color, evenOdd ? 1 : 0,
                PixelKernels.avx512 ? 1 : 0)
        }
    }

    /// One span through a mask. Clip masks are mostly 255 inside and 0 outside, so runs of
    /// eight equal bytes take the unmasked path (or are skipped) and only the anti-aliased
    /// border goes pixel by pixel.
    @inline(__always)
    private static func fillSolidMasked(
        _ row: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int,
        coverage cov: UInt32, color: UInt32, mask: UnsafePointer<UInt8>
    ) {
        let maskBytes = UnsafeRawPointer(mask)
        let scaled = cov == 255 ? color : PixelMath.scale(color, cov)
        var x = start
        while x < end {
            if x &+ 8 <= end {
                let m = maskBytes.loadUnaligned(fromByteOffset: x, as: UInt64.self)
                if m == 0 { x &+= 8; continue }
                if m == ~0 {
                    var runEnd = x &+ 8
                    while runEnd &+ 8 <= end && maskBytes.loadUnaligned(fromByteOffset: runEnd, as: UInt64.self) == ~0 {
                        runEnd &+= 8
                    }
                    if scaled >> 24 == 255 {
                        PixelFill.fill(row + x, scaled, count: runEnd &- x)
                    } else {
                        blendConstant(row + x, runEnd &- x, scaled)
                    }
                    x = runEnd
                    continue
                }
            }
            let blockEnd = min(x &+ 8, end)
            while x < blockEnd {
                let c = PixelMath.mul255(cov, UInt32(mask[x]))
                if c == 255 {
                    row[x] = PixelMath.sourceOver(color, row[x])
                } else if c != 0 {
                    row[x] = PixelMath.sourceOver(PixelMath.scale(color, c), row[x])
                }
                x &+= 1
            }
        }
    }

    /// `length` pixels source-over one premultiplied colour.
    @inline(__always)
    static func blendConstant(
        _ p: UnsafeMutablePointer<UInt32>, _ length: Int, _ color: UInt32, avx2: Bool = PixelKernels.avx2,
        avx512: Bool = PixelKernels.avx512
    ) {
        let inverse = 255 &- (color >> 24)
        if inverse == 0 { PixelFill.fill(p, color, count: length); return }
        if length >= 8 {
            blendConstantWide(p, length, color, inverse, avx2: avx2, avx512: avx512)
            return
        }
        for i in 0..<length { p[i] = color &+ PixelMath.scale(p[i], inverse) }
    }

    /// The constant blend, eight pixels per step (the AVX2 kernel's when `avx2`, after the
    /// AVX-512 kernel's sixteen at a time when `avx512`).
    static func blendConstantWide(
        _ p: UnsafeMutablePointer<UInt32>, _ length: Int, _ color: UInt32,
        _ inverse: UInt32, avx2: Bool = PixelKernels.avx2, avx512: Bool = PixelKernels.avx512
    ) {
        let raw = UnsafeMutableRawPointer(p)
        let factor = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: inverse))
        let source = SIMD8<UInt32>(repeating: color)
        var i = avx512 ? vitrine_blend_constant_avx512(p, length, color, inverse) : 0
        if avx2 { i &+= vitrine_blend_constant_avx2(p + i, length &- i, color, inverse) }
        while i &+ 8 <= length {
            let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            raw.storeBytes(of: source &+ scaleWide(d, factor), toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            i &+= 8
        }
        while i < length {
            p[i] = color &+ PixelMath.scale(p[i], inverse)
            i &+= 1
        }
    }

    /// Eight per-pixel factors (0…255) in both 16-bit lanes of their pixel, as `scaleWide`
    /// takes them.
    @inline(__always)
    static func lanes(_ factors: SIMD8<UInt32>) -> SIMD16<UInt16> {
        unsafeBitCast(factors | (factors &<< 16), to: SIMD16<UInt16>.self)
    }

    /// Eight premultiplied pixels source-over the eight `offset` bytes into `dst`:
    /// `s + d·(255 − αs)/255` each, `PixelMath.sourceOver`'s values.
    @inline(__always)
    static func sourceOverWide(_ sv: SIMD8<UInt32>, onto dst: UnsafeMutableRawPointer, at offset: Int) {
        let inverse = SIMD8<UInt32>(repeating: 255) &- (sv &>> 24)
        let dv = dst.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt32>.self)
        dst.storeBytes(of: sv &+ scaleWide(dv, lanes(inverse)), toByteOffset: offset, as: SIMD8<UInt32>.self)
    }

    /// Eight pixels scaled channel-wise by 16-bit factors (0…255, one per channel lane), with
    /// `PixelMath.scale`'s exact rounding. Red/blue and alpha/green are split into 16-bit
    /// lanes, so the multiply and the division by 255 are plain 16-bit vector operations on
    /// SSE2 and NEON.
    @inline(__always)
    static func scaleWide(_ p: SIMD8<UInt32>, _ factor: SIMD16<UInt16>) -> SIMD8<UInt32> {
        scaleWide(p, redBlue: factor, alphaGreen: factor)
    }

    /// Eight pixels scaled as `scaleWide(_:_:)` scales them, with red and blue by the 16-bit
    /// lanes of `redBlue` and alpha and green by those of `alphaGreen` (each pixel's pair of
    /// lanes: blue or green low, red or alpha high): a tint, one factor per channel.
    @inline(__always)
    static func scaleWide(
        _ p: SIMD8<UInt32>, redBlue: SIMD16<UInt16>, alphaGreen: SIMD16<UInt16>
    ) -> SIMD8<UInt32> {
        let lowBytes = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let bias = SIMD16<UInt16>(repeating: 128)
        var rb = unsafeBitCast(p & lowBytes, to: SIMD16<UInt16>.self) &* redBlue &+ bias
        rb = (rb &+ (rb &>> 8)) &>> 8
        var ag = unsafeBitCast((p &>> 8) & lowBytes, to: SIMD16<UInt16>.self) &* alphaGreen &+ bias
        ag = (ag &+ (ag &>> 8)) &>> 8
        return unsafeBitCast(rb, to: SIMD8<UInt32>.self) | (unsafeBitCast(ag, to: SIMD8<UInt32>.self) &<< 8)
    }

    /// Source-over of `count` source pixels scaled by `factor`, eight at a time; returns how
    /// many pixels it handled (a multiple of eight). A block of transparent pixels (most of a
    /// text layer's store) leaves the target as it is, and one of opaque pixels at full factor
    /// (a photo) replaces it, without reading it. With `avx2`, the AVX2 kernel's (after the
    /// AVX-512 kernel's sixteen at a time with `avx512`). `consuming` (the source must then be
    /// writable) leaves the pixels handled transparent once read.
    @inline(__always)
    static func blendPixelsWide(
        _ d: UnsafeMutablePointer<UInt32>, _ s: UnsafePointer<UInt32>, count: Int,
        factor: UInt32, avx2: Bool = PixelKernels.avx2, avx512: Bool = PixelKernels.avx512, consuming: Bool = false
    ) -> Int {
        if avx2 {
            let source = UnsafeMutablePointer(mutating: s)
            var i = 0
            if avx512 {
                i =
                    consuming
                    ? vitrine_composite_pixels_avx512(d, source, count, factor)
                    : vitrine_blend_pixels_avx512(d, s, count, factor)
            }
            return i
                &+ (consuming
                    ? vitrine_composite_pixels_avx2(d + i, source + i, count &- i, factor)
                    : vitrine_blend_pixels_avx2(d + i, s + i, count &- i, factor))
        }
        let dst = UnsafeMutableRawPointer(d), src = UnsafeRawPointer(s)
        let f = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: factor))
        let alpha = SIMD8<UInt32>(repeating: 0xFF00_0000)
        var i = 0
        while i &+ 8 <= count {
            var sv = src.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            if isZero(sv) {
                i &+= 8
                continue
            }
            if consuming {
                UnsafeMutableRawPointer(mutating: src).storeBytes(
                    of: SIMD8<UInt32>(), toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            }
            if factor == 255 {
                if isZero(~sv & alpha) {
                    dst.storeBytes(of: sv, toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                    i &+= 8
                    continue
                }
            } else {
                sv = scaleWide(sv, f)
            }
            sourceOverWide(sv, onto: dst, at: i &* 4)
            i &+= 8
        }
        return i
    }

    /// A premultiplied colour source-over `count` pixels, each scaled by its own coverage byte
    /// (an alpha mask's row, such as a shadow's): eight pixels per step, runs of eight zero
    /// bytes skipped with one load. The same pixels as `sourceOver(scale(color, c), d)` per
    /// pixel, which the tail uses and a test compares. With `avx2`, the AVX2 kernel takes the
    /// blocks of eight (after the AVX-512 kernel's sixteen with `avx512`).
    static func blendSolid(
        _ d: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int, color: UInt32,
        avx2: Bool = PixelKernels.avx2, avx512: Bool = PixelKernels.avx512
    ) {
        let dst = UnsafeMutableRawPointer(d), bytes = UnsafeRawPointer(coverage)
        let source = SIMD8<UInt32>(repeating: color)
        var i = avx512 ? vitrine_blend_solid_avx512(d, coverage, count, color) : 0
        if avx2 { i &+= vitrine_blend_solid_avx2(d + i, coverage + i, count &- i, color) }
        while i &+ 8 <= count {
            let eight = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if eight != 0 {
                let c = SIMD8<UInt32>(truncatingIfNeeded: unsafeBitCast(eight, to: SIMD8<UInt8>.self))
                sourceOverWide(scaleWide(source, lanes(c)), onto: dst, at: i &* 4)
            }
            i &+= 8
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 { d[i] = PixelMath.sourceOver(c == 255 ? color : PixelMath.scale(color, c), d[i]) }
            i &+= 1
        }
    }

    // MARK: - Sampled source (images, layers)

    /// Source-over of source pixels scaled by `factor` times each pixel's mask byte, eight at
    /// a time: blocks the mask hides are skipped, blocks it shows whole take the unmasked path.
    /// The per-pixel factor is `PixelMath.mul255`'s, computed in 16-bit lanes, so the pixels are
    /// those of the scalar loop (a test compares). Returns how many it handled (a multiple of 8).
    /// With `avx2`, the AVX2 kernel's (after the AVX-512 kernel's with `avx512`).
    @inline(__always)
    static func blendPixelsMaskedWide(
        _ d: UnsafeMutablePointer<UInt32>, _ s: UnsafePointer<UInt32>, count: Int, factor: UInt32,
        mask: UnsafePointer<UInt8>, avx2: Bool = PixelKernels.avx2, avx512: Bool = PixelKernels.avx512
    ) -> Int {
        if avx2 {
            let i = avx512 ? vitrine_blend_pixels_masked_avx512(d, s, count, factor, mask) : 0
            return i &+ vitrine_blend_pixels_masked_avx2(d + i, s + i, count &- i, factor, mask + i)
        }
        let dst = UnsafeMutableRawPointer(d), src = UnsafeRawPointer(s), bytes = UnsafeRawPointer(mask)
        let f = SIMD8<UInt32>(repeating: factor)
        var i = 0
        while i &+ 8 <= count {
            let eight = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if eight == 0 {
                i &+= 8
                continue
            }
            if eight == ~0 {
                i &+= blendPixelsWide(d + i, s + i, count: 8, factor: factor, avx2: false)
                continue
            }
            let m = SIMD8<UInt32>(truncatingIfNeeded: unsafeBitCast(eight, to: SIMD8<UInt8>.self))
            let t = m &* f &+ 128
            let perPixel = (t &+ (t &>> 8)) &>> 8
            let sv = scaleWide(src.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self), lanes(perPixel))
            sourceOverWide(sv, onto: dst, at: i &* 4)
            i &+= 8
        }
        return i
    }

    /// Blends `count` premultiplied source pixels, each scaled by `factor` (0…255, coverage
    /// times global alpha) and by the mask when there is one, at device x `x`.
    @inline(__always)
    static func blendPixels(
        _ dst: UnsafeMutablePointer<UInt32>, x: Int, _ src: UnsafePointer<UInt32>, count: Int,
        factor: UInt32, mask: UnsafePointer<UInt8>?, avx2: Bool = PixelKernels.avx2,
        avx512: Bool = PixelKernels.avx512
    ) {
        let d = dst + x
        if let mask {
            let m = mask + x
            let done = blendPixelsMaskedWide(
                d, src, count: count, factor: factor, mask: m, avx2: avx2, avx512: avx512)
            for i in done..<count {
                let f = PixelMath.mul255(factor, UInt32(m[i]))
                let s = src[i]
                if f == 0 || s == 0 { continue }
                d[i] = PixelMath.sourceOver(f == 255 ? s : PixelMath.scale(s, f), d[i])
            }
        } else {
            let done = blendPixelsWide(d, src, count: count, factor: factor, avx2: avx2, avx512: avx512)
            for i in done..<count {
                let s = src[i]
                if s != 0 { d[i] = PixelMath.sourceOver(factor == 255 ? s : PixelMath.scale(s, factor), d[i]) }
            }
        }
    }

    /// A transparency layer's row (`count` pixels from `s`) composited source-over `count`
    /// pixels from `dst + x`, scaled by `factor`: `blendPixels` without a mask, leaving the
    /// source transparent as it is read, so the layer's buffer is clear for its next use
    /// without a second pass over it.
    static func composite(
        _ dst: UnsafeMutablePointer<UInt32>, x: Int, consuming s: UnsafeMutablePointer<UInt32>, count: Int,
        factor: UInt32, avx2: Bool = PixelKernels.avx2, avx512: Bool = PixelKernels.avx512
    ) {
        let d = dst + x
        let done = blendPixelsWide(d, s, count: count, factor: factor, avx2: avx2, avx512: avx512, consuming: true)
        for i in done..<count {
            let p = s[i]
            guard p != 0 else { continue }
            s[i] = 0
            d[i] = PixelMath.sourceOver(factor == 255 ? p : PixelMath.scale(p, factor), d[i])
        }
    }

    /// A transparency layer's row composited source-over `count` pixels of `d`, each source
    /// pixel first laid over the opaque `underlay` and then scaled by `factor` (a layer whose
    /// background was not painted into it), leaving the source transparent as it is read:
    /// eight at a time. A block where nothing was drawn blends the scaled underlay alone, and
    /// over pixels of the underlay's own colour (two scenes' common background, in a dissolve)
    /// it is left as it is: `u·f + u·(255 − f)`, each rounded, is `u` again (`x/255` is never a
    /// tie). The same pixels as the scalar tail, which a test compares. With `avx2`, the AVX2
    /// kernel takes the blocks of eight (after the AVX-512 kernel's sixteen with `avx512`).
    static func composite(
        _ d: UnsafeMutablePointer<UInt32>, consuming s: UnsafeMutablePointer<UInt32>, count: Int, factor: UInt32,
        over underlay: UInt32, avx2: Bool = PixelKernels.avx2, avx512: Bool = PixelKernels.avx512
    ) {
        let dst = UnsafeMutableRawPointer(d), src = UnsafeMutableRawPointer(s)
        let f = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: factor))
        let below = SIMD8<UInt32>(repeating: underlay)
        let scaledUnderlay = factor == 255 ? underlay : PixelMath.scale(underlay, factor)
        let bare = SIMD8<UInt32>(repeating: scaledUnderlay)
        let bareInverse = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: 255 &- (scaledUnderlay >> 24)))
        let opaque = SIMD8<UInt32>(repeating: 0xFF00_0000)
        var i = avx512 ? vitrine_composite_over_avx512(d, s, count, factor, underlay, scaledUnderlay) : 0
        if avx2 { i &+= vitrine_composite_over_avx2(d + i, s + i, count &- i, factor, underlay, scaledUnderlay) }
        while i &+ 8 <= count {
            var sv = src.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            if isZero(sv) {
                let dv = dst.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                if !isZero(dv ^ below) {
                    dst.storeBytes(of: bare &+ scaleWide(dv, bareInverse), toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                }
            } else {
                src.storeBytes(of: SIMD8<UInt32>(), toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                // Opaque pixels hide the underlay (it is scaled by 0): most drawn blocks are.
                if !isZero(~sv & opaque) {
                    sv = sv &+ scaleWide(below, lanes(SIMD8<UInt32>(repeating: 255) &- (sv &>> 24)))
                }
                if factor != 255 { sv = scaleWide(sv, f) }
                sourceOverWide(sv, onto: dst, at: i &* 4)
            }
            i &+= 8
        }
        while i < count {
            let over = PixelMath.sourceOver(s[i], underlay)
            s[i] = 0
            d[i] = PixelMath.sourceOver(factor == 255 ? over : PixelMath.scale(over, factor), d[i])
            i &+= 1
        }
    }

    /// Whether all eight pixels are 0: the lanes ORed as four 64-bit words, without a branch
    /// per lane.
    @inline(__always)
    static func isZero(_ v: SIMD8<UInt32>) -> Bool {
        let q = unsafeBitCast(v, to: SIMD4<UInt64>.self)
        return (q[0] | q[1]) | (q[2] | q[3]) == 0
    }

    // MARK: - Replacing (clear)

    /// Sets `count` pixels to `color`; through a mask, each pixel moves towards `color` by the
    /// mask's value (the "source" operator with coverage).
    static func replace(
        _ row: UnsafeMutablePointer<UInt32>, x: Int, count: Int, color: UInt32,
        mask: UnsafePointer<UInt8>?
    ) {
        guard let mask else { PixelFill.fill(row + x, color, count: count); return }
        for i in x..<(x + count) {
            let m = UInt32(mask[i])
            if m == 0 { continue }
            row[i] = m == 255 ? color : PixelMath.scale(color, m) &+ PixelMath.scale(row[i], 255 &- m)
        }
    }

    // MARK: - Coverage into a mask

    /// Writes the spans of one row into a mask row (device-x indexed) whose pixels
    /// `x0..<x1` were zeroed, multiplied by a previous mask when there is one.
    static func writeCoverage(
        _ row: UnsafeMutablePointer<UInt8>, spans: UnsafePointer<CoverageSpan>, count: Int,
        previous: UnsafePointer<UInt8>?
    ) {
        for s in 0..<count {
            let span = spans[s]
            let x0 = Int(span.x), x1 = x0 + Int(span.length)
            if let previous {
                let cov = UInt32(span.coverage)
                for x in x0..<x1 { row[x] = UInt8(truncatingIfNeeded: PixelMath.mul255(cov, UInt32(previous[x]))) }
            } else {
                (row + x0).update(repeating: UInt8(truncatingIfNeeded: span.coverage), count: x1 - x0)
            }
        }
    }
}
