import CPixelKernels

/// Arithmetic on premultiplied 32-bit pixels (A<<24 | R<<16 | G<<8 | B), two channels at a
/// time: red and blue in one word, alpha and green in another, each in 16-bit lanes.
///
/// Every product is divided by 255 with correct rounding (`(t + t>>8 + 128) >> 8`, exact for
/// 8-bit operands), so scaling by 255 is the identity and an opaque source at full coverage
/// writes exactly its own value.
enum PixelMath {
    /// `round(a·b / 255)` for a, b in 0…255.
    @inline(__always)
    static func mul255(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a &* b &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Every channel of `p` times `f / 255`, rounded; `f` in 0…255.
    @inline(__always)
    static func scale(_ p: UInt32, _ f: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* f &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* f &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// Source-over: `s + d·(1 − αs)`. Premultiplied channels never exceed alpha, so no
    /// channel can overflow.
    @inline(__always)
    static func sourceOver(_ s: UInt32, _ d: UInt32) -> UInt32 {
        s &+ scale(d, 255 &- (s >> 24))
    }

    /// `a·(256 − w) + b·w` per channel, rounded, for a weight `w` in 0…256.
    @inline(__always)
    static func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
        let iw = 256 &- w
        let rb = (((a & 0x00FF_00FF) &* iw &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        let ag = (((a >> 8) & 0x00FF_00FF) &* iw &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080) & 0xFF00_FF00
        return rb | ag
    }

    /// The four texels at `texel` (and right of it, and the row below) weighed by the fractions
    /// `fx` and `fy` (0…255): the same values as `lerp` across and then down, with each pair of
    /// texels loaded as eight bytes and weighed in 16-bit vector lanes (SSE2, NEON).
    @inline(__always)
    static func bilinear(_ texel: UnsafePointer<UInt32>, _ width: Int, _ fx: UInt16, _ fy: UInt16) -> UInt32 {
        let top = UnsafeRawPointer(texel).loadUnaligned(as: SIMD8<UInt8>.self)
        let bottom = UnsafeRawPointer(texel + width).loadUnaligned(as: SIMD8<UInt8>.self)
        if unsafeBitCast(top, to: UInt64.self) | unsafeBitCast(bottom, to: UInt64.self) == 0 { return 0 }
        let ix = 256 &- fx
        let across = SIMD8<UInt16>(ix, ix, ix, ix, fx, fx, fx, fx)
        let t = SIMD8<UInt16>(truncatingIfNeeded: top) &* across
        let b = SIMD8<UInt16>(truncatingIfNeeded: bottom) &* across
        let half = SIMD4<UInt16>(repeating: 128)
        let upper = (t.lowHalf &+ t.highHalf &+ half) &>> 8, lower = (b.lowHalf &+ b.highHalf &+ half) &>> 8
        let both = (upper &* (256 &- fy) &+ lower &* fy &+ half) &>> 8
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: both), to: UInt32.self)
    }

    /// The bilinear sample at 16.16 position `(u, v)` of an image `width` texels wide whose last
    /// texel is `(maxX, maxY)`: `bilinear` where the four texels are inside, else the edge texels
    /// held beyond the image (clamp to edge), the same filter one channel pair at a time.
    @inline(__always)
    static func bilinearClamped(
        _ pixels: UnsafePointer<UInt32>, _ width: Int, maxX: Int, maxY: Int, u: Int, v: Int
    ) -> UInt32 {
        let x0 = u &>> 16, y0 = v &>> 16
        let fx = UInt32(truncatingIfNeeded: (u &>> 8) & 0xFF), fy = UInt32(truncatingIfNeeded: (v &>> 8) & 0xFF)
        if x0 >= 0 && x0 < maxX && y0 >= 0 && y0 < maxY {
            return bilinear(
                pixels + (y0 &* width &+ x0), width, UInt16(truncatingIfNeeded: fx), UInt16(truncatingIfNeeded: fy))
        }
        let xa = min(max(x0, 0), maxX), xb = min(max(x0 &+ 1, 0), maxX)
        let rowA = pixels + min(max(y0, 0), maxY) * width, rowB = pixels + min(max(y0 &+ 1, 0), maxY) * width
        return lerp(lerp(rowA[xa], rowA[xb], fx), lerp(rowB[xa], rowB[xb], fx), fy)
    }

    /// Four bilinear samples at the 16.16 positions `(us[k], vs[k])`, each with its texel to the
    /// right and below inside the image: `bilinear`'s values (a test compares),
    /// computed for the four at once. Each lane's two texel pairs are loaded as 64-bit words
    /// (left texels in the even lanes, right ones in the odd), and each filter step weighs two
    /// channels per 32-bit lane in 16-bit halves: 16-bit vector multiplies on SSE2 and NEON, one
    /// register per vector.
    @inline(__always)
    static func bilinear4(
        _ pixels: UnsafePointer<UInt32>, _ width: Int, us: SIMD4<Int32>, vs: SIMD4<Int32>
    ) -> SIMD4<UInt32> {
        let offsets = (vs &>> 16) &* Int32(truncatingIfNeeded: width) &+ (us &>> 16)
        let base = UnsafeRawPointer(pixels), rowBytes = width &* 4
        @inline(__always) func pairs(_ k: Int) -> (UInt64, UInt64) {
            let offset = Int(offsets[k]) &* 4
            return (
                base.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                base.loadUnaligned(fromByteOffset: offset &+ rowBytes, as: UInt64.self)
            )
        }
        let (t0, b0) = pairs(0), (t1, b1) = pairs(1), (t2, b2) = pairs(2), (t3, b3) = pairs(3)
        let top = unsafeBitCast(SIMD4<UInt64>(t0, t1, t2, t3), to: SIMD8<UInt32>.self)
        let bottom = unsafeBitCast(SIMD4<UInt64>(b0, b1, b2, b3), to: SIMD8<UInt32>.self)
        // A factor per pixel, in both 16-bit halves of its lane.
        @inline(__always) func factors(_ f: SIMD4<UInt32>) -> SIMD8<UInt16> {
            unsafeBitCast(f | (f &<< 16), to: SIMD8<UInt16>.self)
        }
        let fx = unsafeBitCast((us &>> 8) & 0xFF, to: SIMD4<UInt32>.self)
        let fy = unsafeBitCast((vs &>> 8) & 0xFF, to: SIMD4<UInt32>.self)
        let full = SIMD4<UInt32>(repeating: 256)
        let right = factors(fx), left = factors(full &- fx), below = factors(fy), above = factors(full &- fy)
        let lowBytes = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        let half = SIMD8<UInt16>(repeating: 128)
        // Red and blue, then alpha and green, of each pixel as two 16-bit lanes.
        @inline(__always) func redBlue(_ p: SIMD4<UInt32>) -> SIMD8<UInt16> {
            unsafeBitCast(p & lowBytes, to: SIMD8<UInt16>.self)
        }
        @inline(__always) func alphaGreen(_ p: SIMD4<UInt32>) -> SIMD8<UInt16> {
            unsafeBitCast((p &>> 8) & lowBytes, to: SIMD8<UInt16>.self)
        }
        @inline(__always) func weigh(
            _ a: SIMD8<UInt16>, _ wa: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ wb: SIMD8<UInt16>
        ) -> SIMD8<UInt16> {
            (a &* wa &+ b &* wb &+ half) &>> 8
        }
        let topLeft = top.evenHalf, topRight = top.oddHalf, bottomLeft = bottom.evenHalf, bottomRight = bottom.oddHalf
        let upperRB = weigh(redBlue(topLeft), left, redBlue(topRight), right)
        let upperAG = weigh(alphaGreen(topLeft), left, alphaGreen(topRight), right)
        let lowerRB = weigh(redBlue(bottomLeft), left, redBlue(bottomRight), right)
        let lowerAG = weigh(alphaGreen(bottomLeft), left, alphaGreen(bottomRight), right)
        let rb = weigh(upperRB, above, lowerRB, below), ag = weigh(upperAG, above, lowerAG, below)
        return unsafeBitCast(rb, to: SIMD4<UInt32>.self) | (unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8)
    }

    /// `count` bilinear samples into `out`, at 16.16 positions stepped by `(du, dv)` from
    /// `(u, v)`, every one with its texel to the right and below inside the image (the
    /// samplers check a run's first and last position; stepping is linear): when `lanes` (the
    /// image under 32,768 pixels a side, so positions and texel offsets fit 32-bit lanes;
    /// wrapping steps land on the right values there), sixteen at a time by the AVX-512 kernel
    /// and eight at a time by the AVX2 kernel where they run (`PixelKernels`), four at a time
    /// with `bilinear4`, then one at a time: the same values every way.
    @inline(__always)
    static func bilinearRun(
        _ pixels: UnsafePointer<UInt32>, _ width: Int, u: Int, v: Int, du: Int, dv: Int, count: Int, lanes: Bool,
        into out: UnsafeMutablePointer<UInt32>, avx2: Bool = PixelKernels.avx2, avx512: Bool = PixelKernels.avx512
    ) {
        var k = 0
        if count >= 8 && lanes && avx2 {
            if count >= 16 && avx512 {
                k = vitrine_bilinear_run_avx512(
                    pixels, width, Int32(truncatingIfNeeded: u), Int32(truncatingIfNeeded: v),
                    Int32(truncatingIfNeeded: du), Int32(truncatingIfNeeded: dv), count, out)
            }
            // From the k-th position on (in 32-bit lanes, as the kernels step).
            k &+= vitrine_bilinear_run_avx2(
                pixels, width, Int32(truncatingIfNeeded: u &+ du &* k), Int32(truncatingIfNeeded: v &+ dv &* k),
                Int32(truncatingIfNeeded: du), Int32(truncatingIfNeeded: dv), count &- k, out + k)
        }
        if count &- k >= 4 && lanes {
            let steps = SIMD4<Int32>(0, 1, 2, 3) &+ Int32(truncatingIfNeeded: k)
            var us = Int32(truncatingIfNeeded: u) &+ steps &* Int32(truncatingIfNeeded: du)
            var vs = Int32(truncatingIfNeeded: v) &+ steps &* Int32(truncatingIfNeeded: dv)
            let stepU = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: du &* 4))
            let stepV = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: dv &* 4))
            let raw = UnsafeMutableRawPointer(out)
            while k &+ 4 <= count {
                raw.storeBytes(
                    of: bilinear4(pixels, width, us: us, vs: vs), toByteOffset: k &* 4, as: SIMD4<UInt32>.self)
                us &+= stepU
                vs &+= stepV
                k &+= 4
            }
        }
        // The rest one at a time, from the k-th position.
        var u = u &+ du &* k, v = v &+ dv &* k
        while k < count {
            out[k] = bilinear(
                pixels + ((v &>> 16) &* width &+ (u &>> 16)), width,
                UInt16(truncatingIfNeeded: (u &>> 8) & 0xFF), UInt16(truncatingIfNeeded: (v &>> 8) & 0xFF))
            u &+= du
            v &+= dv
            k &+= 1
        }
    }

    /// A colour as a premultiplied pixel with `alpha` (a layer's opacity, a shadow's) folded
    /// in: the colour's own pixel scaled by `alpha` as a byte, so a drawing at an opacity has
    /// the pixels of the same drawing made opaque and composited at that opacity (a layer drawn
    /// directly or as a group looks the same, and a colour at any opacity over itself is itself
    /// again). Out-of-range components are clamped and NaN counts as 0, so no colour value can
    /// trap.
    static func premultipliedPixel(_ color: Color, alpha: Double) -> UInt32 {
        let factor = unitByte(alpha)
        return factor == 255 ? color.premultipliedPixel : scale(color.premultipliedPixel, factor)
    }

    /// A colour's channels as 0…255 factors, packed like a pixel (not premultiplied).
    static func channelFactors(_ color: Color) -> UInt32 {
        unitByte(color.alpha) << 24 | unitByte(color.red) << 16 | unitByte(color.green) << 8 | unitByte(color.blue)
    }

    /// A unit-interval value (NaN as 0) as 0…255.
    static func unitByte(_ v: Double) -> UInt32 {
        v.isNaN ? 0 : UInt32((min(max(v, 0), 1) * 255).rounded())
    }
}
