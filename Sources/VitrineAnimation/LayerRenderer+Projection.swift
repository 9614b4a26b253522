import Foundation
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
        guard !box.isNull, box.width > 0, box.height > 0, var scale = toDevice.largestScale(over: box) else {
            keepStores(of: layer)
            return
        }
        // The next quarter up (so a turning layer keeps one image over a range of angles, never
        // much larger than it is seen; a function of the scale alone, so the picture does not
        // depend on the frames before), at most 4096 pixels a side and 8 megapixels: a plane
        // seen almost edge-on near the eye would otherwise ask for an enormous image.
        scale = scale >= 1 ? (scale * 4).rounded(.up) / 4 : pow(2, log2(scale).rounded(.up))
        scale = min(scale, 4096 / box.width, 4096 / box.height, (8e6 / (box.width * box.height)).squareRoot())
        let width = Int((box.width * scale).rounded(.up)), height = Int((box.height * scale).rounded(.up))
        guard width > 0, height > 0 else { return }
        let image = planes.image(for: layer, scale: scale, box: box, pass: pass) {
            let flat = Bitmap(width: width, height: height)
            let plane = GraphicsContext(bitmap: flat)
            plane.scaleBy(x: scale, y: scale)
            plane.translateBy(x: -box.minX, y: -box.minY)
            renderLayer(layer, in: plane, movedBy: .zero, placement: .identity)
            return Image(bitmap: flat)
        }
        let drawn = Rect(x: box.minX, y: box.minY, width: Double(width) / scale, height: Double(height) / scale)
        ctx.draw(image, in: drawn, through: projection)
    }

    /// A transform layer's sublayers, each projected from its space into the context's, far to near.
    func renderTransformLayer(_ layer: TransformLayer, in ctx: GraphicsContext) {
        guard !layer.isHidden, layer.opacity > 0 else {
            keepStores(of: layer)
            return
        }
        let space = layer.transform3DToSuperlayer
        var placed: [(child: Layer, place: Transform3D, depth: Double)] = []
        for child in layer.sublayerStorage {
            let place = child.transform3DToSuperlayer.concatenating(space)
            let anchor = child.anchorPointInBounds
            let depth = place.apply(x: anchor.x, y: anchor.y, z: 0)?.z ?? -.infinity
            placed.append((child, place, depth))
        }
        // Far (low z) first; ties keep their order.
        let ordered = placed.enumerated().sorted {
            $0.element.depth != $1.element.depth ? $0.element.depth < $1.element.depth : $0.offset < $1.offset
        }
        for (_, entry) in ordered {
            if entry.place.isAffineOnThePlane {
                let local = entry.place.affine
                guard entry.child.isDoubleSided || local.determinant > 0 else { continue }
                renderLayer(entry.child, in: ctx, movedBy: .zero, placement: local)
            } else {
                renderProjected(entry.child, through: entry.place.projection, in: ctx)
            }
        }
    }
}

/// The flat images of layers in space, kept while a layer draws the same in its plane (the
/// same copy, or one that differs only in where it is placed: a card turning draws its faces
/// once) at the same scale.
final class PlaneImageCache {
    private final class Entry {
        weak var owner: Layer?
        let source: Layer
        let scale: Double
        let box: Rect
        let image: Image
        var lastPass: Int

        init(owner: Layer, source: Layer, scale: Double, box: Rect, image: Image, pass: Int) {
            self.owner = owner
            self.source = source
            self.scale = scale
            self.box = box
            self.image = image
            lastPass = pass
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// How many flat images were drawn, for tests.
    private(set) var renderCount = 0

    /// What places the plane without changing what is drawn in it.
    private static let placingKeys: Set<String> = ["position", "anchorPoint", "anchorPointZ", "transform", "zPosition"]

    func image(for layer: Layer, scale: Double, box: Rect, pass: Int, make: () -> Image) -> Image {
        let model = layer.model()
        let id = ObjectIdentifier(model)
        if let entry = entries[id], entry.owner === model, entry.scale == scale, entry.box == box,
            PlaneImageCache.drawsTheSame(layer, as: entry.source)
        {
            entry.lastPass = pass
            return entry.image
        }
        let image = make()
        renderCount += 1
        entries[id] = Entry(owner: model, source: layer, scale: scale, box: box, image: image, pass: pass)
        return image
    }

    /// Forgets the images of `model` and its ancestors (their drawing changed unseen by copies).
    func invalidate(from model: Layer) {
        guard !entries.isEmpty else { return }
        var layer: Layer? = model
        while let l = layer {
            entries[ObjectIdentifier(l)] = nil
            layer = l.superlayer ?? l.maskOwner
        }
    }

    /// Drops the images not drawn in this pass.
    func endPass(_ pass: Int) {
        guard entries.values.contains(where: { $0.lastPass != pass || $0.owner == nil }) else { return }
        entries = entries.filter { $0.value.lastPass == pass && $0.value.owner != nil }
    }

    func removeAll() { entries.removeAll() }

    private static func drawsTheSame(_ now: Layer, as before: Layer) -> Bool {
        if now === before { return true }
        guard now.slotLayout === before.slotLayout, now.sublayerStorage.count == before.sublayerStorage.count,
            now.maskStorage === before.maskStorage
        else { return false }
        for (a, b) in zip(now.sublayerStorage, before.sublayerStorage) where a !== b { return false }
        let keys = now.slotLayout.keys
        for i in now.slots.indices where !now.slots[i].hasSameValue(asSameType: before.slots[i]) {
            if !placingKeys.contains(keys[i]) { return false }
        }
        return true
    }
}
