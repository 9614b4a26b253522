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

    /// `mask` blurred by σ (device pixels), over its bounds grown by `spread(sigma:)`.
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
        let d = boxWidth(sigma: sigma)
        // (width, offset of the window's left end from the output pixel) of the three boxes.
        let boxes: [(Int, Int)] =
            d % 2 == 1
            ? [(d, -(d / 2)), (d, -(d / 2)), (d, -(d / 2))] : [(d, -(d / 2)), (d, -(d / 2) + 1), (d + 1, -(d / 2))]
        var line = [UInt8](repeating: 0, count: max(width, height))
        var scratch = [UInt8](repeating: 0, count: max(width, height))
        line.withUnsafeMutableBufferPointer { line in
            scratch.withUnsafeMutableBufferPointer { scratch in
                // Each pass reads one buffer and writes the other; after three the result is in
                // `scratch`.
                for y in 0..<height {
                    let row = out.bytes + y * width
                    for x in 0..<width { line[x] = row[x] }
                    blurThreeTimes(line, scratch, count: width, boxes: boxes)
                    for x in 0..<width { row[x] = scratch[x] }
                }
                for x in 0..<width {
                    for y in 0..<height { line[y] = out.bytes[y * width + x] }
                    blurThreeTimes(line, scratch, count: height, boxes: boxes)
                    for y in 0..<height { out.bytes[y * width + x] = scratch[y] }
                }
            }
        }
        return out
    }

    /// The three passes: `line` → `scratch` → `line` → `scratch`.
    private static func blurThreeTimes(
        _ line: UnsafeMutableBufferPointer<UInt8>, _ scratch: UnsafeMutableBufferPointer<UInt8>, count: Int,
        boxes: [(Int, Int)]
    ) {
        boxBlur(line, into: scratch, count: count, size: boxes[0].0, offset: boxes[0].1)
        boxBlur(scratch, into: line, count: count, size: boxes[1].0, offset: boxes[1].1)
        boxBlur(line, into: scratch, count: count, size: boxes[2].0, offset: boxes[2].1)
    }

    /// One box pass over `count` values: output i is the mean of `size` inputs from i + offset
    /// (outside the line: 0), rounded.
    private static func boxBlur(
        _ input: UnsafeMutableBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
        count: Int, size: Int, offset: Int
    ) {
        @inline(__always) func value(_ i: Int) -> Int { i >= 0 && i < count ? Int(input[i]) : 0 }
        var sum = 0
        for k in 0..<size { sum += value(offset + k) }
        let half = size / 2
        for i in 0..<count {
            output[i] = UInt8((sum + half) / size)
            sum += value(i + offset + size) - value(i + offset)
        }
    }
}
