import VitrineGraphics
import VitrineSystem

/// The drawn content of one layer that draws itself, kept as device pixels so that frames in
/// which nothing it draws has changed only composite it.
///
/// The pixels are valid for one mapping from the layer's coordinates to store pixels (the
/// layer's device transform, a translation and scale, moved so the content's device box
/// starts at the store's origin) and for the values its drawing keys had. Moving the layer by
/// whole pixels keeps them valid; anything else redraws. The bitmap and its context are made
/// by the first redraw, kept and reused for any later size that fits and is not much smaller,
/// and released while the layer is drawn straight to the target (content that changes every
/// frame, such as a full-screen emitter, then holds no pixels of its own).
final class BackingStore {
    /// The model layer the content belongs to (checked, since identifiers can be reused); nil
    /// once it is gone.
    var owner: Layer? { ownerReference.layer }
    private let ownerReference: LayerReference
    private(set) var bitmap: Bitmap?
    private(set) var context: GraphicsContext?
    /// The pixels in use, from the bitmap's origin.
    private(set) var size: (width: Int, height: Int) = (0, 0)
    /// Layer coordinates → store pixels for the current content; nil when there is none.
    private(set) var transform: Transform2D?
    /// The layer as drawn, to compare drawing keys with: a presentation copy kept whole (the
    /// engine recycles only copies no one holds, so it stays as drawn), or a model layer's
    /// slots snapshotted.
    private var drawnCopy: Layer?
    private var drawnSlots: [AnyLayerSlot] = []
    private var drawnLayout: SlotLayout?
    /// The last render pass that used the store.
    var lastPass = 0
    /// Whether the bitmap holds the content last drawn (false after a direct draw).
    private(set) var hasPixels = false
    /// Whether the last draw happened because the content had changed.
    var changedAtLastDraw = false
    /// The render pass of the last direct draw.
    private(set) var directPass = -1
    /// Held by the thread that looks at the store and redraws it while the threads drawing a
    /// frame's bands share it; the others wait for that one store only (`lastPass` is under
    /// the renderer's cache lock instead).
    let drawing = Lock(recursive: true)

    /// Whether nothing was ever drawn for the store (invalidating it does not make it new).
    private(set) var isNew = true

    init(owner: Layer) {
        ownerReference = owner.reference
    }

    /// Forgets the content, so the next use redraws.
    func invalidate() { transform = nil }

    /// Whether a draw was recorded since the store was made or invalidated.
    var hasRecord: Bool { transform != nil }

    /// Whether the content last drawn is what `layer` (its presentation) shows drawn through
    /// `transform` into a box of `width × height` pixels: same mapping, same size, and the
    /// layer draws the same (`Layer.drawsTheSame`) as when it was stored.
    func matches(_ layer: Layer, transform: Transform2D, width: Int, height: Int) -> Bool {
        guard let drawn = self.transform, size == (width, height), drawn.isClose(to: transform) else { return false }
        if let drawnCopy { return layer.drawsTheSame(as: drawnCopy.slots, layout: drawnCopy.slotLayout) }
        return layer.drawsTheSame(as: drawnSlots, layout: drawnLayout)
    }

    /// Redraws the content: clears a `width × height` box (growing the bitmap when it does not
    /// fit, shrinking it when it is less than a quarter used), maps the layer's coordinates with
    /// `transform`, clips to the pixels `extent` (layer coordinates) reaches and lets the layer
    /// draw.
    func redraw(_ layer: Layer, transform: Transform2D, extent: Rect, width: Int, height: Int) {
        let bitmap: Bitmap, context: GraphicsContext
        if let kept = self.bitmap, let keptContext = self.context, width <= kept.width, height <= kept.height,
            width * height * 4 >= kept.width * kept.height
        {
            (bitmap, context) = (kept, keptContext)
            bitmap.fill(0, in: IntRect(x: 0, y: 0, width: width, height: height))
        } else {
            bitmap = Bitmap(width: width, height: height)
            context = GraphicsContext(bitmap: bitmap)
            (self.bitmap, self.context) = (bitmap, context)
        }
        size = (width, height)
        context.saveGState()
        context.clip(to: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        context.concatenate(transform)
        context.clip(toPixelsReaching: extent)
        layer.draw(in: context)
        context.restoreGState()
        record(layer, transform: transform, width: width, height: height)
        hasPixels = true
    }

    /// Notes that `layer` was drawn straight to the target in render pass `pass`: the state is
    /// recorded (to notice when it stops changing), the pixels are stale.
    func noteDirectDraw(_ layer: Layer, transform: Transform2D, width: Int, height: Int, pass: Int) {
        record(layer, transform: transform, width: width, height: height)
        hasPixels = false
        directPass = pass
        bitmap = nil
        context = nil
    }

    private func record(_ layer: Layer, transform: Transform2D, width: Int, height: Int) {
        isNew = false
        size = (width, height)
        self.transform = transform
        if layer.isPresentationCopy {
            drawnCopy = layer
            drawnSlots = []
        } else {
            // A model layer's slots change in place: copy them.
            drawnCopy = nil
            drawnSlots = layer.slots.map { $0.snapshot() }
        }
        drawnLayout = layer.slotLayout
    }
}

extension Transform2D {
    /// Equal within a millionth of a pixel in every coefficient (rounding in transforms that
    /// were built from the same values along different paths).
    func isClose(to o: Transform2D) -> Bool {
        let e = 1e-6
        return abs(a - o.a) <= e && abs(b - o.b) <= e && abs(c - o.c) <= e && abs(d - o.d) <= e
            && abs(tx - o.tx) <= e && abs(ty - o.ty) <= e
    }
}
