import Glibc

/// Arc-length measurements of a path: its total and per-subpath lengths, and the point and
/// direction at any distance along it. Built once (curves are integrated by Gauss–Legendre
/// quadrature over short parameter intervals); each query is a binary search plus a few
/// Newton steps, O(log n).
///
/// Distances run through the subpaths in order, as Skia's trim does: a closed subpath includes
/// its closing segment; subpaths and segments of zero length take no room.
public struct PathMeasure: Sendable {
    /// Total length of all subpaths, closing segments included.
    public let length: Double

    /// The length of each subpath, in the order of `Path.flattened()` (a lone move-to counts,
    /// with length 0).
    public var subpathLengths: [Double] { contours.map(\.length) }

    let contours: [Contour]
    private let segments: [MeasuredSegment]
    /// The sample table: interval `i` ends at global distance `sampleEnd[i]` and curve parameter
    /// `sampleT[i]` of segment `sampleSegment[i]`; it starts where interval `i - 1` ended, or at
    /// t = 0 and the segment's start distance when it is the segment's first.
    private let sampleEnd: [Double]
    private let sampleT: [Double]
    private let sampleSegment: [Int32]

    /// Segments are measured to this chord tolerance before integration; the quadrature on each
    /// short interval is then accurate far below it.
    static let subdivisionTolerance = 0.25

    /// The measure of `path`: one of the last few measured on this thread when it is among
    /// them (a stroke trimmed by an animation measures the same path every frame), else a new one.
    public static func measure(of path: Path) -> PathMeasure {
        let recent = recentlyMeasured.value
        if let i = recent.entries.firstIndex(where: { $0.path == path }) { return recent.entries[i].measure }
        let measure = PathMeasure(path)
        if recent.entries.count < RecentMeasures.capacity {
            recent.entries.append((path, measure))
        } else {
            recent.entries[recent.next] = (path, measure)
            recent.next = (recent.next + 1) % RecentMeasures.capacity
        }
        return measure
    }

    private final class RecentMeasures {
        static let capacity = 4
        var entries: [(path: Path, measure: PathMeasure)] = []
        var next = 0
    }
    private static let recentlyMeasured = ThreadLocal { RecentMeasures() }

    /// Measures `path`.
    public init(_ path: Path) {
        var builder = Builder()
        for element in path.elements { builder.add(element) }
        builder.finishContour(closed: false)
        contours = builder.contours
        segments = builder.segments
        sampleEnd = builder.sampleEnd
        sampleT = builder.sampleT
        sampleSegment = builder.sampleSegment
        length = builder.distance
    }

    /// The point `distance` along the path (clamped to the path), or nil when the path has no
    /// length. At a corner it is the common point; between subpaths, the end of the earlier one.
    public func point(atLength distance: Double) -> Point? {
        guard let (segment, t) = location(atLength: distance) else { return nil }
        return segments[segment].point(at: t)
    }

    /// The unit direction of travel `distance` along the path (clamped to the path), or nil when
    /// the path has no length. At a corner it is the direction arriving there.
    public func tangent(atLength distance: Double) -> Point? {
        guard let (segment, t) = location(atLength: distance) else { return nil }
        return segments[segment].unitTangent(at: t)
    }

    private func location(atLength distance: Double) -> (Int, Double)? {
        guard length > 0, !distance.isNaN, !sampleEnd.isEmpty else { return nil }
        let d = min(max(distance, 0), length)
        return location(at: d, samples: 0..<sampleEnd.count, preferEarlier: true)
    }

    /// A box holding every segment the stretch between two distances along the whole path
    /// touches (their control points): where `Path.trimmed` pieces ending in that stretch can
    /// differ from one another. Null for an empty path.
    public func boundsOfSegments(between a: Double, and b: Double) -> Rect {
        guard let touched = segmentsTouched(between: a, and: b) else { return .null }
        var box = Rect.null
        for segment in segments[touched] { box = box.union(segment.controlBox) }
        return box
    }

    /// The box of the segment across a corner whose inside a moved trimmed end changes, or
    /// null. A stroke's corner takes its inside where the two offsets cross, or through the
    /// corner itself when the pieces on either side are shorter than the crossing needs,
    /// `lineWidth · tan(turn / 2)` (`StrokeGeometry.appendJoin`); then the outline's edge
    /// along the whole segment across the corner ends elsewhere, and its pixels differ by a
    /// level. So when a stroke's end moves from `d0` to `d1` (`atEnd`; its start, not) and the
    /// piece it leaves past the corner before the nearer place (after it, for a start) is
    /// short in one frame and long enough in the other, that segment changes too. A curve
    /// beside the corner turns its chords from its tangents and hides its first chord's
    /// length: the turn is taken wider and a short piece is enough.
    public func boundsAcrossCornerChanged(from d0: Double, to d1: Double, lineWidth: Double, atEnd: Bool) -> Rect {
        guard !sampleEnd.isEmpty, d0.isFinite, d1.isFinite, lineWidth > 0, lineWidth.isFinite else { return .null }
        let a = min(max(d0, 0), length), b = min(max(d1, 0), length)
        // The place nearer the corner in question, and the other.
        let (near, far) = atEnd ? (min(a, b), max(a, b)) : (max(a, b), min(a, b))
        let (i, _) = location(at: near, samples: 0..<sampleEnd.count, preferEarlier: !atEnd)
        let (before, after) = atEnd ? (i - 1, i) : (i, i + 1)
        guard before >= 0, after < segments.count, segments[before].end == segments[after].p0 else { return .null }
        let piece = abs(near - segments[after].start)
        let cosine = segments[before].unitTangent(at: 1).dot(segments[after].unitTangent(at: 0))
        let straight = segments[before].kind == .line && segments[after].kind == .line
        let turn = acos(min(max(cosine, -1), 1)) + (straight ? 0 : 0.35)
        let reach = turn >= Double.pi ? Double.infinity : lineWidth * tan(turn / 2)
        var changes = piece < reach
        if straight {
            // The other frame's piece runs along the same line, at most to its end.
            let line = segments[atEnd ? after : before]
            let otherPiece = min(abs(far - segments[after].start), line.p0.distance(to: line.end))
            changes = changes != (otherPiece < reach)
        }
        return changes ? segments[atEnd ? before : after].controlBox : .null
    }

    /// How far a miter join reaches from its corner, in half line widths, at most, where the
    /// segments the stretch between two distances touches meet each other or their neighbours:
    /// 1 / cos(θ/2) for a turn of θ, or 1 where that exceeds `miterLimit` and the join is a
    /// bevel; 1 without corners. (Joins inside a curve are the stroker's own and stay within
    /// half the width.)
    public func largestMiterRatio(between a: Double, and b: Double, miterLimit: Double) -> Double {
        guard let touched = segmentsTouched(between: a, and: b) else { return 1 }
        var largest = 1.0
        for i in max(touched.lowerBound - 1, 0)...touched.upperBound where i + 1 < segments.count {
            // Consecutive measured segments meet at a corner when one ends where the next starts.
            guard segments[i].end == segments[i + 1].p0 else { continue }
            let turn = segments[i].unitTangent(at: 1).dot(segments[i + 1].unitTangent(at: 0))
            let halfAngleCosine = ((1 + turn) / 2).squareRoot()
            let ratio = halfAngleCosine > 0 ? 1 / halfAngleCosine : .infinity
            // Near the limit either outcome is possible after rounding: count the miter.
            if ratio <= miterLimit * 1.01 { largest = max(largest, ratio) }
        }
        return largest
    }

    /// The indices of the segments the stretch between two distances touches (both segments
    /// at a distance where one ends and the next begins).
    private func segmentsTouched(between a: Double, and b: Double) -> ClosedRange<Int>? {
        guard !sampleEnd.isEmpty, !a.isNaN, !b.isNaN else { return nil }
        let lower = min(max(min(a, b), 0), length), upper = min(max(max(a, b), 0), length)
        let first = location(at: lower, samples: 0..<sampleEnd.count, preferEarlier: true).0
        let last = location(at: upper, samples: 0..<sampleEnd.count, preferEarlier: false).0
        return min(first, last)...max(first, last)
    }

    // MARK: - Pieces (trimming and dashing)

    /// Appends the stretch of contour `contour` between `from` and `to` (distances from the
    /// contour's start, clamped to it) to `path`: lines stay lines, curves are cut at the
    /// parameters for those distances. With `startWithMove` false the stretch continues the
    /// path's current subpath. A zero-length stretch is a zero-length line, so caps can draw it.
    func appendPiece(
        ofContour contour: Int, from: Double, to: Double, startWithMove: Bool,
        into path: inout Path
    ) {
        let c = contours[contour]
        guard c.length > 0 else { return }
        let a = min(max(from, 0), c.length), b = min(max(to, 0), c.length)
        guard a <= b else { return }
        let (first, t0) = location(at: c.start + a, samples: c.samples, preferEarlier: false)
        if startWithMove { path.move(to: segments[first].point(at: t0)) }
        if a == b {
            if let p = path.currentPoint { path.addLine(to: p) }
            return
        }
        // The contour's end is its last sample exactly: `start + length` may round past it.
        let endDistance = b == c.length ? sampleEnd[c.samples.upperBound - 1] : c.start + b
        let (last, t1) = location(at: endDistance, samples: c.samples, preferEarlier: true)
        if first == last {
            segments[first].appendPart(from: t0, to: max(t0, t1), into: &path)
            return
        }
        segments[first].appendPart(from: t0, to: 1, into: &path)
        if first + 1 < last {
            for s in (first + 1)..<last { segments[s].appendPart(from: 0, to: 1, into: &path) }
        }
        segments[last].appendPart(from: 0, to: t1, into: &path)
    }

    /// The segment and curve parameter at global distance `d`, searching `samples`. When `d`
    /// is exactly where one sample interval ends and the next begins, `preferEarlier` picks the
    /// interval that ends there (for the end of a piece) over the one that starts there.
    private func location(at d: Double, samples: Range<Int>, preferEarlier: Bool) -> (Int, Double) {
        var lo = samples.lowerBound, hi = samples.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if sampleEnd[mid] < d || (!preferEarlier && sampleEnd[mid] == d) { lo = mid + 1 } else { hi = mid }
        }
        let i = min(lo, samples.upperBound - 1)
        let segmentIndex = Int(sampleSegment[i])
        let segment = segments[segmentIndex]
        let isFirstOfSegment = i == 0 || Int(sampleSegment[i - 1]) != segmentIndex
        let d0 = isFirstOfSegment ? segment.start : sampleEnd[i - 1]
        let t0 = isFirstOfSegment ? 0 : sampleT[i - 1]
        return (
            segmentIndex,
            segment.parameter(
                forLength: d - d0, from: t0, to: sampleT[i],
                intervalLength: sampleEnd[i] - d0)
        )
    }

    /// One subpath's place in the tables.
    struct Contour: Sendable {
        /// Global distance where the contour begins.
        var start: Double
        var length: Double
        var isClosed: Bool
        /// Its sample intervals (empty when it has no length).
        var samples: Range<Int>
    }

    /// Accumulates segments, samples and contours from path elements.
    private struct Builder {
        var contours: [Contour] = []
        var segments: [MeasuredSegment] = []
        var sampleEnd: [Double] = []
        var sampleT: [Double] = []
        var sampleSegment: [Int32] = []
        var distance = 0.0

        private var isOpen = false
        private var contourStart = 0.0
        private var firstSample = 0
        private var firstSegment = 0
        private var current = Point.zero
        private var startPoint = Point.zero

        mutating func add(_ element: PathElement) {
            switch element {
            case .move(let p):
                finishContour(closed: false)
                begin(at: p)
            case .line(let p):
                if !isOpen { begin(at: current) }
                add(MeasuredSegment(kind: .line, current, p, p, p))
                current = p
            case .quad(let c, let p):
                if !isOpen { begin(at: current) }
                add(MeasuredSegment(kind: .quad, current, c, p, p))
                current = p
            case .cubic(let c1, let c2, let p):
                if !isOpen { begin(at: current) }
                add(MeasuredSegment(kind: .cubic, current, c1, c2, p))
                current = p
            case .close:
                if !isOpen { begin(at: current) }
                add(MeasuredSegment(kind: .line, current, startPoint, startPoint, startPoint))
                current = startPoint
                finishContour(closed: true)
            }
        }

        private mutating func begin(at p: Point) {
            isOpen = true
            contourStart = distance
            firstSample = sampleEnd.count
            firstSegment = segments.count
            current = p
            startPoint = p
        }

        /// Records the segment and its sample intervals; zero-length segments take no room.
        private mutating func add(_ segment: MeasuredSegment) {
            var segment = segment
            segment.start = distance
            let intervals = segment.intervalCount(tolerance: PathMeasure.subdivisionTolerance)
            var d = distance
            var t0 = 0.0
            let index = Int32(segments.count)
            let samplesBefore = sampleEnd.count
            for i in 1...intervals {
                let t1 = i == intervals ? 1 : Double(i) / Double(intervals)
                let piece = segment.arcLength(from: t0, to: t1)
                if piece > 0 {
                    d += piece
                    sampleEnd.append(d); sampleT.append(t1); sampleSegment.append(index)
                } else if sampleEnd.count > samplesBefore {
                    sampleT[sampleT.count - 1] = t1  // a flat stretch joins the interval before it
                }
                t0 = t1
            }
            guard sampleEnd.count > samplesBefore else { return }
            if sampleT[sampleT.count - 1] != 1 { sampleT[sampleT.count - 1] = 1 }
            segments.append(segment)
            distance = d
        }

        mutating func finishContour(closed: Bool) {
            guard isOpen else { return }
            isOpen = false
            var length = distance - contourStart
            // Like Skia, a contour whose length overflows is not measured at all.
            if !length.isFinite {
                sampleEnd.removeSubrange(firstSample...)
                sampleT.removeSubrange(firstSample...)
                sampleSegment.removeSubrange(firstSample...)
                segments.removeSubrange(firstSegment...)
                distance = contourStart
                length = 0
            }
            contours.append(
                Contour(
                    start: contourStart, length: length, isClosed: closed,
                    samples: firstSample..<sampleEnd.count))
        }
    }
}

/// A line, quadratic or cubic Bézier with its start, as the measure stores it.
struct MeasuredSegment: Sendable {
    enum Kind: UInt8, Sendable { case line, quad, cubic }

    var kind: Kind
    /// Start, then the remaining points of the element; unused trailing points repeat the end.
    var p0, p1, p2, p3: Point
    /// Global distance at which the segment begins.
    var start = 0.0

    init(kind: Kind, _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
        self.kind = kind; self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3
    }

    var end: Point { kind == .quad ? p2 : (kind == .line ? p1 : p3) }

    /// The box of its points, control points included (the segment lies inside it).
    var controlBox: Rect {
        let minX = min(p0.x, p1.x, p2.x, p3.x), minY = min(p0.y, p1.y, p2.y, p3.y)
        return Rect(
            x: minX, y: minY, width: max(p0.x, p1.x, p2.x, p3.x) - minX, height: max(p0.y, p1.y, p2.y, p3.y) - minY)
    }

    func point(at t: Double) -> Point {
        switch kind {
        case .line:
            return t == 1 ? p1 : p0.lerp(to: p1, t)
        case .quad:
            if t == 1 { return p2 }
            let mt = 1 - t
            return p0 * (mt * mt) + p1 * (2 * mt * t) + p2 * (t * t)
        case .cubic:
            return t == 1 ? p3 : Path.cubicPoint(p0, p1, p2, p3, t)
        }
    }

    /// The derivative with respect to the curve parameter.
    func derivative(at t: Double) -> Point {
        let mt = 1 - t
        switch kind {
        case .line:
            return p1 - p0
        case .quad:
            return ((p1 - p0) * mt + (p2 - p1) * t) * 2
        case .cubic:
            return ((p1 - p0) * (mt * mt) + (p2 - p1) * (2 * mt * t) + (p3 - p2) * (t * t)) * 3
        }
    }

    /// The unit direction at `t`. Where the derivative vanishes (a control point on an end
    /// point, or a cusp) the direction is taken just inside the curve, then from the chord.
    func unitTangent(at t: Double) -> Point {
        var d = derivative(at: t)
        if d.length == 0 || !d.length.isFinite {
            d = derivative(at: t < 0.5 ? t + 1e-6 : t - 1e-6)
        }
        if d.length == 0 || !d.length.isFinite { d = end - p0 }
        let n = d.length
        return n > 0 && n.isFinite ? d * (1 / n) : Point(x: 1, y: 0)
    }

    /// How many parameter intervals to integrate over (Wang's formula, as the flattener uses).
    func intervalCount(tolerance: Double) -> Int {
        switch kind {
        case .line: return 1
        case .quad: return Flattening.segmentCount(p0, p1, p2, tolerance: tolerance)
        case .cubic: return Flattening.segmentCount(p0, p1, p2, p3, tolerance: tolerance)
        }
    }

    /// Arc length between two parameters: exact for lines, 5-point Gauss–Legendre quadrature of
    /// the speed for curves (exact for polynomial speeds of degree 9, so on the short intervals
    /// the builder uses, the error is negligible next to any pixel).
    func arcLength(from t0: Double, to t1: Double) -> Double {
        if kind == .line { return p0.distance(to: p1) * (t1 - t0) }
        // Nodes 0, ±√(5 ∓ 2√(10/7))/3 on [−1, 1]; weights 128/225, (322 ± 13√70)/900.
        let half = (t1 - t0) / 2, mid = (t0 + t1) / 2
        let inner = 0.538469310105683 * half, outer = 0.906179845938664 * half
        let center = derivative(at: mid).length
        let near = derivative(at: mid - inner).length + derivative(at: mid + inner).length
        let far = derivative(at: mid - outer).length + derivative(at: mid + outer).length
        return half * (0.5688888888888889 * center + 0.47862867049936647 * near + 0.23692688505618908 * far)
    }

    /// The parameter at arc length `s` past `t0`, inside the interval [t0, t1] of length
    /// `intervalLength`: linear in length as a first guess, then Newton on the quadrature.
    func parameter(forLength s: Double, from t0: Double, to t1: Double, intervalLength: Double) -> Double {
        guard intervalLength > 0, s > 0 else { return t0 }
        if s >= intervalLength { return t1 }
        var t = t0 + (t1 - t0) * (s / intervalLength)
        if kind == .line { return t }
        for _ in 0..<4 {
            let error = arcLength(from: t0, to: t) - s
            let speed = derivative(at: t).length
            guard speed > 0, speed.isFinite else { break }
            let next = min(max(t - error / speed, t0), t1)
            if abs(next - t) <= 1e-15 { t = next; break }
            t = next
        }
        return t
    }

    /// Appends the part of the segment between parameters `t0` and `t1` (the path's current
    /// point must be the part's start). Curves are cut by blossoming — de Casteljau with one
    /// parameter per level — so the part is the same curve, not an approximation.
    func appendPart(from t0: Double, to t1: Double, into path: inout Path) {
        let endPoint = point(at: t1)
        switch kind {
        case .line:
            path.addLine(to: endPoint)
        case .quad:
            path.addQuadCurve(to: endPoint, control: quadBlossom(t0, t1))
        case .cubic:
            path.addCurve(to: endPoint, control1: cubicBlossom(t0, t0, t1), control2: cubicBlossom(t0, t1, t1))
        }
    }

    private func quadBlossom(_ u: Double, _ v: Double) -> Point {
        p0.lerp(to: p1, u).lerp(to: p1.lerp(to: p2, u), v)
    }

    private func cubicBlossom(_ u: Double, _ v: Double, _ w: Double) -> Point {
        let a = p0.lerp(to: p1, u), b = p1.lerp(to: p2, u), c = p2.lerp(to: p3, u)
        return a.lerp(to: b, v).lerp(to: b.lerp(to: c, v), w)
    }
}
