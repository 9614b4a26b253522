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

    /// The shadow in device pixels under transform `t`: the blur's σ (scaled by the transform's
    /// area scale), the offset, and how far the blur spreads a pixel on each side. Nil when it
    /// cannot be drawn (a value not finite, σ above 10⁴ or an offset of a million pixels).
    public func device(under t: Transform2D) -> (sigma: Double, offset: Point, spread: Int)? {
        let scale = abs(t.a * t.d - t.b * t.c).squareRoot()
        let sigma = max(0, radius.isFinite ? radius : 0) / 2 * scale
        let offset = t.applyToVector(offset)
        guard sigma <= 1e4, offset.x.isFinite, offset.y.isFinite, abs(offset.x) < 1e6, abs(offset.y) < 1e6 else {
            return nil
        }
        return (sigma, offset, GaussianBlur.spread(sigma: sigma))
    }
}

extension GraphicsContext {
    /// Draws what `body` draws with `shadow` under it: `body` runs twice, once into a mask
    /// moved by the offset (the shadow's shape, with its own alpha), which is blurred and
    /// composited in the shadow's colour through the current clip, then once as usual.
    /// `bounds`, when given, holds everything `body` draws (user space): the capture is cut to
    /// it, so a wide blur does not set aside a buffer the size of its reach.
    public func drawWithShadow(_ shadow: Shadow, casterBounds bounds: Rect? = nil, _ body: () -> Void) {
        guard !discardsDrawing, let device = shadow.device(under: state.transform),
            PixelMath.premultipliedPixel(shadow.color, alpha: shadow.opacity * state.alpha) >> 24 != 0
        else {
            body()
            return
        }
        // Only what can reach the clip once blurred is captured, and only the clip is blurred.
        let clip = state.clipBox
        var region = clip.outset(by: device.spread)
        if let bounds {
            // Moved by the offset, and a pixel more for anti-aliasing.
            let moved = state.transform.apply(to: bounds).offsetBy(dx: device.offset.x, dy: device.offset.y)
            region = region.intersection(IntRect(enclosing: moved).outset(by: 1))
            guard !region.isEmpty else {
                body()
                return
            }
        }
        let blurred = renderShadowMask(shadow, over: region, keeping: clip, body)
        fill(blurred, offsetX: 0, offsetY: 0, color: shadow.color, opacity: shadow.opacity)
        body()
    }

    /// The blurred shape of a shadow, to draw with `fill(_:offsetX:offsetY:color:opacity:)`
    /// now or later: the alpha of what `body` draws under the current transform moved by the
    /// shadow's offset, captured inside `region` (device pixels) whatever the current clip is —
    /// so a kept mask does not depend on the rectangle being repainted when it was made — and
    /// blurred by the shadow's σ, kept only inside `window` (device pixels) when one is given.
    /// Empty when the shadow cannot be drawn.
    public func renderShadowMask(
        _ shadow: Shadow, over region: IntRect, keeping window: IntRect? = nil, _ body: () -> Void
    ) -> AlphaMask {
        guard let device = shadow.device(under: state.transform) else {
            return AlphaMask(bounds: IntRect(x: 0, y: 0, width: 0, height: 0))
        }
        saveGState()
        state.transform = state.transform.concatenating(Transform2D(translationX: device.offset.x, y: device.offset.y))
        state.clipMask = nil
        state.clipBox = region
        let shape = renderAlphaMask(body)
        restoreGState()
        return device.sigma > 0 ? GaussianBlur.blurred(shape, sigma: device.sigma, within: window) : shape.copy()
    }

    /// `renderShadowMask(_:over:_:)` of a shadow path filled opaque (Core Animation's
    /// `shadowPath`): the path's coverage goes straight into the mask, not through a colour
    /// capture four times its size. The same mask to the bit (a test compares them).
    public func renderShadowMask(
        _ shadow: Shadow, over region: IntRect, keeping window: IntRect? = nil, filling path: Path
    ) -> AlphaMask {
        guard let device = shadow.device(under: state.transform) else {
            return AlphaMask(bounds: IntRect(x: 0, y: 0, width: 0, height: 0))
        }
        let moved = state.transform.concatenating(Transform2D(translationX: device.offset.x, y: device.offset.y))
        startShape(clip: region)
        guard rasterizer.addPath(path, transform: moved) else {
            rasterizer.discard()
            return AlphaMask(bounds: IntRect(x: 0, y: 0, width: 0, height: 0))
        }
        let shape = AlphaMask(bounds: rasterizer.bounds)
        writeAccumulatedCoverage(rule: .nonZero, into: shape, times: nil)
        return device.sigma > 0 ? GaussianBlur.blurred(shape, sigma: device.sigma, within: window) : shape
    }

    /// Paints `mask`, moved by whole device pixels, in `color` at `opacity` times the global
    /// alpha, through the current clip, except inside `hole` (device pixels the caller paints
    /// over opaque next).
    public func fill(
        _ mask: AlphaMask, offsetX: Int, offsetY: Int, color: Color, opacity: Double, except hole: IntRect? = nil
    ) {
        let pixel = PixelMath.premultipliedPixel(color, alpha: opacity * state.alpha)
        let placed = IntRect(
            x: mask.bounds.x + offsetX, y: mask.bounds.y + offsetY, width: mask.bounds.width,
            height: mask.bounds.height)
        let region = placed.intersection(state.clipBox)
        guard pixel >> 24 != 0, !discardsDrawing, !region.isEmpty else { return }
        let clipMask = state.clipMask
        let hole = hole?.intersection(region) ?? IntRect(x: 0, y: 0, width: 0, height: 0)
        for y in region.y..<region.maxY {
            // Element x of `coverage` is the mask's value that lands on device pixel x.
            let coverage = mask.deviceRow(y - offsetY) - offsetX
            guard let clipMask else {
                let row = target.row(y)
                guard !hole.isEmpty, y >= hole.y, y < hole.maxY else {
                    SpanBlitter.blendSolid(
                        row + region.x, coverage: coverage + region.x, count: region.width, color: pixel)
                    continue
                }
                // The row left of the hole, then right of it.
                SpanBlitter.blendSolid(
                    row + region.x, coverage: coverage + region.x, count: hole.x - region.x, color: pixel)
                SpanBlitter.blendSolid(
                    row + hole.maxX, coverage: coverage + hole.maxX, count: region.maxX - hole.maxX, color: pixel)
                continue
            }
            for i in 0..<region.width {
                let m = UInt32(coverage[region.x + i])
                samples[i] = m == 0 ? 0 : m == 255 ? pixel : PixelMath.scale(pixel, m)
            }
            SpanBlitter.blendPixels(
                target.row(y), x: region.x, samples, count: region.width, factor: 255,
                mask: UnsafePointer(clipMask.deviceRow(y)))
        }
        markDrawn(region)
    }
}
