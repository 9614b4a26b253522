import VitrineGraphics
import VitrineSystem

/// Layer shadows (shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath), drawn
/// under the layer's body and inside its mask and `masksToBounds` clip, as Core Animation
/// draws them. The blur is the expensive part, so its result is kept (`KeptPerLayer`) and drawn
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
        let reach = region.outset(by: device.spread)
        guard !region.isEmpty, reach.intersects(ctx.clipBoundingBox) else {
            cacheLock.withLock { shadows.keep(layer, pass: pass) }
            return
        }
        // The kept shape serves while what casts it is the same and it only moved by whole pixels,
        // as long as it still covers the part of its reach on the target (it is blurred only
        // there, so that a huge radius costs no more than the target).
        let shown = reach.intersection(target)
        // A local function, not a closure value: its captures stay on the stack (no allocation
        // per frame).
        func serves(_ source: Layer, _ kept: ShadowShape) -> Bool {
            let move = LayerRenderer.wholePixelMove(from: kept.transform, to: t)
            return kept.region.moved(by: move) == region
                && kept.blurred.moved(by: move)?.contains(shown) == true
                && LayerRenderer.castsTheSameShadow(layer, as: source)
        }
        // Shared by the threads drawing a frame's bands: one makes it, the others wait for it,
        // under the layer's own lock (the lookups of other caches go on meanwhile). Drawn
        // unseen (`prepare`), a thread does not wait for one another is making: it goes on to
        // make what comes next.
        func make() -> ShadowShape {
            if let made = cacheLock.withLock({ shadows.servedValue(for: layer, pass: pass, serves: serves) }) {
                return made
            }
            // The shape it replaces goes first (a thread drawing with it holds its own).
            _ = cacheLock.withLock { shadows.removeValue(for: layer) }
            let mask =
                layer.shadowPath.map { ctx.renderShadowMask(shadow, over: region, keeping: target, filling: $0) }
                ?? ctx.renderShadowMask(shadow, over: region, keeping: target) { renderBody(of: layer, in: ctx) }
            let made = ShadowShape(mask: mask, transform: t, region: region, blurred: shown)
            cacheLock.withLock { shadows.insert(made, for: layer, pass: pass) }
            return made
        }
        let shape: ShadowShape
        if let kept = cacheLock.withLock({ shadows.servedValue(for: layer, pass: pass, serves: serves) }) {
            shape = kept
        } else {
            let job = shadowJob(for: layer)
            guard take(job, toDrawInto: ctx) else { return }
            shape = make()
            job.unlock()
        }
        guard let move = LayerRenderer.wholePixelMove(from: shape.transform, to: t) else { return }
        // Under the part of the body that paints opaque as it begins (a card's opaque
        // background or gradient) the shadow would be painted over at once: it is not filled
        // there (the same pixels either way; only without a clip mask, whose partly covered
        // pixels would let the shadow show through the body).
        let hidden =
            skipsHiddenShadows && ctx.alpha >= 1 && !ctx.hasClipMask
            ? opaqueInterior(of: layer, toDevice: t, levels: 4).map { $0.intersection(ctx.clipBoundingBox) } : nil
        if let hidden { hiddenShadows.add(hidden.area) }
        if layer.masksToBounds {
            ctx.saveGState()
            ctx.clip(toRoundedRect: layer.bounds.standardized, cornerRadius: layer.clampedCornerRadius)
        }
        ctx.fill(
            shape.mask, offsetX: move.dx, offsetY: move.dy, color: shadow.color, opacity: shadow.opacity,
            except: hidden)
        if layer.masksToBounds { ctx.restoreGState() }
    }

    /// The lock under which the shadow of `layer`'s model layer (`Layer.cacheOwner`) is made
    /// this pass.
    private func shadowJob(for layer: Layer) -> Lock {
        cacheLock.withLock {
            let id = ObjectIdentifier(layer.cacheOwner())
            if let job = shadowJobs[id] { return job }
            let job = Lock(recursive: true)
            shadowJobs[id] = job
            return job
        }
    }

    /// The whole-pixel translation taking `a` to `b`, or nil when they differ otherwise.
    private static func wholePixelMove(from a: Transform2D, to b: Transform2D) -> (dx: Int, dy: Int)? {
        guard a.a == b.a, a.b == b.b, a.c == b.c, a.d == b.d else { return nil }
        let dx = b.tx - a.tx, dy = b.ty - a.ty
        guard dx == dx.rounded(), dy == dy.rounded(), abs(dx) < 1e9, abs(dy) < 1e9 else { return nil }
        return (Int(dx), Int(dy))
    }

    /// Properties that place or tint a shadow without changing its shape.
    private static let shadowNeutralKeys: Set<String> = [
        "position", "anchorPoint", "transform", "zPosition", "opacity", "isHidden", "shadowColor", "shadowOpacity"
    ]

    /// Whether `now` casts the shadow shape `before` cast: the same body (but for its place,
    /// opacity and shadow tint), or with a shadow path, the same path, radius and offset
    /// whatever the body does.
    private static func castsTheSameShadow(_ now: Layer, as before: Layer) -> Bool {
        if let path = now.shadowPath {
            return path == before.shadowPath && now.shadowRadius == before.shadowRadius
                && now.shadowOffset == before.shadowOffset
        }
        return now.drawsTheSame(as: before, ignoring: shadowNeutralKeys)
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
        let extent = moved.outset(by: device.spread)
        return layer.masksToBounds ? extent.intersection(IntRect(enclosing: t.apply(to: layer.bounds))) : extent
    }
}

/// A shadow's blurred shape as made: the mask in device pixels, the device transform it was made
/// under, the region captured and the region blurred (what of the shadow's reach was on the
/// target).
struct ShadowShape {
    let mask: AlphaMask
    let transform: Transform2D
    let region: IntRect
    let blurred: IntRect
}

extension IntRect {
    /// Moved by whole pixels; nil stays nil (no move: never equal to a region).
    fileprivate func moved(by move: (dx: Int, dy: Int)?) -> IntRect? {
        move.map { IntRect(x: x + $0.dx, y: y + $0.dy, width: width, height: height) }
    }
}
