extension Path {
    /// The part of the path between two fractions of its total length, measured through all
    /// subpaths in order: what CAShapeLayer draws for `strokeStart` / `strokeEnd` and Skia's
    /// trim path effect (normal mode). Fractions are clamped to [0, 1]; `start >= end` gives an
    /// empty path and [0, 1] the path itself, untouched.
    ///
    /// Every piece is an open subpath beginning with a move, one per subpath the range
    /// touches; lines stay lines and curves are cut, not flattened. As in Skia (whose pieces
    /// come from `SkContourMeasure::getSegment`, which never closes), a closed subpath that lies
    /// wholly inside a partial range comes out open: it runs from its start around to its start
    /// again, with ends instead of a join there. Zero-length subpaths are skipped.
    public func trimmed(from start: Double, to end: Double) -> Path {
        var result = Path()
        trimmed(from: start, to: end, into: &result)
        return result
    }

    /// `trimmed(from:to:)` built in `result` (emptied first, its storage reused).
    public func trimmed(from start: Double, to end: Double, into result: inout Path) {
        result.removeAll(keepingCapacity: true)
        guard !start.isNaN, !end.isNaN else { return }
        let from = min(max(start, 0), 1), to = min(max(end, 0), 1)
        if from >= to { return }
        if from == 0 && to == 1 {
            result = self
            return
        }

        let measure = PathMeasure.measure(of: self)
        let total = measure.length
        guard total > 0 else { return }
        let lower = from * total, upper = to * total
        for (index, contour) in measure.contours.enumerated() where contour.length > 0 {
            let contourEnd = contour.start + contour.length
            let a = max(lower, contour.start), b = min(upper, contourEnd)
            // Touching a subpath only at an end point draws nothing of it.
            guard a < b else { continue }
            measure.appendPiece(
                ofContour: index, from: a - contour.start, to: b - contour.start,
                startWithMove: true, into: &result)
        }
    }
}
