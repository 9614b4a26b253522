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
    init?(_ gradient: Gradient, transform: Transform2D, alpha: Double, tables: GradientTables) {
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
        table = tables.table(for: gradient, alpha: alpha, allAtEnd: degenerate)
    }

    /// The premultiplied colours at 1024 evenly spaced positions of `gradient`.
    static func makeTable(_ gradient: Gradient, alpha: Double, allAtEnd: Bool) -> [UInt32] {
        let stops = gradient.stops
        let last = Double(tableSize - 1)
        return (0..<tableSize).map { i in
            PixelMath.premultipliedPixel(
                gradient.color(at: allAtEnd ? 1 : Double(i) / last, stops: stops), alpha: alpha)
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

/// The colour tables of the last few gradients drawn: a gradient drawn again (each frame of an
/// animation that leaves its colours alone, each dirty rectangle) reuses its table.
final class GradientTables {
    /// A table depends on the colours and their places, not on the gradient's geometry.
    private struct Entry {
        var colors: [Color]
        var locations: [Double]?
        var alpha: Double
        var allAtEnd: Bool
        var table: [UInt32]
    }
    private static let slots = 8
    private var entries: [Entry] = []
    private var nextSlot = 0

    func table(for gradient: Gradient, alpha: Double, allAtEnd: Bool) -> [UInt32] {
        if let entry = entries.first(where: {
            $0.alpha == alpha && $0.allAtEnd == allAtEnd && $0.colors == gradient.colors
                && $0.locations == gradient.locations
        }) {
            return entry.table
        }
        let entry = Entry(
            colors: gradient.colors, locations: gradient.locations, alpha: alpha, allAtEnd: allAtEnd,
            table: GradientSampler.makeTable(gradient, alpha: alpha, allAtEnd: allAtEnd))
        if entries.count < Self.slots {
            entries.append(entry)
        } else {
            entries[nextSlot] = entry
            nextSlot = (nextSlot + 1) % Self.slots
        }
        return entry.table
    }
}
