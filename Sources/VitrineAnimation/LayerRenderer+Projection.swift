import Glibc
import VitrineGraphics
import VitrineSystem

/// Layers in space. A layer is flat: one whose transform (or its superlayer's
/// sublayerTransform) turns it out of its superlayer's plane with perspective is drawn as Core
/// Animation flattens it — whole, in its own plane, into an offscreen image at the finest scale
/// the projection shows any of it — and that image is drawn through the projection, sampled
/// perspective-correct. A transform layer's sublayers are each projected from its space.
extension LayerRenderer {
    /// The largest side and area, in pixels, of a layer's flat image in space.
    static let largestPlaneSide = 4096.0
    static let largestPlaneArea = 8e6

    /// Draws `layer`, which `projection` maps from its plane into the context's user space.
    func renderProjected(_ layer: Layer, through projection: Projection, in ctx: GraphicsContext) {
        let bounds = layer.bounds.standardized
        guard !layer.isHidden, layer.opacity > 0,
            layer.isDoubleSided || projection.orientation(at: Point(x: bounds.midX, y: bounds.midY)) > 0
        else {
            keepStores(of: layer)
            return
        }
        var box = Engine.bodyExtent(of: layer)
        if layer.castsShadow { box = box.union(Engine.shadowExtent(of: layer, toRoot: .identity)) }
        let toDevice = projection.concatenating(ctx.transform)
        guard !box.isNull, box.width > 0, box.height > 0, let needed = toDevice.axisScales(over: box) else {
            keepStores(of: layer)
            return
        }
        // Each axis at the next quarter up of the finest resolution it is seen at (within 2.5 %
        // of a step counts as on it), so a turning layer keeps one image over a range of angles,
        // never much larger than it is seen; a function of the projection alone, so the picture
        // does not depend on the frames before. Per axis, since a turned layer is foreshortened
        // along one: its image is then about half the texels the sampler would otherwise read.
        // At most 4096 pixels a side and 8 megapixels: a plane seen almost edge-on near the eye
        // would otherwise ask for an enormous image.
        func step(_ s: Double) -> Double {
            s >= 1 ? max(1, (s * 4 - 0.1).rounded(.up) / 4) : pow(2, (log2(s) - 0.035).rounded(.up))
        }
        let side = LayerRenderer.largestPlaneSide, most = LayerRenderer.largestPlaneArea
        var scale = (x: min(step(needed.x), side / box.width), y: min(step(needed.y), side / box.height))
        let area = box.width * scale.x * box.height * scale.y
        if area > most {
            let shrink = (most / area).squareRoot()
            scale = (scale.x * shrink, scale.y * shrink)
        }
        let width = Int((box.width * scale.x).rounded(.up)), height = Int((box.height * scale.y).rounded(.up))
        guard width > 0, height > 0 else { return }
        let image = planeImage(of: layer, scale: scale, box: box, width: width, height: height)
        let drawn = Rect(
            x: box.minX, y: box.minY, width: Double(width) / scale.x, height: Double(height) / scale.y)
        ctx.draw(image, in: drawn, through: projection)
    }

    /// The layer's flat image at `scale` over `box` of its plane. The kept one serves while the
    /// layer draws the same in its plane (a turning card's faces are drawn once) at this scale.
    /// Otherwise it is drawn again, in strips of rows that every thread drawing the frame's
    /// bands and needing it takes in turn: a plane remade in a frame drawn in parallel (5 to
    /// 9 ms on one thread for the turning card's face at 4K) is drawn by all of them, not by
    /// one while the others wait.
    private func planeImage(
        of layer: Layer, scale: (x: Double, y: Double), box: Rect, width: Int, height: Int
    ) -> Image {
        func serves(_ source: Layer, _ scaleMade: (x: Double, y: Double), _ boxMade: Rect) -> Bool {
            scaleMade == scale && boxMade == box && layer.drawsTheSame(as: source, ignoring: LayerRenderer.placingKeys)
        }
        cacheLock.lock()
        if let kept = planes.servedValue(for: layer, pass: pass, serves: { serves($0, $1.scale, $1.box) }) {
            cacheLock.unlock()
            return kept.image
        }
        let id = ObjectIdentifier(layer.cacheOwner())
        if let job = planeJobs[id], serves(job.source, job.scale, job.box) {
            cacheLock.unlock()
            job.drawStrips()
            return job.waitForImage()
        }
        let strips = drawingBandsInParallel ? min(16, max(1, height / 64)) : 1
        let job = PlaneJob(source: layer, scale: scale, box: box, strips: strips) { [unowned self] plane, rows in
            // Each strip as the whole image would have it: the same transform, clipped to its
            // rows (the rasterizer's pixels do not depend on the clip).
            plane.saveGState()
            plane.clip(toDeviceRect: IntRect(x: 0, y: rows.lowerBound, width: width, height: rows.count))
            plane.scaleBy(x: scale.x, y: scale.y)
            plane.translateBy(x: -box.minX, y: -box.minY)
            let drawing = PlaneDrawing.onThisThread
            drawing.depth += 1
            renderLayer(layer, in: plane, movedBy: .zero, placement: .identity)
            drawing.depth -= 1
            plane.restoreGState()
        }
        planeJobs[id] = job
        var previous = planes.removeValue(for: layer)?.image
        cacheLock.unlock()
        // Storage for the plane at the finer of the two axes' scales on both (within the same
        // limits): the layer seen face-on, as it turns towards or away from it, fits there.
        let square = min(max(scale.x, scale.y), LayerRenderer.largestPlaneSide / max(box.width, box.height))
        let reserve = Int(
            min((box.width * square).rounded(.up) * (box.height * square).rounded(.up), LayerRenderer.largestPlaneArea))
        let image = Image(width: width, height: height, replacing: &previous, reserving: reserve) { flat in
            job.start(drawingInto: flat)
            job.drawStrips()
            job.waitForStrips()
        }
        cacheLock.withLock {
            planes.insert(PlaneImage(image: image, scale: scale, box: box), for: layer, pass: pass)
            // A copy of the same layer needing another scale meanwhile made a job of its own.
            if planeJobs[id] === job { planeJobs[id] = nil }
        }
        job.finish(with: image)
        return image
    }

    /// A transform layer's sublayers, each projected from its space into the context's, far to near.
    func renderTransformLayer(_ layer: TransformLayer, in ctx: GraphicsContext) {
        guard !layer.isHidden, layer.opacity > 0 else {
            keepStores(of: layer)
            return
        }
        let space = layer.transform3DToSuperlayer
        let scratch = PlacedInSpace.scratch.value
        let first = scratch.placed.count
        for child in layer.sublayerStorage {
            let place = child.transform3DToSuperlayer.concatenating(space)
            let anchor = child.anchorPointInBounds
            let depth = place.apply(x: anchor.x, y: anchor.y, z: 0)?.z ?? -.infinity
            // Far (low z) first; ties keep their order (an insertion sort, stable; a transform
            // layer has few sublayers).
            var i = scratch.placed.count
            scratch.placed.append(PlacedInSpace(child: child, place: place, depth: depth))
            while i > first, scratch.placed[i - 1].depth > depth {
                scratch.placed.swapAt(i - 1, i)
                i -= 1
            }
        }
        // By index: a nested transform layer adds its own run above this one and removes it.
        for i in first..<scratch.placed.count {
            let entry = scratch.placed[i]
            if entry.place.isAffineOnThePlane {
                let local = entry.place.affine
                guard entry.child.isDoubleSided || local.determinant > 0 else { continue }
                renderLayer(entry.child, in: ctx, movedBy: .zero, placement: local)
            } else {
                renderProjected(entry.child, through: entry.place.projection, in: ctx)
            }
        }
        scratch.placed.removeSubrange(first...)
    }
}

/// A transform layer's sublayer placed in its space: where, and how far from the eye.
struct PlacedInSpace {
    let child: Layer
    let place: Transform3D
    let depth: Double

    /// Transform layers' sublayers as placed for drawing, one run per transform layer being
    /// drawn on the thread (nested ones stack theirs above): kept, so a frame allocates nothing
    /// for them; per thread, since the bands of a frame are drawn on several.
    final class Scratch {
        var placed: [PlacedInSpace] = []
    }
    static let scratch = ThreadLocal { Scratch() }
}

/// A layer in space's plane image being drawn: its rows cut into strips that each thread
/// needing the image takes one at a time (`drawStrips`), each thread with a context of its own
/// on the image's bitmap.
final class PlaneJob {
    /// The presentation copy, scale and box the image is drawn for.
    let source: Layer
    let scale: (x: Double, y: Double)
    let box: Rect
    private let strips: Int
    private let drawStrip: (GraphicsContext, Range<Int>) -> Void
    private let state = Condition()
    // Under `state`'s mutex:
    private var bitmap: Bitmap?
    private var taken = 0
    private var finished = 0
    private var image: Image?

    init(
        source: Layer, scale: (x: Double, y: Double), box: Rect, strips: Int,
        drawStrip: @escaping (GraphicsContext, Range<Int>) -> Void
    ) {
        self.source = source
        self.scale = scale
        self.box = box
        self.strips = strips
        self.drawStrip = drawStrip
    }

    /// Opens the strips of `bitmap` (the image's pixels, valid until `waitForStrips` returns)
    /// to the threads that take them.
    func start(drawingInto bitmap: Bitmap) {
        state.announce { self.bitmap = bitmap }
    }

    /// Draws strips not yet taken until none is left, waiting for `start` if need be (the
    /// thread that made the job calls it next, without waiting for anything).
    func drawStrips() {
        var context: GraphicsContext?
        while let (bitmap, strip) = takeStrip() {
            let plane = context ?? GraphicsContext(bitmap: bitmap)
            context = plane
            let top = bitmap.height * strip / strips, bottom = bitmap.height * (strip + 1) / strips
            drawStrip(plane, top..<bottom)
            state.announce { finished += 1 }
        }
    }

    private func takeStrip() -> (Bitmap, Int)? {
        state.wait { bitmap != nil }
        return state.withLock {
            guard let bitmap, taken < strips else { return nil }
            taken += 1
            return (bitmap, taken - 1)
        }
    }

    /// Waits until every strip is drawn.
    func waitForStrips() {
        state.wait { finished == strips }
    }

    /// Hands the finished image to the threads waiting for it.
    func finish(with image: Image) {
        state.announce { self.image = image }
    }

    /// Waits for the finished image.
    func waitForImage() -> Image {
        state.wait { image != nil }
        return state.withLock { image! }
    }
}

/// Whether this thread is drawing a layer in space's plane image (how many planes deep): the
/// plane is kept, so what is drawn into it keeps no backing store of its own.
final class PlaneDrawing {
    var depth = 0
    static var onThisThread: PlaneDrawing { perThread.value }
    private static let perThread = ThreadLocal { PlaneDrawing() }
}

/// A layer in space's flat image as made: the image, its scale along each axis and the box of
/// the layer's plane it covers.
struct PlaneImage {
    let image: Image
    let scale: (x: Double, y: Double)
    let box: Rect
}

extension LayerRenderer {
    /// What places a layer's plane without changing what is drawn in it.
    fileprivate static let placingKeys: Set<String> = [
        "position", "anchorPoint", "anchorPointZ", "transform", "zPosition"
    ]
}
