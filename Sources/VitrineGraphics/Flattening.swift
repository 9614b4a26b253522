import Glibc

/// How finely curves become line segments. One rule for every consumer (rasterizer, stroker,
/// measuring, morphing) so they all see the same outline.
public enum Flattening {
    /// The default distance, in device pixels, that a flattened curve may stray from the true
    /// one: fine enough that an arc's anti-aliased edge matches exact coverage.
    public static let defaultTolerance = 0.1
    /// Upper bound on segments per curve, so absurd coordinates cannot stall a frame.
    public static let maxSegmentsPerCurve = 4096

    /// Segments for a quadratic Bézier by Wang's formula: the chord error stays under `tolerance`.
    @inline(__always)
    public static func segmentCount(_ p0: Point, _ p1: Point, _ p2: Point, tolerance: Double) -> Int {
        let dx = p0.x - 2 * p1.x + p2.x, dy = p0.y - 2 * p1.y + p2.y
        let m = (dx * dx + dy * dy).squareRoot()
        return clampCount((m / (4 * tolerance)).squareRoot())
    }

    /// Segments for a cubic Bézier by Wang's formula: the chord error stays under `tolerance`.
    @inline(__always)
    public static func segmentCount(
        _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point,
        tolerance: Double
    ) -> Int {
        let ax = p0.x - 2 * p1.x + p2.x, ay = p0.y - 2 * p1.y + p2.y
        let bx = p1.x - 2 * p2.x + p3.x, by = p1.y - 2 * p2.y + p3.y
        let m = max(ax * ax + ay * ay, bx * bx + by * by).squareRoot()
        return clampCount((0.75 * m / tolerance).squareRoot())
    }

    @inline(__always)
    static func clampCount(_ n: Double) -> Int {
        guard n.isFinite else { return n.isNaN ? 1 : maxSegmentsPerCurve }
        // Clamp before converting: Int(_:) traps on finite values beyond Int.max.
        return max(1, Int(min(Double(maxSegmentsPerCurve), n.rounded(.up))))
    }
}

/// One flattened subpath: its points in order, and whether it was closed with `close`.
public struct Polyline: Hashable, Sendable {
    public var points: [Point]
    public var isClosed: Bool

    public init(points: [Point], isClosed: Bool) { self.points = points; self.isClosed = isClosed }
}

extension Path {
    /// The path as polylines, one per subpath, curves split by `Flattening`'s rule after
    /// `transform` is applied (the tolerance is in the transformed space). A subpath that is
    /// a lone move-to is kept as a one-point polyline (strokers draw caps for it).
    public func flattened(
        tolerance: Double = Flattening.defaultTolerance,
        transform: Transform2D = .identity
    ) -> [Polyline] {
        var result: [Polyline] = []
        var points: [Point] = []
        var current = Point.zero
        func finish(closed: Bool) {
            if !points.isEmpty { result.append(Polyline(points: points, isClosed: closed)) }
            points = []
        }
        for element in elements {
            switch element.applying(transform) {
            case .move(let p):
                finish(closed: false)
                points.append(p); current = p
            case .line(let p):
                if points.isEmpty { points.append(current) }
                points.append(p); current = p
            case .quad(let c, let p):
                if points.isEmpty { points.append(current) }
                let n = Flattening.segmentCount(current, c, p, tolerance: tolerance)
                for i in 1...n { points.append(Path.quadPoint(current, c, p, Double(i) / Double(n))) }
                points[points.count - 1] = p
                current = p
            case .cubic(let c1, let c2, let p):
                if points.isEmpty { points.append(current) }
                let n = Flattening.segmentCount(current, c1, c2, p, tolerance: tolerance)
                for i in 1...n {
                    points.append(Path.cubicPoint(current, c1, c2, p, Double(i) / Double(n)))
                }
                points[points.count - 1] = p
                current = p
            case .close:
                // A drawing command after close starts a new subpath at this one's start.
                current = points.first ?? current
                finish(closed: true)
            }
        }
        finish(closed: false)
        return result
    }
}
