import Glibc
import VitrineGraphics
import VitrineSystem

/// Paths with the same structure (the same sequence of element kinds) interpolate point by
/// point, as Core Animation does. Paths of different structure — where Core Animation's result
/// is undefined (seed 004) — are first normalised to a common structure:
///
/// 1. both become subpaths of cubic segments; a missing subpath is a copy of its partner
///    collapsed to the partner's centroid, so it grows from there;
/// 2. for two closed subpaths (or ones ending where they start), the second one's start point
///    and direction are chosen to
///    minimise the distance between the outlines (sampled by arc length, centroids aligned);
/// 3. each subpath is cut at the arc-length fractions of both paths' segment ends, so both get
///    the same number of cubic segments and equal fractions of length correspond; each path
///    keeps its own corners exactly.
///
/// A fraction of exactly 0 or 1 returns the original path, so endpoints are exact.
extension Path: Interpolatable {
    public func interpolated(to end: Path, fraction: Double) -> Path {
        if fraction == 0 { return self }
        if fraction == 1 { return end }
        let (a, b) = PathMorph.matched(self, end)
        let outputs = MorphOutputs.ofThisThread
        var out = outputs.take()
        PathMorph.zip(a, b, into: &out) { $0.interpolated(to: $1, fraction: fraction) }
        outputs.keep(out)
        return out
    }
    public func adding(_ other: Path) -> Path {
        let (a, b) = PathMorph.matched(self, other)
        return PathMorph.zip(a, b) { $0 + $1 }
    }
    public func subtracting(_ other: Path) -> Path {
        let (a, b) = PathMorph.matched(self, other)
        return PathMorph.zip(a, b) { $0 - $1 }
    }
    public func scaled(by factor: Double) -> Path { applying(VitrineGraphics.Transform2D(scaleX: factor, y: factor)) }
    /// The mean distance between corresponding points of the matched paths.
    public func distance(to other: Path) -> Double {
        let (a, b) = PathMorph.matched(self, other)
        var total = 0.0, count = 0
        _ = PathMorph.zip(a, b) { p, q in
            total += p.distance(to: q); count += 1; return p
        }
        return count == 0 ? 0 : total / Double(count)
    }
    /// The same path collapsed to the centre of its bounds: a nil path grows from there.
    public var absentCounterpart: Path {
        let c = isEmpty ? Point.zero : bounds.center
        return PathMorph.zip(self, self) { _, _ in c }
    }
}

enum PathMorph {
    /// True when both paths have the same sequence of element kinds.
    static func sameStructure(_ a: Path, _ b: Path) -> Bool {
        guard a.elements.count == b.elements.count else { return false }
        for (x, y) in Swift.zip(a.elements, b.elements) {
            switch (x, y) {
            case (.move, .move), (.line, .line), (.quad, .quad), (.cubic, .cubic), (.close, .close): continue
            default: return false
            }
        }
        return true
    }

    /// Combines two paths of the same structure point by point.
    static func zip(_ a: Path, _ b: Path, _ f: (Point, Point) -> Point) -> Path {
        var out = Path()
        zip(a, b, into: &out, f)
        return out
    }

    /// Combines two paths of the same structure point by point into `out` (emptied first; its
    /// storage is reused when no one else holds it).
    static func zip(_ a: Path, _ b: Path, into out: inout Path, _ f: (Point, Point) -> Point) {
        out.removeAll(keepingCapacity: true)
        // One allocation at most for the result, not one per doubling as it grows.
        out.reserveCapacity(min(a.elements.count, b.elements.count))
        for (x, y) in Swift.zip(a.elements, b.elements) {
            switch (x, y) {
            case let (.move(p), .move(q)): out.move(to: f(p, q))
            case let (.line(p), .line(q)): out.addLine(to: f(p, q))
            case let (.quad(c, p), .quad(d, q)): out.addQuadCurve(to: f(p, q), control: f(c, d))
            case let (.cubic(c1, c2, p), .cubic(d1, d2, q)):
                out.addCurve(to: f(p, q), control1: f(c1, d1), control2: f(c2, d2))
            case (.close, .close): out.closeSubpath()
            default: return
            }
        }
    }

    /// The two paths with a common structure (themselves when they already share one).
    static func matched(_ a: Path, _ b: Path) -> (Path, Path) {
        if sameStructure(a, b) { return (a, b) }
        return cache.value(for: a, b) { normalize(a, b) }
    }

    static let cache = MorphCache()

    static func normalize(_ a: Path, _ b: Path) -> (Path, Path) {
        var sa = CubicSubpath.subpaths(of: a), sb = CubicSubpath.subpaths(of: b)
        while sa.count < sb.count { sa.append(collapsed(sb[sa.count])) }
        while sb.count < sa.count { sb.append(collapsed(sa[sb.count])) }
        var outA = Path(), outB = Path()
        for (x, y) in Swift.zip(sa, sb) {
            let (nx, ny) = normalize(x, y)
            nx.append(to: &outA); ny.append(to: &outB)
        }
        return (outA, outB)
    }

    /// `s` with every point at its centroid (the mean of its segment end points).
    static func collapsed(_ s: CubicSubpath) -> CubicSubpath {
        var c = s.start, n = 1.0
        for seg in s.segments { c = c + seg.p3; n += 1 }
        c = c * (1 / n)
        return CubicSubpath(start: c, segments: s.segments.map { $0.map { _ in c } }, isClosed: s.isClosed)
    }

    static func normalize(_ x: CubicSubpath, _ y0: CubicSubpath) -> (CubicSubpath, CubicSubpath) {
        if x.segments.isEmpty && y0.segments.isEmpty {
            return (x, CubicSubpath(start: y0.start, segments: [], isClosed: x.isClosed))
        }
        // A subpath that ends where it starts (a full circle from addArc) is a loop too.
        let closed = x.isLoop && y0.isLoop
        if x.segments.isEmpty {
            let point = x.start
            var px = y0; px.start = point; px.segments = y0.segments.map { $0.map { _ in point } }
            px.isClosed = closed
            var py = y0; py.isClosed = closed
            return (px, py)
        }
        if y0.segments.isEmpty {
            let point = y0.start
            var py = x; py.start = point; py.segments = x.segments.map { $0.map { _ in point } }
            py.isClosed = closed
            var px = x; px.isClosed = closed
            return (px, py)
        }
        let y = closed ? aligned(y0, to: x) : y0
        let fx = knotFractions(x), fy = knotFractions(y)
        let merged = mergeKnots(fx, fy)
        var nx = cut(x, at: snap(merged, to: fx)), ny = cut(y, at: snap(merged, to: fy))
        nx.isClosed = closed; ny.isClosed = closed
        return (nx, ny)
    }

    /// The arc-length fractions (strictly between 0 and 1) at which a subpath's segments end.
    static func knotFractions(_ s: CubicSubpath) -> [Double] {
        let (_, cumulative) = s.measure()
        let total = cumulative.last ?? 0
        let n = s.segments.count
        guard n > 1 else { return [] }
        if total <= 0 { return (1..<n).map { Double($0) / Double(n) } }
        return cumulative.dropLast().map { $0 / total }
    }

    static let knotTolerance = 1e-3

    /// The union of two sorted fraction lists; fractions closer than `knotTolerance` merge.
    static func mergeKnots(_ a: [Double], _ b: [Double]) -> [Double] {
        var out: [Double] = []
        for f in (a + b).sorted() where f > 0 && f < 1 {
            if let last = out.last, f - last < knotTolerance { continue }
            out.append(f)
        }
        return out
    }

    /// Replaces each merged fraction near one of `own` knots by that knot, so a path's own
    /// segment ends are cut exactly.
    static func snap(_ merged: [Double], to own: [Double]) -> [Double] {
        merged.map { f in own.first(where: { abs($0 - f) < knotTolerance }) ?? f }
    }

    /// The subpath cut at the given increasing arc-length fractions. Every original segment
    /// end must be among them, so each piece lies within one original segment.
    static func cut(_ s: CubicSubpath, at fractions: [Double]) -> CubicSubpath {
        let (tables, cumulative) = s.measure()
        let total = cumulative.last ?? 0
        let n = s.segments.count
        // Segment j covers [begin(j), end(j)] in fraction units.
        func begin(_ j: Int) -> Double {
            if total <= 0 { return Double(j) / Double(n) }
            return j == 0 ? 0 : cumulative[j - 1] / total
        }
        func end(_ j: Int) -> Double { total <= 0 ? Double(j + 1) / Double(n) : cumulative[j] / total }
        func parameter(_ j: Int, _ f: Double) -> Double {
            let b = begin(j), e = end(j)
            if f <= b { return 0 }
            if f >= e { return 1 }
            if total <= 0 { return (f - b) / (e - b) }
            return CubicSegment.parameter(atLength: (f - b) * total, table: tables[j])
        }
        let bounds = [0.0] + fractions + [1.0]
        var pieces: [CubicSegment] = []
        pieces.reserveCapacity(bounds.count - 1)
        var j = 0
        for i in 0..<(bounds.count - 1) {
            let u0 = bounds[i], u1 = bounds[i + 1], mid = (u0 + u1) / 2
            while j < n - 1 && end(j) < mid { j += 1 }
            var piece = s.segments[j].subsegment(from: parameter(j, u0), to: parameter(j, u1))
            if let previous = pieces.last { piece.p0 = previous.p3 } else { piece.p0 = s.start }
            pieces.append(piece)
        }
        pieces[pieces.count - 1].p3 = s.end
        return CubicSubpath(start: s.start, segments: pieces, isClosed: s.isClosed)
    }

    static let alignmentSamples = 48

    /// `y` restarted (and possibly reversed) so that it best matches `x` point for point.
    static func aligned(_ y: CubicSubpath, to x: CubicSubpath) -> CubicSubpath {
        let m = alignmentSamples
        let xs = centered(samples(x, count: m))
        var best = (cost: Double.infinity, candidate: y, shift: 0)
        for candidate in [y, reversedLoop(y)] {
            let ys = centered(samples(candidate, count: m))
            for shift in 0..<m {
                var cost = 0.0
                for i in 0..<m {
                    let d = xs[i] - ys[(i + shift) % m]
                    cost += d.x * d.x + d.y * d.y
                }
                if cost < best.cost - 1e-9 { best = (cost, candidate, shift) }
            }
        }
        return restarted(best.candidate, atFraction: Double(best.shift) / Double(m))
    }

    static func centered(_ points: [Point]) -> [Point] {
        guard !points.isEmpty else { return points }
        var c = Point.zero
        for p in points { c = c + p }
        c = c * (1 / Double(points.count))
        return points.map { $0 - c }
    }

    /// `count` points evenly spaced by arc length, the first at the start.
    static func samples(_ s: CubicSubpath, count: Int) -> [Point] {
        let (tables, cumulative) = s.measure()
        let total = cumulative.last ?? 0
        var out: [Point] = []
        out.reserveCapacity(count)
        var j = 0
        for i in 0..<count {
            let target = total * Double(i) / Double(count)
            while j < s.segments.count - 1 && cumulative[j] < target { j += 1 }
            let begin = j == 0 ? 0 : cumulative[j - 1]
            let t = CubicSegment.parameter(atLength: target - begin, table: tables[j])
            out.append(s.segments[j].point(at: t))
        }
        return out
    }

    static func reversedLoop(_ s: CubicSubpath) -> CubicSubpath {
        CubicSubpath(start: s.end, segments: s.segments.reversed().map(\.reversed), isClosed: s.isClosed)
    }

    /// A closed subpath started at the given arc-length fraction instead of its start.
    static func restarted(_ s: CubicSubpath, atFraction f: Double) -> CubicSubpath {
        guard f > 0, f < 1 else { return s }
        let (tables, cumulative) = s.measure()
        let total = cumulative.last ?? 0
        guard total > 0 else { return s }
        let target = total * f
        var j = 0
        while j < s.segments.count - 1 && cumulative[j] < target { j += 1 }
        let begin = j == 0 ? 0 : cumulative[j - 1]
        let t = CubicSegment.parameter(atLength: target - begin, table: tables[j])
        var segments: [CubicSegment] = []
        let (head, tail) = s.segments[j].split(at: t)
        if t < 1 - 1e-9 { segments.append(tail) }
        segments += s.segments[(j + 1)...]
        segments += s.segments[..<j]
        if t > 1e-9 { segments.append(head) }
        let start = segments.first?.p0 ?? s.start
        return CubicSubpath(start: start, segments: segments, isClosed: true)
    }
}

/// The paths a thread's morphs produced lately, whose storage later morphs reuse: an animated
/// path is made anew every frame, and the copy holding one from a few frames ago has been
/// recycled since, so its elements' buffer is free again (a path still held somewhere is not
/// reused: emptying it copies, as before). Sixteen, for a few morphing layers each held by
/// this frame's and the last frames' copies.
final class MorphOutputs {
    private var recent = [Path](repeating: Path(), count: 16)
    private var next = 0

    static var ofThisThread: MorphOutputs { perThread.value }
    private static let perThread = ThreadLocal { MorphOutputs() }

    /// The oldest kept path, given up by the list so that the caller may hold it alone.
    func take() -> Path {
        var path = Path()
        swap(&path, &recent[next])
        return path
    }

    /// Keeps `path` (just made from what `take` gave) in the place it was taken from.
    func keep(_ path: Path) {
        recent[next] = path
        next = (next + 1) % recent.count
    }
}

/// A small cache of normalised path pairs: a path animation asks for the same pair every frame.
final class MorphCache: @unchecked Sendable {
    private let lock = Lock()
    private var entries: [(a: Path, b: Path, result: (Path, Path))] = []
    private let capacity = 8

    func value(for a: Path, _ b: Path, compute: () -> (Path, Path)) -> (Path, Path) {
        lock.lock()
        if let i = entries.firstIndex(where: { $0.a == a && $0.b == b }) {
            let hit = entries[i]
            lock.unlock()
            return hit.result
        }
        lock.unlock()
        let result = compute()
        lock.lock()
        entries.append((a, b, result))
        if entries.count > capacity { entries.removeFirst() }
        lock.unlock()
        return result
    }
}
