import VitrineGraphics
import VitrineSystem

/// Draws a layer tree — normally a presentation tree from `Engine.tick(at:)` — into a
/// `GraphicsContext`, back to front, as Core Animation composites it.
///
/// For each visible layer (not hidden, opacity above 0), in its own coordinates (`position`,
/// `anchorPoint`, `bounds` origin and `transform`, through `transformToSuperlayer`):
/// the mask clips everything the layer shows; then come the background (rounded by
/// `cornerRadius`), the `contents` image placed by `contentsGravity`, the layer's own drawing
/// (`draw(in:)`), the sublayers ordered by `zPosition` (ties keep their order), and the border
/// on top. `masksToBounds` clips contents, drawing and sublayers to the rounded bounds.
/// `opacity` applies to the layer as a group: through a transparency layer when the layer
/// shows more than one thing that could overlap, otherwise by multiplying the alpha.
///
/// Layers that draw themselves — a class that names keys in `needsDisplay(forKey:)`, a layer
/// that `needsDisplayOnBoundsChange`, or one on which `setNeedsDisplay()` was called (delegate
/// drawing) — keep their drawing in a backing store at device resolution while their device
/// transform is a translation and scale; it is redrawn only when a drawing key's value
/// changed, the layer asked for it (`invalidateContents(of:)`), or the mapping to device pixels
/// changed other than by whole pixels. Otherwise (rotation, skew) they draw directly. While
/// a layer's drawing changes frame after frame (an animation), it is drawn straight to the
/// target at full alpha instead of being stored and composited each frame; the first frame
/// that shows it unchanged stores it again (direct and stored drawing may differ by one level
/// where translucent drawings overlap). Shape layers always draw directly, as Core Animation
/// renders shapes.
///
/// Not thread-safe; reuse one renderer per output so backing stores carry across frames.
public final class LayerRenderer {
    /// How many times a layer's `draw(in:)` ran for its contents (backing store redraws and
    /// direct draws of layers that draw themselves; shape layers not counted).
    public var contentDrawCount: Int { contentDraws.value }
    /// The counts the threads drawing bands add to, each without taking `cacheLock`.
    private let contentDraws = SharedCount(), coveredBackgrounds = SharedCount()
    let hiddenShadows = SharedCount(), inPlaceDissolves = SharedCount()

    private var stores: [ObjectIdentifier: BackingStore] = [:]
    /// The blurred shapes of layer shadows.
    let shadows = KeptPerLayer<ShadowShape>()
    /// Sprite-sheet cells and nine-slice parts cut from contents images.
    let crops = ImageCrops()
    /// The flat images of layers in space.
    let planes = KeptPerLayer<PlaneImage>()
    /// Planes being drawn now, by model layer (under `cacheLock`).
    var planeJobs: [ObjectIdentifier: PlaneJob] = [:]
    /// Whether the frame's bands are being drawn on several threads.
    private(set) var drawingBandsInParallel = false
    /// Whether the pass draws content straight to the target the first time it is drawn, and
    /// makes its store in the next (`firstDrawnDirectly`): on frames of at least
    /// `parallelMinimumFramePixels`, where a large repaint is shared among threads. There a
    /// new store is made whole by one thread while the others wait for it, and a scene's first
    /// frame (the first of its fade) would make all its stores at once (the ring card's gradient
    /// is 8 MB at 4K); drawn directly, each thread draws the content in its own bands. On a
    /// smaller frame one thread draws, and drawing directly first would only draw twice.
    private var drawsNewContentDirectly = false
    private(set) var pass = 0
    /// Whether a background that the first sublayer paints over at once is left unpainted (on;
    /// tests turn it off to compare).
    var skipsCoveredBackgrounds = true
    /// How many backgrounds were left unpainted so (for tests).
    var coveredBackgroundCount: Int { coveredBackgrounds.value }
    /// Whether layers about to fade in from opacity 0 are drawn unseen the frame before, so
    /// that what they need is made then (`prepare`; on, the default). Off only to compare in
    /// tests; the pixels are the same up to a level where content drawn straight to a large
    /// frame would otherwise be drawn before its store is made.
    var preparesFadingLayers = true
    /// Whether a shadow is left unpainted under the part of its layer's body that paints
    /// opaque as it begins (`opaqueInterior`); off only to compare in tests.
    var skipsHiddenShadows = true
    /// Whether a fade between two looks that both paint all of its clip opaque draws the old
    /// look in place and composites the new one over it (`renderTransition`); off only to
    /// compare in tests.
    var dissolvesOpaqueLooksInPlace = true
    /// Fades drawn so, since the renderer was made (for tests).
    var inPlaceDissolveCount: Int { inPlaceDissolves.value }
    /// Shadow pixels left unpainted so, since the renderer was made (for tests).
    var hiddenShadowPixels: Int { hiddenShadows.value }
    /// Dirty rectangles over this many pixels are drawn in bands of whole rows holding at least
    /// this many (the default: just enough for a band's large loops to be shared among the
    /// cores, `RowBands`).
    public var bandPixels = RowBands.minimumPixels
    /// Whether the bands of a large repaint are drawn by several threads at once (`RowBands`'
    /// threads, each with a context of its own on the frame; on). Off, the calling thread
    /// draws them all; the pixels are the same either way.
    public var drawsBandsInParallel = true
    /// Repaints are shared only on frames of at least this many pixels (by default 4
    /// megapixels, a 4K frame): at 1080p one core draws even a whole frame well within a
    /// frame's time, and the second thread's context and rasterizer would cost memory and their
    /// hand-over CPU for nothing.
    public var parallelMinimumFramePixels = 4 << 20
    /// A repaint of fewer pixels than this is drawn on the calling thread (by default 1
    /// megapixel: at 4K a fade's repaint, or a turning card's, which one core samples through
    /// its projection in about the frame's time).
    public var parallelMinimumPixels = 1 << 20
    /// Held while the caches the threads drawing bands share are looked up or filled: backing
    /// stores, shadows, planes and crops. Recursive: filling a cache draws layers, which look
    /// up theirs. A store is redrawn and a shadow made under a lock of its own instead
    /// (`BackingStore.drawing`, `shadowJobs`), so that two threads make two at once.
    let cacheLock = Lock(recursive: true)
    /// The locks under which shadows are being made this pass, by model layer (under
    /// `cacheLock`; emptied when the pass ends).
    var shadowJobs: [ObjectIdentifier: Lock] = [:]
    /// Where the last pass drew content straight to the target the first time it was drawn
    /// (device pixels; under `cacheLock` while it draws). A frame renderer repaints them from
    /// their stores in the next frame, so that every later frame shows the same pixels whatever
    /// its damage (drawing directly and compositing a store may differ by a level).
    private(set) var firstDrawnDirectly: [IntRect] = []

    /// The bands of the repaint being drawn (one array for every frame).
    private var bands: [IntRect] = []
    /// Contexts on the frame for the threads that draw bands besides the caller (made when
    /// first needed, shared image copies with the caller's), and those not in use.
    private var bandContexts: [GraphicsContext] = []
    private var freeBandContexts: [GraphicsContext] = []

    /// A renderer with no backing stores yet.
    public init() {}

    /// Draws the tree under `root` over what the context holds, under its current transform and
    /// clip. The root is placed by its own `transformToSuperlayer`.
    public func render(_ root: Layer, into context: GraphicsContext) {
        beginPass()
        renderLayer(root, in: context)
        endPass()
    }

    /// Draws the tree under `root` only inside `dirty` (device pixels of the context's bitmap):
    /// each rectangle is first set to `background` (replaced, not blended; transparent by
    /// default), then the tree is drawn clipped to it. Then makes what the layers of
    /// `fadingIn` (copies in the tree that the next frames fade in from opacity 0,
    /// `FrameUpdate.fadingIn`) need to be drawn (`prepare`), without drawing them.
    public func render(
        _ root: Layer, into context: GraphicsContext, dirty: [IntRect], background: Color = .clear,
        fadingIn: [Layer] = []
    ) {
        beginPass()
        let framePixels = context.bitmap.width * context.bitmap.height
        drawsNewContentDirectly = framePixels >= parallelMinimumFramePixels
        // A large rectangle is drawn band by band: every offscreen buffer the tree needs there
        // (a fade's group, a mask) is then the size of a band, not of the frame.
        bands.removeAll(keepingCapacity: true)
        for rect in dirty where !rect.isEmpty { cutIntoBands(rect) }
        // Band contexts are for one frame's context: another one's (a resized frame) lets them go,
        // and with them the old frame's pixels.
        if bandContextsSource !== context {
            bandContextsSource = context
            bandContexts.removeAll()
            freeBandContexts.removeAll()
        }
        if drawsBandsInParallel, bands.count > 1,
            framePixels >= parallelMinimumFramePixels,
            dirty.reduce(0, { $0 + $1.area }) >= parallelMinimumPixels, !LayerRenderer.anyOverlap(dirty)
        {
            drawBandsInParallel(.frame(root: root, background: background), in: context)
        } else {
            for band in bands { draw(band, of: root, in: context, background: background) }
        }
        let repainted = !bands.isEmpty
        drawsNewContentDirectly = false
        for layer in fadingIn where preparesFadingLayers { prepare(layer, in: context) }
        // A pass that repainted nothing (it only drew layers unseen) met none of the tree, so it
        // lets go of nothing.
        endPass(droppingUnmet: repainted)
    }

    /// Adds `rect` to `bands` cut into bands of whole rows of at least `bandPixels` pixels.
    private func cutIntoBands(_ rect: IntRect) {
        let rows = max(16, bandPixels / rect.width + (bandPixels % rect.width == 0 ? 0 : 1))
        var top = rect.y
        while top < rect.maxY {
            bands.append(IntRect(x: rect.x, y: top, width: rect.width, height: min(rows, rect.maxY - top)))
            top += rows
        }
    }

    /// Draws `layer` (a presentation copy shown at opacity 0 that the next frames fade in) as
    /// it will be seen, at full opacity, into discarded layers, which paint nothing: the
    /// backing stores, shadows, plane images, image copies and offscreen buffers its first
    /// visible frame needs are made now, in a frame that draws nothing of it, rather than in
    /// that one, which draws it and what it fades in over besides (at 4K the first frames of
    /// fades into a scene with a shadowed card or a resampled photo ran past their deadline).
    /// No pixel of the frame changes. A layer placed by a projection or under a mask, a
    /// transition or a hidden ancestor is left to its first visible frame.
    private func prepare(_ layer: Layer, in context: GraphicsContext) {
        var toDevice = Transform2D.identity
        var ancestor = layer.superlayer
        while let a = ancestor {
            guard !a.isHidden, a.opacity > 0, a.mask == nil, a.transitionState == nil, !a.isProjected,
                !(a is TransformLayer)
            else { return }
            toDevice = toDevice.concatenating(a.transformToSuperlayer)
            ancestor = a.superlayer
        }
        guard !layer.isHidden, !layer.isProjected, !(layer is TransformLayer) else { return }
        let shown = Engine.detachedCopy(of: layer)
        shown.opacity = 1
        let frame = IntRect(x: 0, y: 0, width: context.bitmap.width, height: context.bitmap.height)
        let extent = deviceExtent(of: shown, toDevice: shown.transformToSuperlayer.concatenating(toDevice))
            .intersection(frame)
        guard !extent.isEmpty else { return }
        bands.removeAll(keepingCapacity: true)
        cutIntoBands(extent)
        if drawsBandsInParallel, bands.count > 1, frame.area >= parallelMinimumFramePixels,
            extent.area >= parallelMinimumPixels
        {
            drawBandsInParallel(.unseen(layer: shown, toDevice: toDevice), in: context)
        } else {
            for band in bands { prepare(band, of: shown, toDevice: toDevice, in: context) }
        }
    }

    /// One band of `prepare`: the layer drawn into a discarded layer, which paints nothing and
    /// keeps what the drawing makes (`GraphicsContext.beginDiscardedLayer()`).
    private func prepare(_ band: IntRect, of layer: Layer, toDevice: Transform2D, in context: GraphicsContext) {
        context.saveGState()
        context.clip(toDeviceRect: band)
        context.concatenate(toDevice)
        context.beginDiscardedLayer()
        renderLayer(layer, in: context)
        context.endTransparencyLayer()
        context.restoreGState()
    }

    /// Takes `lock` (a store's or a shadow's, which one thread makes while the others wait) to
    /// draw into `ctx`; false, leaving it to the thread that holds it, where the drawing is
    /// dropped (`prepare`'s level, not a shadow's mask or a plane being made inside it): nothing
    /// drawn there is kept, so it need not wait.
    func take(_ lock: Lock, toDrawInto ctx: GraphicsContext) -> Bool {
        guard !ctx.discardsDrawing else { return lock.try() }
        lock.lock()
        return true
    }

    /// Draws one band of a repaint: set to `background` (replaced, not blended), then the tree
    /// drawn clipped to it.
    private func draw(_ band: IntRect, of root: Layer, in context: GraphicsContext, background: Color) {
        context.saveGState()
        context.clip(toDeviceRect: band)
        // Under a root that paints all of the band opaque (a player's stage), the background
        // would be painted over at once: a whole frame is then filled once, not twice (the same
        // pixels either way).
        if !paintsOpaquely(root, all: band, in: context) { context.clear(background) }
        renderLayer(root, in: context)
        context.restoreGState()
    }

    /// Draws `bands` on `RowBands`' threads: the values the tree's presentation copies compute
    /// when first asked are computed first, on this thread.
    private func drawBandsInParallel(_ work: BandDrawing.Work, in context: GraphicsContext) {
        switch work {
        case .frame(let root, _): computeLazyValues(of: root)
        case .unseen(let layer, _): computeLazyValues(of: layer)
        }
        drawingBandsInParallel = true
        RowBands.forEach(items: bands.indices, BandDrawing(renderer: self, context: context, work: work))
        drawingBandsInParallel = false
    }

    /// Bands drawn by `RowBands`' threads: the first run (on the caller) draws into the
    /// caller's context, every other into a band context of its own.
    private struct BandDrawing: RowBandJob {
        /// What a band holds: the frame's tree over its background, or a layer drawn unseen
        /// (`prepare`) under its ancestors' transform.
        enum Work {
            case frame(root: Layer, background: Color)
            case unseen(layer: Layer, toDevice: Transform2D)
        }

        let renderer: LayerRenderer
        let context: GraphicsContext
        let work: Work

        func run(rows items: Range<Int>) {
            let caller = items.lowerBound == 0
            let ctx = caller ? context : renderer.takeBandContext(beside: context)
            for i in items {
                switch work {
                case .frame(let root, let background):
                    renderer.draw(renderer.bands[i], of: root, in: ctx, background: background)
                case .unseen(let layer, let toDevice):
                    renderer.prepare(renderer.bands[i], of: layer, toDevice: toDevice, in: ctx)
                }
            }
            if !caller { renderer.cacheLock.withLock { renderer.freeBandContexts.append(ctx) } }
        }
    }

    /// A context on `context`'s frame for a thread drawing bands besides the caller's: a free
    /// one, else a new one sharing its image copies.
    private func takeBandContext(beside context: GraphicsContext) -> GraphicsContext {
        cacheLock.withLock {
            if let free = freeBandContexts.popLast() { return free }
            let made = GraphicsContext(sharingImagesWith: context)
            bandContexts.append(made)
            return made
        }
    }

    /// The context the band contexts draw beside.
    private var bandContextsSource: GraphicsContext?

    /// Before bands are drawn on several threads, the values presentation copies compute the
    /// first time they are asked (their extent and place, an emitter's particles) are
    /// computed, once, rather than by two threads at the same time.
    private func computeLazyValues(of layer: Layer) {
        _ = layer.presentedExtent
        _ = layer.ownGeometry
        if let emitter = layer as? EmitterLayer { _ = emitter.currentParticles }
        for child in layer.sublayerStorage { computeLazyValues(of: child) }
        if let mask = layer.mask { computeLazyValues(of: mask) }
        if let old = layer.transitionState?.old { computeLazyValues(of: old) }
        if let replicator = layer as? ReplicatorLayer {
            for i in 1..<max(1, replicator.drawnInstanceCount) {
                for child in replicator.sublayers(ofInstance: i) { computeLazyValues(of: child) }
            }
        }
    }

    /// Whether two of the rectangles share a pixel (bands of overlapping rectangles would be
    /// drawn by two threads at once).
    private static func anyOverlap(_ rects: [IntRect]) -> Bool {
        for i in rects.indices {
            for j in rects.indices where j > i && rects[i].intersects(rects[j]) { return true }
        }
        return false
    }

    /// Ends a frame for the band contexts (their offscreen buffers unused for a while are let
    /// go), as `GraphicsContext.endFrame` does for the caller's.
    public func endFrame() {
        for context in bandContexts { context.endFrame() }
    }

    /// Lets go of what the band contexts and the backing stores' contexts did not use in the
    /// frame just ended (`GraphicsContext.releaseUnused`).
    public func releaseUnused() {
        for context in bandContexts { context.releaseUnused() }
        for store in stores.values { store.context?.releaseUnused() }
    }

    /// Whether drawing `layer` starts by filling all of `rect` (device pixels) with an opaque
    /// paint of its own: its background or gradient (not its sublayers').
    private func paintsOpaquely(_ layer: Layer, all rect: IntRect, in ctx: GraphicsContext) -> Bool {
        let toDevice = layer.transformToSuperlayer.concatenating(ctx.transform)
        return opaqueInterior(of: layer, toDevice: toDevice, levels: 1).map { $0.contains(rect) } ?? false
    }

    /// Whether the layer's first sublayer paints all of the clip opaque as it begins to draw (a
    /// player's stage under a scene that fills the screen): the layer's background would be
    /// painted over at once, so it is not painted (the same pixels either way).
    private func firstSublayerCoversClip(of layer: Layer, in ctx: GraphicsContext) -> Bool {
        guard ctx.alpha >= 1, !ctx.hasClipMask, !(layer is ReplicatorLayer),
            !layer.masksToBounds || layer.clampedCornerRadius == 0, let first = firstDrawn(of: layer)
        else { return false }
        let toDevice = first.transformToSuperlayer.concatenating(ctx.transform)
        return opaqueInterior(of: first, toDevice: toDevice, levels: 4).map { $0.contains(ctx.clipBoundingBox) }
            ?? false
    }

    /// Device pixels that drawing `layer` (mapped to device pixels by `toDevice`) certainly
    /// paints opaque before anything else of its own shows: inside its rounded corners, its
    /// opaque background or gradient, or else its first sublayer's (down to `levels` levels,
    /// within its bounds when it masks to them). Nil when none is certain. What is drawn before
    /// it there (a background under a scene, the layer's shadow) would be painted over at once.
    /// With `ownLook`, `layer` as `renderLayer(_:in:movedBy:)` draws it, without its transition.
    func opaqueInterior(of layer: Layer, toDevice: Transform2D, levels: Int, ownLook: Bool = false) -> IntRect? {
        let local = layer.transformToSuperlayer
        guard levels > 0, !layer.isHidden, layer.opacity >= 1, layer.mask == nil,
            ownLook || layer.transitionState == nil,
            !(layer is TransformLayer), !layer.isProjected, !(layer is ReplicatorLayer),
            local.determinant != 0, layer.isDoubleSided || local.determinant > 0, toDevice.b == 0, toDevice.c == 0
        else { return nil }
        // A rounded rectangle holds its bounds inset by r(1 − 1/√2) < 0.3 r on every side.
        let radius = layer.clampedCornerRadius
        let inner = toDevice.apply(to: layer.bounds.standardized.insetBy(dx: 0.3 * radius, dy: 0.3 * radius))
        guard abs(inner.minX) < 1e7, abs(inner.minY) < 1e7, abs(inner.maxX) < 1e7, abs(inner.maxY) < 1e7 else {
            return nil
        }
        // Whole pixels only: a pixel the edge crosses is not painted opaque.
        let x0 = Int(inner.minX.rounded(.up)), y0 = Int(inner.minY.rounded(.up))
        let x1 = Int(inner.maxX.rounded(.down)), y1 = Int(inner.maxY.rounded(.down))
        guard x1 > x0, y1 > y0 else { return nil }
        let box = IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        if let color = layer.backgroundColor, color.alpha >= 1 { return box }
        if let gradient = layer as? GradientLayer, !gradient.colors.colors.isEmpty,
            gradient.colors.colors.allSatisfy({ $0.alpha >= 1 })
        {
            return box
        }
        guard let first = firstDrawn(of: layer),
            let below = opaqueInterior(
                of: first, toDevice: first.transformToSuperlayer.concatenating(toDevice), levels: levels - 1)
        else { return nil }
        // Sublayers are clipped to the bounds when the layer masks to them.
        let kept = layer.masksToBounds ? below.intersection(box) : below
        return kept.isEmpty ? nil : kept
    }

    /// The sublayer drawn first: the first of the lowest `zPosition`.
    func firstDrawn(of layer: Layer) -> Layer? {
        var first: Layer?
        for child in layer.sublayerStorage where first == nil || child.zPosition < first!.zPosition { first = child }
        return first
    }

    /// Marks the contents of these layers (model layers or their presentation copies) for
    /// redrawing: pass `FrameUpdate.redrawLayers`, which includes layers that called
    /// `setNeedsDisplay()`. Changes of drawing keys are also noticed without it.
    public func invalidateContents(of layers: [Layer]) {
        for layer in layers {
            let model = layer.model()
            if let store = stores[ObjectIdentifier(model)], store.owner === model { store.invalidate() }
            // The drawing is part of what casts the shadows of the layer and its ancestors.
            shadows.invalidate(from: model)
            planes.invalidate(from: model)
        }
    }

    /// Releases every backing store (their layers redraw when next shown).
    public func discardBackingStores() {
        stores.removeAll()
        shadows.removeAll()
        planes.removeAll()
    }

    /// How many layers currently keep a backing store.
    public var backingStoreCount: Int { stores.count }

    // MARK: - Passes

    private func beginPass() {
        pass &+= 1
        firstDrawnDirectly.removeAll(keepingCapacity: true)
    }

    /// Ends a frame for the stores kept (their contexts release long-unused offscreen buffers)
    /// and, `droppingUnmet`, drops the stores, shadows, planes and crops of layers the pass did
    /// not meet (removed from the tree, or gone).
    private func endPass(droppingUnmet: Bool = true) {
        if !shadowJobs.isEmpty { shadowJobs.removeAll() }
        for store in stores.values { store.context?.endFrame() }
        guard droppingUnmet else { return }
        shadows.endPass(pass)
        crops.endPass(pass)
        planes.endPass(pass)
        guard stores.values.contains(where: { $0.lastPass != pass || $0.owner == nil }) else { return }
        stores = stores.filter { $0.value.lastPass == pass && $0.value.owner != nil }
    }

    // MARK: - One layer

    private func renderLayer(_ layer: Layer, in ctx: GraphicsContext) {
        if let space = layer as? TransformLayer {
            renderTransformLayer(space, in: ctx)
        } else if layer.isProjected {
            renderProjected(layer, through: layer.projectionToSuperlayer, in: ctx)
        } else if let transition = layer.transitionState {
            renderTransition(of: layer, transition, in: ctx)
        } else {
            renderLayer(layer, in: ctx, movedBy: .zero)
        }
    }

    /// Draws one layer (not its transition) moved by `offset` in its own coordinates, placed in
    /// its superlayer by `placement` (by default its own transform to it).
    /// `backgroundTint` multiplies the background colour (a replicator's instance colour, for a
    /// layer that draws nothing else).
    func renderLayer(
        _ layer: Layer, in ctx: GraphicsContext, movedBy offset: Point, placement: Transform2D? = nil,
        backgroundTint: Color? = nil
    ) {
        var local = placement ?? layer.transformToSuperlayer
        if offset != .zero { local = Transform2D(translationX: offset.x, y: offset.y).concatenating(local) }
        guard !layer.isHidden, layer.opacity > 0, local.determinant != 0, local.determinant.isFinite,
            layer.isDoubleSided || local.determinant > 0
        else {
            keepStores(of: layer)
            return
        }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        ctx.concatenate(local)
        guard !ctx.clipBoundingBox.isEmpty else { keepStores(of: layer); return }

        var grouped = false
        if layer.opacity < 1 {
            grouped = drawingCount(layer, toDevice: ctx.transform) > 1
            if grouped {
                // The group's buffer need only cover what the layer can draw.
                ctx.clip(toDeviceRect: deviceExtent(of: layer, toDevice: ctx.transform))
                ctx.beginTransparencyLayer(alpha: layer.opacity)
            } else {
                ctx.setAlpha(ctx.alpha * layer.opacity)
            }
        }
        if let mask = layer.mask {
            // Outside what the mask can draw it is 0: the capture (and the layer) need no more.
            ctx.clip(
                toDeviceRect: deviceExtent(of: mask, toDevice: mask.transformToSuperlayer.concatenating(ctx.transform)))
            let alpha = ctx.renderAlphaMask { renderLayer(mask, in: ctx) }
            ctx.clip(toMask: alpha)
        }

        if layer.castsShadow { drawShadow(of: layer, in: ctx) }
        renderBody(of: layer, in: ctx, backgroundTint: backgroundTint)
        if grouped { ctx.endTransparencyLayer() }
    }

    /// What the layer itself shows, in its own coordinates (the context's transform), and what
    /// casts its shadow: background, contents, own drawing, sublayers and border.
    func renderBody(of layer: Layer, in ctx: GraphicsContext, backgroundTint: Color? = nil) {
        let bounds = layer.bounds.standardized
        let radius = layer.clampedCornerRadius
        if let color = layer.backgroundColor, color.alpha > 0 {
            if skipsCoveredBackgrounds, firstSublayerCoversClip(of: layer, in: ctx) {
                coveredBackgrounds.add(1)
            } else {
                ctx.fill(bounds, cornerRadius: radius, color: backgroundTint.map { color.multiplied(by: $0) } ?? color)
            }
        }
        if layer.masksToBounds {
            ctx.saveGState()
            ctx.clip(toRoundedRect: bounds, cornerRadius: radius)
        }
        if !ctx.clipBoundingBox.isEmpty {
            if let image = layer.contents as? Image { drawContents(image, of: layer, in: ctx) }
            drawContent(of: layer, in: ctx)
            renderSublayers(of: layer, in: ctx)
        } else {
            keepStore(of: layer)
            for child in layer.sublayerStorage { keepStores(of: child) }
        }
        if layer.masksToBounds { ctx.restoreGState() }
        drawBorder(of: layer, bounds: bounds, radius: radius, in: ctx)
    }

    private func renderSublayers(of layer: Layer, in ctx: GraphicsContext) {
        if let replicator = layer as? ReplicatorLayer {
            renderInstances(of: replicator, in: ctx)
        } else {
            render(layer.sublayerStorage, in: ctx)
        }
    }

    /// A replicator's instances, first to last, each placed and tinted as its own group (or,
    /// for one layer showing only its background, in that colour).
    private func renderInstances(of replicator: ReplicatorLayer, in ctx: GraphicsContext) {
        var place = Transform2D.identity
        for i in 0..<replicator.drawnInstanceCount {
            if i > 0 { place = replicator.instanceTransform(after: place) }
            let children = replicator.sublayers(ofInstance: i)
            let tint = replicator.instanceTint(i)
            guard tint.alpha > 0, !children.isEmpty else { continue }
            // One bar wholly outside the clip: nothing of this instance to draw (as `renderLayer`
            // would find at the cost of a state saved and a shape set up and culled, in every
            // one of the small rectangles a spinner's changes are repainted in).
            if children.count == 1, children[0].showsOnlyItsBackground {
                // Composed as `renderLayer` composes it, after `concatenate(place)`.
                let toDevice = children[0].transformToSuperlayer.concatenating(place.concatenating(ctx.transform))
                guard reaches(children[0], through: toDevice, ctx) else { continue }
            }
            ctx.saveGState()
            ctx.concatenate(place)
            let tinted = tint != .white
            if tinted, children.count == 1, children[0].showsOnlyItsBackground {
                // One layer that draws nothing but its background colour (a spinner's or an
                // equaliser's bar): that colour times the tint is what the group would show,
                // up to rounding, drawn straight without the group, its multiply and composite.
                renderLayer(children[0], in: ctx, movedBy: .zero, backgroundTint: tint)
            } else {
                if tinted {
                    var box = IntRect(x: 0, y: 0, width: 0, height: 0)
                    for child in children {
                        box = box.union(
                            deviceExtent(of: child, toDevice: child.transformToSuperlayer.concatenating(ctx.transform)))
                    }
                    ctx.clip(toDeviceRect: box)
                    ctx.beginTransparencyLayer(tint: tint)
                }
                render(children, in: ctx)
                if tinted { ctx.endTransparencyLayer() }
            }
            ctx.restoreGState()
        }
    }

    /// Whether the bounds of `layer`, placed on the device by `toDevice`, reach the clip.
    private func reaches(_ layer: Layer, through toDevice: Transform2D, _ ctx: GraphicsContext) -> Bool {
        IntRect(enclosing: toDevice.apply(to: layer.bounds.standardized)).intersects(ctx.clipBoundingBox)
    }

    /// Sublayers back to front: by `zPosition`, ties in their order.
    private func render(_ children: [Layer], in ctx: GraphicsContext) {
        var ordered = true
        for i in children.indices.dropFirst() where children[i].zPosition < children[i - 1].zPosition {
            ordered = false
            break
        }
        if ordered {
            for child in children { renderLayer(child, in: ctx) }
        } else {
            let sorted = children.enumerated().sorted {
                $0.element.zPosition != $1.element.zPosition
                    ? $0.element.zPosition < $1.element.zPosition
                    : $0.offset < $1.offset
            }
            for (_, child) in sorted { renderLayer(child, in: ctx) }
        }
    }

    /// The border: a band `borderWidth` wide inside the rounded bounds (inner corners rounded
    /// by the radius less the width), as Core Animation draws it.
    private func drawBorder(of layer: Layer, bounds: Rect, radius: Double, in ctx: GraphicsContext) {
        let width = min(layer.borderWidth, min(bounds.width, bounds.height) / 2)
        guard width > 0, let color = layer.borderColor, color.alpha > 0 else { return }
        let band = ScratchPath.ofThisThread
        band.path.removeAll(keepingCapacity: true)
        band.path.addRoundedRect(bounds, cornerRadius: radius)
        let inner = bounds.insetBy(dx: width, dy: width)
        if inner.width > 0, inner.height > 0 { band.path.addRoundedRect(inner, cornerRadius: max(0, radius - width)) }
        ctx.fill(band.path, color: color, rule: .evenOdd)
    }

    // MARK: - Own drawing

    private func drawContent(of layer: Layer, in ctx: GraphicsContext) {
        if layer is ShapeLayer {
            layer.draw(in: ctx)
            return
        }
        guard layer.drawsItself else { return }
        let extent = layer.presentedExtent
        // Into a layer in space's plane, which is kept itself: a store would be drawn,
        // composited and kept beside it (5 MB for the turning card's face at 4K) and serve only
        // when the plane is remade at the same scale; a turning plane is remade at a new one.
        if PlaneDrawing.onThisThread.depth > 0 {
            drawDirectly(layer, clippedTo: extent, in: ctx)
            return
        }
        let t = ctx.transform
        // Only the part on the target is ever stored (a huge layer must not allocate a huge
        // store); when that part changes as the layer moves, the store's mapping changes too.
        let target = IntRect(x: 0, y: 0, width: ctx.bitmap.width, height: ctx.bitmap.height)
        let device = IntRect(enclosing: t.apply(to: extent)).intersection(target)
        guard device.intersects(ctx.clipBoundingBox) else { keepStore(of: layer); return }
        guard t.b == 0, t.c == 0 else {
            keepStore(of: layer)
            drawDirectly(layer, clippedTo: extent, in: ctx)
            return
        }
        var toStore = t
        toStore.tx -= Double(device.x)
        toStore.ty -= Double(device.y)
        // The store is looked up, and redrawn when stale, by one band's thread at a time; the
        // first to come decides for the frame (redrawn or drawn directly), the others follow.
        // Only the lookup holds the cache lock: while one thread redraws a store (8 MB of a
        // card's gradient at 4K), the other goes on drawing, or makes another store or shadow.
        let store = cacheLock.withLock { backingStore(for: layer) }
        guard take(store.drawing, toDrawInto: ctx) else { return }
        let unchanged = store.matches(layer, transform: toStore, width: device.width, height: device.height)
        if !unchanged || !store.hasPixels {
            // Content that changes frame after frame (an animation) is drawn straight to the
            // target: storing it would clear and composite the store every frame for nothing.
            // So is content redrawn while an animation of its drawing runs (a full-screen
            // emitter's clock: it never allocates a store), and, on a large frame, content
            // drawn for the first time (`drawsNewContentDirectly`: the next frame stores it).
            // Only at full alpha, where that is the same as compositing the store; a pass that
            // drew it directly once draws it so in every dirty rectangle.
            let direct =
                store.directPass == pass
                || (!unchanged
                    && (store.changedAtLastDraw || (store.isNew && drawsNewContentDirectly)
                        || (!store.hasRecord && drawingIsAnimated(layer)))
                    && ctx.alpha == 1)
            if direct {
                if store.directPass != pass {
                    if store.isNew { cacheLock.withLock { firstDrawnDirectly.append(device) } }
                    store.noteDirectDraw(
                        layer, transform: toStore, width: device.width, height: device.height, pass: pass)
                }
                store.drawing.unlock()
                drawDirectly(layer, clippedTo: extent, in: ctx)
                return
            }
            store.redraw(layer, transform: toStore, extent: extent, width: device.width, height: device.height)
            store.changedAtLastDraw = !unchanged
            contentDraws.add(1)
        }
        let bitmap = store.bitmap
        store.drawing.unlock()
        guard let pixels = bitmap else { return }
        ctx.composite(
            pixels, from: IntRect(x: 0, y: 0, width: device.width, height: device.height),
            toX: device.x, y: device.y)
    }

    /// Lets the layer draw straight into the context, clipped to the pixels its extent reaches
    /// (as its store is).
    private func drawDirectly(_ layer: Layer, clippedTo extent: Rect, in ctx: GraphicsContext) {
        ctx.saveGState()
        ctx.clip(toPixelsReaching: extent)
        layer.draw(in: ctx)
        ctx.restoreGState()
        contentDraws.add(1)
    }

    /// Whether a running animation of one of the layer's drawing keys changes its drawing
    /// from frame to frame.
    private func drawingIsAnimated(_ layer: Layer) -> Bool {
        guard let model = layer.modelLayer else { return false }
        for entry in model.animationEntries where entry.animation.runtime.presentedSample?.phase == .active {
            guard let keyPath = (entry.animation as? PropertyAnimation)?.keyPath else { continue }
            let key = keyPath.firstIndex(of: ".").map { String(keyPath[..<$0]) } ?? keyPath
            if type(of: layer).needsDisplay(forKey: key) { return true }
        }
        return false
    }

    /// Bytes of pixels the backing stores hold.
    var backingStoreBytes: Int {
        stores.values.reduce(0) { $0 + ($1.bitmap.map { $0.width * $0.height * 4 } ?? 0) }
    }

    /// The layer's store, made on first use, marked as used by this pass.
    private func backingStore(for layer: Layer) -> BackingStore {
        let owner = layer.cacheOwner()
        let id = ObjectIdentifier(owner)
        if let store = stores[id], store.owner === owner {
            store.lastPass = pass
            return store
        }
        let store = BackingStore(owner: owner)
        store.lastPass = pass
        stores[id] = store
        return store
    }

    /// Keeps the layer's store (if it has one) through this pass although it is not drawn.
    func keepStore(of layer: Layer) {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        shadows.keep(layer, pass: pass)
        if !stores.isEmpty, let store = stores[ObjectIdentifier(layer.cacheOwner())] { store.lastPass = pass }
    }

    /// Keeps the stores of a subtree that is not drawn this pass (hidden, clipped away).
    func keepStores(of layer: Layer) {
        keepStore(of: layer)
        for child in layer.sublayerStorage { keepStores(of: child) }
        if let mask = layer.mask { keepStores(of: mask) }
    }

    // MARK: - Group opacity

    /// The device pixels the tree under `layer` (device transform `t`) can draw on: its bounds,
    /// contents and drawing (`visualExtent()`, which bounds a layer's own drawing, kept by a
    /// presentation copy: fades and masks ask it of a whole scene every frame), and its
    /// sublayers' (cut to the bounds when it masks to them). Conservative: any pixel drawn at
    /// all lies inside, since coverage outside a shape's enclosing pixels is exactly 0.
    func deviceExtent(of layer: Layer, toDevice t: Transform2D) -> IntRect {
        guard !layer.isHidden, layer.opacity > 0 else { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        let body = bodyDeviceExtent(of: layer, toDevice: t)
        guard layer.castsShadow, let shadow = shadowDeviceExtent(of: layer, body: body, toDevice: t) else {
            return body
        }
        return body.union(shadow)
    }

    /// `deviceExtent(of:toDevice:)` without the layer's own shadow: what casts it.
    func bodyDeviceExtent(of layer: Layer, toDevice t: Transform2D) -> IntRect {
        let bounds = layer.bounds.standardized
        var extent = layer.presentedExtent.union(bounds)
        if let image = layer.contents as? Image { extent = extent.union(layer.contentsPlacement(of: image)) }
        var box = IntRect(enclosing: t.apply(to: extent))
        let clip = layer.masksToBounds ? IntRect(enclosing: t.apply(to: bounds)) : nil
        for child in layer.sublayerStorage {
            var c: IntRect
            if child is TransformLayer || child.isProjected {
                // What a layer in space covers, through its projection (Engine.planeExtent).
                let extent = Engine.planeExtent(of: child, then: t)
                c =
                    extent.width >= 1e8
                    ? IntRect(x: -(1 << 30), y: -(1 << 30), width: 1 << 31, height: 1 << 31)
                    : IntRect(enclosing: extent)
            } else {
                c = deviceExtent(of: child, toDevice: child.transformToSuperlayer.concatenating(t))
            }
            if let clip { c = c.intersection(clip) }
            box = box.union(c)
        }
        return box
    }

    /// How many separately blended drawings the layer shows (counting stops at 2): background,
    /// contents, its own drawing (a shape's fill and stroke count apart; a backing store is
    /// one), border, and each sublayer's drawings — one for a sublayer that groups itself.
    private func drawingCount(_ layer: Layer, toDevice t: Transform2D) -> Int {
        var n = 0
        if let c = layer.backgroundColor, c.alpha > 0 { n += 1 }
        if layer.contents is Image { n += 1 }
        if let shape = layer as? ShapeLayer {
            if let path = shape.path, !path.isEmpty {
                if shape.fills { n += 1 }
                if shape.strokes { n += 1 }
            }
        } else if layer.drawsItself {
            n += t.b == 0 && t.c == 0 ? 1 : 2
        }
        if layer.borderWidth > 0, let c = layer.borderColor, c.alpha > 0 { n += 1 }
        if layer.castsShadow { n += 1 }
        if let replicator = layer as? ReplicatorLayer, replicator.drawnInstanceCount > 1,
            !replicator.sublayerStorage.isEmpty
        {
            return 2
        }
        for child in layer.sublayerStorage where n < 2 {
            guard !child.isHidden, child.opacity > 0 else { continue }
            let k = drawingCount(child, toDevice: child.transformToSuperlayer.concatenating(t))
            n += k > 1 && child.opacity < 1 ? 1 : k
        }
        return n
    }
}
