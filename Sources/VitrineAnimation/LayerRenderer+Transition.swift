import VitrineGraphics

/// A layer in the middle of its transition (`LayerTransition`): the old look and the new, each
/// drawn as the layer would draw it, moved or faded by the transition's progress.
extension LayerRenderer {
    func renderTransition(of layer: Layer, _ state: TransitionState, in ctx: GraphicsContext) {
        let p = state.progress
        let old = state.old, transition = state.transition
        let bounds = layer.bounds.standardized
        // Where the sliding kinds move: the whole width or height of the bounds.
        var away = Point.zero
        switch transition.subtype {
        case .fromRight: away = Point(x: -bounds.width, y: 0)
        case .fromLeft: away = Point(x: bounds.width, y: 0)
        case .fromTop: away = Point(x: 0, y: bounds.height)
        case .fromBottom: away = Point(x: 0, y: -bounds.height)
        }
        // The new look arrives from −away, the old one leaves towards +away.
        let arriving = Point(x: -away.x * (1 - p), y: -away.y * (1 - p))
        let leaving = Point(x: away.x * p, y: away.y * p)

        ctx.saveGState()
        defer { ctx.restoreGState() }
        switch transition.kind {
        case .fade:
            // A true dissolve: old × (1 − p) plus new × p, as one group over what is below.
            var box = deviceExtent(of: layer, toDevice: layer.transformToSuperlayer.concatenating(ctx.transform))
            box = box.union(deviceExtent(of: old, toDevice: old.transformToSuperlayer.concatenating(ctx.transform)))
            ctx.clip(toDeviceRect: box)
            if dissolvesOpaqueLooksInPlace, bothPaintOpaque(old, layer, in: ctx) {
                // Both looks cover the clip opaque, so the dissolve is opaque there and hides
                // what is below: the old look drawn in place, the new one composited over it at
                // p, give old × (1 − p) + new × p (byte weights 255 − f and f, the groups'
                // within one). One level instead of three, and where both looks show the same
                // background the composite leaves the pixels alone.
                inPlaceDissolves.add(1)
                renderLayer(old, in: ctx, movedBy: .zero)
                ctx.beginTransparencyLayer(alpha: p)
                renderLayer(layer, in: ctx, movedBy: .zero)
                ctx.endTransparencyLayer()
                return
            }
            ctx.beginTransparencyLayer(alpha: 1)
            ctx.beginTransparencyLayer(alpha: 1 - p)
            renderLayer(old, in: ctx, movedBy: .zero)
            ctx.endTransparencyLayer()
            ctx.beginAdditiveTransparencyLayer(alpha: p)
            renderLayer(layer, in: ctx, movedBy: .zero)
            ctx.endTransparencyLayer()
            ctx.endTransparencyLayer()
        case .push, .moveIn, .reveal:
            guard clip(to: bounds, of: layer, in: ctx) else { return }
            let oldMove = transition.kind == .moveIn ? Point.zero : leaving
            let newMove = transition.kind == .reveal ? Point.zero : arriving
            if transition.kind == .reveal {
                renderLayer(layer, in: ctx, movedBy: newMove)
                renderLayer(old, in: ctx, movedBy: oldMove)
            } else {
                renderLayer(old, in: ctx, movedBy: oldMove)
                renderLayer(layer, in: ctx, movedBy: newMove)
            }
        }
    }

    /// Whether the old look and the new both paint all of the clip opaque as they begin to draw,
    /// drawn at full alpha and unmasked.
    private func bothPaintOpaque(_ old: Layer, _ new: Layer, in ctx: GraphicsContext) -> Bool {
        guard ctx.alpha >= 1, !ctx.hasClipMask else { return false }
        func covers(_ look: Layer, ownLook: Bool) -> Bool {
            let toDevice = look.transformToSuperlayer.concatenating(ctx.transform)
            return opaqueInterior(of: look, toDevice: toDevice, levels: 4, ownLook: ownLook)?
                .contains(ctx.clipBoundingBox) ?? false
        }
        return covers(old, ownLook: false) && covers(new, ownLook: true)
    }

    /// Clips to `bounds` in `layer`'s own coordinates; false when the layer cannot be placed.
    private func clip(to bounds: Rect, of layer: Layer, in ctx: GraphicsContext) -> Bool {
        let local = layer.transformToSuperlayer
        guard local.determinant != 0, local.determinant.isFinite, let back = local.inverted() else { return false }
        ctx.concatenate(local)
        ctx.clip(to: bounds)
        ctx.concatenate(back)
        return true
    }
}
