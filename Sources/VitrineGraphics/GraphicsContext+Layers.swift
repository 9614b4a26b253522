/// Offscreen levels: transparency layers (group opacity) and mask capture (layer masks).
///
/// Both redirect drawing into a transparent bitmap from the context's pool that covers only
/// the current clip box (nothing inside can draw beyond it), and remember which pixels were
/// drawn; ending one touches only those pixels (composite or extract, then clear), so both
/// memory and time follow what is drawn, and the pooled bitmap is transparent again for the
/// next use. Both save the graphics state when they begin
/// and restore it when they end; inside, the global alpha starts at 1 and the clip is
/// inherited (drawing is clipped as it happens, so the result is not clipped a second time).
extension GraphicsContext {
    /// Starts a transparency layer: drawing until `endTransparencyLayer()` goes to an
    /// offscreen buffer, then is composited once with `alpha` times the current global alpha,
    /// so overlapping parts of the group do not show through each other.
    public func beginTransparencyLayer(alpha: Double) {
        beginLayer(.transparency(alpha: PixelMath.unitByte(alpha * state.alpha)))
    }

    /// Ends the innermost transparency layer and composites it source-over. Ignored when the
    /// innermost open level is not a transparency layer.
    public func endTransparencyLayer() {
        guard let top = layers.last, case .transparency(let alpha) = top.kind else { return }
        let (layer, region) = endLayer()
        guard !region.isEmpty else { return }
        let pixels = layer.bitmap.drawTarget
        for y in region.y..<region.maxY {
            let source = pixels.row(y) + region.x
            if alpha != 0 {
                SpanBlitter.blendPixels(
                    target.row(y), x: region.x, source, count: region.width,
                    factor: alpha, mask: nil)
            }
            source.update(repeating: 0, count: region.width)
        }
        dirty = dirty.union(region)
    }

    /// Starts capturing a mask: drawing until `endMaskCapture()` is not shown but collected,
    /// and its alpha becomes an `AlphaMask` (for `clip(toMask:)`).
    public func beginMaskCapture() {
        beginLayer(.maskCapture)
    }

    /// Ends the innermost mask capture and returns the alpha of what was drawn, in device
    /// space, bounded by the pixels drawn. The mask comes from the context's pool and is
    /// reused only after the caller (and any graphics state clipped by it) has let it go.
    /// Returns an empty mask when the innermost open level is not a mask capture.
    public func endMaskCapture() -> AlphaMask {
        guard let top = layers.last, case .maskCapture = top.kind else {
            return AlphaMask(bounds: IntRect(x: 0, y: 0, width: 0, height: 0))
        }
        let (layer, region) = endLayer()
        let mask = pool.mask(bounds: region)
        guard !region.isEmpty else { return mask }
        let pixels = layer.bitmap.drawTarget
        for y in region.y..<region.maxY {
            let source = pixels.row(y) + region.x
            let out = mask.row(y)
            for i in 0..<region.width { out[i] = UInt8(truncatingIfNeeded: source[i] >> 24) }
            source.update(repeating: 0, count: region.width)
        }
        return mask
    }

    /// Captures what `body` draws as an alpha mask (`beginMaskCapture` … `endMaskCapture`).
    public func renderAlphaMask(_ body: () throws -> Void) rethrows -> AlphaMask {
        beginMaskCapture()
        do {
            try body()
        } catch {
            _ = endMaskCapture()
            throw error
        }
        return endMaskCapture()
    }

    private func beginLayer(_ kind: Layer.Kind) {
        saveGState()
        let offscreen = pool.bitmap(bounds: state.clipBox)
        layers.append(
            Layer(
                kind: kind, bitmap: offscreen, parent: target, parentDirty: dirty,
                depth: savedStates.count))
        target = offscreen.drawTarget
        dirty = IntRect(x: 0, y: 0, width: 0, height: 0)
        state.alpha = 1
    }

    /// Pops the innermost level: restores the state saved when it began (dropping saves left
    /// open inside it) and the previous target; returns it with the region drawn in it.
    private func endLayer() -> (Layer, IntRect) {
        let layer = layers.removeLast()
        savedStates.removeLast(savedStates.count - layer.depth)
        state = savedStates.removeLast()
        let region = dirty.intersection(target.bounds)
        target = layer.parent
        dirty = layer.parentDirty
        return (layer, region)
    }
}
