// TEMPORARY (branch raster only): a deliberately simple stroker so GraphicsContext.stroke
// compiles before the real Stroker.swift lands. Every flattened segment becomes a rectangle;
// butt caps, no joins. Deleted again before the branch is handed over.
import Foundation

extension Path {
    /// The outline of the stroke of this path, to be filled by the nonzero rule.
    public func strokeOutline(_ style: StrokeStyle, tolerance: Double) -> Path {
        var outline = Path()
        let half = style.lineWidth / 2
        guard half > 0, half.isFinite else { return outline }
        for line in flattened(tolerance: tolerance) {
            var points = line.points
            if line.isClosed, let first = points.first { points.append(first) }
            for (a, b) in zip(points, points.dropFirst()) {
                let d = b - a, length = d.length
                guard length > 0 else { continue }
                let n = Point(x: -d.y / length * half, y: d.x / length * half)
                outline.move(to: a + n)
                outline.addLine(to: b + n)
                outline.addLine(to: b - n)
                outline.addLine(to: a - n)
                outline.closeSubpath()
            }
        }
        return outline
    }
}
