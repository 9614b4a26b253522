import VitrineGraphics

/// A layer that fills and strokes a path (CAShapeLayer), drawn in its own coordinates and not
/// clipped to its bounds.
open class ShapeLayer: Layer {
    /// The shape, in the layer's coordinates. Defaults to nil. Animatable (paths of different
    /// structure morph sensibly).
    @Animatable public var path: Path? = nil
    /// The fill; nil fills nothing. Defaults to opaque black. Animatable.
    @Animatable public var fillColor: Color? = .black
    /// A gradient for the fill, in the layer's coordinates, used instead of `fillColor`.
    /// Defaults to nil. Not animatable (not in Core Animation, whose shapes fill with a colour).
    @LayerProperty public var fillGradient: Gradient? = nil
    /// Which regions are inside when filling. Defaults to `.nonZero`. Not animatable.
    @LayerProperty public var fillRule: FillRule = .nonZero
    /// The stroke; nil strokes nothing. Defaults to nil. Animatable.
    @Animatable public var strokeColor: Color? = nil
    /// A gradient for the stroke, in the layer's coordinates, used instead of `strokeColor`.
    /// Defaults to nil. Not animatable.
    @LayerProperty public var strokeGradient: Gradient? = nil
    /// Width of the stroke. Defaults to 1. Animatable.
    @Animatable public var lineWidth: Double = 1
    /// Shape of open ends. Defaults to `.butt`. Not animatable.
    @LayerProperty public var lineCap: LineCap = .butt
    /// Shape of corners. Defaults to `.miter`. Not animatable.
    @LayerProperty public var lineJoin: LineJoin = .miter
    /// Miter joins longer than miterLimit × lineWidth become bevels. Defaults to 10. Animatable.
    @Animatable public var miterLimit: Double = 10
    /// Alternating dash and gap lengths; empty draws a solid line. Defaults to empty. Animatable.
    @Animatable public var lineDashPattern: [Double] = []
    /// How far into the dash pattern the stroke starts. Defaults to 0. Animatable.
    @Animatable public var lineDashPhase: Double = 0
    /// Where stroking starts, as a fraction of the path's length. Defaults to 0. Animatable.
    @Animatable public var strokeStart: Double = 0
    /// Where stroking ends, as a fraction of the path's length. Defaults to 1. Animatable.
    @Animatable public var strokeEnd: Double = 1

    /// The stroke parameters as one value for the stroker.
    public var strokeStyle: StrokeStyle {
        StrokeStyle(
            lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
            dashPattern: lineDashPattern, dashPhase: lineDashPhase)
    }

    /// Fills the path by `fillRule`, then strokes the part between `strokeStart` and
    /// `strokeEnd` with the dash pattern, caps and joins. The renderer calls it every time it
    /// draws the layer (a shape is cheap to draw and its path usually changes when it animates).
    open override func draw(in ctx: GraphicsContext) {
        guard let path, !path.isEmpty else { return }
        if let fillGradient {
            ctx.fill(path, gradient: fillGradient, rule: fillRule)
        } else if let fillColor {
            ctx.fill(path, color: fillColor, rule: fillRule)
        }
        guard lineWidth > 0 else { return }
        if let strokeGradient {
            ctx.stroke(
                path, gradient: strokeGradient, style: strokeStyle, strokeStart: strokeStart, strokeEnd: strokeEnd)
        } else if let strokeColor {
            ctx.stroke(path, color: strokeColor, style: strokeStyle, strokeStart: strokeStart, strokeEnd: strokeEnd)
        }
    }

    /// Whether the path is filled (by colour or gradient).
    var fills: Bool { fillGradient != nil || fillColor != nil }

    /// Whether the path is stroked (by colour or gradient).
    var strokes: Bool { (strokeGradient != nil || strokeColor != nil) && lineWidth > 0 }

    /// How far the stroke reaches beyond the path (miters at this path's corners and square
    /// caps included), plus a pixel; 0 without a stroke.
    private var strokeReach: Double {
        guard strokes, let path else { return 0 }
        return path.strokeReach(strokeStyle) + 1
    }

    /// The bounds, the path, and the stroke's reach beyond the path.
    open override func visualExtent() -> Rect {
        // A shape layer draws its path; its bounds only matter when it also paints there
        // (background, border, contents). Canvas-sized shape layers with a small moving path
        // would otherwise damage the whole canvas every frame.
        guard let path, !path.isEmpty else { return bounds.standardized }
        var extent = paintsItsBounds ? bounds.standardized : Rect.null
        let reach = strokeReach
        let b = path.bounds
        if !b.isNull { extent = extent.union(b.insetBy(dx: -reach, dy: -reach)) }
        return extent.isNull ? bounds.standardized : extent
    }

    /// When only the path of a filled, unstroked layer changed: the fill differs only where the
    /// two paths' edges differ. At a point, the winding of each path counts the edges a
    /// vertical ray from it crosses; edges the two paths share count alike, so the windings can
    /// differ only between the highest and lowest differing edge in the point's column. The
    /// area is that band over 16 strips across the differing edges (a wave moving down the
    /// screen repaints a band along its outline, not the whole shape).
    open override func changedDrawingAreas(
        since previous: Layer, changedKeys: [String], into areas: inout [Rect]
    ) -> Bool {
        guard changedKeys.count == 1, changedKeys[0] == "path", let previous = previous as? ShapeLayer, fills,
            !strokes, !previous.strokes, let path, let old = previous.path
        else { return super.changedDrawingAreas(since: previous, changedKeys: changedKeys, into: &areas) }
        // Kept per thread: a path animating every frame allocates nothing here.
        let scratch = ShapeLayer.bandScratch.value
        scratch.counts.removeAll(keepingCapacity: true)
        FillEdge.forEachEdge(of: path) { scratch.counts[$0, default: 0] += 1 }
        FillEdge.forEachEdge(of: old) { scratch.counts[$0, default: 0] -= 1 }
        let tolerance = 0.25
        scratch.segments.removeAll(keepingCapacity: true)
        for (edge, count) in scratch.counts where count != 0 {
            guard edge.appendSegments(tolerance: tolerance, to: &scratch.segments) else { return false }
        }
        guard !scratch.segments.isEmpty else { return true }
        var minX = Double.infinity, maxX = -Double.infinity
        for (p, q) in scratch.segments {
            minX = min(minX, p.x, q.x)
            maxX = max(maxX, p.x, q.x)
        }
        let strips = BandScratch.strips, width = max(maxX - minX, 1e-9) / Double(strips)
        scratch.low.removeAll(keepingCapacity: true)
        scratch.low.append(contentsOf: repeatElement(.infinity, count: strips))
        scratch.high.removeAll(keepingCapacity: true)
        scratch.high.append(contentsOf: repeatElement(-.infinity, count: strips))
        func strip(_ x: Double) -> Int { min(max(Int(((x - minX) / width).rounded(.down)), 0), strips - 1) }
        for (p, q) in scratch.segments {
            for i in strip(min(p.x, q.x))...strip(max(p.x, q.x)) {
                scratch.low[i] = min(scratch.low[i], p.y, q.y)
                scratch.high[i] = max(scratch.high[i], p.y, q.y)
            }
        }
        // The flattening's error, and a pixel of anti-aliasing.
        let margin = tolerance + 1
        for i in 0..<strips where scratch.low[i] <= scratch.high[i] {
            areas.append(
                Rect(
                    x: minX + Double(i) * width - margin, y: scratch.low[i] - margin, width: width + 2 * margin,
                    height: scratch.high[i] - scratch.low[i] + 2 * margin))
        }
        return true
    }

    /// What `changedDrawingAreas` works in, kept from call to call.
    private final class BandScratch {
        static let strips = 16
        var counts: [FillEdge: Int] = [:]
        var segments: [(Point, Point)] = []
        var low: [Double] = [], high: [Double] = []
    }
    private static let bandScratch = ThreadLocal { BandScratch() }

    /// When only `strokeStart` or `strokeEnd` moved, the strokes share every whole segment
    /// before and after the moved ends (trimming keeps them as they are): they differ only
    /// around the segments between each end's old and new place, out to the stroke's reach.
    /// A dashed stroke (dashes run from the start), and a change to or from the whole path (a
    /// closed path then gets a join instead of caps), count as changed anywhere.
    open override func changedDrawingArea(since previous: Layer, changedKeys: [String]) -> Rect? {
        guard let previous = previous as? ShapeLayer, let path, !path.isEmpty, lineDashPattern.isEmpty,
            changedKeys.allSatisfy({ $0 == "strokeStart" || $0 == "strokeEnd" })
        else { return nil }
        guard strokes else { return .null }  // the fill does not trim
        guard strokeStart.isFinite, strokeEnd.isFinite, previous.strokeStart.isFinite,
            previous.strokeEnd.isFinite
        else { return nil }
        /// The stretch stroked, as fractions; nil when nothing is.
        func stroked(_ start: Double, _ end: Double) -> (from: Double, to: Double)? {
            let from = min(max(start, 0), 1), to = min(max(end, 0), 1)
            return from < to ? (from, to) : nil
        }
        let now = stroked(strokeStart, strokeEnd), before = stroked(previous.strokeStart, previous.strokeEnd)
        if let now, now == (0, 1) { return nil }
        if let before, before == (0, 1) { return nil }
        if now == nil && before == nil { return .null }
        let measure = PathMeasure.measure(of: path)
        var area = Rect.null
        // The stroke's reach here: half the width, more at square caps and at the miters of
        // the corners these segments actually have (not the limit's worst case).
        var factor = lineCap == .square ? 0.5 * 2.0.squareRoot() : 0.5
        func include(_ a: Double, _ b: Double) {
            let (from, to) = (a * measure.length, b * measure.length)
            area = area.union(measure.boundsOfSegments(between: from, and: to))
            if lineJoin == .miter {
                factor = max(factor, measure.largestMiterRatio(between: from, and: to, miterLimit: miterLimit) / 2)
            }
        }
        // An end that moved: the stretch it moved over, and the segment across a corner next to
        // it when the corner's inside changes with it.
        func moved(from old: Double, to new: Double, atEnd: Bool) {
            guard old != new else { return }
            include(old, new)
            area = area.union(
                measure.boundsAcrossCornerChanged(
                    from: old * measure.length, to: new * measure.length, lineWidth: lineWidth, atEnd: atEnd))
        }
        switch (now, before) {
        case let (now?, before?):
            moved(from: before.from, to: now.from, atEnd: false)
            moved(from: before.to, to: now.to, atEnd: true)
        case let (only?, nil), let (nil, only?):
            include(only.from, only.to)  // the other strokes nothing
        case (nil, nil):
            return .null
        }
        let reach = lineWidth * factor + 1
        return area.isNull ? .null : area.insetBy(dx: -reach, dy: -reach)
    }
}

/// One edge of a filled path, from where it starts: what two paths share when they draw the
/// same edge (subpaths are closed for filling, so an open one ends with its closing line).
private enum FillEdge: Hashable {
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(Point, Point, Point, Point)

    /// Calls `body` with each edge `path` fills between.
    static func forEachEdge(of path: Path, _ body: (FillEdge) -> Void) {
        var start = Point.zero, current = Point.zero, open = false
        func close() {
            if open && current != start { body(.line(current, start)) }
            open = false
            current = start
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                close()
                start = p
                current = p
            case .line(let p):
                body(.line(current, p))
                current = p
                open = true
            case .quad(let c, let p):
                body(.quad(current, c, p))
                current = p
                open = true
            case .cubic(let c1, let c2, let p):
                body(.cubic(current, c1, c2, p))
                current = p
                open = true
            case .close:
                close()
            }
        }
        close()
    }

    /// Appends the edge's segments, flattened as `Path.flattened(tolerance:)` flattens it alone;
    /// false when a point is not finite.
    func appendSegments(tolerance: Double, to segments: inout [(Point, Point)]) -> Bool {
        var previous = start
        var finite = previous.isFinite
        // The points after the start, the last exactly the end (as `flattened` leaves it).
        let n: Int, end: Point
        switch self {
        case let .line(_, b): (n, end) = (1, b)
        case let .quad(a, c, b): (n, end) = (Flattening.segmentCount(a, c, b, tolerance: tolerance), b)
        case let .cubic(a, c1, c2, b): (n, end) = (Flattening.segmentCount(a, c1, c2, b, tolerance: tolerance), b)
        }
        for i in 1...n {
            let t = Double(i) / Double(n)
            let p: Point
            switch self {
            case .line: p = end
            case let .quad(a, c, b): p = i == n ? end : Path.quadPoint(a, c, b, t)
            case let .cubic(a, c1, c2, b): p = i == n ? end : Path.cubicPoint(a, c1, c2, b, t)
            }
            finite = finite && p.isFinite
            segments.append((previous, p))
            previous = p
        }
        return finite
    }

    /// Where the edge starts.
    private var start: Point {
        switch self {
        case let .line(a, _), let .quad(a, _, _), let .cubic(a, _, _, _): return a
        }
    }
}
