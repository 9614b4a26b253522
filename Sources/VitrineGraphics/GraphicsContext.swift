/// Draws into a `Bitmap`, as CGContext does: a current transform, global alpha and clip kept
/// in a graphics state with save/restore; fills of paths, rectangles and images, blended
/// source-over in premultiplied sRGB; transparency layers (group opacity) and mask capture.
///
/// Coordinates are in user space, mapped to device pixels by `transform` (y down, one unit
/// one pixel at the identity). The context owns every buffer it draws with — accumulation
/// cells, span lists, offscreen layers, clip masks — and reuses them, so drawing the same
/// frame again allocates nothing. Not thread-safe: one context per thread.
public final class GraphicsContext {
    /// The bitmap this context draws into.
    public let bitmap: Bitmap

    struct GState {
        var transform: Transform2D = .identity
        var alpha: Double = 1
        /// Device pixels drawing may touch (within the bitmap).
        var clipBox: IntRect
        /// Anti-aliased clip coverage; its bounds contain `clipBox`. nil: no mask.
        var clipMask: AlphaMask?
    }

    /// An offscreen level: a transparency layer or a mask capture.
    struct Layer {
        enum Kind { case transparency(alpha: UInt32), tinted(factors: UInt32), additive(alpha: UInt32), maskCapture }
        let kind: Kind
        /// The offscreen pixels, covering the clip box the level began with (drawing inside
        /// never leaves it: clips only shrink until the level ends).
        let bitmap: OffscreenBitmap
        /// The target and its dirty region to return to.
        let parent: DrawTarget
        let parentDirty: IntRect
        /// The target's uniform fill, to return to.
        let parentUniform: UniformFill?
        /// `savedStates.count` right after the layer's implicit save.
        let depth: Int
        /// An opaque colour that lies under everything drawn in the level, not yet painted into
        /// its pixels (`fill(_:color:)` of the whole level first): the composite puts it under
        /// them as it blends.
        var underlay: UInt32?
        /// Whether drawing into the level is dropped (`beginDiscardedLayer()`).
        var discards = false
    }

    var state: GState
    var savedStates: [GState] = []
    var layers: [Layer] = []
    /// Where drawing goes now: `bitmap`, or the innermost layer's offscreen bitmap.
    var target: DrawTarget
    /// The part of `target` drawn since it became the target (what a layer must composite).
    var dirty = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// Whether axis-aligned rectangles fill the rows between their corners without the
    /// rasterizer (`fillsAxisAligned`; tests turn it off to compare).
    var splitsAxisAlignedFills = true
    /// How many transparency layers took their first fill as an underlay, and how many pixels
    /// the regions transparency layers composited held (tiles skipped in them included; for
    /// tests).
    var underlayCount = 0, compositedPixelCount = 0

    /// An opaque colour that filled all of `rect` (the clip box then) in the target, and the
    /// part of the target drawn since: outside it, the pixels of `rect` are that colour.
    struct UniformFill {
        let pixel: UInt32
        let rect: IntRect
        /// `savedStates.count` when it was made: it holds until the state saved before it is
        /// restored, so only within the drawing that made it (between two, the bitmap may be
        /// written by others: a backing store cleared, another thread's band).
        let depth: Int
        var drawnSince = IntRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// The last fill of the target that covered all of its clip with one opaque colour (a
    /// player's stage painting its background), within the drawing under way.
    var uniform: UniformFill?

    /// Records that drawing touched `region` of the target.
    @inline(__always)
    func markDrawn(_ region: IntRect) {
        markDirty(region)
        // Within the clip box: the contexts drawing other bands of the frame keep the other rows.
        if plainRows.isOn, layers.isEmpty { plainRows.drawn(region.intersection(state.clipBox)) }
    }

    /// The target's dirty region, and what was drawn since its uniform fill, grown by `region`
    /// (and the outermost level's tiles).
    @inline(__always)
    func markDirty(_ region: IntRect) {
        dirty = dirty.union(region)
        if let known = uniform { uniform!.drawnSince = known.drawnSince.union(region) }
        if layers.count == 1 { markLevelTiles(region) }
    }

    /// Records that drawing in the outermost level touched `region` (a shadow's capture may
    /// lie partly outside the bitmap: only its part inside is kept). Out of line, as it runs
    /// once per drawing, after the drawing's own loops.
    @inline(never)
    private func markLevelTiles(_ region: IntRect) {
        let r = region.intersection(target.bounds).intersection(bitmapBounds)
        guard !r.isEmpty else { return }
        let touched = plainRows.tilesTouching(r.x, r.maxX)
        for y in r.y..<r.maxY { levelTiles[y] |= touched }
    }

    /// Records that `region` of the target, in the clip box, was filled with `pixel`: drawn on,
    /// and the target's uniform fill when it is opaque and fills all of the clip.
    @inline(__always)
    func markFilled(_ region: IntRect, with pixel: UInt32) {
        markDirty(region)
        let opaque = pixel >> 24 == 255 && state.clipMask == nil
        if plainRows.isOn, layers.isEmpty {
            let inside = region.intersection(state.clipBox)
            if opaque { plainRows.filled(inside, with: pixel) } else { plainRows.drawn(inside) }
        }
        guard opaque, region == state.clipBox else { return }
        uniform = UniformFill(pixel: pixel, rect: region, depth: savedStates.count)
    }

    /// Fills `r` (in the clip box) with `pixel` where it does not hold it already, when the
    /// fill is opaque, unmasked and of the bitmap itself and the context remembers its plain
    /// pixels (`PlainRows`); returns whether it did (and recorded the fill).
    private func fillsStalePixels(_ r: IntRect, _ pixel: UInt32) -> Bool {
        guard plainRows.isOn, layers.isEmpty, pixel >> 24 == 255, state.clipMask == nil else { return false }
        RowBands.forEach(
            rows: r.y..<r.maxY, width: r.width, StaleRowsFill(target: target, rect: r, pixel: pixel, plain: plainRows))
        markFilled(r, with: pixel)
        return true
    }

    /// Whether the context remembers, from one drawing to the next, which pixels of its bitmap
    /// hold an opaque colour it filled them with, so that filling them with it again writes
    /// only the others: a frame whose background covers it (a player's stage) then repaints
    /// its background only where the frame before drew over it. Off by default: while on,
    /// nothing else may write the bitmap unless `forgetPlainPixels()` is called after it did.
    /// Shared with the contexts drawing other bands of its frames.
    public var remembersPlainPixels: Bool {
        get { plainRows.isOn }
        set {
            if newValue != plainRows.isOn { plainRows.forget() }
            plainRows.isOn = newValue
        }
    }

    /// Forgets what the bitmap's pixels hold (something else wrote them): the next fills write
    /// every pixel.
    public func forgetPlainPixels() { plainRows.forget() }

    /// Pixels that fills left as they were because they held the colour already, since the
    /// context was made (with the contexts sharing its bitmap; for tests).
    public var plainPixelsSkipped: Int { plainRows.skippedPixels.value }

    /// Rows of coverage as the rasterizer sweeps them (`Rasterizer.maxSpansPerRow` of the
    /// target's width).
    let spans: UnsafeMutablePointer<CoverageSpan>
    /// One row of image samples.
    let samples: UnsafeMutablePointer<UInt32>
    /// Image rows filtered across, kept for the next device rows of an image drawn enlarged
    /// (made when the context first draws an image).
    lazy var filteredRows = FilteredRows()
    /// The colour tables of recent gradients.
    let gradientTables = GradientTables()
    let pool: BufferPool
    /// Outlines strokes; kept so its buffers are reused.
    var stroker = Stroker(style: StrokeStyle(), tolerance: Flattening.defaultTolerance)
    /// Polygons projected for drawing through a projection (kept: a layer turning in space
    /// allocates nothing for them frame after frame).
    var projectedPoints: [Point] = []
    var projectedEnds: [Int] = []
    /// Images drawn again at the same scale keep a copy resampled at device resolution (shared
    /// with the contexts that draw other bands of the same frame).
    private let resampledImages: SharedResampledImages
    /// What the bitmap's rows hold from one drawing to the next (`remembersPlainPixels`), shared
    /// with the contexts drawing other bands of the same frames.
    let plainRows: PlainRows
    /// All of `bitmap`, in device pixels.
    var bitmapBounds: IntRect { IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height) }
    /// The tiles (`PlainRows`' runs of columns) of each row of the bitmap that drawing in the
    /// outermost offscreen level touched since it began: elsewhere its pixels are transparent,
    /// so its composite into the bitmap need not read them (`endTransparencyLayer`).
    let levelTiles: UnsafeMutablePointer<UInt64>
    /// Whether composites into the bitmap go by `levelTiles` (tests turn it off to compare).
    var compositesByTiles = true
    /// Whether this context's frames age the copies (false for one sharing another's).
    private let ownsResampledImages: Bool
    /// The last few trimmed or dashed stroke paths and what they were made from (a frame often
    /// strokes a few: a progress ring and its dashed track).
    private var visibleParts: [(key: VisiblePartKey, path: Path)] = []
    private var nextVisiblePartSlot = 0
    private static let visiblePartSlots = 4
    /// The last few stroke outlines, in user space, and what they were made from: a stroke
    /// drawn again at the same scale (in another damage rectangle, or a frame later while the
    /// layer does not change) is only rasterized again.
    private(set) var strokeOutlines: [StrokeOutline] = []
    /// Whether strokes keep their outlines for the next drawing (on by default; a benchmark
    /// timing frame after frame of the same strokes against other renderers turns it off, so
    /// each frame outlines every stroke anew as theirs do).
    public var keepsStrokeOutlines = true {
        didSet { if !keepsStrokeOutlines { strokeOutlines.removeAll() } }
    }
    private var strokeOutlineUses = 0
    /// Strokes drawn from a kept outline (for tests).
    private(set) var strokeOutlinesReused = 0
    static let strokeOutlineSlots = 8
    /// Outlines of more points than this, or of paths of more elements, are not kept (a point
    /// is 16 bytes and an element 56: a slot holds at most about 300 KB; the playlist's
    /// largest, a 4K track, has under a thousand points).
    private static let largestKeptOutline = 1 << 12

    /// A context drawing into `bitmap`, with the identity transform, alpha 1 and no clip.
    public convenience init(bitmap: Bitmap) {
        self.init(
            bitmap: bitmap, resampledImages: SharedResampledImages(),
            plainRows: PlainRows(width: bitmap.width, height: bitmap.height), owning: true)
    }

    /// A second context drawing into `other`'s bitmap (other bands of its frames, on another
    /// thread) that shares its resampled image copies, so an image is not kept twice, and what
    /// it remembers of the bitmap's plain pixels (`remembersPlainPixels`).
    public convenience init(sharingImagesWith other: GraphicsContext) {
        self.init(
            bitmap: other.bitmap, resampledImages: other.resampledImages, plainRows: other.plainRows, owning: false)
    }

    private init(bitmap: Bitmap, resampledImages: SharedResampledImages, plainRows: PlainRows, owning: Bool) {
        self.resampledImages = resampledImages
        self.plainRows = plainRows
        ownsResampledImages = owning
        self.bitmap = bitmap
        target = DrawTarget(bitmap)
        state = GState(clipBox: IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
        spans = .allocate(capacity: Rasterizer.maxSpansPerRow(width: bitmap.width))
        samples = .allocate(capacity: max(1, bitmap.width))
        levelTiles = .allocate(capacity: max(1, bitmap.height))
        pool = BufferPool()
        savedStates.reserveCapacity(16)
        layers.reserveCapacity(4)
    }

    deinit {
        spans.deallocate()
        samples.deallocate()
        levelTiles.deallocate()
    }

    /// The calling thread's rasterizer (`Rasterizer.ofThisThread`): every context drawing on
    /// a thread shares one.
    var rasterizer: Rasterizer { Rasterizer.ofThisThread }

    /// Readies the thread's rasterizer for one shape in this context's target, clipped to
    /// `clip` (device pixels); the shape's edges go into the rasterizer returned.
    @discardableResult
    func startShape(clip: IntRect) -> Rasterizer {
        let rasterizer = Rasterizer.ofThisThread
        rasterizer.serve(width: bitmap.width, height: bitmap.height)
        rasterizer.reset(clip: clip)
        return rasterizer
    }

    // MARK: - Graphics state

    /// The current transform from user space to device pixels. Default identity.
    public var transform: Transform2D { state.transform }

    /// The global alpha every drawing is multiplied by. Default 1.
    public var alpha: Double { state.alpha }
    /// Whether the clip has a coverage mask (a path or a layer mask), not only a box.
    public var hasClipMask: Bool { state.clipMask != nil }

    /// The device pixels drawing can currently touch: the clip's bounding box.
    public var clipBoundingBox: IntRect { state.clipBox }

    /// Pushes a copy of the graphics state (transform, alpha, clip).
    public func saveGState() {
        savedStates.append(state)
    }

    /// Pops the state pushed by the matching `saveGState`. Extra calls are ignored, as are
    /// calls that would pop the state saved by an open transparency layer or mask capture.
    public func restoreGState() {
        guard savedStates.count > (layers.last?.depth ?? 0) else { return }
        state = savedStates.removeLast()
        if let uniform, savedStates.count < uniform.depth { self.uniform = nil }
    }

    /// Applies `t` before the current transform (CGContextConcatCTM).
    public func concatenate(_ t: Transform2D) {
        state.transform = t.concatenating(state.transform)
    }

    /// Moves the user-space origin by (x, y).
    public func translateBy(x: Double, y: Double) {
        state.transform = state.transform.translatedBy(x: x, y: y)
    }

    /// Scales user space by (x, y).
    public func scaleBy(x: Double, y: Double) {
        state.transform = state.transform.scaledBy(x: x, y: y)
    }

    /// Rotates user space by `angle` radians (clockwise on screen for positive angles).
    public func rotate(by angle: Double) {
        state.transform = state.transform.rotated(by: angle)
    }

    /// Sets the global alpha (clamped to 0…1, NaN as 0), which multiplies the alpha of
    /// everything drawn afterwards, as CGContextSetAlpha. Saved and restored with the state.
    public func setAlpha(_ alpha: Double) {
        state.alpha = alpha.isNaN ? 0 : min(max(alpha, 0), 1)
    }

    // MARK: - Filling

    /// Fills the interior of `path` (subpaths implicitly closed) with `color` by `rule`.
    /// Paths with non-finite coordinates (after the transform) draw nothing.
    public func fill(_ path: Path, color: Color, rule: FillRule = .nonZero) {
        guard !discardsDrawing else { return }
        let pixel = PixelMath.premultipliedPixel(color, alpha: state.alpha)
        guard pixel >> 24 != 0, rasterize(path) else { return }
        blendSolid(pixel, rule: rule)
    }

    /// Fills a rectangle with `color`. Pixel-aligned rectangles skip the rasterizer.
    public func fill(_ rect: Rect, color: Color) {
        guard !discardsDrawing else { return }
        let pixel = PixelMath.premultipliedPixel(color, alpha: state.alpha)
        guard pixel >> 24 != 0 else { return }
        if let box = pixelAlignedDeviceRect(rect) {
            let r = box.intersection(state.clipBox)
            guard !r.isEmpty else { return }
            if takesAsUnderlay(r, pixel) { return }
            // A layer's background filling the frame: rows shared among the cores.
            if fillsStalePixels(r, pixel) { return }
            RowBands.forEach(
                rows: r.y..<r.maxY, width: r.width,
                SolidRectRows(target: target, rect: r, pixel: pixel, mask: state.clipMask))
            markFilled(r, with: pixel)
            return
        }
        if fillsAxisAligned(rect, cornerRadius: 0, pixel: pixel) { return }
        startShape(clip: state.clipBox)
        guard rasterizer.addRoundedRect(rect, cornerRadius: 0, transform: state.transform) else { return }
        blendSolid(pixel, rule: .nonZero)
    }

    /// Fills a rectangle with rounded corners (the radius clamped to half the shorter side) with
    /// `color`: the outline of `Path.addRoundedRect(_:cornerRadius:)`, without building a path.
    public func fill(_ rect: Rect, cornerRadius: Double, color: Color) {
        guard !discardsDrawing else { return }
        guard cornerRadius > 0 else { return fill(rect, color: color) }
        let pixel = PixelMath.premultipliedPixel(color, alpha: state.alpha)
        guard pixel >> 24 != 0 else { return }
        if fillsAxisAligned(rect, cornerRadius: cornerRadius, pixel: pixel) { return }
        startShape(clip: state.clipBox)
        guard rasterizer.addRoundedRect(rect, cornerRadius: cornerRadius, transform: state.transform) else { return }
        blendSolid(pixel, rule: .nonZero)
    }

    /// Fills the interior of `path` with `gradient` (its points in the current user space).
    public func fill(_ path: Path, gradient: Gradient, rule: FillRule = .nonZero) {
        guard !discardsDrawing else { return }
        guard
            let sampler = GradientSampler(
                gradient, transform: state.transform, alpha: state.alpha, tables: gradientTables),
            rasterize(path)
        else { return }
        blendShaded(rule: rule, opaque: sampler.isOpaque) { x, y, count, out in
            sampler.sample(x: x, y: y, count: count, into: out)
        }
    }

    /// Strokes `path` with `color` as CAShapeLayer does: the part between `strokeStart` and
    /// `strokeEnd` (fractions of the whole length), dashed by the style's pattern, outlined
    /// (flattened to 0.1 device pixel) and filled by the nonzero rule, so overlapping parts of
    /// one stroke never double up.
    public func stroke(
        _ path: Path, color: Color, style: StrokeStyle,
        strokeStart: Double = 0, strokeEnd: Double = 1
    ) {
        let pixel = PixelMath.premultipliedPixel(color, alpha: state.alpha)
        guard pixel >> 24 != 0, !discardsDrawing,
            rasterizeStroke(of: path, style: style, strokeStart: strokeStart, strokeEnd: strokeEnd)
        else { return }
        blendSolid(pixel, rule: .nonZero)
    }

    /// Strokes `path` as `stroke(_:color:…)` does, painted with `gradient` (its points in the
    /// current user space).
    public func stroke(
        _ path: Path, gradient: Gradient, style: StrokeStyle,
        strokeStart: Double = 0, strokeEnd: Double = 1
    ) {
        guard !discardsDrawing,
            let sampler = GradientSampler(
                gradient, transform: state.transform, alpha: state.alpha, tables: gradientTables),
            rasterizeStroke(of: path, style: style, strokeStart: strokeStart, strokeEnd: strokeEnd)
        else { return }
        blendShaded(rule: .nonZero, opaque: sampler.isOpaque) { x, y, count, out in
            sampler.sample(x: x, y: y, count: count, into: out)
        }
    }

    /// Puts the outline of the stroke of `path` into the rasterizer; false when it draws nothing.
    private func rasterizeStroke(of path: Path, style: StrokeStyle, strokeStart: Double, strokeEnd: Double) -> Bool {
        guard style.lineWidth > 0, strokeEnd > strokeStart else { return false }
        // The outline goes from the context's own stroker into the rasterizer and is kept, in
        // user space: no outline path, and no allocation once the buffers have grown.
        guard style.lineWidth.isFinite else { return false }
        let tolerance = Path.strokeTolerance(Flattening.defaultTolerance / max(state.transform.maxScale, 1e-6))
        let key = StrokeOutlineKey(tolerance: tolerance, strokeStart: strokeStart, strokeEnd: strokeEnd, style: style)
        strokeOutlineUses &+= 1
        for kept in strokeOutlines where kept.key == key && kept.pathElements == path.elements {
            kept.lastUse = strokeOutlineUses
            strokeOutlinesReused &+= 1
            startShape(clip: state.clipBox)
            return rasterizer.addPolygons(
                kept.points, ends: kept.ends, windsAtMostOnce: kept.windsAtMostOnce, transform: state.transform)
        }
        guard
            strokeOutline(of: path, style: style, strokeStart: strokeStart, strokeEnd: strokeEnd, tolerance: tolerance)
        else { return false }
        startShape(clip: state.clipBox)
        guard keepsStrokeOutlines, stroker.points.count <= Self.largestKeptOutline,
            path.elements.count <= Self.largestKeptOutline
        else {
            return rasterizer.addPolygons(
                stroker.points, ends: stroker.contourEnds, windsAtMostOnce: stroker.windsAtMostOnce,
                transform: state.transform)
        }
        // Copied into the slot used longest ago, whose storage grows to the largest outline it
        // has held and stays.
        let outline: StrokeOutline
        if strokeOutlines.count < Self.strokeOutlineSlots {
            outline = StrokeOutline(key: key)
            strokeOutlines.append(outline)
        } else {
            var oldest = strokeOutlines[0]
            for kept in strokeOutlines where kept.lastUse < oldest.lastUse { oldest = kept }
            outline = oldest
            outline.key = key
        }
        outline.lastUse = strokeOutlineUses
        outline.keep(stroker.points, ends: stroker.contourEnds, windsAtMostOnce: stroker.windsAtMostOnce, of: path)
        return rasterizer.addPolygons(
            outline.points, ends: outline.ends, windsAtMostOnce: outline.windsAtMostOnce, transform: state.transform)
    }

    /// Outlines `path`'s stroke, trimmed to `strokeStart`…`strokeEnd`, into the stroker;
    /// returns whether there is one to draw.
    private func strokeOutline(
        of path: Path, style: StrokeStyle, strokeStart: Double, strokeEnd: Double, tolerance: Double
    ) -> Bool {
        let start = min(max(strokeStart, 0), 1), end = min(max(strokeEnd, 0), 1)
        if style.dashPattern.isEmpty && (start > 0 || end < 1) {
            // Trimmed by the stroker, which cuts the whole path's centre line: the pixels away
            // from the cut are those of the other frames of an animated trim.
            guard path.isFinite, start < end else { return false }
            stroker.reset(style: style, tolerance: tolerance)
            stroker.stroke(path.elements, from: start, to: end)
        } else {
            let visible = visiblePart(of: path, strokeStart: strokeStart, strokeEnd: strokeEnd, style: style)
            guard visible.isFinite else { return false }
            stroker.reset(style: style, tolerance: tolerance)
            stroker.stroke(visible.elements)
        }
        return true
    }

    /// The part of `path` a stroke draws: trimmed to `strokeStart`…`strokeEnd`, then dashed.
    /// The last few answers are kept, so drawing the same strokes again (a static frame, the
    /// same shape in several dirty rectangles) measures and allocates nothing.
    func visiblePart(of path: Path, strokeStart: Double, strokeEnd: Double, style: StrokeStyle) -> Path {
        let whole = strokeStart <= 0 && strokeEnd >= 1
        if whole && style.dashPattern.isEmpty { return path }
        let key = VisiblePartKey(
            path: path, strokeStart: strokeStart, strokeEnd: strokeEnd,
            dashPattern: style.dashPattern, dashPhase: style.dashPhase)
        if let cached = visibleParts.first(where: { $0.key == key }) { return cached.path }
        // The slot given up lends its path's storage to the new part (a trim moving every frame).
        let slot = visibleParts.count < Self.visiblePartSlots ? visibleParts.count : nextVisiblePartSlot
        var visible = Path()
        if slot < visibleParts.count { swap(&visible, &visibleParts[slot].path) }
        if whole {
            visible = path
        } else {
            path.trimmed(from: strokeStart, to: strokeEnd, into: &visible)
        }
        if !style.dashPattern.isEmpty {
            visible = visible.dashed(pattern: style.dashPattern, phase: style.dashPhase)
        }
        if slot == visibleParts.count {
            visibleParts.append((key, visible))
        } else {
            visibleParts[slot] = (key, visible)
            nextVisiblePartSlot = (nextVisiblePartSlot + 1) % Self.visiblePartSlots
        }
        return visible
    }

    /// Draws `image` scaled to fill `rect` (user space), under the current transform,
    /// filtered bilinearly, multiplied by the global alpha.
    public func draw(_ image: Image, in rect: Rect) { draw(image, in: rect, tint: nil) }

    /// Draws `image` as `draw(_:in:)` does, each pixel multiplied by `tint` (channel by
    /// channel, and by its alpha): Core Animation's particle colour.
    public func draw(_ image: Image, in rect: Rect, tint: Color?) {
        let r = rect.standardized
        guard image.width > 0, image.height > 0, !r.isNull, r.width > 0, r.height > 0 else { return }
        let tintFactors = tint.map { PixelMath.channelFactors($0) }
        let factor = PixelMath.mul255(PixelMath.unitByte(state.alpha), tintFactors.map { $0 >> 24 } ?? 255)
        guard factor != 0 else { return }
        let imageToUser = Transform2D(
            a: r.width / Double(image.width), b: 0, c: 0,
            d: r.height / Double(image.height), tx: r.minX, ty: r.minY)
        let imageToDevice = imageToUser.concatenating(state.transform)
        guard let inverse = imageToDevice.inverted() else { return }
        let rasterizer = startShape(clip: state.clipBox)
        guard rasterizer.addRoundedRect(r, cornerRadius: 0, transform: state.transform) else { return }
        var sampler = resampledImages.sampler(for: image, imageToDevice: imageToDevice, inverse: inverse)
        filteredRows.reset()
        sampler.filteredRows = filteredRows
        let region = rasterizer.bounds
        guard !region.isEmpty else { return }
        let mask = state.clipMask
        // Opaque samples at full alpha replace what is below: they go straight to the target
        // (the same pixels as blending them, without the copy and the blend).
        let replaces = image.isOpaque && factor == 255 && tintFactors == nil
        let discards = discardsDrawing
        for y in region.y..<region.maxY {
            let count = rasterizer.sweep(row: y, rule: .nonZero, into: spans)
            let row = target.row(y)
            let maskRow = mask.map { UnsafePointer($0.deviceRow(y)) }
            if discards {
                // Drawn unseen: only what the draw leaves in the resampled copy is made, the
                // rows it would read.
                if GraphicsContext.showsAny(spans, count: count, through: maskRow) { sampler.fillRow(y: y) }
                continue
            }
            for s in 0..<count {
                let span = spans[s]
                let x = Int(span.x), length = Int(span.length)
                let spanFactor = PixelMath.mul255(UInt32(span.coverage), factor)
                guard let maskRow else {
                    if replaces && span.coverage == 255 {
                        sampler.sample(x: x, y: y, count: length, into: row + x)
                        continue
                    }
                    SpanBlitter.blendPixels(
                        row, x: x, sampleRow(of: sampler, x: x, y: y, count: length, tint: tintFactors), count: length,
                        factor: spanFactor, mask: nil)
                    continue
                }
                // Sample only where the mask lets something through: an image under a ring-shaped
                // mask would otherwise be filtered across the whole hole of the ring.
                var i = x
                let end = x + length
                let maskBytes = UnsafeRawPointer(maskRow)
                while i < end {
                    // Eight hidden pixels at a time, then one by one to the first shown.
                    while i &+ 8 <= end && maskBytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) == 0 { i &+= 8 }
                    while i < end && maskRow[i] == 0 { i += 1 }
                    let start = i
                    // Eight shown pixels at a time (no zero byte among them), then one by one.
                    while i &+ 8 <= end && !hasZeroByte(maskBytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                        i &+= 8
                    }
                    while i < end && maskRow[i] != 0 { i += 1 }
                    guard i > start else { continue }
                    SpanBlitter.blendPixels(
                        row, x: start, sampleRow(of: sampler, x: start, y: y, count: i - start, tint: tintFactors),
                        count: i - start, factor: spanFactor, mask: maskRow)
                }
            }
        }
        if !discards { markDrawn(region) }
    }

    /// Whether any of `count` spans covers a pixel the mask row (when there is one) lets through.
    private static func showsAny(
        _ spans: UnsafeMutablePointer<CoverageSpan>, count: Int, through maskRow: UnsafePointer<UInt8>?
    ) -> Bool {
        guard let maskRow else { return count > 0 }
        for s in 0..<count {
            let x = Int(spans[s].x)
            for i in x..<x + Int(spans[s].length) where maskRow[i] != 0 { return true }
        }
        return false
    }

    /// The samples of device pixels `x..<x+count` of row `y`, tinted: the image's own pixels in
    /// place when they are the samples (a resampled copy drawn where it was made), else
    /// filtered into the context's sample row.
    @inline(__always)
    private func sampleRow(
        of sampler: ImageSampler, x: Int, y: Int, count: Int, tint: UInt32?
    ) -> UnsafePointer<UInt32> {
        if tint == nil, let inPlace = sampler.pixelsInPlace(x: x, y: y, count: count) { return inPlace }
        sampler.sample(x: x, y: y, count: count, into: samples)
        if let tint { GraphicsContext.multiply(samples, count: count, by: tint) }
        return UnsafePointer(samples)
    }

    /// Sets every pixel inside the clip to `color`, without blending (global alpha does not
    /// apply). Through an anti-aliased clip, edge pixels move towards the colour by their
    /// clip coverage.
    public func clear(_ color: Color) {
        guard !discardsDrawing else { return }
        let pixel = PixelMath.premultipliedPixel(color, alpha: 1)
        let r = state.clipBox
        guard !r.isEmpty else { return }
        paintUnderlay()
        let mask = state.clipMask
        if fillsStalePixels(r, pixel) { return }
        if mask == nil && r.x == 0 && r.width == target.stride {
            // Whole rows are one contiguous run: a fill at memory speed (a frame's shared among
            // the cores).
            RowBands.forEach(
                rows: r.y..<r.maxY, width: r.width, WholeRowsFill(target: target, pixel: pixel, width: r.width))
            markFilled(r, with: pixel)
            return
        }
        for y in r.y..<r.maxY {
            SpanBlitter.replace(
                target.row(y), x: r.x, count: r.width, color: pixel,
                mask: mask.map { UnsafePointer($0.deviceRow(y)) })
        }
        markFilled(r, with: pixel)
    }

    /// Marks the end of a frame: offscreen buffers (transparency layers, mask captures, clip
    /// masks) and resampled image copies that went unused for the last `BufferPool.idleFrames`
    /// frames are released, so the memory a context keeps follows what recent frames drew.
    public func endFrame() {
        // A fill made outside any saved state ends with the frame (others may draw on the
        // bitmap in the next one).
        uniform = nil
        pool.endFrame()
        if ownsResampledImages { resampledImages.endFrame() }
    }

    /// Lets go of the offscreen buffers (but the largest of each kind) and resampled image
    /// copies that the frame just ended did not use. For a player about to show a still frame
    /// for a while: frames counted by `endFrame` stop with it, so what an earlier scene left
    /// would otherwise stay until drawing resumes.
    public func releaseUnused() {
        pool.releaseUnused()
        if ownsResampledImages { resampledImages.releaseUnused() }
    }

    /// Pixels the context keeps in resampled image copies (for tests and diagnostics).
    public var resampledImagePixels: Int { resampledImages.retainedPixels }

    /// Rows of the resampled image copies the context keeps that hold their pixels (for tests).
    var resampledImageRowsFiltered: Int { resampledImages.filteredRows }

    /// Bytes the context keeps in pooled offscreen buffers (for tests and diagnostics).
    public var pooledBufferBytes: Int { pool.retainedBytes }

    // MARK: - Internals

    /// Accumulates `path` under the current transform, clipped to the clip box. False (and
    /// nothing accumulated) when the path has non-finite coordinates.
    func rasterize(_ path: Path) -> Bool {
        startShape(clip: state.clipBox)
        return rasterizer.addPath(path, transform: state.transform)
    }

    /// Sweeps the accumulated shape and blends `pixel` through its coverage.
    func blendSolid(_ pixel: UInt32, rule: FillRule) {
        let rasterizer = self.rasterizer
        let region = rasterizer.bounds
        guard !region.isEmpty else { return }
        let mask = state.clipMask
        if mask == nil {
            // Fused: the sweep composites each run as it finds it.
            var blender = SpanBlitter.SolidBlender(
                row: target.row(region.y), y: region.y, pixelsPerRow: target.stride, color: pixel,
                prefetchingAbove: region.maxY)
            rasterizer.sweep(rows: region.y..<region.maxY, rule: rule, into: &blender)
            markDrawn(region)
            return
        }
        for y in region.y..<region.maxY {
            let count = rasterizer.sweep(row: y, rule: rule, into: spans)
            if count == 0 { continue }
            SpanBlitter.fillSolid(
                row: target.row(y), spans: spans, count: count, color: pixel,
                mask: mask.map { UnsafePointer($0.deviceRow(y)) })
        }
        markDrawn(region)
    }

    /// Sweeps the accumulated shape and blends the premultiplied pixels `shade` gives for each
    /// run (device x, y, count, destination) through its coverage. Pixels that are all `opaque`
    /// replace what is below them: fully covered runs outside a clip mask are shaded straight
    /// into the target (the same pixels as blending them, without the copy and the blend).
    func blendShaded(
        rule: FillRule, alpha: UInt32 = 255, opaque: Bool = false,
        _ shade: (Int, Int, Int, UnsafeMutablePointer<UInt32>) -> Void
    ) {
        let rasterizer = self.rasterizer
        let region = rasterizer.bounds
        guard !region.isEmpty else { return }
        let mask = state.clipMask
        for y in region.y..<region.maxY {
            let count = rasterizer.sweep(row: y, rule: rule, into: spans)
            let row = target.row(y)
            let maskRow = mask.map { UnsafePointer($0.deviceRow(y)) }
            for s in 0..<count {
                let span = spans[s]
                let x = Int(span.x), length = Int(span.length)
                if opaque && alpha == 255 && span.coverage == 255 && maskRow == nil {
                    shade(x, y, length, row + x)
                    continue
                }
                shade(x, y, length, samples)
                let factor = alpha == 255 ? UInt32(span.coverage) : PixelMath.mul255(UInt32(span.coverage), alpha)
                SpanBlitter.blendPixels(row, x: x, samples, count: length, factor: factor, mask: maskRow)
            }
        }
        markDrawn(region)
    }

    /// The device rectangle of `rect` when the transform keeps it axis-aligned and its edges
    /// fall on whole pixels (within 1/512, where exact coverage rounds to the same bytes).
    func pixelAlignedDeviceRect(_ rect: Rect) -> IntRect? {
        let t = state.transform
        guard t.b == 0, t.c == 0, !rect.isNull else { return nil }
        let s = rect.standardized
        let ax = t.a * s.minX + t.tx, bx = t.a * s.maxX + t.tx
        let ay = t.d * s.minY + t.ty, by = t.d * s.maxY + t.ty
        @inline(__always) func whole(_ v: Double) -> Int? {
            guard v.isFinite, abs(v) < 1e9, abs(v - v.rounded()) < 1.0 / 512 else { return nil }
            return Int(v.rounded())
        }
        guard let x0 = whole(min(ax, bx)), let x1 = whole(max(ax, bx)),
            let y0 = whole(min(ay, by)), let y1 = whole(max(ay, by))
        else { return nil }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// What a stroke outline is made from besides its path: with the same path elements, the
/// same style, trim and flattening tolerance give the same contours, to the bit.
struct StrokeOutlineKey: Equatable {
    var tolerance: Double
    var strokeStart: Double
    var strokeEnd: Double
    var style: StrokeStyle
}

/// A kept stroke outline: its contours in user space, back to back, where each ends, whether
/// every point winds 0 or 1 under them (`Stroker.windsAtMostOnce`), and the path they
/// outline. The path's elements are a copy: holding the caller's array would make a path
/// rebuilt in place every frame (a scratch path) copy its storage on the next write.
final class StrokeOutline {
    var key: StrokeOutlineKey
    private(set) var pathElements: [PathElement] = []
    private(set) var points: [Point] = []
    private(set) var ends: [Int] = []
    private(set) var windsAtMostOnce = false
    /// When it was last drawn, by the context's count of strokes.
    var lastUse = 0

    init(key: StrokeOutlineKey) { self.key = key }

    /// Keeps a copy of `points` and `ends`, the outline of `path`, in this outline's storage.
    func keep(_ points: [Point], ends: [Int], windsAtMostOnce: Bool, of path: Path) {
        self.windsAtMostOnce = windsAtMostOnce
        pathElements.removeAll(keepingCapacity: true)
        pathElements.append(contentsOf: path.elements)
        self.points.removeAll(keepingCapacity: true)
        self.points.append(contentsOf: points)
        self.ends.removeAll(keepingCapacity: true)
        self.ends.append(contentsOf: ends)
    }
}

/// What a trimmed or dashed stroke path is made from (compared without allocating: the arrays
/// are shared, not copied).
struct VisiblePartKey: Equatable {
    var path: Path
    var strokeStart: Double
    var strokeEnd: Double
    var dashPattern: [Double]
    var dashPhase: Double
}

/// Rows of a rectangle filled with one colour through the clip mask, as a `RowBands` job.
private struct SolidRectRows: RowBandJob {
    let target: DrawTarget
    let rect: IntRect
    let pixel: UInt32
    let mask: AlphaMask?

    func run(rows: Range<Int>) {
        var whole = CoverageSpan(x: Int32(rect.x), length: Int32(rect.width), coverage: 255)
        for y in rows {
            SpanBlitter.fillSolid(
                row: target.row(y), spans: &whole, count: 1, color: pixel,
                mask: mask.map { UnsafePointer($0.deviceRow(y)) })
        }
    }
}

/// Whole rows (one contiguous run of memory) set to one pixel value, as a `RowBands` job.
private struct WholeRowsFill: RowBandJob {
    let target: DrawTarget
    let pixel: UInt32
    let width: Int

    func run(rows: Range<Int>) { PixelFill.fill(target.row(rows.lowerBound), pixel, count: width * rows.count) }
}

/// Whether any of the eight bytes of `word` is zero: subtracting 1 from each byte sets a top
/// bit left clear in `word` first only where a byte was zero (or borrowed from one that was).
@inline(__always)
private func hasZeroByte(_ word: UInt64) -> Bool {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
}
