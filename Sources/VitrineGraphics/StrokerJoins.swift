import Glibc

/// The shapes a stroke draws around the vertices of its flattened centre line: joins between
/// segments, caps at the ends of open subpaths, and the round arcs both may use.
///
/// Each segment of the centre line contributes its two offsets, at `+normal · radius` (the
/// plus side) and `-normal · radius` (the minus side), where the normal of a direction `d` is
/// `(-d.y, d.x)`. The stroker collects each side's points in path order; joins append to both.
///
/// Orientation rule that keeps the nonzero fill hole-free: the outline is the sum of one
/// quadrilateral per segment plus one fan per outer join and per cap, all wound the same way.
/// The inner side of a join therefore goes through the pivot (the shared vertex), as Skia does,
/// unless both segments are long enough that their inner offsets simply cross; then the
/// crossing point alone is used, which removes only a doubly covered sliver.
struct StrokeGeometry {
    /// Half the line width.
    let radius: Double
    let join: LineJoin
    let cap: LineCap
    /// A miter join is drawn while cos²(turn / 2) ≥ this (1 / miterLimit²), a bevel otherwise.
    let miterMinCosSquared: Double
    /// The largest angle one chord of a round join or cap may span: the sagitta of such a chord
    /// is the tolerance. Inner arc vertices then sit slightly outside the circle (see
    /// `arcVertexRadius`), which halves the error of all chords but the first and last (those
    /// start on the circle, at the offsets), and keeps the polygon's area close to the disc's.
    let arcStep: Double
    /// Turns up to this angle are joined by one miter point on each side whatever the style:
    /// the miter then sticks out by less than half the tolerance. Between the vertices of a
    /// flattened curve, where Skia offsets the curve smoothly, larger turns become round arcs
    /// cut at this angle (a cusp so gets the disc Skia adds there).
    let smoothTurn: Double
    /// cos(smoothTurn), to test turns without an arctangent.
    let smoothTurnCos: Double
    /// A round cap: how many chords span its half turn, the rotation of one chord, and the
    /// distance of its vertices from the centre.
    let capChords: Int
    let capChordCos: Double
    let capChordSin: Double
    let capVertexRadius: Double

    init(style: StrokeStyle, tolerance: Double) {
        let r = style.lineWidth / 2
        radius = r
        join = style.lineJoin
        cap = style.lineCap
        let limit = style.miterLimit
        miterMinCosSquared = limit.isNaN ? 1 : 1 / (limit * limit)
        // Sagitta of a chord spanning `a` on a circle of radius r: r·(1 − cos(a/2)).
        arcStep = min(.pi / 2, 2 * acos(max(-1, 1 - tolerance / r)))
        // Overshoot of a miter point over a turn `a`: r·(1/cos(a/2) − 1), held under tolerance/2.
        smoothTurn = min(.pi / 2, 2 * acos(r / (r + tolerance / 2)))
        smoothTurnCos = cos(smoothTurn)
        capChords = StrokeGeometry.chordCount(angle: .pi, step: arcStep)
        let capChord = -Double.pi / Double(capChords)
        capChordCos = cos(capChord)
        capChordSin = sin(capChord)
        capVertexRadius = StrokeGeometry.arcVertexRadius(radius: r, chordCos: capChordCos)
    }

    /// Where the inner vertices of an arc of `radius` cut in chords of angle `a` go, given
    /// cos(a): at 2r / (1 + cos(a/2)), half of each chord's error outside the circle and half
    /// inside.
    @inline(__always)
    static func arcVertexRadius(radius: Double, chordCos: Double) -> Double {
        2 * radius / (1 + ((1 + chordCos) / 2).squareRoot())
    }

    /// Chords for an arc of `angle` radians cut at `step`, at least one, at most the share of
    /// `Flattening.maxSegmentsPerCurve` that the arc is of a full turn.
    @inline(__always)
    static func chordCount(angle: Double, step: Double) -> Int {
        guard angle > 0, angle.isFinite else { return 1 }  // NaN from overflowed coordinates
        let limit = max(1, Int(Double(Flattening.maxSegmentsPerCurve) * angle / (2 * .pi)))
        let wanted = angle / step
        guard wanted < Double(limit) else { return limit }  // also catches infinity
        return max(1, Int(wanted.rounded(.up)))
    }

    // MARK: - Joins

    /// Appends the join at `pivot` between a segment along unit direction `d0` of length `l0`
    /// and the next along `d1` of length `l1`: the plus side's points to `plus`, the minus
    /// side's to `minus`, both in path order. `isCorner` is false between the vertices of a
    /// flattened curve, which are always joined smoothly. Returns whether the inside of the
    /// corner is where the offsets cross (not through the pivot).
    @inline(__always)
    func appendJoin(
        at pivot: Point, from d0: Point, length l0: Double, to d1: Point, length l1: Double,
        isCorner: Bool, plus: inout [Point], minus: inout [Point]
    ) -> Bool {
        let cross = d0.cross(d1), dot = d0.dot(d1)
        let n0 = Point(x: -d0.y, y: d0.x), n1 = Point(x: -d1.y, y: d1.x)
        // Turning towards the plus side puts it inside the corner. An exact U-turn (cross 0)
        // counts as such a turn too, so both sides agree on which way the outer arc goes.
        if cross >= 0 {
            let crossing = appendInner(at: pivot, n0, n1, dot: dot, cross: cross, l0, l1, into: &plus)
            appendOuter(
                at: pivot, -n0, -n1, dot: dot, cross: cross, rotation: 1, isCorner: isCorner,
                into: &minus)
            return crossing
        } else {
            appendOuter(
                at: pivot, n0, n1, dot: dot, cross: cross, rotation: -1, isCorner: isCorner,
                into: &plus)
            return appendInner(at: pivot, -n0, -n1, dot: dot, cross: cross, l0, l1, into: &minus)
        }
    }

    /// The inside of a corner: where the two offsets cross, or through the pivot when the
    /// crossing would lie beyond half of either segment (short segments, sharp turns). Returns
    /// whether it is the crossing.
    @inline(__always)
    private func appendInner(
        at pivot: Point, _ n0: Point, _ n1: Point, dot: Double, cross: Double,
        _ l0: Double, _ l1: Double, into side: inout [Point]
    ) -> Bool {
        // The crossing lies radius · tan(turn / 2) = radius · |cross| / (1 + dot) from the pivot's
        // offsets along each segment.
        let onePlusDot = 1 + dot
        if onePlusDot > 1e-9, radius * abs(cross) <= 0.5 * min(l0, l1) * onePlusDot {
            side.append(pivot + (n0 + n1) * (radius / onePlusDot))
            return true
        }
        side.append(pivot + n0 * radius)
        side.append(pivot)
        side.append(pivot + n1 * radius)
        return false
    }

    /// The outside of a corner, from offset `n0` to offset `n1` (unit normals of this side);
    /// `rotation` is the sign of the turn from `n0` to `n1`.
    @inline(__always)
    private func appendOuter(
        at pivot: Point, _ n0: Point, _ n1: Point, dot: Double, cross: Double,
        rotation: Double, isCorner: Bool, into side: inout [Point]
    ) {
        let onePlusDot = 1 + dot
        if dot >= smoothTurnCos {
            side.append(pivot + (n0 + n1) * (radius / onePlusDot))
            return
        }
        let style = isCorner ? join : .round
        switch style {
        case .miter where onePlusDot * 0.5 >= miterMinCosSquared && onePlusDot > 1e-9:
            side.append(pivot + (n0 + n1) * (radius / onePlusDot))
        case .miter, .bevel:
            side.append(pivot + n0 * radius)
            side.append(pivot + n1 * radius)
        case .round:
            side.append(pivot + n0 * radius)
            let turn = atan2(abs(cross), dot)
            appendArc(
                center: pivot, from: n0, angle: rotation * turn,
                step: isCorner ? arcStep : smoothTurn, into: &side)
            side.append(pivot + n1 * radius)
        }
    }

    /// Appends the points strictly inside an arc of this stroke's radius around `center`,
    /// starting at unit vector `u` and turning by `angle` (signed) in chords of at most `step`.
    @inline(__always)
    private func appendArc(
        center: Point, from u: Point, angle: Double, step: Double,
        into side: inout [Point]
    ) {
        let chords = StrokeGeometry.chordCount(angle: abs(angle), step: step)
        guard chords > 1 else { return }
        let chord = angle / Double(chords)
        let c = cos(chord), s = sin(chord)
        let vertexRadius = StrokeGeometry.arcVertexRadius(radius: radius, chordCos: c)
        var v = u
        for _ in 1..<chords {
            v = Point(x: v.x * c - v.y * s, y: v.x * s + v.y * c)
            side.append(center + v * vertexRadius)
        }
    }

    // MARK: - Caps

    /// Appends a round cap at `end` of a segment arriving along unit direction `d`, if the
    /// style has round caps: the points between its plus offset (already appended) and its
    /// minus offset (appended next). For the start of a subpath, pass the reversed first
    /// direction. Butt caps add nothing; square caps are drawn by extending the line.
    @inline(__always)
    func appendRoundCap(at end: Point, direction d: Point, into side: inout [Point]) {
        guard cap == .round else { return }
        // Half a turn from +n through d to −n.
        var v = Point(x: -d.y, y: d.x)
        for _ in 1..<capChords {
            v = Point(x: v.x * capChordCos - v.y * capChordSin, y: v.x * capChordSin + v.y * capChordCos)
            side.append(end + v * capVertexRadius)
        }
    }
}
