import Glibc
import VitrineGraphics

/// Layers in space. A layer is flat: one whose transform (or its superlayer's
/// sublayerTransform) turns it out of its superlayer's plane with perspective is drawn as Core
/// Animation flattens it — whole, in its own plane, into an offscreen image at the finest scale
/// the projection shows any of it — and that image is drawn through the projection, sampled
/// perspective-correct. A transform layer's sublayers are each projected from its space.
extension LayerRenderer {
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
        var scale = (x: min(step(needed.x), 4096 / box.width), y: min(step(needed.y), 4096 / box.height))
        let area = box.width * scale.x * box.height * scale.y
        if area > 8e6 {
            let shrink = (8e6 / area).squareRoot()
            scale = (scale.x * shrink, scale.y * shrink)
        }
        let width = Int((box.width * scale.x).rounded(.up)), height = Int((box.height * scale.y).rounded(.up))
        guard width > 0, height > 0 else { return }
        // The kept image serves while the layer draws the same in its plane (a turning card's
        // faces are drawn once) at this scale. Kept images are shared by the threads drawing
        // a frame's bands: one makes it, the others wait for it.
        let image = cacheLock.withLock {
            planes.value(
                for: layer, pass: pass,
                serves: { source, kept in
                    kept.scale == scale && kept.box == box
                        && layer.drawsTheSame(as: source, ignoring: LayerRenderer.placingKeys)
                },
                remake: { stale in
                    var previous = stale?.image
                    stale = nil
                    let image = Image(width: width, height: height, replacing: &previous) { flat in
                        let plane = GraphicsContext(bitmap: flat)
                        plane.scaleBy(x: scale.x, y: scale.y)
                        plane.translateBy(x: -box.minX, y: -box.minY)
                        let drawing = PlaneDrawing.onThisThread
                        drawing.depth += 1
                        renderLayer(layer, in: plane, movedBy: .zero, placement: .identity)
                        drawing.depth -= 1
                    }
                    return PlaneImage(image: image, scale: scale, box: box)
                }
            ).image
        }
        let drawn = Rect(
            x: box.minX, y: box.minY, width: Double(width) / scale.x, height: Double(height) / scale.y)
        ctx.draw(image, in: drawn, through: projection)
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
