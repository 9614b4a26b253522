extension Path {
    /// Dashing never produces more dashes than this for one path; past it the path is drawn
    /// solid, as Skia does past its own limit. (Skia allows a million; a kiosk board's memory
    /// is better spent elsewhere.)
    static let maximumDashCount = 100_000

    /// The pieces of the path that are "on" for a dash pattern: alternating on and off lengths
    /// along each subpath, starting `phase` into the pattern. Follows Skia's dash path effect
    /// and CoreGraphics:
    /// - the pattern restarts at the beginning of every subpath;
    /// - a negative phase counts back from the pattern's end (−20 in a pattern of length 100
    ///   is 80); a phase beyond the pattern wraps;
    /// - an odd number of entries is repeated once (CoreGraphics: [5] is [5, 5]);
    /// - an empty pattern, a negative or non-finite entry, an all-zero pattern, a non-finite
    ///   phase, or more than `maximumDashCount` dashes leave the path solid (`self`);
    /// - on a closed subpath, a dash running through the start point is one piece: the last
    ///   dash continues into the first;
    /// - a zero-length "on" entry gives a zero-length line, which round and square caps draw.
    /// Lines stay lines and curves are cut, not flattened.
    public func dashed(pattern: [Double], phase: Double) -> Path {
        guard !pattern.isEmpty, phase.isFinite,
            pattern.allSatisfy({ $0 >= 0 && $0.isFinite })
        else { return self }
        let intervals = pattern.count % 2 == 1 ? pattern + pattern : pattern
        let period = intervals.reduce(0, +)
        guard period > 0, period.isFinite else { return self }

        let measure = PathMeasure.measure(of: self)
        let dashCount = measure.length * Double(intervals.count / 2) / period
        guard dashCount <= Double(Path.maximumDashCount) else { return self }

        let (firstIndex, firstLength) = Path.dashStart(intervals: intervals, period: period, phase: phase)
        var result = Path()
        for (contourIndex, contour) in measure.contours.enumerated() where contour.length > 0 {
            // On a closed subpath the first dash is drawn last, joined to the final one.
            var skipFirst = contour.isClosed
            var endedOn = false
            var index = firstIndex
            var distance = 0.0
            var length = firstLength
            while distance < contour.length {
                endedOn = false
                if index % 2 == 0 && !skipFirst {
                    measure.appendPiece(
                        ofContour: contourIndex, from: distance, to: distance + length,
                        startWithMove: true, into: &result)
                    endedOn = true
                }
                skipFirst = false
                distance += length
                index = (index + 1) % intervals.count
                length = intervals[index]
            }
            if contour.isClosed && firstIndex % 2 == 0 {
                measure.appendPiece(
                    ofContour: contourIndex, from: 0, to: firstLength,
                    startWithMove: !endedOn, into: &result)
            }
        }
        return result
    }

    /// Where a subpath starts in the pattern: the entry and how much of it is left, once the
    /// phase is brought into [0, period).
    static func dashStart(intervals: [Double], period: Double, phase: Double) -> (index: Int, remaining: Double) {
        var offset = phase.truncatingRemainder(dividingBy: period)
        if offset < 0 { offset += period }
        if offset >= period { offset = 0 }  // rounding in the line above
        for (i, entry) in intervals.enumerated() {
            // A phase landing exactly on an entry's end starts the next entry, unless the
            // entry is empty (a zero-length dash at the phase is still drawn).
            if offset > entry || (offset == entry && entry > 0) {
                offset -= entry
            } else {
                return (i, entry - offset)
            }
        }
        return (0, intervals[0])
    }
}
