import VitrineGraphics

/// What rendering one frame did.
public struct FrameResult: Sendable, Equatable {
    /// The scene time of the frame.
    public let time: Double
    /// The device rectangles of `FrameRenderer.bitmap` that were repainted, for the presenter
    /// (empty: the bitmap did not change).
    public let dirty: [IntRect]
    /// Whether an animation will still change what is shown (false: the display link may sleep).
    public let isAnimating: Bool
    /// How many pixels were repainted (the area of `dirty`).
    public let pixelsRedrawn: Int
}

/// One frame, from time to pixels: ticks the engine, turns its damage into device rectangles,
/// repaints only those in `bitmap` (each set to `background`, then the presentation tree drawn
/// over it), and reports them for presenting. A frame in which nothing changed repaints nothing.
///
/// Damage is in the root's superlayer space, which is the bitmap's pixel space: the root is
/// placed in the bitmap by its own `position`, `anchorPoint`, `bounds` and `transform`.
public final class FrameRenderer {
    /// The engine that runs the tree.
    public let engine: Engine
    /// The renderer, with the backing stores of layers that draw themselves.
    public let renderer: LayerRenderer
    /// The frame. Replaced by `resize(width:height:)` and `use(_:)`; otherwise the same bitmap
    /// every frame.
    public private(set) var bitmap: Bitmap
    /// What shows where no layer draws. Changing it repaints the next frame whole.
    public var background: Color { didSet { needsFullFrame = true } }
    /// Whether frames repaint only their damage (true, the default) or always the whole frame
    /// (for benchmarks and checking).
    public var damageTracking = true
    /// How damage becomes device rectangles.
    public var damagePolicy = DamagePolicy()
    /// Whether a frame fills its background only where the frame before drew over it (on, the
    /// default: `GraphicsContext.remembersPlainPixels`; a dissolve repaints every pixel, most of
    /// them plain background). Off only to compare in tests; the pixels are the same.
    public var remembersPlainPixels = true { didSet { context.remembersPlainPixels = remembersPlainPixels } }

    private var context: GraphicsContext
    private var needsFullFrame = true
    /// The rectangles repainted by the last frame (one array for every frame).
    private var repainted: [IntRect] = []
    /// A frame's damage with what the frame before drew straight to the target for the first
    /// time, when it drew any (one array for every frame).
    private var damageAndFirstDrawn: [Rect] = []

    /// A renderer of `engine`'s tree into a `size.width × size.height` bitmap (negative sizes
    /// count as 0) over `background`.
    public init(engine: Engine, size: (width: Int, height: Int), background: Color = .clear) {
        self.engine = engine
        self.background = background
        renderer = LayerRenderer()
        bitmap = Bitmap(width: max(0, size.width), height: max(0, size.height))
        context = FrameRenderer.context(drawing: bitmap)
    }

    /// A renderer of `engine`'s tree into `bitmap` (e.g. a presenter's own frame buffer) over
    /// `background`.
    public init(engine: Engine, bitmap: Bitmap, background: Color = .clear) {
        self.engine = engine
        self.background = background
        renderer = LayerRenderer()
        self.bitmap = bitmap
        context = FrameRenderer.context(drawing: bitmap)
    }

    /// The context frames are drawn with into `bitmap`.
    private static func context(drawing bitmap: Bitmap, remembering: Bool = true) -> GraphicsContext {
        let context = GraphicsContext(bitmap: bitmap)
        context.remembersPlainPixels = remembering
        return context
    }

    /// The frame's pixels as a rectangle.
    public var frameRect: IntRect { IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height) }

    /// Renders the frame at scene time `time`: the first frame (and the first after a resize or
    /// a background change) whole, later ones only where they changed.
    @discardableResult
    public func renderFrame(at time: Double) -> FrameResult {
        let update = engine.tick(at: time)
        renderer.invalidateContents(of: update.redrawLayers)
        if needsFullFrame || !damageTracking {
            repainted.removeAll(keepingCapacity: true)
            if !frameRect.isEmpty { repainted.append(frameRect) }
        } else if renderer.firstDrawnDirectly.isEmpty {
            damagePolicy.deviceRects(for: update.dirtyRects, frame: frameRect, into: &repainted)
        } else {
            // Content the last frame drew straight to the target for the first time is
            // repainted from its store now (`LayerRenderer.firstDrawnDirectly`).
            damageAndFirstDrawn.removeAll(keepingCapacity: true)
            damageAndFirstDrawn.append(contentsOf: update.dirtyRects)
            for r in renderer.firstDrawnDirectly { damageAndFirstDrawn.append(r.rect) }
            damagePolicy.deviceRects(for: damageAndFirstDrawn, frame: frameRect, into: &repainted)
        }
        needsFullFrame = false
        // A frame that shows a layer at opacity 0 about to fade in makes what drawing it needs.
        if !repainted.isEmpty || !update.fadingIn.isEmpty {
            renderer.render(
                update.presentation, into: context, dirty: repainted, background: background, fadingIn: update.fadingIn)
        }
        // Idle frames count too: offscreen buffers a past animation needed are released.
        context.endFrame()
        renderer.endFrame()
        // A frame that drew content directly for the first time is followed by one that stores it.
        return FrameResult(
            time: time, dirty: repainted, isAnimating: update.isAnimating || !renderer.firstDrawnDirectly.isEmpty,
            pixelsRedrawn: repainted.reduce(0) { $0 + $1.area })
    }

    /// Lets go of offscreen buffers and resampled image copies the last frame did not use,
    /// before the frame stays on screen for a while: the frames that would release them in
    /// time are not drawn while nothing moves.
    public func releaseUnused() {
        context.releaseUnused()
        renderer.releaseUnused()
    }

    /// Background pixels frames left as they were because they held it already (for tests and
    /// diagnostics).
    public var plainPixelsSkipped: Int { context.plainPixelsSkipped }

    /// Pixels held in resampled image copies by the frame's context (for tests and diagnostics).
    public var resampledImagePixels: Int { context.resampledImagePixels }

    /// Makes the next frame repaint everything (after the bitmap was changed from outside).
    public func setNeedsFullFrame() {
        needsFullFrame = true
        context.forgetPlainPixels()
    }

    /// Renders into `bitmap` from now on (e.g. a presenter's frame buffer of a new size); the
    /// next frame is repainted whole.
    public func use(_ bitmap: Bitmap) {
        guard bitmap !== self.bitmap else { return }
        self.bitmap = bitmap
        context = FrameRenderer.context(drawing: bitmap, remembering: remembersPlainPixels)
        needsFullFrame = true
    }

    /// Replaces the bitmap with one of the new size (negative sizes count as 0); the next frame
    /// is repainted whole. Does nothing when the size is unchanged.
    public func resize(width: Int, height: Int) {
        let w = max(0, width), h = max(0, height)
        guard w != bitmap.width || h != bitmap.height else { return }
        bitmap = Bitmap(width: w, height: h)
        context = FrameRenderer.context(drawing: bitmap, remembering: remembersPlainPixels)
        needsFullFrame = true
    }
}
