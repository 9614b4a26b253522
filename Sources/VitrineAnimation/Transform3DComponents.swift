import Glibc
import VitrineGraphics

/// A 4 × 4 transform split into the parts an animation moves independently, applied in this
/// order: the plane's scale and shear (and `scaleZ`), rotation about x, then y, then z, then
/// translation, then perspective (`m34`). A transform of the plane (no z, no eye) decomposes
/// exactly as `TransformComponents` does, so 2D animations are unchanged; others decompose by
/// orthogonalising the rows (exact for transforms made of these parts).
public struct Transform3DComponents: Hashable, Sendable {
    /// Translation x and y, rotation about z, scale x and y and shear: as in 2D.
    public var plane: TransformComponents
    public var translationZ: Double = 0
    public var scaleZ: Double = 1
    /// Radians about the x axis (the top edge comes towards the eye for a negative angle).
    public var rotationX: Double = 0
    /// Radians about the y axis.
    public var rotationY: Double = 0
    /// m34: −1/d for an eye d units away.
    public var perspective: Double = 0

    public init(plane: TransformComponents = TransformComponents()) { self.plane = plane }

    public init(_ m: Transform3D) {
        if m.isPlanar {
            self.init(plane: TransformComponents(m.affine))
            return
        }
        self.init()
        let column = m.m13 * m.m13 + m.m23 * m.m23 + m.m33 * m.m33
        perspective = column > 0 ? (m.m13 * m.m14 + m.m23 * m.m24 + m.m33 * m.m34) / column : 0
        plane.translationX = m.m41
        plane.translationY = m.m42
        translationZ = m.m43
        // Rows: scale the first, take the first out of the second (shear), the third is the
        // cross product of the two (its scale signed, for a reflection).
        func dot(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
            a.0 * b.0 + a.1 * b.1 + a.2 * b.2
        }
        let row0 = (m.m11, m.m12, m.m13), row1 = (m.m21, m.m22, m.m23), row2 = (m.m31, m.m32, m.m33)
        let sx = dot(row0, row0).squareRoot()
        let r0 = sx > 0 ? (row0.0 / sx, row0.1 / sx, row0.2 / sx) : (1, 0, 0)
        let shear = dot(row1, r0)
        let v = (row1.0 - shear * r0.0, row1.1 - shear * r0.1, row1.2 - shear * r0.2)
        let sy = dot(v, v).squareRoot()
        let r1 = sy > 0 ? (v.0 / sy, v.1 / sy, v.2 / sy) : (0, 1, 0)
        let r2 = (r0.1 * r1.2 - r0.2 * r1.1, r0.2 * r1.0 - r0.0 * r1.2, r0.0 * r1.1 - r0.1 * r1.0)
        plane.scaleX = sx
        plane.scaleY = sy
        plane.shear = shear
        scaleZ = dot(row2, r2)
        // R = Rx(α)·Ry(β)·Rz(γ): its first row is (cβcγ, cβsγ, −sβ); its last column
        // (−sβ, sαcβ, cαcβ).
        let beta = asin(min(max(-r0.2, -1), 1))
        rotationY = beta
        if cos(beta) > 1e-9 {
            plane.rotation = atan2(r0.1, r0.0)
            rotationX = atan2(r1.2, r2.2)
        } else {
            plane.rotation = 0
            rotationX = atan2(-r2.1, r1.1)
        }
    }

    /// The transform these components describe.
    public var transform: Transform3D {
        let s = Transform3D(
            rows: (plane.scaleX, 0, 0, 0), (plane.shear, plane.scaleY, 0, 0), (0, 0, scaleZ, 0), (0, 0, 0, 1))
        var m = s
        if rotationX != 0 { m = m.concatenating(Transform3D(rotationAngle: rotationX, x: 1, y: 0, z: 0)) }
        if rotationY != 0 { m = m.concatenating(Transform3D(rotationAngle: rotationY, x: 0, y: 1, z: 0)) }
        if plane.rotation != 0 { m = m.concatenating(Transform3D(rotationAngle: plane.rotation, x: 0, y: 0, z: 1)) }
        m = m.concatenating(Transform3D(translationX: plane.translationX, y: plane.translationY, z: translationZ))
        if perspective != 0 {
            var p = Transform3D.identity
            p.m34 = perspective
            m = m.concatenating(p)
        }
        return m
    }

    /// Each part by `f` of the way to `b`'s; angles the shorter way round.
    func interpolated(to b: Transform3DComponents, fraction f: Double) -> Transform3DComponents {
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        func turn(_ x: Double, _ y: Double) -> Double {
            var d = y - x
            if d > .pi { d -= 2 * .pi } else if d < -.pi { d += 2 * .pi }
            return x + d * f
        }
        var out = Transform3DComponents(
            plane: TransformComponents(
                translationX: lerp(plane.translationX, b.plane.translationX),
                translationY: lerp(plane.translationY, b.plane.translationY),
                rotation: turn(plane.rotation, b.plane.rotation), scaleX: lerp(plane.scaleX, b.plane.scaleX),
                scaleY: lerp(plane.scaleY, b.plane.scaleY), shear: lerp(plane.shear, b.plane.shear)))
        out.translationZ = lerp(translationZ, b.translationZ)
        out.scaleZ = lerp(scaleZ, b.scaleZ)
        out.rotationX = turn(rotationX, b.rotationX)
        out.rotationY = turn(rotationY, b.rotationY)
        out.perspective = lerp(perspective, b.perspective)
        return out
    }
}

/// The layer `transform` (and `sublayerTransform`) animates by decomposition, as Core Animation
/// does: a transform of the plane exactly as `Transform2D` does; one in space part by part
/// (`Transform3DComponents`). Sub-keys read and write one part: `rotation` / `rotation.z`,
/// `rotation.x`, `rotation.y`, `scale` (x and y; reads the mean), `scale.x`, `scale.y`,
/// `scale.z`, `translation` (a `Size`), `translation.x`, `translation.y`, `translation.z`.
/// As an additive value a transform composes: translations and rotations add, scales multiply.
extension Transform3D: Interpolatable {
    public func interpolated(to end: Transform3D, fraction f: Double) -> Transform3D {
        if f == 0 { return self }
        if f == 1 { return end }
        if isPlanar && end.isPlanar { return Transform3D(affine.interpolated(to: end.affine, fraction: f)) }
        return Transform3DComponents(self).interpolated(to: Transform3DComponents(end), fraction: f).transform
    }

    public func adding(_ other: Transform3D) -> Transform3D {
        if isPlanar && other.isPlanar { return Transform3D(affine.adding(other.affine)) }
        var a = Transform3DComponents(self)
        let b = Transform3DComponents(other)
        a.plane = TransformComponents(a.plane.transform.adding(b.plane.transform))
        a.translationZ += b.translationZ
        a.scaleZ *= b.scaleZ
        a.rotationX += b.rotationX
        a.rotationY += b.rotationY
        a.perspective += b.perspective
        return a.transform
    }

    public func subtracting(_ other: Transform3D) -> Transform3D {
        if isPlanar && other.isPlanar { return Transform3D(affine.subtracting(other.affine)) }
        var a = Transform3DComponents(self)
        let b = Transform3DComponents(other)
        a.plane = TransformComponents(a.plane.transform.subtracting(b.plane.transform))
        a.translationZ -= b.translationZ
        a.scaleZ = b.scaleZ == 0 ? 0 : a.scaleZ / b.scaleZ
        a.rotationX -= b.rotationX
        a.rotationY -= b.rotationY
        a.perspective -= b.perspective
        return a.transform
    }

    public func scaled(by factor: Double) -> Transform3D {
        if isPlanar { return Transform3D(affine.scaled(by: factor)) }
        var a = Transform3DComponents(self)
        a.plane = TransformComponents(a.plane.transform.scaled(by: factor))
        a.translationZ *= factor
        a.scaleZ = a.scaleZ < 0 ? -pow(-a.scaleZ, factor) : pow(a.scaleZ, factor)
        a.rotationX *= factor
        a.rotationY *= factor
        a.perspective *= factor
        return a.transform
    }

    public func distance(to other: Transform3D) -> Double {
        if isPlanar && other.isPlanar { return affine.distance(to: other.affine) }
        let a = Transform3DComponents(self), b = Transform3DComponents(other)
        let d = [
            a.plane.transform.distance(to: b.plane.transform), a.translationZ - b.translationZ,
            a.scaleZ - b.scaleZ, a.rotationX - b.rotationX, a.rotationY - b.rotationY
        ]
        return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }

    public func value(atSubPath path: Substring) -> (any Interpolatable)? {
        if isPlanar, let planar = affine.value(atSubPath: path) { return planar }
        let c = Transform3DComponents(self)
        switch path {
        case "rotation.x": return c.rotationX
        case "rotation.y": return c.rotationY
        case "translation.z": return c.translationZ
        case "scale.z": return c.scaleZ
        default: return c.plane.transform.value(atSubPath: path)
        }
    }

    public func replacing(atSubPath path: Substring, with value: any Interpolatable) -> Transform3D? {
        if isPlanar, let planar = affine.replacing(atSubPath: path, with: value) { return Transform3D(planar) }
        var c = Transform3DComponents(self)
        switch path {
        case "rotation.x", "rotation.y", "translation.z", "scale.z":
            guard let v = value as? Double else { return nil }
            switch path {
            case "rotation.x": c.rotationX = v
            case "rotation.y": c.rotationY = v
            case "translation.z": c.translationZ = v
            default: c.scaleZ = v
            }
        default:
            guard let plane = c.plane.transform.replacing(atSubPath: path, with: value) else { return nil }
            c.plane = TransformComponents(plane)
        }
        return c.transform
    }
}
