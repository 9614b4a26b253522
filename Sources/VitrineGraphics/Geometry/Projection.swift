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

    /// This projection, then `t`.
    public func concatenating(_ t: Transform2D) -> Projection {
        Projection(
            m00: t.a * m00 + t.c * m10 + t.tx * m20, m01: t.a * m01 + t.c * m11 + t.tx * m21,
            m02: t.a * m02 + t.c * m12 + t.tx * m22,
            m10: t.b * m00 + t.d * m10 + t.ty * m20, m11: t.b * m01 + t.d * m11 + t.ty * m21,
            m12: t.b * m02 + t.d * m12 + t.ty * m22,
            m20: m20, m21: m21, m22: m22)
    }

    /// How far one unit at `p` reaches after projecting (the larger of the two axes' images);
    /// 0 where w ≤ 0.
    func localScale(at p: Point) -> Double {
        guard let o = apply(to: p), let x = apply(to: Point(x: p.x + 1e-3, y: p.y)),
            let y = apply(to: Point(x: p.x, y: p.y + 1e-3))
        else { return 0 }
        return max((x - o).length, (y - o).length) * 1e3
    }
}
