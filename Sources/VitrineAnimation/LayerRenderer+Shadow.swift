import VitrineGraphics

/// Layer shadows (shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath), drawn
/// under the layer's body and inside its mask and `masksToBounds` clip, as Core Animation
/// draws them. The blur is the expensive part, so its result is kept (`ShadowCache`) and drawn
/// again while what casts the shadow is unchanged and moves by whole device pixels only.
extension LayerRenderer {
    func drawShadow(of layer: Layer, in ctx: GraphicsContext) {
        let t = ctx.transform
        let shadow = layer.shadow
        guard let device = shadow.device(under: t) else { return }
        let target = IntRect(x: 0, y: 0, width: ctx.bitmap.width, height: ctx.bitmap.height)
        let caster = shadowCasterDeviceBox(of: layer, toDevice: t)
        // What is captured: the caster moved by the offset, on the target (a caster off the
        // screen casts only the part of its shadow its on-screen part casts).
        let region = IntRect(
            enclosing: caster.offsetBy(dx: device.offset.x, dy: device.offset.y)
        ).intersection(target)
        let spread = device.spread
        let reach = IntRect(
            x: region.x - spread, y: region.y - spread, width: region.width + 2 * spread,
            height: region.height + 2 * spread)
        guard !region.isEmpty, reach.intersects(ctx.clipBoundingBox) else {
            shadows.keep(layer, pass: pass)
            return
        }
        let placed = shadows.mask(for: layer, transform: t, region: region, pass: pass) {
            ctx.renderShadowMask(shadow, over: region) {
                if let path = layer.shadowPath {
                    ctx.fill(path, color: .black)
                } else {
                    renderBody(of: layer, in: ctx)
                }
            }
        }
        if layer.masksToBounds {
            ctx.saveGState()
            ctx.clip(toRoundedRect: layer.bounds.standardized, cornerRadius: layer.clampedCornerRadius)
        }
        ctx.fill(placed.mask, offsetX: placed.dx, offsetY: placed.dy, color: shadow.color, opacity: shadow.opacity)
        if layer.masksToBounds { ctx.restoreGState() }
    }

    /// The device box of what casts the layer's shadow (its shadow path, or its body), before
    /// the offset.
    private func shadowCasterDeviceBox(of layer: Layer, toDevice t: Transform2D) -> Rect {
        if let path = layer.shadowPath { return t.apply(to: path.bounds) }
        let box = bodyDeviceExtent(of: layer, toDevice: t)
        return Rect(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
    }

    /// The device pixels the layer's shadow can touch, given the device extent of its body.
    func shadowDeviceExtent(of layer: Layer, body: IntRect, toDevice t: Transform2D) -> IntRect? {
        guard let device = layer.shadow.device(under: t) else { return nil }
        let caster =
            layer.shadowPath.map { t.apply(to: $0.bounds) }
            ?? Rect(x: Double(body.x), y: Double(body.y), width: Double(body.width), height: Double(body.height))
        let moved = IntRect(enclosing: caster.offsetBy(dx: device.offset.x, dy: device.offset.y))
        guard !moved.isEmpty else { return nil }
        let s = device.spread
        let extent = IntRect(x: moved.x - s, y: moved.y - s, width: moved.width + 2 * s, height: moved.height + 2 * s)
        return layer.masksToBounds ? extent.intersection(IntRect(enclosing: t.apply(to: layer.bounds))) : extent
    }
}

/// The blurred shapes of layer shadows, one per model layer, kept while the layer's shadow is
/// drawn in consecutive passes. A kept shape is drawn again, moved by whole device pixels, as
/// long as what casts it is the same: the same presentation copy, or one whose sublayers are
/// the same copies and whose properties differ only in what does not change the shape (its
/// place, opacity, shadow colour and opacity) — or, with a shadow path, the same path, radius
/// and offset whatever the body does.
final class ShadowCache {
    private final class Entry {
        weak var owner: Layer?
        /// The presentation copy the shape was made from.
        var source: Layer
        /// The device transform it was made under, and the captured region.
        var transform: Transform2D
        var region: IntRect
        var mask: AlphaMask
        var lastPass: Int

        init(owner: Layer, source: Layer, transform: Transform2D, region: IntRect, mask: AlphaMask, pass: Int) {
            self.owner = owner
            self.source = source
            self.transform = transform
            self.region = region
            self.mask = mask
            lastPass = pass
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// How many shapes were made (blurred), for tests and benchmarks.
    private(set) var renderCount = 0

    /// Properties that place or tint the shadow without changing its shape.
    private static let shapeNeutralKeys: Set<String> = [
        "position", "anchorPoint", "transform", "zPosition", "opacity", "isHidden", "shadowColor", "shadowOpacity"
    ]

    /// The shape for `layer` drawn under device transform `t` from `region`, with the whole-pixel
    /// move that places it: the kept one when still valid, else a new one from `make`.
    func mask(
        for layer: Layer, transform t: Transform2D, region: IntRect, pass: Int, make: () -> AlphaMask
    ) -> (mask: AlphaMask, dx: Int, dy: Int) {
        let model = layer.model()
        let id = ObjectIdentifier(model)
        if let entry = entries[id], entry.owner === model {
            entry.lastPass = pass
            if let move = wholePixelMove(from: entry.transform, to: t),
                region
                    == IntRect(
                        x: entry.region.x + move.dx, y: entry.region.y + move.dy, width: entry.region.width,
                        height: entry.region.height),
                ShadowCache.castsTheSame(layer, as: entry.source)
            {
                return (entry.mask, move.dx, move.dy)
            }
        }
        let mask = make()
        renderCount += 1
        entries[id] = Entry(owner: model, source: layer, transform: t, region: region, mask: mask, pass: pass)
        return (mask, 0, 0)
    }

    /// Keeps the layer's shape (if any) through a pass that does not draw it.
    func keep(_ layer: Layer, pass: Int) {
        guard !entries.isEmpty, let entry = entries[ObjectIdentifier(layer.model())] else { return }
        entry.lastPass = pass
    }

    /// Forgets the shapes of `model` and its ancestors (their drawing changed in a way the
    /// presentation copies do not show: `setNeedsDisplay()`).
    func invalidate(from model: Layer) {
        guard !entries.isEmpty else { return }
        var layer: Layer? = model
        while let l = layer {
            entries[ObjectIdentifier(l)] = nil
            layer = l.superlayer ?? l.maskOwner
        }
    }

    /// Drops the shapes no longer drawn.
    func endPass(_ pass: Int) {
        guard entries.values.contains(where: { $0.lastPass != pass || $0.owner == nil }) else { return }
        entries = entries.filter { $0.value.lastPass == pass && $0.value.owner != nil }
    }

    func removeAll() { entries.removeAll() }

    /// The whole-pixel translation taking `a` to `b`, or nil when they differ otherwise.
    private func wholePixelMove(from a: Transform2D, to b: Transform2D) -> (dx: Int, dy: Int)? {
        guard a.a == b.a, a.b == b.b, a.c == b.c, a.d == b.d else { return nil }
        let dx = b.tx - a.tx, dy = b.ty - a.ty
        guard dx == dx.rounded(), dy == dy.rounded(), abs(dx) < 1e9, abs(dy) < 1e9 else { return nil }
        return (Int(dx), Int(dy))
    }

    private static func castsTheSame(_ now: Layer, as before: Layer) -> Bool {
        if now === before { return true }
        // A shadow path stands for the body: only it and the blur shape the shadow.
        if let path = now.shadowPath {
            return path == before.shadowPath && now.shadowRadius == before.shadowRadius
                && now.shadowOffset == before.shadowOffset
        }
        guard now.slotLayout === before.slotLayout, now.sublayerStorage.count == before.sublayerStorage.count else {
            return false
        }
        for (a, b) in zip(now.sublayerStorage, before.sublayerStorage) where a !== b { return false }
        let keys = now.slotLayout.keys
        for i in now.slots.indices where !now.slots[i].hasSameValue(asSameType: before.slots[i]) {
            if !shapeNeutralKeys.contains(keys[i]) { return false }
        }
        return true
    }
}
