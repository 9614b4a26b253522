import Glibc

extension Path {
    /// The outline of the stroke of this path as closed polygons (move/line/close only), to be
    /// filled with the nonzero rule.
    ///
    /// Follows what Skia and CoreGraphics draw: `lineWidth` centred on the path, `lineJoin` at
    /// the corners between elements (miters longer than `miterLimit × lineWidth` become bevels),
    /// `lineCap` at both ends of open subpaths, a join instead of caps where a subpath closes.
    /// Curves are offset smoothly. A subpath that has drawing commands but no length (`M p L p`,
    /// `M p Z`) draws a disc with round caps, an axis-aligned square with square caps, nothing
    /// with butt caps; a lone move-to draws nothing.
    ///
    /// Each open subpath becomes one contour, each closed one two (outer and inner), all wound so
    /// that overlaps add up and never cancel: parts of the outline may overlap one another.
    ///
    /// `style.dashPattern` and `style.dashPhase` are ignored: dash the path first, then stroke
    /// the dashes. `tolerance` is the largest distance, in the path's own units, between the
    /// returned polygons and the exact outline (divide device tolerance by the transform's
    /// scale). A width that is not positive and finite, or a coordinate that is not finite,
    /// gives an empty path.
    public func strokeOutline(_ style: StrokeStyle, tolerance: Double = Flattening.defaultTolerance) -> Path {
        guard style.lineWidth > 0, style.lineWidth.isFinite, isFinite else { return Path() }
        var stroker = Stroker(style: style, tolerance: Path.strokeTolerance(tolerance))
        stroker.stroke(elements)
        return stroker.outlinePath()
    }
}

extension Path {
    /// How far the stroke of this path in `style` reaches beyond the path's bounds on any
    /// side: half the line width, more for square caps (√2/2 of it) and for miter joins, by the
    /// sharpest corner of this path that can keep its miter (at most `miterLimit / 2` of it). A
    /// circle reaches 0.71 of the width where a bound from the miter limit alone says 5.
    ///
    /// The stroke joins a curve by its first or last flattened chord, which runs from the
    /// corner to some point of the curve, not along its end tangent: a corner's turn is taken
    /// as the tangents' give or take the widest angle between a tangent and such a chord.
    public func strokeReach(_ style: StrokeStyle) -> Double {
        let width = style.lineWidth
        guard width > 0, width.isFinite else { return 0 }
        var factor = style.lineCap == .square ? 0.5 * 2.0.squareRoot() : 0.5
        guard style.lineJoin == .miter, style.miterLimit > 1 else { return width * factor }
        let limit = style.miterLimit
        // The turn beyond which a miter becomes a bevel: cos²(turn / 2) = 1 / limit².
        let limitTurn = limit.isFinite ? 2 * acos(1 / limit) : .pi
        // One end of a drawing element: its tangent, and how far from it a chord may turn.
        typealias End = (tangent: Point, spread: Double)
        var current = Point.zero, start = Point.zero
        var last: End?, first: End?
        func meet(_ incoming: End?, _ outgoing: End) {
            guard let incoming, factor < limit / 2 else { return }
            let turn = Path.angle(incoming.tangent, outgoing.tangent)
            let slack = incoming.spread + outgoing.spread
            guard turn - slack <= limitTurn else { return }
            let sharpest = min(turn + slack, limitTurn)
            factor = max(factor, sharpest >= .pi ? limit / 2 : min(limit / 2, 0.5 / cos(sharpest / 2)))
        }
        // A line passes its ends as its controls; coincident points give no tangent.
        func element(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, curved: Bool) {
            let out = c1 != p0 ? c1 - p0 : c2 != p0 ? c2 - p0 : p1 - p0
            guard out != .zero else { return }
            let into = c2 != p1 ? p1 - c2 : c1 != p1 ? p1 - c1 : p1 - p0
            let outgoing = (
                tangent: out, spread: curved ? Path.chordSpread(p0, c1, c2, p1, from: out, atStart: true) : 0
            )
            meet(last, outgoing)
            if first == nil { first = outgoing }
            last = (tangent: into, spread: curved ? Path.chordSpread(p0, c1, c2, p1, from: into, atStart: false) : 0)
        }
        for e in elements {
            switch e {
            case .move(let p):
                current = p; start = p; last = nil; first = nil
            case .line(let p):
                element(current, current, p, p, curved: false); current = p
            case .quad(let c, let p):
                // The same curve as a cubic.
                let c1 = current + (c - current) * (2.0 / 3), c2 = p + (c - p) * (2.0 / 3)
                element(current, c1, c2, p, curved: true); current = p
            case .cubic(let c1, let c2, let p):
                element(current, c1, c2, p, curved: true); current = p
            case .close:
                element(current, current, start, start, curved: false)
                if let first { meet(last, first) }
                current = start; last = nil; first = nil
            }
        }
        return width * factor
    }

    /// The unsigned angle between two vectors.
    private static func angle(_ a: Point, _ b: Point) -> Double { atan2(abs(a.cross(b)), a.dot(b)) }

    /// The widest angle between `tangent` and a chord of the cubic from its start (or to its
    /// end) to another of its points, sampled closely near that end (where a control point
    /// near it makes chords turn fastest) and evenly along the rest, plus 0.1 rad between
    /// samples.
    private static func chordSpread(
        _ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, from tangent: Point, atStart: Bool
    ) -> Double {
        // Each chord's angle to the tangent as the point (cos, sin) scaled by both lengths, in
        // the upper half-plane; the widest is found by comparing those points (a cross product
        // each, of the two vectors scaled to a largest coordinate of 1 so that no product
        // overflows) and measured once: the path's extent is taken every frame it changes.
        let unitTangent = tangent * (1 / max(abs(tangent.x), abs(tangent.y)))
        var widest: (dot: Double, cross: Double, unitDot: Double, unitCross: Double)?
        func sample(_ t: Double) {
            let q = cubicPoint(p0, c1, c2, p1, atStart ? t : 1 - t)
            let chord = atStart ? q - p0 : p1 - q
            guard chord != .zero else { return }
            let unitChord = chord * (1 / max(abs(chord.x), abs(chord.y)))
            let unitDot = unitTangent.dot(unitChord), unitCross = abs(unitTangent.cross(unitChord))
            if let w = widest {
                let turn = w.unitDot * unitCross - w.unitCross * unitDot
                // Collinear and opposite: the one pointing back is at π, the other at 0.
                guard turn > 0 || (turn == 0 && unitDot < 0 && w.unitDot > 0) else { return }
            }
            widest = (tangent.dot(chord), abs(tangent.cross(chord)), unitDot, unitCross)
        }
        var t = 1.0
        for _ in 0..<24 { sample(t); t /= 2 }
        for k in 1..<16 { sample(Double(k) / 16) }
        guard let widest else { return 0.1 }
        return min(.pi, atan2(widest.cross, widest.dot) + 0.1)
    }

    /// A usable stroke tolerance: `tolerance` when positive and finite, else the default.
    static func strokeTolerance(_ tolerance: Double) -> Double {
        tolerance > 0 && tolerance.isFinite ? tolerance : Flattening.defaultTolerance
    }
}

/// Turns path elements into stroke outline contours, one subpath at a time: flattens each
/// subpath's centre line (keeping track of which vertices are the user's corners), then walks
/// it once, collecting the plus side forwards and the minus side to be appended backwards.
struct Stroker {
    private var geometry: StrokeGeometry
    /// Chord tolerance of the centre line; the other half of the budget goes to the offsets.
    private var curveTolerance: Double
    /// Consecutive centre-line points closer than this (squared) are one point.
    private var mergeDistanceSquared: Double

    /// The current subpath's flattened centre line, and whether each vertex is a corner that
    /// takes the user's join (false inside a flattened curve).
    private var center: [Point] = []
    private var isCorner: [Bool] = []
    /// Whether the current subpath has a drawing command (a lone move-to draws nothing).
    private var subpathDraws = false
    /// Minus-side offsets of the subpath being stroked, in path order.
    private var minusSide: [Point] = []
    /// Finished contours (closed polygons), back to back, and where each ends in `points`.
    private(set) var points: [Point] = []
    private(set) var contourEnds: [Int] = []
    /// Whether every point winds 0 or 1 under the contours made so far (nonzero rule), so that
    /// their accumulated area is exact in every pixel and the rasterizer need not watch who
    /// writes its cells (`Rasterizer.watchesWriters`). They are the outline of one subpath
    /// that turns one way, with the inside of every corner where its offsets cross (`TurnCheck`):
    /// closed and once around, its two contours are a ring (a pie's wedge, a circle's or a
    /// card's outline); open and by at most half a turn, its one contour is a simple polygon (a
    /// progress arc up to half way, a bent line).
    private(set) var windsAtMostOnce = false
    /// While trimming (`stroke(_:from:to:)`): the flattened centre lines of the subpaths,
    /// back to back, a closed one ending at its start again; each vertex's distance along its
    /// line; and where each line ends.
    private var trimming = false
    private var lines: [Point] = []
    private var lineCorners: [Bool] = []
    private var lineDistances: [Double] = []
    private var lineEnds: [Int] = []

    init(style: StrokeStyle, tolerance: Double) {
        geometry = StrokeGeometry(style: style, tolerance: tolerance)
        curveTolerance = 0
        mergeDistanceSquared = 0
        reset(style: style, tolerance: tolerance)
    }

    /// Forgets every contour and takes a new style, keeping the buffers' capacity: a stroker
    /// kept from frame to frame strokes without allocating once its buffers have grown.
    mutating func reset(style: StrokeStyle, tolerance: Double) {
        geometry = StrokeGeometry(style: style, tolerance: tolerance)
        curveTolerance = tolerance / 2
        // Far below anything visible, far above rounding noise: Skia's 1/4096 of a pixel, scaled.
        let merge = max(tolerance * 1e-3, 1e-100)
        mergeDistanceSquared = merge * merge
        center.removeAll(keepingCapacity: true)
        isCorner.removeAll(keepingCapacity: true)
        minusSide.removeAll(keepingCapacity: true)
        points.removeAll(keepingCapacity: true)
        contourEnds.removeAll(keepingCapacity: true)
        windsAtMostOnce = false
        subpathDraws = false
    }

    // MARK: - Walking the path

    /// Strokes the part of `elements` between the fractions `start` and `end` (in 0…1, `start`
    /// below `end`) of its length, measured through all subpaths in order along the flattened
    /// centre line: `Path.trimmed(from:to:)` then `stroke`, except that the centre line is the
    /// whole path's, cut. A trim that moves (an animated `strokeEnd`) thus changes the outline
    /// only near the cut, and the pixels of the rest stay those of every other frame: damage
    /// tracking repaints only around the cut. As there, each piece is open, a closed subpath
    /// wholly inside the range running from its start around to its start again, and a
    /// subpath of no length draws nothing.
    mutating func stroke(_ elements: [PathElement], from start: Double, to end: Double) {
        lines.removeAll(keepingCapacity: true)
        lineCorners.removeAll(keepingCapacity: true)
        lineDistances.removeAll(keepingCapacity: true)
        lineEnds.removeAll(keepingCapacity: true)
        trimming = true
        stroke(elements)
        trimming = false
        var total = 0.0
        for lineEnd in lineEnds { total += lineDistances[lineEnd - 1] }
        guard total > 0, total.isFinite else { return }
        let lower = start * total, upper = end * total
        var first = 0, offset = 0.0
        for lineEnd in lineEnds {
            let length = lineDistances[lineEnd - 1]
            defer { first = lineEnd; offset += length }
            let a = max(lower - offset, 0), b = min(upper - offset, length)
            guard a < b else { continue }
            // The vertices between the cuts, with a point on the chord at each cut (a cut at a
            // vertex is that vertex, not a point computed near it).
            center.removeAll(keepingCapacity: true)
            isCorner.removeAll(keepingCapacity: true)
            for i in first..<(lineEnd - 1) {
                let p = lines[i], q = lines[i + 1], from = lineDistances[i], to = lineDistances[i + 1]
                if center.isEmpty {
                    guard to >= a && to > from else { continue }
                    center.append(a <= from ? p : p + (q - p) * ((a - from) / (to - from)))
                    isCorner.append(true)
                }
                if to >= b {
                    addCenterPoint(b >= to ? q : p + (q - p) * ((b - from) / (to - from)), isCorner: true)
                    break
                }
                addCenterPoint(q, isCorner: lineCorners[i + 1])
            }
            guard !center.isEmpty else { continue }
            subpathDraws = true
            finishSubpath(closed: false)
        }
    }

    /// Strokes every subpath of `elements`.
    mutating func stroke(_ elements: [PathElement]) {
        points.reserveCapacity(4 * elements.count + 64)
        var current = Point.zero
        var start = Point.zero
        for element in elements {
            switch element {
            case .move(let p):
                finishSubpath(closed: false)
                beginSubpath(at: p)
                start = p; current = p
            case .line(let p):
                continueSubpath(from: current)
                addCenterPoint(p, isCorner: true)
                current = p
            case .quad(let c, let p):
                continueSubpath(from: current)
                addQuad(current, c, p)
                current = p
            case .cubic(let c1, let c2, let p):
                continueSubpath(from: current)
                addCubic(current, c1, c2, p)
                current = p
            case .close:
                continueSubpath(from: current)
                finishSubpath(closed: true)
                // A drawing command after close starts a new subpath at this one's start.
                current = start
            }
        }
        finishSubpath(closed: false)
    }

    private mutating func beginSubpath(at p: Point) {
        center.removeAll(keepingCapacity: true)
        isCorner.removeAll(keepingCapacity: true)
        center.append(p)
        isCorner.append(true)
        subpathDraws = false
    }

    /// Marks the subpath as drawing, starting one at `current` if the previous one was closed.
    @inline(__always)
    private mutating func continueSubpath(from current: Point) {
        if center.isEmpty { beginSubpath(at: current) }
        subpathDraws = true
    }

    /// Appends a centre-line vertex, merging it into the previous one when they coincide (a
    /// merged vertex is a corner if either was).
    @inline(__always)
    private mutating func addCenterPoint(_ p: Point, isCorner corner: Bool) {
        let last = center[center.count - 1]
        let dx = p.x - last.x, dy = p.y - last.y
        if dx * dx + dy * dy <= mergeDistanceSquared {
            if corner { isCorner[isCorner.count - 1] = true }
            return
        }
        center.append(p)
        isCorner.append(corner)
    }

    // MARK: - Curves

    /// Flattens a quadratic: chords within half the tolerance, and a turn per chord small
    /// enough that its offsets stay within the other half.
    private mutating func addQuad(_ p0: Point, _ c: Point, _ p1: Point) {
        let byChord = Flattening.segmentCount(p0, c, p1, tolerance: curveTolerance)
        let n = max(byChord, chordsForTurning(controlTurning(c - p0, p1 - c, .zero)))
        for i in 1..<n {
            let t = Double(i) / Double(n), mt = 1 - t
            let a = mt * mt, b = 2 * mt * t, d = t * t
            addCenterPoint(
                Point(x: a * p0.x + b * c.x + d * p1.x, y: a * p0.y + b * c.y + d * p1.y),
                isCorner: false)
        }
        addCenterPoint(p1, isCorner: true)
    }

    /// Flattens a cubic by the same rule as `addQuad`.
    private mutating func addCubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point) {
        let byChord = Flattening.segmentCount(p0, c1, c2, p1, tolerance: curveTolerance)
        let n = max(byChord, chordsForTurning(controlTurning(c1 - p0, c2 - c1, p1 - c2)))
        for i in 1..<n {
            addCenterPoint(Path.cubicPoint(p0, c1, c2, p1, Double(i) / Double(n)), isCorner: false)
        }
        addCenterPoint(p1, isCorner: true)
    }

    /// Total turning of a control polygon given by its edges (zero edges skipped): a Bézier
    /// curve turns no more than its control polygon.
    private func controlTurning(_ e0: Point, _ e1: Point, _ e2: Point) -> Double {
        let has0 = isEdge(e0), has1 = isEdge(e1), has2 = isEdge(e2)
        var total = 0.0
        if has0 && has1 { total += Stroker.angle(e0, e1) }
        if has1 && has2 { total += Stroker.angle(e1, e2) }
        if has0 && !has1 && has2 { total += Stroker.angle(e0, e2) }
        return total
    }

    @inline(__always)
    private func isEdge(_ e: Point) -> Bool { e.x * e.x + e.y * e.y > mergeDistanceSquared }

    /// The unsigned angle between two vectors.
    @inline(__always)
    private static func angle(_ a: Point, _ b: Point) -> Double { atan2(abs(a.cross(b)), a.dot(b)) }

    @inline(__always)
    private func chordsForTurning(_ angle: Double) -> Int {
        Flattening.clampCount(angle / geometry.smoothTurn)
    }

    // MARK: - Subpaths

    private mutating func finishSubpath(closed: Bool) {
        defer {
            center.removeAll(keepingCapacity: true)
            isCorner.removeAll(keepingCapacity: true)
        }
        guard subpathDraws, !center.isEmpty else { return }
        if closed, center.count > 1 {
            let first = center[0], last = center[center.count - 1]
            let dx = first.x - last.x, dy = first.y - last.y
            if dx * dx + dy * dy <= mergeDistanceSquared {
                center.removeLast()
                isCorner.removeLast()
            }
        }
        if trimming {
            // Kept to be cut (see `stroke(_:from:to:)`); a closed subpath returns to its start.
            if closed { addCenterPoint(center[0], isCorner: true) }
            var distance = 0.0
            for i in center.indices {
                if i > 0 {
                    let d = center[i] - center[i - 1]
                    distance += (d.x * d.x + d.y * d.y).squareRoot()
                }
                lineDistances.append(distance)
            }
            lines.append(contentsOf: center)
            lineCorners.append(contentsOf: isCorner)
            lineEnds.append(lines.count)
            return
        }
        if center.count == 1 {
            // No length: caps only, as Skia draws a zero-length line, closed or not. Its
            // direction is undefined, so the cap is upright.
            strokeDot(at: center[0])
        } else if closed {
            isCorner[0] = true
            let ring = strokeClosed()
            // A ring beside other contours may overlap them.
            windsAtMostOnce = ring && contourEnds.count == 2
        } else {
            strokeOpen()
        }
    }

    /// Unit direction and length of `v`, without overflow for huge coordinates.
    @inline(__always)
    private static func direction(_ v: Point) -> (Point, Double) {
        var length = (v.x * v.x + v.y * v.y).squareRoot()
        if !length.isFinite || length < 1e-150 { length = hypot(v.x, v.y) }
        return (Point(x: v.x / length, y: v.y / length), length)
    }

    /// One contour: the plus side forwards, the end cap, the minus side backwards, the start cap.
    private mutating func strokeOpen() {
        let r = geometry.radius
        let count = center.count
        let first = center[0]
        let (firstDirection, firstLength) = Stroker.direction(center[1] - first)
        let firstNormal = Point(x: -firstDirection.y, y: firstDirection.x)
        // A square cap is the butt end of the line carried on by half the width.
        let capExtension = geometry.cap == .square ? r : 0
        let start = first - firstDirection * capExtension
        minusSide.removeAll(keepingCapacity: true)
        points.append(start + firstNormal * r)
        minusSide.append(start - firstNormal * r)

        var turns = TurnCheck(first: firstDirection)
        var d0 = firstDirection, l0 = firstLength
        for i in 1..<(count - 1) {
            let (d1, l1) = Stroker.direction(center[i + 1] - center[i])
            let insideAtCrossing = geometry.appendJoin(
                at: center[i], from: d0, length: l0, to: d1, length: l1,
                isCorner: isCorner[i], plus: &points, minus: &minusSide)
            turns.join(d0, d1, insideAtCrossing: insideAtCrossing)
            d0 = d1; l0 = l1
        }

        let end = center[count - 1] + d0 * capExtension
        let lastNormal = Point(x: -d0.y, y: d0.x)
        points.append(end + lastNormal * r)
        geometry.appendRoundCap(at: end, direction: d0, into: &points)
        minusSide.append(end - lastNormal * r)
        points.append(contentsOf: minusSide.reversed())
        geometry.appendRoundCap(at: start, direction: -firstDirection, into: &points)
        contourEnds.append(points.count)
        // A simple polygon beside other contours may overlap them.
        windsAtMostOnce = turns.staysWithinHalfATurn && contourEnds.count == 1
    }

    /// Two contours: the plus side forwards, then the minus side backwards, with a join at
    /// every vertex, the start included. Returns whether they make a ring (`windsAtMostOnce`).
    private mutating func strokeClosed() -> Bool {
        let count = center.count
        minusSide.removeAll(keepingCapacity: true)
        var (d0, l0) = Stroker.direction(center[0] - center[count - 1])
        var turns = TurnCheck(first: d0)
        for i in 0..<count {
            let next = i + 1 < count ? center[i + 1] : center[0]
            let (d1, l1) = Stroker.direction(next - center[i])
            let insideAtCrossing = geometry.appendJoin(
                at: center[i], from: d0, length: l0, to: d1, length: l1,
                isCorner: isCorner[i], plus: &points, minus: &minusSide)
            turns.join(d0, d1, insideAtCrossing: insideAtCrossing)
            d0 = d1; l0 = l1
        }
        contourEnds.append(points.count)
        points.append(contentsOf: minusSide.reversed())
        contourEnds.append(points.count)
        return turns.goesRoundOnce
    }

    /// A zero-length subpath: its two caps, facing up and down, wound like any other contour
    /// (as a vertical line would be).
    private mutating func strokeDot(at p: Point) {
        let r = geometry.radius
        switch geometry.cap {
        case .butt:
            return
        case .square:
            points.append(Point(x: p.x + r, y: p.y - r))
            points.append(Point(x: p.x - r, y: p.y - r))
            points.append(Point(x: p.x - r, y: p.y + r))
            points.append(Point(x: p.x + r, y: p.y + r))
        case .round:
            let up = Point(x: 0, y: -1), normal = Point(x: 1, y: 0)
            points.append(p + normal * r)
            geometry.appendRoundCap(at: p, direction: up, into: &points)
            points.append(p - normal * r)
            geometry.appendRoundCap(at: p, direction: -up, into: &points)
        }
        contourEnds.append(points.count)
        windsAtMostOnce = false
    }

    // MARK: - Output

    /// The contours as a path; empty if arithmetic on huge coordinates left anything non-finite.
    func outlinePath() -> Path {
        var path = Path()
        path.reserveCapacity(points.count + contourEnds.count)
        var start = 0
        for end in contourEnds {
            defer { start = end }
            guard end - start >= 3 else { continue }
            var previous = points[start]
            guard previous.x.isFinite, previous.y.isFinite else { return Path() }
            path.move(to: previous)
            for p in points[(start + 1)..<end] {
                guard p.x.isFinite, p.y.isFinite else { return Path() }
                if p != previous { path.addLine(to: p); previous = p }
            }
            path.closeSubpath()
        }
        return path
    }
}

/// How a centre line turns, join by join: whether its stroke's outline winds at most once
/// (`Stroker.windsAtMostOnce`).
///
/// Every turn is one way (or none, straight on), and the inside of every corner is where the
/// offsets cross, no further along either segment than its middle: each inner edge keeps its
/// segment's direction, moved in by half the width, and the outer edges are the segments moved
/// out, at least as long, joined by miters, bevels or arcs that turn the same way.
///
/// A closed line whose direction goes round exactly once is a convex polygon: the inner contour
/// is it shrunk by half the width, convex and inside it, the outer one around it, and the two
/// are wound against each other (a ring). An open line whose direction stays within half a turn
/// of its first one never heads back against any part of itself: neither do its two sides, the
/// inner one on its hollow side and the outer one on the other, so its one contour, closed by
/// the caps across its ends, crosses itself nowhere (ends that face half a turn apart lie side
/// by side, at least a width apart when the corners between them keep their crossings).
private struct TurnCheck {
    private let first: Point
    private var turnsLeft = false, turnsRight = false, broken = false
    private var leftOfFirst = false, rightOfFirst = false
    private var wraps = 0

    init(first: Point) { self.first = first }

    @inline(__always)
    mutating func join(_ d0: Point, _ d1: Point, insideAtCrossing: Bool) {
        let cross = d0.cross(d1)
        if cross > 0 {
            turnsLeft = true
        } else if cross < 0 {
            turnsRight = true
        } else if d0.dot(d1) <= 0 {
            broken = true  // a U-turn
        }
        if !insideAtCrossing { broken = true }
        let side = first.cross(d1)
        if side > 0 { leftOfFirst = true } else if side < 0 { rightOfFirst = true }
        // Turning either way, each turn less than half of one, the direction passes the angle
        // π once per time round: counted where it leaves the half-plane of angles in [0, π).
        if TurnCheck.inUpperHalf(d0) && !TurnCheck.inUpperHalf(d1) { wraps += 1 }
    }

    /// A closed line's stroke is a ring.
    var goesRoundOnce: Bool { !broken && !(turnsLeft && turnsRight) && wraps == 1 }

    /// An open line's stroke is a simple polygon: turning left, no direction lies to the right
    /// of the first one (it would have turned past half a turn), and the other way round.
    var staysWithinHalfATurn: Bool {
        !broken && !(turnsLeft && turnsRight) && !(turnsLeft && rightOfFirst) && !(turnsRight && leftOfFirst)
    }

    @inline(__always)
    private static func inUpperHalf(_ d: Point) -> Bool { d.y > 0 || (d.y == 0 && d.x > 0) }
}
