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

    /// Starts a transparency layer whose drawing is dropped: it ends (`endTransparencyLayer()`)
    /// without compositing, and nothing drawn in it, or in a transparency layer begun inside it,
    /// is painted (`discardsDrawing`). What drawing makes on the way is kept: backing stores and
    /// shadows drawn by their own contexts or captured in masks, the rows of resampled image
    /// copies the draws would read. For drawing whose only purpose is what it leaves in caches.
    public func beginDiscardedLayer() {
        beginLayer(.transparency(alpha: 255), discarded: true)
    }

    /// Whether drawing is dropped where it goes now: inside a discarded layer and not in a mask
    /// capture begun there (a shadow's shape, a mask, which are kept).
    public var discardsDrawing: Bool { layers.last?.discards == true }

    /// Starts a transparency layer whose pixels are multiplied by `tint` (each channel by the
    /// tint's, and by its alpha times the current global alpha) when it ends: Core Animation's
    /// instance colour of a replicator.
    public func beginTransparencyLayer(tint: Color) {
        let a = PixelMath.unitByte(tint.alpha * state.alpha)
        beginLayer(.tinted(factors: a << 24 | PixelMath.channelFactors(tint) & 0xFF_FFFF))
    }

    /// Starts a transparency layer that is added to what lies below when it ends (each
    /// channel summed, at most 1), scaled by `alpha` times the current global alpha: over a
    /// group holding another drawing at 1 − alpha, a dissolve of one into the other.
    public func beginAdditiveTransparencyLayer(alpha: Double) {
        beginLayer(.additive(alpha: PixelMath.unitByte(alpha * state.alpha)))
    }

    /// Ends the innermost transparency layer and composites it source-over (or adds it, or
    /// tints it, as it began). Ignored when the innermost open level is not a transparency
    /// layer.
    public func endTransparencyLayer() {
        guard let top = layers.last else { return }
        let alpha: UInt32, tint: UInt32?, adds: Bool
        switch top.kind {
        case .transparency(let a): (alpha, tint, adds) = (a, nil, false)
        case .tinted(let factors): (alpha, tint, adds) = (factors >> 24, factors, false)
        case .additive(let a): (alpha, tint, adds) = (a, nil, true)
        case .maskCapture: return
        }
        let (layer, drawn) = endLayer()
        if layer.discards {
            // Nothing is painted in a discarded level; whatever was, is cleared for the pooled
            // buffer's next use.
            let pixels = layer.bitmap.drawTarget
            for y in drawn.y..<drawn.maxY { (pixels.row(y) + drawn.x).update(repeating: 0, count: drawn.width) }
            return
        }
        // What lies below must be what it is before anything is added to it.
        if adds { paintUnderlay() }
        var region = drawn
        if let underlay = layer.underlay {
            // An underlay covers the whole level, drawn or not; but where nothing was drawn in
            // the level over pixels of its own colour (what both scenes of a dissolve leave
            // plain background), the composite would give those pixels back unchanged.
            region = layer.bitmap.bounds
            if let uniform, uniform.pixel == underlay, uniform.rect.contains(region) {
                region = region.intersection(uniform.drawnSince.union(drawn))
            }
        }
        guard !region.isEmpty else { return }
        compositedPixelCount &+= region.area
        let pixels = layer.bitmap.drawTarget, target = self.target
        // Into the bitmap itself, a source-over composite changes only the tiles drawn in the
        // level, and with an underlay those over pixels not of its colour (as `PlainRows` knows
        // them): it reads and records no others.
        let tiled =
            compositesByTiles && layers.isEmpty && tint == nil && !adds && (layer.underlay == nil || plainRows.isOn)
        // A fade's group covers the frame: its rows are shared among the cores.
        RowBands.forEach(
            rows: region.y..<region.maxY, width: region.width,
            LayerComposite(
                source: pixels, target: target, region: region, drawn: drawn, alpha: alpha, tint: tint,
                adds: adds, underlay: layer.underlay, levelTiles: tiled ? levelTiles : nil, plainRows: plainRows))
        if tiled { markDirty(region) } else { markDrawn(region) }
    }

    /// Takes an opaque fill of `rect` (device pixels) as the innermost transparency layer's
    /// underlay instead of painting it, when it is the first drawing of the level and covers
    /// all of it: a scene fading in over another fills its whole group with its background
    /// first. The composite then lays the colour under what was drawn as it blends, so the
    /// group's pixels are neither filled with it nor read back where nothing else was drawn.
    /// Source-over is associative, so the group shows what it did with the fill painted, up
    /// to the rounding of overlapping translucent drawing (one level).
    func takesAsUnderlay(_ rect: IntRect, _ pixel: UInt32) -> Bool {
        guard pixel >> 24 == 255, dirty.isEmpty, state.clipMask == nil, let top = layers.last,
            case .transparency = top.kind, top.underlay == nil, rect == top.bitmap.bounds, rect == state.clipBox
        else { return false }
        layers[layers.count - 1].underlay = pixel
        underlayCount &+= 1
        return true
    }

    /// Paints the innermost level's underlay into its pixels, under what was drawn there: before
    /// drawing that does not blend source-over (a clear, an additive layer) reads them.
    func paintUnderlay() {
        guard let top = layers.last, let underlay = top.underlay else { return }
        layers[layers.count - 1].underlay = nil
        let region = top.bitmap.bounds
        for y in region.y..<region.maxY {
            let row = target.row(y)
            for x in region.x..<region.maxX { row[x] = PixelMath.sourceOver(row[x], underlay) }
        }
        markDrawn(region)
    }

    /// `target += source × factor / 255`, channel by channel (premultiplied stays so: each
    /// channel and alpha are summed alike, then held at 255).
    fileprivate static func add(
        _ source: UnsafeMutablePointer<UInt32>, scaledBy factor: UInt32, to target: UnsafeMutablePointer<UInt32>,
        count: Int
    ) {
        for i in 0..<count {
            let s = source[i]
            guard s != 0 else { continue }
            let scaled = factor == 255 ? s : PixelMath.scale(s, factor)
            let d = target[i]
            @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
                min(255, ((d >> shift) & 0xFF) + ((scaled >> shift) & 0xFF)) << shift
            }
            target[i] = channel(24) | channel(16) | channel(8) | channel(0)
        }
    }

    /// Multiplies the colour channels of premultiplied pixels by the factors' (0…255 each;
    /// the alpha channel is left to the composite's factor). Staying premultiplied: a channel
    /// never exceeds its alpha, and a product of it by a factor below 255 does not either.
    static func multiply(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, by factors: UInt32) {
        let r = (factors >> 16) & 0xFF, g = (factors >> 8) & 0xFF, b = factors & 0xFF
        guard r != 255 || g != 255 || b != 255 else { return }
        // Eight pixels at a time, each channel scaled by its factor with `PixelMath.mul255`'s
        // rounding (alpha by 255, which keeps it), then the rest one by one: a replicator's
        // tinted copies are whole groups, multiplied before they are composited.
        let redBlue = SIMD8<UInt32>(repeating: r << 16 | b), alphaGreen = SIMD8<UInt32>(repeating: 255 << 16 | g)
        let redBlueFactors = unsafeBitCast(redBlue, to: SIMD16<UInt16>.self)
        let alphaGreenFactors = unsafeBitCast(alphaGreen, to: SIMD16<UInt16>.self)
        let raw = UnsafeMutableRawPointer(pixels)
        var i = 0
        while i &+ 8 <= count {
            let p = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            raw.storeBytes(
                of: SpanBlitter.scaleWide(p, redBlue: redBlueFactors, alphaGreen: alphaGreenFactors),
                toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            i &+= 8
        }
        while i < count {
            let p = pixels[i]
            pixels[i] =
                p & 0xFF00_0000 | PixelMath.mul255((p >> 16) & 0xFF, r) << 16
                | PixelMath.mul255((p >> 8) & 0xFF, g) << 8 | PixelMath.mul255(p & 0xFF, b)
            i &+= 1
        }
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

    private func beginLayer(_ kind: Layer.Kind, discarded: Bool = false) {
        // A group inside a discarded level is discarded with it; a mask captured there is kept.
        let discards: Bool
        if case .maskCapture = kind { discards = false } else { discards = discarded || discardsDrawing }
        saveGState()
        let offscreen = pool.bitmap(bounds: state.clipBox)
        layers.append(
            Layer(
                kind: kind, bitmap: offscreen, parent: target, parentDirty: dirty, parentUniform: uniform,
                depth: savedStates.count, discards: discards))
        if layers.count == 1 {
            let rows = offscreen.bounds.intersection(bitmapBounds)
            if !rows.isEmpty { (levelTiles + rows.y).update(repeating: 0, count: rows.height) }
        }
        target = offscreen.drawTarget
        dirty = IntRect(x: 0, y: 0, width: 0, height: 0)
        uniform = nil
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
        uniform = layer.parentUniform
        return (layer, region)
    }
}

/// A transparency layer's rows composited into the level below (and cleared for reuse), as a
/// `RowBands` job.
private struct LayerComposite: RowBandJob {
    let source: DrawTarget
    let target: DrawTarget
    /// The pixels composited; `drawn`, within it, those drawn (left transparent for reuse).
    let region: IntRect
    let drawn: IntRect
    let alpha: UInt32
    let tint: UInt32?
    let adds: Bool
    /// An opaque colour under the drawn pixels (only for a plain transparency layer).
    let underlay: UInt32?
    /// For a source-over composite into the bitmap itself: the tiles of each row drawn in the
    /// level (`GraphicsContext.levelTiles`). Only those (and, with an underlay, the ones that
    /// may not hold its colour) are composited, and recorded as drawn in `plainRows` when the
    /// context remembers plain pixels.
    let levelTiles: UnsafeMutablePointer<UInt64>?
    /// What the bitmap's rows hold (the context's, which outlives the job).
    unowned(unsafe) let plainRows: PlainRows

    func run(rows: Range<Int>) {
        if let levelTiles { return runTiled(rows: rows, drawn: levelTiles) }
        for y in rows {
            let pixels = source.row(y) + region.x
            // Whether the composite left the row's drawn pixels (all inside the region)
            // transparent as it read them.
            var consumed = false
            if alpha != 0 {
                if let tint { GraphicsContext.multiply(pixels, count: region.width, by: tint) }
                if adds {
                    GraphicsContext.add(pixels, scaledBy: alpha, to: target.row(y) + region.x, count: region.width)
                } else if let underlay {
                    SpanBlitter.composite(
                        target.row(y) + region.x, consuming: pixels, count: region.width, factor: alpha,
                        over: underlay)
                    consumed = true
                } else {
                    SpanBlitter.composite(
                        target.row(y), x: region.x, consuming: pixels, count: region.width, factor: alpha)
                    consumed = true
                }
            }
            if !consumed && y >= drawn.y && y < drawn.maxY && !drawn.isEmpty {
                (source.row(y) + drawn.x).update(repeating: 0, count: drawn.width)
            }
        }
    }

    /// The rows composited tile by tile. Elsewhere the level's pixels are transparent (nothing
    /// drew there), so the composite would leave the bitmap as it is: without an underlay
    /// always, and with one where the bitmap holds its colour (`u·f + u·(255 − f)` is `u`).
    private func runTiled(rows: Range<Int>, drawn: UnsafeMutablePointer<UInt64>) {
        let plain = plainRows, alpha = self.alpha, underlay = self.underlay
        let within = plain.tilesTouching(region.x, region.maxX)
        for y in rows {
            var changing = drawn[y]
            if let underlay { changing |= plain.staleTiles(y, for: underlay) }
            changing &= within
            guard changing != 0 else { continue }
            let pixels = source.row(y), row = target.row(y)
            plain.forEachRun(of: changing, region.x, region.maxX) { x, maxX in
                if let underlay {
                    SpanBlitter.composite(
                        row + x, consuming: pixels + x, count: maxX &- x, factor: alpha, over: underlay)
                } else {
                    SpanBlitter.composite(row, x: x, consuming: pixels + x, count: maxX &- x, factor: alpha)
                }
            }
            if plain.isOn { plain.drawn(row: y, tiles: changing) }
        }
    }
}
