/// A projective transform of the plane (a homography), what a layer turned in 3D with
/// perspective draws its flat content through: x' = (m00·x + m01·y + m02) / w,
/// y' = (m10·x + m11·y + m12) / w, w = m20·x + m21·y + m22. Row-major, acting on column
/// vectors (the draw spec's `projection` order).
public struct Projection: Equatable, Sendable {
    public var m00, m01, m02, m10, m11, m12, m20, m21, m22: Double

    public init(
        m00: Double, m01: Double, m02: Double, m10: Double, m11: Double, m12: Double, m20: Double, m21: Double,
        m22: Double
    ) {
        (self.m00, self.m01, self.m02) = (m00, m01, m02)
        (self.m10, self.m11, self.m12) = (m10, m11, m12)
        (self.m20, self.m21, self.m22) = (m20, m21, m22)
    }

    /// Nine entries, row by row; nil unless there are nine.
    public init?(rowMajor v: [Double]) {
        guard v.count == 9 else { return nil }
        self.init(m00: v[0], m01: v[1], m02: v[2], m10: v[3], m11: v[4], m12: v[5], m20: v[6], m21: v[7], m22: v[8])
    }

    /// The affine transform as a projection.
    public init(_ t: Transform2D) {
        self.init(m00: t.a, m01: t.c, m02: t.tx, m10: t.b, m11: t.d, m12: t.ty, m20: 0, m21: 0, m22: 1)
    }

    public static let identity = Projection(Transform2D.identity)

    /// The homogeneous image of (x, y): x·w, y·w and w.
    @inline(__always)
    public func homogeneous(_ p: Point) -> (x: Double, y: Double, w: Double) {
        (m00 * p.x + m01 * p.y + m02, m10 * p.x + m11 * p.y + m12, m20 * p.x + m21 * p.y + m22)
    }

    /// The image of `p`; nil where w ≤ 0 (at or behind the eye).
    public func apply(to p: Point) -> Point? {
        let h = homogeneous(p)
        guard h.w > 0 else { return nil }
        return Point(x: h.x / h.w, y: h.y / h.w)
    }

    /// Whether it is an affine transform (w = 1 everywhere).
    public var isAffine: Bool { m20 == 0 && m21 == 0 && m22 == 1 }

    /// The bounding box of the image of `rect`; a very large box (±10⁸) when part of the
    /// rectangle lies at or behind the eye, since its image then runs off to infinity.
    public func boundingBox(of rect: Rect) -> Rect {
        guard !rect.isNull else { return rect }
        var box = Rect.null
        // Corner by corner, with no array of them to build (called every frame).
        for i in 0..<4 {
            let corner = Point(x: i & 1 == 0 ? rect.minX : rect.maxX, y: i < 2 ? rect.minY : rect.maxY)
            guard let p = apply(to: corner), p.x.isFinite, p.y.isFinite else {
                return Rect(x: -1e8, y: -1e8, width: 2e8, height: 2e8)
            }
            box = box.union(Rect(x: p.x, y: p.y, width: 0, height: 0))
        }
        return box
    }

    /// The inverse, or nil when it is singular.
    public func inverted() -> Projection? {
        let c00 = m11 * m22 - m12 * m21, c01 = m12 * m20 - m10 * m22, c02 = m10 * m21 - m11 * m20
        let det = m00 * c00 + m01 * c01 + m02 * c02
        guard det != 0, det.isFinite else { return nil }
        let r = 1 / det
        return Projection(
            m00: c00 * r, m01: (m02 * m21 - m01 * m22) * r, m02: (m01 * m12 - m02 * m11) * r,
            m10: c01 * r, m11: (m00 * m22 - m02 * m20) * r, m12: (m02 * m10 - m00 * m12) * r,
            m20: c02 * r, m21: (m01 * m20 - m00 * m21) * r, m22: (m00 * m11 - m01 * m10) * r)
    }

    /// `t`, then this projection.
    public func preceded(by t: Transform2D) -> Projection {
        let p = Projection(t)
        func entry(_ r: (Double, Double, Double), _ c: (Double, Double, Double)) -> Double {
            r.0 * c.0 + r.1 * c.1 + r.2 * c.2
        }
        let r0 = (m00, m01, m02), r1 = (m10, m11, m12), r2 = (m20, m21, m22)
        let c0 = (p.m00, p.m10, p.m20), c1 = (p.m01, p.m11, p.m21), c2 = (p.m02, p.m12, p.m22)
        return Projection(
            m00: entry(r0, c0), m01: entry(r0, c1), m02: entry(r0, c2), m10: entry(r1, c0), m11: entry(r1, c1),
            m12: entry(r1, c2), m20: entry(r2, c0), m21: entry(r2, c1), m22: entry(r2, c2))
    }

    /// This projection, then `t`.
    public func concatenating(_ t: Transform2D) -> Projection {
        Projection(
            m00: t.a * m00 + t.c * m10 + t.tx * m20, m01: t.a * m01 + t.c * m11 + t.tx * m21,
            m02: t.a * m02 + t.c * m12 + t.tx * m22,
            m10: t.b * m00 + t.d * m10 + t.ty * m20, m11: t.b * m01 + t.d * m11 + t.ty * m21,
            m12: t.b * m02 + t.d * m12 + t.ty * m22,
            m20: m20, m21: m21, m22: m22)
    }

    /// The largest magnification this gives anything in `box` (at its corners and centre: a
    /// homography's scale is largest at the box's edge nearest the eye), within 10⁻⁶…10⁶; nil
    /// when the box is not finite.
    public func largestScale(over box: Rect) -> Double? {
        axisScales(over: box).map { max($0.x, $0.y) }
    }

    /// How far one unit along x, and one along y, reach at most over `box` after projecting
    /// (sampled at its corners and centre), within 10⁻⁶…10⁶: the resolution an image of the box
    /// needs along each axis. Nil for an empty or infinite box.
    public func axisScales(over box: Rect) -> (x: Double, y: Double)? {
        guard !box.isNull, box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else {
            return nil
        }
        var x = 0.0, y = 0.0
        // The four corners, then the centre, with no array of them to build (called every frame).
        for i in 0..<5 {
            let p =
                i == 4
                ? Point(x: box.midX, y: box.midY)
                : Point(x: i & 1 == 0 ? box.minX : box.maxX, y: i < 2 ? box.minY : box.maxY)
            guard let o = apply(to: p), let dx = apply(to: Point(x: p.x + 1e-3, y: p.y)),
                let dy = apply(to: Point(x: p.x, y: p.y + 1e-3))
            else { continue }
            x = max(x, (dx - o).length * 1e3)
            y = max(y, (dy - o).length * 1e3)
        }
        return (max(1e-6, min(1e6, x)), max(1e-6, min(1e6, y)))
    }

    /// The determinant of the map's derivative at `p` (negative: the plane is seen from behind).
    public func orientation(at p: Point) -> Double {
        let w = m20 * p.x + m21 * p.y + m22
        let det = m00 * (m11 * m22 - m12 * m21) - m01 * (m10 * m22 - m12 * m20) + m02 * (m10 * m21 - m11 * m20)
        return det / (w * w * w)
    }
}
