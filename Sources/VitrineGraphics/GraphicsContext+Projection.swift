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
        guard pixel >> 24 != 0, !path.isEmpty, let scale = toDevice.largestScale(over: path.bounds)
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
            let scale = toDevice.largestScale(over: path.bounds.insetBy(dx: -style.lineWidth, dy: -style.lineWidth))
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

    /// Appends the closed polygon `polygon` projected by `p`, with what lies at or behind the
    /// eye cut off (Sutherland–Hodgman against w = ε, in homogeneous coordinates, where the
    /// projection is linear).
    static func appendProjected(
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

extension GraphicsContext {
    /// Draws `image` filling `rect` (in the space `projection` maps into the current user
    /// space), sampled perspective-correct: each device pixel's centre is taken back through the
    /// projection to the image and filtered bilinearly. The part at or behind the eye is cut away.
    public func draw(_ image: Image, in rect: Rect, through projection: Projection) {
        let r = rect.standardized
        guard image.width > 0, image.height > 0, !r.isNull, r.width > 0, r.height > 0 else { return }
        let factor = PixelMath.unitByte(state.alpha)
        guard factor != 0 else { return }
        let iw = Double(image.width), ih = Double(image.height)
        let imageToRect = Transform2D(a: r.width / iw, b: 0, c: 0, d: r.height / ih, tx: r.minX, ty: r.minY)
        let toDevice = projection.concatenating(state.transform).preceded(by: imageToRect)
        guard let inverse = toDevice.inverted() else { return }
        var points: [Point] = [], ends: [Int] = []
        GraphicsContext.appendProjected(
            [Point(x: 0, y: 0), Point(x: iw, y: 0), Point(x: iw, y: ih), Point(x: 0, y: ih)][...], toDevice,
            to: &points, ends: &ends)
        rasterizer.reset(clip: state.clipBox)
        guard !points.isEmpty, rasterizer.addPolygons(points, ends: ends, transform: .identity) else { return }
        let region = rasterizer.bounds
        guard !region.isEmpty else { return }
        let sampler = ProjectiveImageSampler(image: image, inverse: inverse)
        let mask = state.clipMask
        for y in region.y..<region.maxY {
            let count = rasterizer.sweep(row: y, rule: .nonZero, into: spans)
            let row = target.row(y)
            let maskRow = mask.map { UnsafePointer($0.deviceRow(y)) }
            for s in 0..<count {
                let span = spans[s]
                let x = Int(span.x), length = Int(span.length)
                sampler.sample(x: x, y: y, count: length, into: samples)
                SpanBlitter.blendPixels(
                    row, x: x, samples, count: length, factor: PixelMath.mul255(UInt32(span.coverage), factor),
                    mask: maskRow)
            }
        }
        dirty = dirty.union(region)
    }
}

/// Reads an image through a projective map, one pixel at a time (the division by w differs at
/// every pixel): bilinear filtering of premultiplied pixels, edges extended.
struct ProjectiveImageSampler {
    private let image: Image
    /// Device → image pixel space.
    private let inverse: Projection

    init(image: Image, inverse: Projection) {
        self.image = image
        self.inverse = inverse
    }

    func sample(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let pixels = image.pixels, width = image.width, maxX = image.width - 1, maxY = image.height - 1
        let cy = Double(y) + 0.5
        let m = inverse
        for i in 0..<count {
            let cx = Double(x + i) + 0.5
            let w = m.m20 * cx + m.m21 * cy + m.m22
            guard w > 0 else {
                out[i] = 0
                continue
            }
            let u = (m.m00 * cx + m.m01 * cy + m.m02) / w - 0.5, v = (m.m10 * cx + m.m11 * cy + m.m12) / w - 0.5
            guard u.isFinite, v.isFinite, abs(u) < 1e9, abs(v) < 1e9 else {
                out[i] = 0
                continue
            }
            let fu = u.rounded(.down), fv = v.rounded(.down)
            let x0 = Int(fu), y0 = Int(fv)
            let fx = UInt32((u - fu) * 256) & 0xFF, fy = UInt32((v - fv) * 256) & 0xFF
            let xa = min(max(x0, 0), maxX), xb = min(max(x0 + 1, 0), maxX)
            let rowA = pixels + min(max(y0, 0), maxY) * width
            let rowB = pixels + min(max(y0 + 1, 0), maxY) * width
            out[i] = PixelMath.lerp(PixelMath.lerp(rowA[xa], rowA[xb], fx), PixelMath.lerp(rowB[xa], rowB[xb], fx), fy)
        }
    }
}
