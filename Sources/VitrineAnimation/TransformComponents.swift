import Glibc
import VitrineGraphics

/// An affine transform split into the parts an animation moves independently: scale and shear
/// are applied first, then rotation, then translation
/// (linear part = rotation(r) · [[scaleX, shear], [0, scaleY]]). Decomposing and recomposing is
/// exact for every non-degenerate transform; a reflection shows as a negative `scaleY`.
public struct TransformComponents: Hashable, Sendable {
    /// Translation along x.
    public var translationX: Double
    /// Translation along y.
    public var translationY: Double
    /// Rotation in radians, clockwise on screen (y down); in (−π, π] after decomposition.
    public var rotation: Double
    /// Scale along x (before rotation).
    public var scaleX: Double
    /// Scale along y (before rotation); negative for a reflection.
    public var scaleY: Double
    /// Shear of y into x (before rotation).
    public var shear: Double

    public init(
        translationX: Double = 0, translationY: Double = 0, rotation: Double = 0,
        scaleX: Double = 1, scaleY: Double = 1, shear: Double = 0
    ) {
        self.translationX = translationX; self.translationY = translationY; self.rotation = rotation
        self.scaleX = scaleX; self.scaleY = scaleY; self.shear = shear
    }

    /// The components of `t`.
    public init(_ t: VitrineGraphics.Transform2D) {
        let sx = (t.a * t.a + t.b * t.b).squareRoot()
        let r = sx == 0 ? 0 : atan2(t.b, t.a)
        let cr = cos(r), sr = sin(r)
        self.init(
            translationX: t.tx, translationY: t.ty, rotation: r, scaleX: sx,
            scaleY: -t.c * sr + t.d * cr, shear: t.c * cr + t.d * sr)
    }

    /// The transform these components describe.
    public var transform: VitrineGraphics.Transform2D {
        let cr = cos(rotation), sr = sin(rotation)
        return VitrineGraphics.Transform2D(
            a: scaleX * cr, b: scaleX * sr,
            c: shear * cr - scaleY * sr, d: shear * sr + scaleY * cr,
            tx: translationX, ty: translationY)
    }
}

/// The `transform` property animates by decomposition, as Core Animation does for matrices:
/// translation, scale and shear interpolate linearly and rotation takes the shorter way round
/// (so a matrix animation can never spin a full turn; animate `transform.rotation.z` for that).
/// Sub-keys read and write the decomposed value: `rotation` / `rotation.z`, `scale` (both axes;
/// reads the mean), `scale.x`, `scale.y`, `translation` (a `Size`), `translation.x`, `translation.y`.
///
/// As an additive value a transform composes: translations and rotations add, scales multiply
/// (the identity is the neutral element).
extension VitrineGraphics.Transform2D: Interpolatable {
    public func interpolated(to end: VitrineGraphics.Transform2D, fraction f: Double) -> VitrineGraphics.Transform2D {
        if f == 0 { return self }
        if f == 1 { return end }
        let a = TransformComponents(self), b = TransformComponents(end)
        var turn = b.rotation - a.rotation
        if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
        return TransformComponents(
            translationX: a.translationX.interpolated(to: b.translationX, fraction: f),
            translationY: a.translationY.interpolated(to: b.translationY, fraction: f),
            rotation: a.rotation + turn * f,
            scaleX: a.scaleX.interpolated(to: b.scaleX, fraction: f),
            scaleY: a.scaleY.interpolated(to: b.scaleY, fraction: f),
            shear: a.shear.interpolated(to: b.shear, fraction: f)
        ).transform
    }

    public func adding(_ other: VitrineGraphics.Transform2D) -> VitrineGraphics.Transform2D {
        let a = TransformComponents(self), b = TransformComponents(other)
        return TransformComponents(
            translationX: a.translationX + b.translationX,
            translationY: a.translationY + b.translationY,
            rotation: a.rotation + b.rotation,
            scaleX: a.scaleX * b.scaleX, scaleY: a.scaleY * b.scaleY,
            shear: a.shear + b.shear
        ).transform
    }

    public func subtracting(_ other: VitrineGraphics.Transform2D) -> VitrineGraphics.Transform2D {
        let a = TransformComponents(self), b = TransformComponents(other)
        func divide(_ x: Double, _ y: Double) -> Double { y == 0 ? 0 : x / y }
        return TransformComponents(
            translationX: a.translationX - b.translationX,
            translationY: a.translationY - b.translationY,
            rotation: a.rotation - b.rotation,
            scaleX: divide(a.scaleX, b.scaleX), scaleY: divide(a.scaleY, b.scaleY),
            shear: a.shear - b.shear
        ).transform
    }

    public func scaled(by factor: Double) -> VitrineGraphics.Transform2D {
        let a = TransformComponents(self)
        func power(_ s: Double) -> Double { s < 0 ? -pow(-s, factor) : pow(s, factor) }
        return TransformComponents(
            translationX: a.translationX * factor, translationY: a.translationY * factor,
            rotation: a.rotation * factor, scaleX: power(a.scaleX),
            scaleY: power(a.scaleY), shear: a.shear * factor
        ).transform
    }

    public func distance(to other: VitrineGraphics.Transform2D) -> Double {
        let a = TransformComponents(self), b = TransformComponents(other)
        let d = [
            a.translationX - b.translationX, a.translationY - b.translationY, a.rotation - b.rotation,
            a.scaleX - b.scaleX, a.scaleY - b.scaleY, a.shear - b.shear
        ]
        return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }

    public func value(atSubPath path: Substring) -> (any Interpolatable)? {
        let c = TransformComponents(self)
        switch path {
        case "rotation", "rotation.z": return c.rotation
        case "scale": return (c.scaleX + c.scaleY) / 2
        case "scale.x": return c.scaleX
        case "scale.y": return c.scaleY
        case "translation": return Size(width: c.translationX, height: c.translationY)
        case "translation.x": return c.translationX
        case "translation.y": return c.translationY
        default: return nil
        }
    }

    public func replacing(atSubPath path: Substring, with value: any Interpolatable) -> VitrineGraphics.Transform2D? {
        var c = TransformComponents(self)
        if path == "translation" {
            guard let s = value as? Size else { return nil }
            c.translationX = s.width; c.translationY = s.height
            return c.transform
        }
        guard let v = value as? Double else { return nil }
        switch path {
        case "rotation", "rotation.z": c.rotation = v
        case "scale": c.scaleX = v; c.scaleY = v
        case "scale.x": c.scaleX = v
        case "scale.y": c.scaleY = v
        case "translation.x": c.translationX = v
        case "translation.y": c.translationY = v
        default: return nil
        }
        return c.transform
    }
}
