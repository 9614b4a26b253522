import Glibc
import VitrineGraphics

/// One cubic Bézier segment: what path morphing and keyframe paths measure, split and walk.
/// Lines and quadratics are raised to cubics exactly.
struct CubicSegment: Equatable {
    var p0: Point, p1: Point, p2: Point, p3: Point

    init(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
        self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3
    }

    /// A straight line as a cubic with evenly spaced control points (uniform speed).
    static func line(_ a: Point, _ b: Point) -> CubicSegment {
        CubicSegment(a, a.lerp(to: b, 1.0 / 3.0), a.lerp(to: b, 2.0 / 3.0), b)
    }

    /// The quadratic `a, c, b` raised to a cubic.
    static func quad(_ a: Point, _ c: Point, _ b: Point) -> CubicSegment {
        CubicSegment(a, a + (c - a) * (2.0 / 3.0), b + (c - b) * (2.0 / 3.0), b)
    }

    func point(at t: Double) -> Point {
        let mt = 1 - t
        let a = mt * mt * mt, b = 3 * mt * mt * t, c = 3 * mt * t * t, d = t * t * t
        return Point(
            x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
            y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// The tangent (first derivative) at `t`; at a cusp-free degenerate end it falls back to
    /// the chord so a direction is always available when the segment has any length.
    func tangent(at t: Double) -> Point {
        let mt = 1 - t
        let d = (p1 - p0) * (3 * mt * mt) + (p2 - p1) * (6 * mt * t) + (p3 - p2) * (3 * t * t)
        if d.length > 1e-12 { return d }
        let near = t < 0.5 ? point(at: min(1, t + 1e-3)) - point(at: t) : point(at: t) - point(at: max(0, t - 1e-3))
        return near.length > 1e-12 ? near : p3 - p0
    }

    /// The two halves at `t` (de Casteljau).
    func split(at t: Double) -> (CubicSegment, CubicSegment) {
        let a = p0.lerp(to: p1, t), b = p1.lerp(to: p2, t), c = p2.lerp(to: p3, t)
        let d = a.lerp(to: b, t), e = b.lerp(to: c, t)
        let m = d.lerp(to: e, t)
        return (CubicSegment(p0, a, d, m), CubicSegment(m, e, c, p3))
    }

    /// The part of the segment between parameters `t0 < t1`.
    func subsegment(from t0: Double, to t1: Double) -> CubicSegment {
        if t0 <= 0 && t1 >= 1 { return self }
        if t0 <= 0 { return split(at: t1).0 }
        let tail = split(at: t0).1
        if t1 >= 1 { return tail }
        return tail.split(at: (t1 - t0) / (1 - t0)).0
    }

    var reversed: CubicSegment { CubicSegment(p3, p2, p1, p0) }

    func map(_ f: (Point) -> Point) -> CubicSegment { CubicSegment(f(p0), f(p1), f(p2), f(p3)) }

    static let lengthSamples = 16

    /// Cumulative chord lengths at t = i / lengthSamples (first entry 0, last ≈ arc length).
    func lengthTable() -> [Double] {
        var table = [0.0]
        table.reserveCapacity(CubicSegment.lengthSamples + 1)
        var previous = p0, total = 0.0
        for i in 1...CubicSegment.lengthSamples {
            let p = point(at: Double(i) / Double(CubicSegment.lengthSamples))
            total += p.distance(to: previous)
            table.append(total)
            previous = p
        }
        return table
    }

    /// The parameter at arc length `s` from the start, given this segment's `lengthTable()`.
    static func parameter(atLength s: Double, table: [Double]) -> Double {
        let n = table.count - 1, total = table[n]
        guard total > 0 else { return s <= 0 ? 0 : 1 }
        if s <= 0 { return 0 }
        if s >= total { return 1 }
        var lo = 0, hi = n
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] <= s { lo = mid } else { hi = mid }
        }
        let span = table[hi] - table[lo]
        let local = span > 0 ? (s - table[lo]) / span : 0
        return (Double(lo) + local) / Double(n)
    }
}

/// A subpath as cubic segments, the form in which paths morph and keyframe paths are walked.
struct CubicSubpath: Equatable {
    var start: Point
    var segments: [CubicSegment]
    var isClosed: Bool

    var end: Point { segments.last?.p3 ?? start }

    /// Closed, or ending where it starts.
    var isLoop: Bool { isClosed || (!segments.isEmpty && end.distance(to: start) < 1e-9) }

    /// The subpaths of `path`. A `close` whose subpath does not end at its start gets an
    /// explicit closing line, so a closed subpath's segments form the whole loop.
    static func subpaths(of path: Path) -> [CubicSubpath] {
        var result: [CubicSubpath] = []
        var current: CubicSubpath?
        var point = Point.zero
        func finish() { if let c = current { result.append(c) }; current = nil }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish()
                current = CubicSubpath(start: p, segments: [], isClosed: false)
                point = p
            case .line(let p):
                if current == nil { current = CubicSubpath(start: point, segments: [], isClosed: false) }
                current!.segments.append(.line(point, p)); point = p
            case .quad(let c, let p):
                if current == nil { current = CubicSubpath(start: point, segments: [], isClosed: false) }
                current!.segments.append(.quad(point, c, p)); point = p
            case .cubic(let c1, let c2, let p):
                if current == nil { current = CubicSubpath(start: point, segments: [], isClosed: false) }
                current!.segments.append(CubicSegment(point, c1, c2, p)); point = p
            case .close:
                guard var c = current else { continue }
                if c.end != c.start { c.segments.append(.line(c.end, c.start)) }
                c.isClosed = true
                point = c.start
                result.append(c)
                current = nil
            }
        }
        finish()
        return result
    }

    /// Appends this subpath to `path` as a move and cubics (and a close when closed).
    func append(to path: inout Path) {
        path.move(to: start)
        for s in segments { path.addCurve(to: s.p3, control1: s.p1, control2: s.p2) }
        if isClosed { path.closeSubpath() }
    }

    /// Each segment's length table and the running total at each segment's end.
    func measure() -> (tables: [[Double]], cumulative: [Double]) {
        var tables: [[Double]] = [], cumulative: [Double] = []
        var total = 0.0
        for s in segments {
            let t = s.lengthTable()
            total += t[t.count - 1]
            tables.append(t); cumulative.append(total)
        }
        return (tables, cumulative)
    }
}
