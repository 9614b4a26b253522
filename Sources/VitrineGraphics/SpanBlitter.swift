/// The pixel loops: coverage spans of one row blended into a row of premultiplied pixels,
/// source-over, optionally through a clip mask. Everything here runs on raw pointers and
/// value types; nothing allocates.
///
/// A mask row pointer is indexed by device x (it points `bounds.x` bytes before the mask
/// row's first byte) and is only read inside the clip box, which lies within the mask.
enum SpanBlitter {
    // MARK: - Solid colour

    /// Blends a premultiplied colour through the spans of one row.
    static func fillSolid(row: UnsafeMutablePointer<UInt32>, spans: UnsafePointer<CoverageSpan>, count: Int,
                          color: UInt32, mask: UnsafePointer<UInt8>?) {
        if let mask {
            for s in 0..<count {
                let span = spans[s]
                let x0 = Int(span.x), cov = UInt32(span.coverage)
                for x in x0..<(x0 + Int(span.length)) {
                    let c = PixelMath.mul255(cov, UInt32(mask[x]))
                    if c == 0 { continue }
                    row[x] = PixelMath.sourceOver(c == 255 ? color : PixelMath.scale(color, c), row[x])
                }
            }
            return
        }
        let opaque = color >> 24 == 255
        for s in 0..<count {
            let span = spans[s]
            let start = row + Int(span.x), length = Int(span.length)
            if span.coverage == 255 {
                if opaque {
                    start.update(repeating: color, count: length)
                } else {
                    blendConstant(start, length, color)
                }
            } else {
                blendConstant(start, length, PixelMath.scale(color, UInt32(span.coverage)))
            }
        }
    }

    /// `length` pixels source-over one premultiplied colour.
    @inline(__always)
    static func blendConstant(_ p: UnsafeMutablePointer<UInt32>, _ length: Int, _ color: UInt32) {
        let inverse = 255 &- (color >> 24)
        if inverse == 0 { p.update(repeating: color, count: length); return }
        if length >= 8 {
            blendConstantWide(p, length, color, inverse)
            return
        }
        for i in 0..<length { p[i] = color &+ PixelMath.scale(p[i], inverse) }
    }

    /// The constant blend, eight pixels per step in 16-bit lanes (SSE2 / NEON width).
    static func blendConstantWide(_ p: UnsafeMutablePointer<UInt32>, _ length: Int, _ color: UInt32,
                                  _ inverse: UInt32) {
        let inv = SIMD16<UInt16>(repeating: UInt16(inverse))
        let bias = SIMD16<UInt16>(repeating: 128)
        let lowMask = SIMD16<UInt16>(repeating: 0x00FF)
        let colorBytes = SIMD4<UInt32>(repeating: color)
        var i = 0
        let raw = UnsafeMutableRawPointer(p)
        let addend = unsafeBitCast(colorBytes, to: SIMD16<UInt8>.self)
        while i + 4 <= length {
            let d = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self)
            let wide = SIMD16<UInt16>(truncatingIfNeeded: d)
            var t = wide &* inv &+ bias
            t = (t &+ (t &>> 8)) &>> 8
            let scaled = SIMD16<UInt8>(truncatingIfNeeded: t & lowMask)
            raw.storeBytes(of: scaled &+ addend, toByteOffset: i * 4, as: SIMD16<UInt8>.self)
            i += 4
        }
        while i < length {
            p[i] = color &+ PixelMath.scale(p[i], inverse)
            i += 1
        }
    }

    // MARK: - Sampled source (images, layers)

    /// Blends `count` premultiplied source pixels, each scaled by `factor` (0…255, coverage
    /// times global alpha) and by the mask when there is one, at device x `x`.
    @inline(__always)
    static func blendPixels(_ dst: UnsafeMutablePointer<UInt32>, x: Int, _ src: UnsafePointer<UInt32>, count: Int,
                            factor: UInt32, mask: UnsafePointer<UInt8>?) {
        let d = dst + x
        if let mask {
            let m = mask + x
            for i in 0..<count {
                let f = PixelMath.mul255(factor, UInt32(m[i]))
                let s = src[i]
                if f == 0 || s == 0 { continue }
                d[i] = PixelMath.sourceOver(f == 255 ? s : PixelMath.scale(s, f), d[i])
            }
        } else if factor == 255 {
            for i in 0..<count {
                let s = src[i]
                if s >> 24 == 255 { d[i] = s } else if s != 0 { d[i] = PixelMath.sourceOver(s, d[i]) }
            }
        } else {
            for i in 0..<count {
                let s = src[i]
                if s != 0 { d[i] = PixelMath.sourceOver(PixelMath.scale(s, factor), d[i]) }
            }
        }
    }

    // MARK: - Replacing (clear)

    /// Sets `count` pixels to `color`; through a mask, each pixel moves towards `color` by the
    /// mask's value (the "source" operator with coverage).
    static func replace(_ row: UnsafeMutablePointer<UInt32>, x: Int, count: Int, color: UInt32,
                        mask: UnsafePointer<UInt8>?) {
        guard let mask else { (row + x).update(repeating: color, count: count); return }
        for i in x..<(x + count) {
            let m = UInt32(mask[i])
            if m == 0 { continue }
            row[i] = m == 255 ? color : PixelMath.scale(color, m) &+ PixelMath.scale(row[i], 255 &- m)
        }
    }

    // MARK: - Coverage into a mask

    /// Writes the spans of one row into a mask row (device-x indexed) whose pixels
    /// `x0..<x1` were zeroed, multiplied by a previous mask when there is one.
    static func writeCoverage(_ row: UnsafeMutablePointer<UInt8>, spans: UnsafePointer<CoverageSpan>, count: Int,
                              previous: UnsafePointer<UInt8>?) {
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
