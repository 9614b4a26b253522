/// A drop shadow (Core Animation's shadowColor, shadowOpacity, shadowOffset, shadowRadius): what
/// is drawn casts a Gaussian shadow of standard deviation radius / 2 under itself, moved by
/// `offset`; offset and radius are in the user space of the drawing.
public struct Shadow: Equatable, Sendable {
    public var color: Color
    public var opacity: Double
    public var offset: Point
    public var radius: Double

    public init(color: Color = .black, opacity: Double = 1, offset: Point = .zero, radius: Double = 3) {
        self.color = color
        self.opacity = opacity
        self.offset = offset
        self.radius = radius
    }
}

extension GraphicsContext {
    /// Draws what `body` draws with `shadow` under it: `body` runs twice, once into a mask
    /// moved by the offset (the shadow's shape, with its own alpha), which is blurred and
    /// composited in the shadow's colour through the current clip, then once as usual.
    public func drawWithShadow(_ shadow: Shadow, _ body: () -> Void) {
        let t = state.transform
        let pixel = PixelMath.premultipliedPixel(shadow.color, alpha: shadow.opacity * state.alpha)
        let scale = abs(t.a * t.d - t.b * t.c).squareRoot()
        let sigma = max(0, shadow.radius.isFinite ? shadow.radius : 0) / 2 * scale
        let offset = t.applyToVector(shadow.offset)
        guard pixel >> 24 != 0, sigma <= 1e4, offset.x.isFinite, offset.y.isFinite,
            abs(offset.x) < 1e6, abs(offset.y) < 1e6
        else {
            body()
            return
        }
        let spread = GaussianBlur.spread(sigma: sigma)
        let clip = state.clipBox

        // The shadow's shape: drawn moved by the offset, unclipped by an anti-aliased clip (that
        // applies where the shadow lands), over the clip grown by what the blur spreads.
        saveGState()
        state.transform = t.concatenating(Transform2D(translationX: offset.x, y: offset.y))
        state.clipMask = nil
        state.clipBox = IntRect(
            x: clip.x - spread, y: clip.y - spread, width: clip.width + 2 * spread, height: clip.height + 2 * spread)
        let shape = renderAlphaMask(body)
        restoreGState()

        let blurred = sigma > 0 ? GaussianBlur.blurred(shape, sigma: sigma) : shape
        let region = blurred.bounds.intersection(clip)
        if !region.isEmpty {
            let mask = state.clipMask
            for y in region.y..<region.maxY {
                let coverage = blurred.deviceRow(y)
                for i in 0..<region.width {
                    let m = UInt32(coverage[region.x + i])
                    samples[i] = m == 0 ? 0 : m == 255 ? pixel : PixelMath.scale(pixel, m)
                }
                SpanBlitter.blendPixels(
                    target.row(y), x: region.x, samples, count: region.width, factor: 255,
                    mask: mask.map { UnsafePointer($0.deviceRow(y)) })
            }
            dirty = dirty.union(region)
        }
        body()
    }
}
