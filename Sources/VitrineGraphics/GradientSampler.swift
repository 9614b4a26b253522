import Foundation

/// Premultiplied pixels of a gradient at device pixel centres: each pixel's place in the
/// gradient's space (the inverse of its transform), its position `t` along the gradient, and
/// the colour at `t` from a table of 1024 entries (finer than 8-bit colour steps).
struct GradientSampler {
    private static let tableSize = 1024
    private let kind: Gradient.Kind
    private let table: [UInt32]
    /// Device → gradient space.
    private let inverse: Transform2D
    private let start: Point
    /// axial: the direction over its squared length; radial: 1 / radius; conic: the first
    /// colour's angle.
    private let axis: Point
    private let scale: Double
    private let angle0: Double

    /// A sampler of `gradient` drawn through `transform` (gradient space → device) at global
    /// alpha `alpha`; nil when the transform cannot be inverted.
    init?(_ gradient: Gradient, transform: Transform2D, alpha: Double) {
        guard let inverse = transform.inverted(), !gradient.colors.isEmpty else { return nil }
        self.inverse = inverse
        kind = gradient.kind
        start = gradient.start
        let d = Point(x: gradient.end.x - gradient.start.x, y: gradient.end.y - gradient.start.y)
        let lengthSquared = d.x * d.x + d.y * d.y
        switch gradient.kind {
        case .axial:
            axis = lengthSquared > 0 ? Point(x: d.x / lengthSquared, y: d.y / lengthSquared) : .zero
            scale = 0
            angle0 = 0
        case .radial:
            axis = .zero
            scale = lengthSquared > 0 ? 1 / lengthSquared.squareRoot() : 0
            angle0 = 0
        case .conic:
            axis = .zero
            scale = 0
            angle0 = atan2(d.y, d.x)
        }
        // A degenerate axial or radial gradient is all beyond its end: the last colour.
        let degenerate = lengthSquared == 0 && gradient.kind != .conic
        let last = Self.tableSize - 1
        table = (0..<Self.tableSize).map { i in
            PixelMath.premultipliedPixel(gradient.color(at: degenerate ? 1 : Double(i) / Double(last)), alpha: alpha)
        }
    }

    /// `count` pixels of row `y` from device x `x`, into `out`.
    func sample(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let first = inverse.apply(to: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
        var px = first.x - start.x, py = first.y - start.y
        let stepX = inverse.a, stepY = inverse.b
        let last = Double(Self.tableSize - 1)
        table.withUnsafeBufferPointer { table in
            for i in 0..<count {
                let t: Double
                switch kind {
                case .axial: t = px * axis.x + py * axis.y
                case .radial: t = (px * px + py * py).squareRoot() * scale
                case .conic:
                    var turn = (atan2(py, px) - angle0) / (2 * Double.pi)
                    turn -= turn.rounded(.down)
                    t = turn
                }
                let clamped = t.isNaN ? 0 : min(max(t, 0), 1)
                out[i] = table[Int((clamped * last).rounded())]
                px += stepX
                py += stepY
            }
        }
    }
}
