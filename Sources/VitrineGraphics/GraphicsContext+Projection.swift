import CMemory
import CPixelKernels

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
        guard pixel >> 24 != 0, !discardsDrawing, !path.isEmpty, let scale = toDevice.largestScale(over: path.bounds)
        else { return }
        beginProjectedPolygons()
        for line in path.flattened(tolerance: Flattening.defaultTolerance / scale) where line.points.count > 2 {
            GraphicsContext.appendProjected(line.points[...], toDevice, to: &projectedPoints, ends: &projectedEnds)
        }
        guard addProjectedPolygons() else { return }
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
        guard pixel >> 24 != 0, !discardsDrawing, style.lineWidth > 0, style.lineWidth.isFinite,
            strokeEnd > strokeStart,
            let scale = toDevice.largestScale(over: path.bounds.insetBy(dx: -style.lineWidth, dy: -style.lineWidth))
        else { return }
        let visible = visiblePart(of: path, strokeStart: strokeStart, strokeEnd: strokeEnd, style: style)
        guard visible.isFinite else { return }
        stroker.reset(style: style, tolerance: Path.strokeTolerance(Flattening.defaultTolerance / scale))
        stroker.stroke(visible.elements)
        beginProjectedPolygons()
        var start = 0
        for end in stroker.contourEnds {
            GraphicsContext.appendProjected(
                stroker.points[start..<end], toDevice, to: &projectedPoints, ends: &projectedEnds)
            start = end
        }
        guard addProjectedPolygons() else { return }
        blendSolid(pixel, rule: .nonZero)
    }

    /// Empties the projected polygons for a new shape (their storage kept).
    private func beginProjectedPolygons() {
        projectedPoints.removeAll(keepingCapacity: true)
        projectedEnds.removeAll(keepingCapacity: true)
    }

    /// Starts a shape clipped to the clip's box and adds the projected polygons to it; false when
    /// there is nothing to fill.
    private func addProjectedPolygons() -> Bool {
        startShape(clip: state.clipBox)
        return !projectedPoints.isEmpty
            && rasterizer.addPolygons(projectedPoints, ends: projectedEnds, transform: .identity)
    }

    /// Appends the closed polygon `polygon` projected by `p`, with what lies at or behind the
    /// eye cut off (Sutherland–Hodgman against w = ε, in homogeneous coordinates, where the
    /// projection is linear).
    static func appendProjected(
        _ polygon: some BidirectionalCollection<Point>, _ p: Projection, to points: inout [Point], ends: inout [Int]
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
        guard !discardsDrawing, image.width > 0, image.height > 0, !r.isNull, r.width > 0, r.height > 0 else { return }
        let factor = PixelMath.unitByte(state.alpha)
        guard factor != 0 else { return }
        let iw = Double(image.width), ih = Double(image.height)
        let imageToRect = Transform2D(a: r.width / iw, b: 0, c: 0, d: r.height / ih, tx: r.minX, ty: r.minY)
        let toDevice = projection.concatenating(state.transform).preceded(by: imageToRect)
        guard let inverse = toDevice.inverted() else { return }
        beginProjectedPolygons()
        GraphicsContext.appendProjected(
            RectangleCorners(width: iw, height: ih), toDevice, to: &projectedPoints, ends: &projectedEnds)
        guard addProjectedPolygons() else { return }
        let sampler = ProjectiveImageSampler(image: image, inverse: inverse)
        blendShaded(rule: .nonZero, alpha: factor) { x, y, count, out in
            sampler.sample(x: x, y: y, count: count, into: out)
        }
    }
}

/// The corners of the rectangle from (0, 0) to (`width`, `height`), clockwise on screen from
/// the origin, held inline.
private struct RectangleCorners: RandomAccessCollection {
    let width: Double, height: Double
    var startIndex: Int { 0 }
    var endIndex: Int { 4 }

    subscript(i: Int) -> Point {
        switch i {
        case 0: Point(x: 0, y: 0)
        case 1: Point(x: width, y: 0)
        case 2: Point(x: width, y: height)
        default: Point(x: 0, y: height)
        }
    }
}

/// Reads an image through a projective map: bilinear filtering of premultiplied pixels, edges
/// extended. The image position is exact (divided by w) every `chunk` pixels and stepped linearly
/// in 16.16 fixed point between, as perspective texture mappers do: the error that leaves is a
/// small fraction of a texel for any perspective a layer is seen with (the eye at least a few
/// layer widths away), while a division per pixel would cost more than the filtering.
struct ProjectiveImageSampler {
    private let image: Image
    /// Device → image pixel space.
    private let inverse: Projection
    private static let chunk = 16

    /// Whether positions inside the image (16.16) fit 32-bit vector lanes.
    private let fitsInLanes: Bool

    init(image: Image, inverse: Projection) {
        self.image = image
        self.inverse = inverse
        fitsInLanes = image.width < 32_768 && image.height < 32_768
    }

    /// The image position (16.16, about texel centres) at device (x, y)'s centre; nil at or
    /// behind the eye.
    @inline(__always)
    private func position(_ x: Double, _ y: Double) -> (u: Int, v: Int)? {
        let m = inverse
        let w = m.m20 * x + m.m21 * y + m.m22
        guard w > 0 else { return nil }
        let r = 1 / w
        let u = (m.m00 * x + m.m01 * y + m.m02) * r - 0.5, v = (m.m10 * x + m.m11 * y + m.m12) * r - 0.5
        guard u == u, v == v else { return nil }
        // Far outside any image, clamped so that stepping cannot overflow.
        return (Int(min(max(u, -1e6), 1e6) * 65536), Int(min(max(v, -1e6), 1e6) * 65536))
    }

    func sample(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        sample(x: x, y: y, count: count, into: out, kernels: PixelKernels.avx2 && fitsInLanes)
    }

    /// `sample(x:y:count:into:)`, stretches of whole chunks inside the image given to the C
    /// loop (`vitrine_projective_chunks_avx2`: their ends found and their samples filtered by the
    /// AVX2 kernel, the AVX-512 one when `avx512`) when `kernels`, which must then be available;
    /// else, and for the chunks between those stretches, chunk by chunk here. Tests compare the
    /// two. Returns how many stretches the C loop drew.
    @discardableResult
    func sample(
        x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, kernels: Bool,
        avx512: Bool = PixelKernels.avx512
    ) -> Int {
        let pixels = image.pixels, width = image.width, maxX = image.width - 1, maxY = image.height - 1
        let cy = Double(y) + 0.5
        let avx2 = PixelKernels.avx2
        let p = inverse
        // A homogeneous tuple is laid out as an array: the C loop's nine entries.
        let entries = (p.m00, p.m01, p.m02, p.m10, p.m11, p.m12, p.m20, p.m21, p.m22)
        var i = 0, stretches = 0
        // Where the next chunk begins: where the last one ended.
        var next = position(Double(x) + 0.5, cy)
        while i < count {
            if kernels, let start = next {
                // In: where the chunk at i begins; out: where the one the loop stopped at begins.
                var reached = (Int64(start.u), Int64(start.v))
                let stop = withUnsafePointer(to: entries) {
                    $0.withMemoryRebound(to: Double.self, capacity: 9) { m in
                        withUnsafeMutablePointer(to: &reached) {
                            $0.withMemoryRebound(to: Int64.self, capacity: 2) {
                                vitrine_projective_chunks_avx2(
                                    pixels, width, image.height, m, x, y, i, count, $0, out, avx512 ? 1 : 0)
                            }
                        }
                    }
                }
                if stop > i {
                    stretches += 1
                    i = stop
                    next = (Int(reached.0), Int(reached.1))
                    if i >= count { break }
                }
            }
            let n = min(Self.chunk, count - i)
            let start = next
            next = position(Double(x + i + n) + 0.5, cy)
            guard let a = start, let b = next else {
                // A chunk touching the eye plane: pixel by pixel, none drawn where w ≤ 0.
                for k in i..<(i + n) {
                    out[k] =
                        position(Double(x + k) + 0.5, cy).map {
                            PixelMath.bilinearClamped(pixels, width, maxX: maxX, maxY: maxY, u: $0.u, v: $0.v)
                        } ?? 0
                }
                i += n
                continue
            }
            var u = a.u, v = a.v
            // A whole chunk divides by a constant, which compiles to shifts (the same quotient).
            let du = n == Self.chunk ? (b.u - a.u) / Self.chunk : (b.u - a.u) / n
            let dv = n == Self.chunk ? (b.v - a.v) / Self.chunk : (b.v - a.v) / n
            // The texels three chunks past this one, both rows: a row of the image seen at a slant
            // begins a new cache line every few pixels, and the hardware prefetcher only follows
            // straight runs.
            let aheadX = min(max((4 &* b.u &- 3 &* a.u) >> 16, 0), maxX)
            let aheadY = min(max((4 &* b.v &- 3 &* a.v) >> 16, 0), maxY)
            let ahead = pixels + aheadY * width + aheadX
            vitrine_prefetch_for_read(ahead)
            vitrine_prefetch_for_read(aheadY < maxY ? ahead + width : ahead)
            // Stepping is linear: both ends inside the image (with the texel to their right and
            // below) put every step inside, and the loads need no clamping.
            let lastU = u &+ du &* (n - 1), lastV = v &+ dv &* (n - 1)
            let inside =
                min(u, lastU) >= 0 && max(u, lastU) >> 16 < maxX && min(v, lastV) >= 0 && max(v, lastV) >> 16 < maxY
            if inside {
                PixelMath.bilinearRun(
                    pixels, width, u: u, v: v, du: du, dv: dv, count: n, lanes: fitsInLanes, into: out + i,
                    avx2: avx2, avx512: avx512)
            } else {
                for k in i..<(i + n) {
                    out[k] = PixelMath.bilinearClamped(pixels, width, maxX: maxX, maxY: maxY, u: u, v: v)
                    u &+= du
                    v &+= dv
                }
            }
            i += n
        }
        return stretches
    }
}
