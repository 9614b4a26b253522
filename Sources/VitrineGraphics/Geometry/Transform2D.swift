import Glibc

/// A 2D affine transform, as CGAffineTransform (named apart from Foundation's AffineTransform,
/// so files may import both): a point (x, y) maps to
/// (a·x + c·y + tx, b·x + d·y + ty).
public struct Transform2D: Hashable, Sendable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation by `angle` radians; positive angles turn clockwise on screen (y down).
    public init(rotationAngle angle: Double) {
        let s = sin(angle), c = cos(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    public var isIdentity: Bool { self == .identity }
    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }

    /// `self` followed by `t` (CGAffineTransformConcat(self, t)).
    public func concatenating(_ t: Transform2D) -> Transform2D {
        Transform2D(
            a: a * t.a + b * t.c, b: a * t.b + b * t.d,
            c: c * t.a + d * t.c, d: c * t.b + d * t.d,
            tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// Translation applied before `self` (CGAffineTransformTranslate).
    public func translatedBy(x: Double, y: Double) -> Transform2D {
        Transform2D(translationX: x, y: y).concatenating(self)
    }
    /// Scale applied before `self` (CGAffineTransformScale).
    public func scaledBy(x: Double, y: Double) -> Transform2D {
        Transform2D(scaleX: x, y: y).concatenating(self)
    }
    /// Rotation applied before `self` (CGAffineTransformRotate).
    public func rotated(by angle: Double) -> Transform2D {
        Transform2D(rotationAngle: angle).concatenating(self)
    }

    public var determinant: Double { a * d - b * c }

    /// The inverse transform, or nil when the transform is singular.
    public func inverted() -> Transform2D? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Transform2D(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// Applies the linear part only (for vectors such as tangents).
    public func applyToVector(_ v: Point) -> Point {
        Point(x: a * v.x + c * v.y, y: b * v.x + d * v.y)
    }

    /// The bounding box of the transformed rectangle (CGRectApplyAffineTransform).
    public func apply(to r: Rect) -> Rect {
        if r.isNull { return r }
        let s = r.standardized
        let p0 = apply(to: Point(x: s.minX, y: s.minY)), p1 = apply(to: Point(x: s.maxX, y: s.minY))
        let p2 = apply(to: Point(x: s.minX, y: s.maxY)), p3 = apply(to: Point(x: s.maxX, y: s.maxY))
        let x0 = Swift.min(p0.x, p1.x, p2.x, p3.x), y0 = Swift.min(p0.y, p1.y, p2.y, p3.y)
        let x1 = Swift.max(p0.x, p1.x, p2.x, p3.x), y1 = Swift.max(p0.y, p1.y, p2.y, p3.y)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The largest factor by which the transform stretches a length (for flattening tolerance
    /// and stroke width in device space).
    public var maxScale: Double {
        let p = a * a + b * b, q = c * c + d * d, r = a * c + b * d
        let mean = (p + q) / 2, diff = (p - q) / 2
        return (mean + (diff * diff + r * r).squareRoot()).squareRoot()
    }
}
