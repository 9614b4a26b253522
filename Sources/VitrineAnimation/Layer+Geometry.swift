import VitrineGraphics

/// Geometry: frame, the transform to the superlayer, and converting points between layers.
extension Layer {
    /// The anchor point in the layer's own coordinates.
    public var anchorPointInBounds: Point {
        let b = bounds
        return Point(x: b.origin.x + anchorPoint.x * b.size.width, y: b.origin.y + anchorPoint.y * b.size.height)
    }

    /// The transform from this layer's coordinates to its superlayer's: move the anchor point to
    /// the origin, apply `transform`, move to `position`, then the superlayer's
    /// `sublayerTransform` about its anchor point. When that takes the layer out of its
    /// superlayer's plane with perspective (`isProjected`), this is its affine part only:
    /// `projectionToSuperlayer` is exact.
    public var transformToSuperlayer: Transform2D {
        if let planar = planarTransformToSuperlayer { return planar }
        return transform3DToSuperlayer.affine
    }

    /// `transformToSuperlayer` when the layer stays in its superlayer's plane (its `transform`
    /// planar, no `sublayerTransform` above it), else nil.
    private var planarTransformToSuperlayer: Transform2D? {
        if isPresentationCopy {
            guard let planar = ownGeometry.planar, superlayer?.ownGeometry.sublayerTransformIsIdentity ?? true
            else { return nil }
            return planar
        }
        let t = transform
        guard t.isPlanar, superlayer?.sublayerTransform.isIdentity ?? true else { return nil }
        return OwnGeometry.planar(anchor: anchorPointInBounds, transform: t, position: position)
    }

    /// What the layer's own properties say of its place: kept by a presentation copy
    /// (`keptGeometry`), worked out each time for a model layer.
    var ownGeometry: OwnGeometry {
        if isPresentationCopy, let kept = keptGeometry { return kept }
        let t = transform
        let planar =
            t.isPlanar ? OwnGeometry.planar(anchor: anchorPointInBounds, transform: t, position: position) : nil
        let geometry = OwnGeometry(planar: planar, sublayerTransformIsIdentity: sublayerTransform.isIdentity)
        if isPresentationCopy { keptGeometry = geometry }
        return geometry
    }

    /// `transformToSuperlayer` in space: the anchor point (with `anchorPointZ`) to the origin,
    /// `transform`, to `position` and `zPosition`, then the superlayer's `sublayerTransform`
    /// about its anchor point.
    public var transform3DToSuperlayer: Transform3D {
        let a = anchorPointInBounds
        var m = Transform3D(translationX: -a.x, y: -a.y, z: -anchorPointZ)
            .concatenating(transform)
            .concatenating(Transform3D(translationX: position.x, y: position.y, z: zPosition))
        if let parent = superlayer, !parent.sublayerTransform.isIdentity {
            let p = parent.anchorPointInBounds
            m = m.concatenating(Transform3D(translationX: -p.x, y: -p.y, z: -parent.anchorPointZ))
                .concatenating(parent.sublayerTransform)
                .concatenating(Transform3D(translationX: p.x, y: p.y, z: parent.anchorPointZ))
        }
        return m
    }

    /// Whether the layer reaches its superlayer's plane through perspective (not affinely).
    public var isProjected: Bool {
        if planarTransformToSuperlayer != nil { return false }
        return !transform3DToSuperlayer.isAffineOnThePlane
    }

    /// The layer's plane as its superlayer sees it.
    public var projectionToSuperlayer: Projection {
        if !isProjected { return Projection(transformToSuperlayer) }
        return transform3DToSuperlayer.projection
    }

    /// `rect` (in this layer's coordinates) as its superlayer sees it: the bounding box of its
    /// image (the whole plane when part of it lies at or behind the eye).
    public func extentInSuperlayer(_ rect: Rect) -> Rect {
        guard isProjected else { return transformToSuperlayer.apply(to: rect) }
        return projectionToSuperlayer.boundingBox(of: rect)
    }

    /// The bounds as seen in the superlayer: derived from `bounds`, `position`, `anchorPoint`
    /// and `transform` (the bounding box when transformed). Setting it sets the bounds size and
    /// the position (the transform is not changed). Not animatable itself.
    public var frame: Rect {
        get { transformToSuperlayer.apply(to: bounds) }
        set {
            let f = newValue.standardized
            bounds = Rect(origin: bounds.origin, size: f.size)
            position = Point(x: f.minX + anchorPoint.x * f.width, y: f.minY + anchorPoint.y * f.height)
        }
    }

    /// The transform from this layer's coordinates to its tree's root coordinates.
    public var transformToRoot: Transform2D {
        var t = Transform2D.identity
        var layer: Layer? = self
        while let l = layer, let parent = l.parentInTree {
            t = t.concatenating(l.transformToSuperlayer)
            layer = parent
        }
        return t
    }

    /// `point`, given in `layer`'s coordinates (nil: the root's), in this layer's coordinates.
    /// Layers in different trees are related through their roots' coordinates.
    public func convert(_ point: Point, from layer: Layer?) -> Point {
        let root = layer?.transformToRoot.apply(to: point) ?? point
        return transformToRoot.inverted()?.apply(to: root) ?? root
    }

    /// `point`, given in this layer's coordinates, in `layer`'s coordinates (nil: the root's).
    public func convert(_ point: Point, to layer: Layer?) -> Point {
        let root = transformToRoot.apply(to: point)
        guard let layer else { return root }
        return layer.transformToRoot.inverted()?.apply(to: root) ?? root
    }

    /// The bounding box of `rect` from `layer`'s coordinates (nil: the root's) in this layer's.
    public func convert(_ rect: Rect, from layer: Layer?) -> Rect {
        let toRoot = layer?.transformToRoot ?? .identity
        guard let fromRoot = transformToRoot.inverted() else { return toRoot.apply(to: rect) }
        return toRoot.concatenating(fromRoot).apply(to: rect)
    }

    /// The bounding box of `rect` from this layer's coordinates in `layer`'s (nil: the root's).
    public func convert(_ rect: Rect, to layer: Layer?) -> Rect {
        let toRoot = transformToRoot
        guard let layer, let fromRoot = layer.transformToRoot.inverted() else { return toRoot.apply(to: rect) }
        return toRoot.concatenating(fromRoot).apply(to: rect)
    }
}

/// Time: each layer's local time derives from its parent's through `beginTime`, `speed` and
/// `timeOffset`; the root's parent time is the engine's (scene) time.
extension Layer {
    /// This layer's time at parent time `t`: (t − beginTime) × speed + timeOffset.
    public func localTime(fromParentTime t: Double) -> Double { (t - beginTime) * speed + timeOffset }

    /// The parent time at which this layer's time is `t` (for a paused layer, `beginTime`).
    public func parentTime(fromLocalTime t: Double) -> Double {
        speed == 0 ? beginTime : (t - timeOffset) / speed + beginTime
    }

    /// This layer's time at scene time `t`.
    public func localTime(fromSceneTime t: Double) -> Double {
        var chain: [Layer] = []
        var layer: Layer? = self
        while let l = layer { chain.append(l); layer = l.parentInTree }
        var time = t
        for l in chain.reversed() { time = l.localTime(fromParentTime: time) }
        return time
    }

    /// The scene time at which this layer's time is `t`.
    public func sceneTime(fromLocalTime t: Double) -> Double {
        var time = t
        var layer: Layer? = self
        while let l = layer { time = l.parentTime(fromLocalTime: time); layer = l.parentInTree }
        return time
    }

    /// `t`, a time of `layer` (nil: scene time), as a time of this layer.
    public func convertTime(_ t: Double, from layer: Layer?) -> Double {
        localTime(fromSceneTime: layer?.sceneTime(fromLocalTime: t) ?? t)
    }

    /// `t`, a time of this layer, as a time of `layer` (nil: scene time).
    public func convertTime(_ t: Double, to layer: Layer?) -> Double {
        let scene = sceneTime(fromLocalTime: t)
        return layer?.localTime(fromSceneTime: scene) ?? scene
    }
}

/// What a layer's own properties say of its place in its superlayer, apart from the
/// superlayer's `sublayerTransform`.
struct OwnGeometry {
    /// The anchor point to the origin, `transform`, then to `position`, when `transform` keeps
    /// the plane (nil when it does not).
    let planar: Transform2D?
    /// Whether the layer's `sublayerTransform` is the identity (its sublayers stay in its plane).
    let sublayerTransformIsIdentity: Bool

    static func planar(anchor a: Point, transform: Transform3D, position p: Point) -> Transform2D {
        Transform2D(translationX: -a.x, y: -a.y).concatenating(transform.affine)
            .concatenating(Transform2D(translationX: p.x, y: p.y))
    }
}
