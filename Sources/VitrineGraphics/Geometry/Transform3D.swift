import Glibc

/// A 4 × 4 transform of space as Core Animation's CATransform3D: row vectors, so a point
/// (x, y, z, 1) · M, and entries named m11 … m44 by row and column; `m34` = −1/d puts the eye d
/// units in front of the plane z = 0 (perspective). Layers are flat: what they draw lies in their
/// plane z = 0, so a layer's transform reaches its superlayer's plane as a `Projection`.
public struct Transform3D: Hashable, Sendable, CustomStringConvertible {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    /// The sixteen entries in CATransform3D's order, m11 … m44.
    public init(_ v: [Double]) {
        precondition(v.count == 16, "a 4 × 4 transform has 16 entries")
        self.init(
            rows: (v[0], v[1], v[2], v[3]), (v[4], v[5], v[6], v[7]), (v[8], v[9], v[10], v[11]),
            (v[12], v[13], v[14], v[15]))
    }

    /// The entries row by row, with no array to build (transforms made every frame).
    public init(
        rows r1: (Double, Double, Double, Double), _ r2: (Double, Double, Double, Double),
        _ r3: (Double, Double, Double, Double), _ r4: (Double, Double, Double, Double)
    ) {
        (m11, m12, m13, m14) = r1
        (m21, m22, m23, m24) = r2
        (m31, m32, m33, m34) = r3
        (m41, m42, m43, m44) = r4
    }

    /// The entries in CATransform3D's order, m11 … m44.
    public var entries: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    public static let identity = Transform3D(rows: (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))

    /// The affine transform of the plane, leaving z alone.
    public init(_ t: Transform2D) {
        self.init(rows: (t.a, t.b, 0, 0), (t.c, t.d, 0, 0), (0, 0, 1, 0), (t.tx, t.ty, 0, 1))
    }

    public init(translationX x: Double, y: Double, z: Double) {
        self.init(rows: (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (x, y, z, 1))
    }

    public init(scaleX x: Double, y: Double, z: Double) {
        self.init(rows: (x, 0, 0, 0), (0, y, 0, 0), (0, 0, z, 0), (0, 0, 0, 1))
    }

    /// A turn by `angle` radians about the axis (x, y, z) (CATransform3DMakeRotation): about z,
    /// a positive angle turns clockwise on screen (y down), as `Transform2D(rotationAngle:)`.
    /// A zero axis gives the identity.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else {
            self = .identity
            return
        }
        let (ux, uy, uz) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        self.init(
            rows: (c + t * ux * ux, t * ux * uy + s * uz, t * ux * uz - s * uy, 0),
            (t * ux * uy - s * uz, c + t * uy * uy, t * uy * uz + s * ux, 0),
            (t * ux * uz + s * uy, t * uy * uz - s * ux, c + t * uz * uz, 0), (0, 0, 0, 1))
    }

    /// The identity with `m34` = −1/`distance`: an eye `distance` units in front of the plane.
    public init(perspective distance: Double) {
        var t = Transform3D.identity
        t.m34 = distance == 0 || !distance.isFinite ? 0 : -1 / distance
        self = t
    }

    public var isIdentity: Bool {
        m11 == 1 && m12 == 0 && m13 == 0 && m14 == 0 && m21 == 0 && m22 == 1 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m41 == 0 && m42 == 0 && m43 == 0 && m44 == 1
    }

    /// Whether it maps the plane to itself affinely and leaves z alone and the eye out (a
    /// `Transform2D` says all of it).
    public var isPlanar: Bool {
        m13 == 0 && m23 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m14 == 0 && m24 == 0 && m34 == 0 && m43 == 0
            && m44 == 1
    }

    /// This transform, then `t` (self · t, as CATransform3DConcat).
    public func concatenating(_ t: Transform3D) -> Transform3D {
        // Row i of the product is row i of self combined with the rows of t (each sum in the
        // order of the entries, as the matrix product writes it).
        let b1 = SIMD4(t.m11, t.m12, t.m13, t.m14), b2 = SIMD4(t.m21, t.m22, t.m23, t.m24)
        let b3 = SIMD4(t.m31, t.m32, t.m33, t.m34), b4 = SIMD4(t.m41, t.m42, t.m43, t.m44)
        func row(_ x: Double, _ y: Double, _ z: Double, _ w: Double) -> SIMD4<Double> {
            x * b1 + y * b2 + z * b3 + w * b4
        }
        return Transform3D(
            rows: row(m11, m12, m13, m14), row(m21, m22, m23, m24), row(m31, m32, m33, m34),
            row(m41, m42, m43, m44))
    }

    private init(rows r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>, _ r4: SIMD4<Double>) {
        (m11, m12, m13, m14) = (r1[0], r1[1], r1[2], r1[3])
        (m21, m22, m23, m24) = (r2[0], r2[1], r2[2], r2[3])
        (m31, m32, m33, m34) = (r3[0], r3[1], r3[2], r3[3])
        (m41, m42, m43, m44) = (r4[0], r4[1], r4[2], r4[3])
    }

    /// Whether points of the plane z = 0 stay affine (no perspective reaches them): then
    /// `affine` is exact.
    public var isAffineOnThePlane: Bool { m14 == 0 && m24 == 0 && m44 == 1 }

    /// The transform of the plane z = 0 into the plane, z dropped (a layer flattened into its
    /// superlayer), when it is affine.
    public var affine: Transform2D { Transform2D(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42) }

    /// The plane z = 0 seen through this transform, z dropped: what a flat layer turned in
    /// space draws in its superlayer's plane.
    public var projection: Projection {
        Projection(m00: m11, m01: m21, m02: m41, m10: m12, m11: m22, m12: m42, m20: m14, m21: m24, m22: m44)
    }

    /// The image of (x, y, z), divided by w; nil where w ≤ 0.
    public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double)? {
        let w = x * m14 + y * m24 + z * m34 + m44
        guard w > 0 else { return nil }
        return (
            (x * m11 + y * m21 + z * m31 + m41) / w, (x * m12 + y * m22 + z * m32 + m42) / w,
            (x * m13 + y * m23 + z * m33 + m43) / w
        )
    }

    public var description: String { "\(entries)" }
}
