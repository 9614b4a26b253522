import Glibc
import VitrineGraphics

/// The ring-shaped arrow of seed 000: a band of `thickness` along a circle inscribed in the
/// bounds, from a tail at `startRadians` to a pointed head `lengthRadians` further on (negative:
/// the other way). Every property is animatable and redraws the layer, as is the bounds.
open class ArrowLayer: Layer {
    /// Radial width of the band. Defaults to 0. Animatable.
    @Animatable public var thickness: Double = 0
    /// Angle of the tail end, radians, clockwise on screen from +x. Defaults to 0. Animatable.
    @Animatable public var startRadians: Double = 0
    /// Angle from tail to tip; negative runs counter-clockwise. Defaults to 0. Animatable.
    @Animatable public var lengthRadians: Double = 0
    /// Angular length of the head, clipped to the length and given its sign. Defaults to 0. Animatable.
    @Animatable public var headLengthRadians: Double = 0
    /// Fill of the arrow; nil fills nothing. Defaults to nil. Animatable.
    @Animatable public var fillColor: Color? = nil
    /// Outline of the arrow; nil (or a zero line width) strokes nothing. Defaults to nil. Animatable.
    @Animatable public var strokeColor: Color? = nil
    /// Width of the outline. Defaults to 0. Animatable.
    @Animatable public var lineWidth: Double = 0
    /// Corners of the outline. Defaults to `.miter`. Not animatable (redraws).
    @LayerProperty public var lineJoin: LineJoin = .miter

    /// Every custom property changes the drawing.
    open override class func needsDisplay(forKey key: String) -> Bool {
        customPropertyKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    /// Always redraws on a bounds change (the radii follow the width).
    open override var needsDisplayOnBoundsChange: Bool {
        get { true }
        set {}
    }

    /// The angles of the arrow: tail, where the head begins, and tip.
    public struct Angles: Equatable, Sendable {
        public var start: Double
        public var head: Double
        public var tip: Double
    }

    /// The head length clipped to the arrow's length, with the length's sign.
    public static func clippedHeadLength(length: Double, headLength: Double) -> Double {
        let head = copysign(headLength, length)
        return abs(head) > abs(length) ? length : head
    }

    /// The three angles. When the head was clipped, `head` equals `start` exactly (computed as
    /// start + (length − head), and length − length is exactly 0), so no stray arc appears.
    public static func angles(start: Double, length: Double, headLength: Double) -> Angles {
        let head = clippedHeadLength(length: length, headLength: headLength)
        return Angles(start: start, head: start + (length - head), tip: start + length)
    }

    /// The outline of the arrow centred in `bounds`: outer radius = width / 2, tip radius =
    /// outer − thickness / 2, inner radius = outer − thickness. Move to the tip, outer arc from
    /// the head back to the tail, inner arc forward to the head, close.
    public static func arrowPath(
        in bounds: Rect, thickness: Double, startRadians: Double, lengthRadians: Double,
        headLengthRadians: Double
    ) -> Path {
        var path = Path()
        arrowPath(
            in: bounds, thickness: thickness, startRadians: startRadians, lengthRadians: lengthRadians,
            headLengthRadians: headLengthRadians, into: &path)
        return path
    }

    /// `arrowPath(in:thickness:startRadians:lengthRadians:headLengthRadians:)` written into
    /// `path`, whose storage is reused.
    static func arrowPath(
        in bounds: Rect, thickness: Double, startRadians: Double, lengthRadians: Double,
        headLengthRadians: Double, into path: inout Path
    ) {
        path.removeAll(keepingCapacity: true)
        let a = angles(start: startRadians, length: lengthRadians, headLength: headLengthRadians)
        let center = bounds.center
        let outer = bounds.width / 2, tipRadius = outer - thickness / 2, inner = outer - thickness
        // The outer arc runs from head to start: backwards (decreasing angle) when the arrow
        // runs forwards. Path.addArc's `clockwise` is on screen, i.e. increasing angle.
        let forwards = a.tip > a.start
        path.move(to: Point(x: center.x + tipRadius * cos(a.tip), y: center.y + tipRadius * sin(a.tip)))
        // Arcs split on a grid from the tail: arrows of different lengths share the cubics of
        // their common band exactly (see `changedDrawingArea`).
        path.addArc(
            center: center, radius: outer, startAngle: a.head, endAngle: a.start, clockwise: !forwards,
            splitAnchor: a.start)
        path.addArc(
            center: center, radius: inner, startAngle: a.start, endAngle: a.head, clockwise: forwards,
            splitAnchor: a.start)
        path.closeSubpath()
    }

    /// This layer's arrow outline for its current properties.
    public var arrowPath: Path {
        ArrowLayer.arrowPath(
            in: bounds, thickness: thickness, startRadians: startRadians,
            lengthRadians: lengthRadians, headLengthRadians: headLengthRadians)
    }

    /// Whether the outline is stroked (a stroke colour and a positive line width).
    public var strokesOutline: Bool { strokeColor != nil && lineWidth > 0 }

    /// Fills the arrow, then strokes its outline with `lineWidth` and `lineJoin`.
    open override func draw(in ctx: GraphicsContext) {
        let scratch = ScratchPath.ofThisThread
        ArrowLayer.arrowPath(
            in: bounds, thickness: thickness, startRadians: startRadians, lengthRadians: lengthRadians,
            headLengthRadians: headLengthRadians, into: &scratch.path)
        let path = scratch.path
        if let fillColor { ctx.fill(path, color: fillColor) }
        if let strokeColor, lineWidth > 0 {
            ctx.stroke(path, color: strokeColor, style: StrokeStyle(lineWidth: lineWidth, lineJoin: lineJoin))
        }
    }

    /// When only the length changed, the two arrows share the band from the tail up to the last
    /// arc split before the nearer head (their outlines are the same cubics there): they differ
    /// only in the part of the ring from that split to the farther tip, so a growing arrow
    /// repaints a wedge, not its whole box.
    open override func changedDrawingArea(since previous: Layer, changedKeys: [String]) -> Rect? {
        guard changedKeys == ["lengthRadians"], let previous = previous as? ArrowLayer else { return nil }
        let now = ArrowLayer.angles(start: startRadians, length: lengthRadians, headLength: headLengthRadians)
        let before = ArrowLayer.angles(
            start: previous.startRadians, length: previous.lengthRadians,
            headLength: previous.headLengthRadians)
        // An arrow that turned round shares nothing but the tail.
        guard (now.tip - now.start) * (before.tip - before.start) > 0 else { return nil }
        let nearerHead = abs(now.head - now.start) < abs(before.head - before.start) ? now.head : before.head
        let split = Path.lastSplit(from: now.start, distance: nearerHead - now.start)
        let angles = [split, now.head, now.tip, before.head, before.tip]
        let outer = bounds.width / 2
        // A pixel of margin covers the anti-aliased edge; a stroke reaches half its width out
        // (miters at the tip more).
        var margin = 1.0
        if strokesOutline { margin += lineWidth / 2 * (lineJoin == .miter ? StrokeStyle().miterLimit : 1) }
        return Rect.boundingAnnularSector(
            center: bounds.center, innerRadius: outer - thickness, outerRadius: outer,
            from: angles.min()!, to: angles.max()!)?
            .insetBy(dx: -margin, dy: -margin)
    }
}

extension Rect {
    /// The bounding box of the part of a ring (`innerRadius` ≤ 0: of a disc) between two
    /// angles, radians clockwise on screen from +x, `from` ≤ `to`; nil when an angle is not a
    /// number. A full turn or more, or angles too large to place a quarter turn precisely,
    /// give the whole ring's box.
    static func boundingAnnularSector(
        center: Point, innerRadius: Double, outerRadius: Double,
        from: Double, to: Double
    ) -> Rect? {
        guard from.isFinite, to.isFinite else { return nil }
        let inner = max(0, innerRadius), outer = max(0, outerRadius)
        if to - from >= 2 * .pi || max(abs(from), abs(to)) > 1e6 {
            return Rect(x: center.x - outer, y: center.y - outer, width: 2 * outer, height: 2 * outer)
        }
        func point(_ radius: Double, _ angle: Double) -> Rect {
            Rect(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle), width: 0, height: 0)
        }
        var box = point(outer, from).union(point(outer, to)).union(point(inner, from)).union(point(inner, to))
        // The outer circle's extremes at the multiples of a quarter turn inside the range
        // (at most four in less than a turn).
        let quarter = Double.pi / 2
        var k = (from / quarter).rounded(.up)
        for _ in 0..<4 where k * quarter <= to {
            box = box.union(point(outer, k * quarter))
            k += 1
        }
        return box
    }
}
