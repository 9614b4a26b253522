/// Drawing through a projective transform: what a layer turned in 3D with perspective shows.
/// Curves are flattened, strokes outlined and dashes measured in the shape's own coordinates
/// (finely enough for the largest magnification the projection gives the shape), then every
/// point is projected; the parts at or behind the eye (w ≤ 0) are cut away in homogeneous
/// coordinates before dividing.
extension GraphicsContext {
    /// Fills `path`, whose coordinates `projection` maps into the current user space.
    public func fill(_ path: Path, color: Color, rule: FillRule = .nonZero, through projection: Projection) {
        let pixel = PixelMath.premultipliedPixel(color, alpha: state.alpha)
        let toDevice = projection.concatenating(state.transform)
        guard pixel >> 24 != 0, !path.isEmpty, let scale = GraphicsContext.largestScale(of: path.bounds, toDevice)
        else { return }
        var points: [Point] = [], ends: [Int] = []
        for line in path.flattened(tolerance: Flattening.defaultTolerance / scale) where line.points.count > 2 {
            GraphicsContext.appendProjected(line.points[...], toDevice, to: &points, ends: &ends)
        }
        rasterizer.reset(clip: state.clipBox)
        guard !points.isEmpty, rasterizer.addPolygons(points, ends: ends, transform: .identity) else { return }
        blendSolid(pixel, rule: rule)
    }

    /// Strokes `path` (trimmed to `strokeStart`…`strokeEnd`, dashed), whose coordinates
    /// `projection` maps into the current user space: the width, caps, joins and dashes are
    /// those of the path's own space, seen in perspective.
    public func stroke(
        _ path: Path, color: Color, style: StrokeStyle, strokeStart: Double = 0, strokeEnd: Double = 1,
        through projection: Projection
    ) {
        let pixel = PixelMath.premultipliedPixel(color, alpha: state.alpha)
        let toDevice = projection.concatenating(state.transform)
        guard pixel >> 24 != 0, style.lineWidth > 0, style.lineWidth.isFinite, strokeEnd > strokeStart,
            let scale = GraphicsContext.largestScale(
                of: path.bounds.insetBy(dx: -style.lineWidth, dy: -style.lineWidth), toDevice)
        else { return }
        let visible = visiblePart(of: path, strokeStart: strokeStart, strokeEnd: strokeEnd, style: style)
        guard visible.isFinite else { return }
        stroker.reset(style: style, tolerance: Path.strokeTolerance(Flattening.defaultTolerance / scale))
        stroker.stroke(visible.elements)
        var points: [Point] = [], ends: [Int] = []
        var start = 0
        for end in stroker.contourEnds {
            GraphicsContext.appendProjected(stroker.points[start..<end], toDevice, to: &points, ends: &ends)
            start = end
        }
        rasterizer.reset(clip: state.clipBox)
        guard !points.isEmpty, rasterizer.addPolygons(points, ends: ends, transform: .identity) else { return }
        blendSolid(pixel, rule: .nonZero)
    }

    /// The largest magnification `p` gives anything in `box` (at its corners and centre; a
    /// homography's scale is largest at the box's edge nearest the eye), at least 10⁻⁶; nil
    /// when the box is not finite.
    private static func largestScale(of box: Rect, _ p: Projection) -> Double? {
        guard !box.isNull, box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else {
            return nil
        }
        let samples = [
            Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY), Point(x: box.minX, y: box.maxY),
            Point(x: box.maxX, y: box.maxY), Point(x: box.midX, y: box.midY)
        ]
        return max(1e-6, min(1e6, samples.map { p.localScale(at: $0) }.max() ?? 1))
    }

    /// Appends the closed polygon `polygon` projected by `p`, with what lies at or behind the
    /// eye cut off (Sutherland–Hodgman against w = ε, in homogeneous coordinates, where the
    /// projection is linear).
    private static func appendProjected(
        _ polygon: ArraySlice<Point>, _ p: Projection, to points: inout [Point], ends: inout [Int]
    ) {
        let epsilon = 1e-6
        let before = points.count
        guard var previous = polygon.last.map(p.homogeneous) else { return }
        for point in polygon {
            let current = p.homogeneous(point)
            let inside = current.w >= epsilon, wasInside = previous.w >= epsilon
            if inside != wasInside {
                let t = (epsilon - previous.w) / (current.w - previous.w)
                let x = previous.x + t * (current.x - previous.x), y = previous.y + t * (current.y - previous.y)
                points.append(Point(x: x / epsilon, y: y / epsilon))
            }
            if inside { points.append(Point(x: current.x / current.w, y: current.y / current.w)) }
            previous = current
        }
        if points.count - before >= 3 {
            ends.append(points.count)
        } else {
            points.removeSubrange(before...)
        }
    }
}
