/// Clipping: every clip intersects the current one and lasts until the state is restored.
///
/// A clip is a device-space box (`clipBoundingBox`), plus an 8-bit coverage mask when an edge
/// is anti-aliased. Rectangles that land on whole pixels only shrink the box; anything else is
/// rasterized into a mask (from the context's pool) with the same exact-area coverage as a
/// fill, so a shape clipped to a path has the edges that filling the path would have.
extension GraphicsContext {
    /// Intersects the clip with `rect` (user space). Pixel-aligned after the transform: a box
    /// clip with no cost per pixel; otherwise an anti-aliased mask.
    public func clip(to rect: Rect) {
        if let box = pixelAlignedDeviceRect(rect) {
            state.clipBox = state.clipBox.intersection(box)
            if state.clipBox.isEmpty { clipToNothing() }
            return
        }
        startShape(clip: state.clipBox)
        let ok = rasterizer.addRoundedRect(rect, cornerRadius: 0, transform: state.transform)
        clipToAccumulatedShape(ok, rule: .nonZero)
    }

    /// Intersects the clip with the device pixels `rect` (user space) reaches: the box of its
    /// image widened to whole pixels, with no mask and no cost per pixel. Nothing drawn inside
    /// `rect` is cut, nor faded where a pixel lies only partly inside it (as `clip(to:)`'s
    /// anti-aliased edge would): what holds a drawing to the extent it declares.
    public func clip(toPixelsReaching rect: Rect) {
        clip(toDeviceRect: IntRect(enclosing: state.transform.apply(to: rect)))
    }

    /// Intersects the clip with a rounded rectangle (user space, radius clamped to half the
    /// shorter side), anti-aliased.
    public func clip(toRoundedRect rect: Rect, cornerRadius: Double) {
        guard cornerRadius > 0 else { clip(to: rect); return }
        startShape(clip: state.clipBox)
        let ok = rasterizer.addRoundedRect(rect, cornerRadius: cornerRadius, transform: state.transform)
        clipToAccumulatedShape(ok, rule: .nonZero)
    }

    /// Intersects the clip with a rectangle of device pixels: the clip box shrinks, at no cost
    /// per pixel. Clipping to a box that contains everything drawn next changes no pixel, and
    /// keeps the offscreen buffer of a transparency layer or mask capture begun inside small.
    public func clip(toDeviceRect rect: IntRect) {
        state.clipBox = state.clipBox.intersection(rect)
        if state.clipBox.isEmpty { clipToNothing() }
    }

    /// Intersects the clip with the interior of `path` (user space) by `rule`, anti-aliased.
    /// A path with non-finite coordinates clips everything away.
    public func clip(to path: Path, rule: FillRule = .nonZero) {
        clipToAccumulatedShape(rasterize(path), rule: rule)
    }

    /// Intersects the clip with a device-space mask: coverage of later drawing is multiplied
    /// by the mask's value at each pixel (0 outside its bounds). The context keeps a reference
    /// to `mask` until the state is restored, so do not modify it meanwhile.
    public func clip(toMask mask: AlphaMask) {
        let region = state.clipBox.intersection(mask.bounds)
        guard !region.isEmpty else { clipToNothing(); return }
        if let previous = state.clipMask {
            let combined = pool.mask(bounds: region)
            for y in region.y..<region.maxY {
                let out = combined.deviceRow(y), a = mask.deviceRow(y), b = previous.deviceRow(y)
                for x in region.x..<region.maxX {
                    out[x] = UInt8(truncatingIfNeeded: PixelMath.mul255(UInt32(a[x]), UInt32(b[x])))
                }
            }
            state.clipMask = combined
        } else {
            state.clipMask = mask
        }
        state.clipBox = region
    }

    /// Turns the rasterizer's accumulated shape into the new clip mask (times the old one).
    private func clipToAccumulatedShape(_ accepted: Bool, rule: FillRule) {
        guard accepted else { rasterizer.discard(); clipToNothing(); return }
        let region = rasterizer.bounds
        guard !region.isEmpty else { clipToNothing(); return }
        let mask = pool.mask(bounds: region)
        writeAccumulatedCoverage(rule: rule, into: mask, times: state.clipMask)
        state.clipMask = mask
        state.clipBox = region
    }

    /// Writes the coverage of the shape in the rasterizer into `mask` over the rasterizer's
    /// region (whatever the mask held there before), each value multiplied by `previous`'s.
    func writeAccumulatedCoverage(rule: FillRule, into mask: AlphaMask, times previous: AlphaMask?) {
        let rasterizer = self.rasterizer
        let region = rasterizer.bounds
        for y in region.y..<region.maxY {
            let row = mask.deviceRow(y)
            (row + region.x).update(repeating: 0, count: region.width)
            let count = rasterizer.sweep(row: y, rule: rule, into: spans)
            SpanBlitter.writeCoverage(
                row, spans: spans, count: count, previous: previous.map { UnsafePointer($0.deviceRow(y)) })
        }
    }

    private func clipToNothing() {
        state.clipBox = IntRect(x: 0, y: 0, width: 0, height: 0)
        state.clipMask = nil
    }
}
