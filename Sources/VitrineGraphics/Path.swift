import Glibc

/// One drawing command of a path.
public enum PathElement: Hashable, Sendable {
    case move(to: Point)
    case line(to: Point)
    case quad(control: Point, to: Point)
    case cubic(control1: Point, control2: Point, to: Point)
    case close

    /// The element's end point (nil for `close`, which ends at its subpath's start).
    public var endPoint: Point? {
        switch self {
        case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p): return p
        case .close: return nil
        }
    }

    public func applying(_ t: Transform2D) -> PathElement {
        switch self {
        case .move(let p): return .move(to: t.apply(to: p))
        case .line(let p): return .line(to: t.apply(to: p))
        case .quad(let c, let p): return .quad(control: t.apply(to: c), to: t.apply(to: p))
        case .cubic(let c1, let c2, let p):
            return .cubic(control1: t.apply(to: c1), control2: t.apply(to: c2), to: t.apply(to: p))
        case .close: return .close
        }
    }
}

/// How the inside of a path is decided when it is filled.
public enum FillRule: String, Sendable, CaseIterable {
    case nonZero
    case evenOdd
}

/// A resolution-independent outline, as CGPath / UIBezierPath: subpaths of lines, quadratic
/// and cubic Béziers. A value type; building it never touches pixels.
///
/// Like CoreGraphics, a drawing command with no current point starts a subpath at its own
/// start (for `addLine`, a move to the point), and `addArc` first draws a line from the current
/// point to the arc's start.
public struct Path: Hashable, Sendable {
    public private(set) var elements: [PathElement] = []
    /// The point the next element starts from (nil in an empty path).
    public private(set) var currentPoint: Point?
    /// Where the current subpath started: `close` returns here.
    private var subpathStart: Point?

    public init() {}

    public init(elements: [PathElement]) {
        for e in elements { append(e) }
    }

    public var isEmpty: Bool { elements.isEmpty }

    /// Makes room for `count` elements in total, for builders that know their size up front.
    public mutating func reserveCapacity(_ count: Int) { elements.reserveCapacity(count) }

    /// Empties the path; with `keepingCapacity`, its storage stays for the next one built in it.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        elements.removeAll(keepingCapacity: keepingCapacity)
        currentPoint = nil
        subpathStart = nil
    }

    // MARK: - Primitive commands

    public mutating func move(to p: Point) {
        elements.append(.move(to: p))
        currentPoint = p
        subpathStart = p
    }

    public mutating func addLine(to p: Point) {
        guard currentPoint != nil else { move(to: p); return }
        elements.append(.line(to: p))
        currentPoint = p
    }

    public mutating func addQuadCurve(to p: Point, control c: Point) {
        if currentPoint == nil { move(to: c) }
        elements.append(.quad(control: c, to: p))
        currentPoint = p
    }

    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        if currentPoint == nil { move(to: c1) }
        elements.append(.cubic(control1: c1, control2: c2, to: p))
        currentPoint = p
    }

    public mutating func closeSubpath() {
        guard currentPoint != nil, let last = elements.last, last != .close else { return }
        elements.append(.close)
        currentPoint = subpathStart
    }

    /// Appends one element with the same meaning as the matching command.
    public mutating func append(_ element: PathElement) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): addLine(to: p)
        case .quad(let c, let p): addQuadCurve(to: p, control: c)
        case .cubic(let c1, let c2, let p): addCurve(to: p, control1: c1, control2: c2)
        case .close: closeSubpath()
        }
    }

    /// Appends every subpath of `other` (its first element starts a new subpath).
    public mutating func addPath(_ other: Path, transform: Transform2D = .identity) {
        for e in other.elements { append(transform.isIdentity ? e : e.applying(transform)) }
    }

    // MARK: - Shapes

    /// A closed rectangle: top-left, top-right, bottom-right, bottom-left (clockwise on screen).
    public mutating func addRect(_ r: Rect) {
        let s = r.standardized
        move(to: Point(x: s.minX, y: s.minY))
        addLine(to: Point(x: s.maxX, y: s.minY))
        addLine(to: Point(x: s.maxX, y: s.maxY))
        addLine(to: Point(x: s.minX, y: s.maxY))
        closeSubpath()
    }

    /// A closed ellipse inscribed in `r`: four cubics starting at the rightmost point,
    /// clockwise on screen.
    public mutating func addEllipse(in r: Rect) {
        let s = r.standardized
        let c = s.center, rx = s.width / 2, ry = s.height / 2
        move(to: Point(x: c.x + rx, y: c.y))
        appendEllipticArc(center: c, rx: rx, ry: ry, start: 0, sweep: 2 * .pi)
        closeSubpath()
    }

    /// A closed rounded rectangle with the same radius at every corner, clamped to half the
    /// shorter side.
    public mutating func addRoundedRect(_ r: Rect, cornerRadius: Double) {
        let s = r.standardized
        let radius = max(0, min(cornerRadius, s.width / 2, s.height / 2))
        addRoundedRect(s, cornerRadii: CornerRadii(uniform: radius))
    }

    /// A closed rounded rectangle with its own radius at each corner. When the radii of two
    /// corners on one side add up to more than that side, every radius is scaled down by the
    /// same factor (as UIKit and CSS do), so the corners meet but never overlap.
    public mutating func addRoundedRect(_ r: Rect, cornerRadii radii: CornerRadii) {
        let s = r.standardized
        let clamped = radii.clamped(to: s.size)
        let (tl, tr, br, bl) = (clamped.topLeft, clamped.topRight, clamped.bottomRight, clamped.bottomLeft)
        move(to: Point(x: s.minX + tl, y: s.minY))
        addLine(to: Point(x: s.maxX - tr, y: s.minY))
        if tr > 0 {
            appendEllipticArc(
                center: Point(x: s.maxX - tr, y: s.minY + tr), rx: tr, ry: tr,
                start: -.pi / 2, sweep: .pi / 2)
        }
        addLine(to: Point(x: s.maxX, y: s.maxY - br))
        if br > 0 {
            appendEllipticArc(
                center: Point(x: s.maxX - br, y: s.maxY - br), rx: br, ry: br,
                start: 0, sweep: .pi / 2)
        }
        addLine(to: Point(x: s.minX + bl, y: s.maxY))
        if bl > 0 {
            appendEllipticArc(
                center: Point(x: s.minX + bl, y: s.maxY - bl), rx: bl, ry: bl,
                start: .pi / 2, sweep: .pi / 2)
        }
        addLine(to: Point(x: s.minX, y: s.minY + tl))
        if tl > 0 {
            appendEllipticArc(
                center: Point(x: s.minX + tl, y: s.minY + tl), rx: tl, ry: tl,
                start: .pi, sweep: .pi / 2)
        }
        closeSubpath()
    }

    /// A circular arc with CoreGraphics semantics in a y-down space: angle 0 points to +x,
    /// `clockwise` means clockwise on screen (increasing angle). A line joins the current
    /// point to the arc's start; with no current point the arc starts a subpath. The sweep is
    /// the angle from start to end in the given direction, less than one full turn unless the
    /// angles themselves are a full turn or more apart.
    public mutating func addArc(
        center: Point, radius: Double, startAngle: Double, endAngle: Double,
        clockwise: Bool
    ) {
        let sweep = Path.arcSweep(startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        let start = Point(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if currentPoint == nil { move(to: start) } else { addLine(to: start) }
        appendEllipticArc(center: center, rx: radius, ry: radius, start: startAngle, sweep: sweep)
    }

    /// The same arc with its cubics split where the angle is `anchor` + k·45° (plus its ends)
    /// instead of into equal parts: arcs that share a stretch of the circle then share its
    /// cubics bit for bit, so a growing arc (an arrow, a pie sector) draws the part it already
    /// covered exactly as before and only the stretch near its moving end changes.
    public mutating func addArc(
        center: Point, radius: Double, startAngle: Double, endAngle: Double,
        clockwise: Bool, splitAnchor anchor: Double
    ) {
        let sweep = Path.arcSweep(startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        let start = Point(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if currentPoint == nil { move(to: start) } else { addLine(to: start) }
        appendEllipticArc(center: center, rx: radius, ry: radius, start: startAngle, sweep: sweep, splitAnchor: anchor)
    }

    /// The angle at which `addArc(…splitAnchor:)` splits an arc that starts at `anchor` and
    /// runs `distance` radians (sign: direction) last before reaching its end: the arc's cubics
    /// up to there are the same for every arc from `anchor` at least that long.
    public static func lastSplit(from anchor: Double, distance: Double) -> Double {
        let step = Double.pi / 4
        return anchor + (distance / step).rounded(.towardZero) * step
    }

    /// The signed sweep of an arc from `startAngle` to `endAngle` in the given direction,
    /// clamped to one full turn.
    public static func arcSweep(startAngle: Double, endAngle: Double, clockwise: Bool) -> Double {
        var sweep = endAngle - startAngle
        guard sweep.isFinite else { return 0 }
        let turn = 2 * Double.pi
        if clockwise {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) + turn }
            return min(sweep, turn)
        } else {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) - turn }
            return max(sweep, -turn)
        }
    }

    /// Appends cubics approximating an elliptic arc (axis-aligned radii) from the current
    /// point, which must already be at the arc's start. Each cubic spans at most 45°: its
    /// radius then strays by 4·10⁻⁶ of the radius (90° cubics stray by 2.7·10⁻⁴, a visible
    /// tenth of a pixel on a large circle, and lengthen a circle by 0.014 %).
    ///
    /// With a `splitAnchor` the cubics end where the angle is `splitAnchor` + k·45° instead of
    /// splitting the sweep equally (an end within 10⁻¹² of such an angle is taken as it).
    mutating func appendEllipticArc(
        center c: Point, rx: Double, ry: Double, start: Double, sweep: Double,
        rotation: Double = 0, splitAnchor: Double? = nil
    ) {
        guard sweep != 0, sweep.isFinite else { return }
        let ends = ArcSplits(start: start, sweep: sweep, anchor: splitAnchor)
        let cr = cos(rotation), sr = sin(rotation)
        func map(_ x: Double, _ y: Double) -> Point {
            Point(x: c.x + x * cr - y * sr, y: c.y + x * sr + y * cr)
        }
        var a0 = start
        for a1 in ends {
            let k = 4.0 / 3.0 * tan((a1 - a0) / 4)
            let cos0 = cos(a0), sin0 = sin(a0), cos1 = cos(a1), sin1 = sin(a1)
            let p1 = map(rx * (cos0 - k * sin0), ry * (sin0 + k * cos0))
            let p2 = map(rx * (cos1 + k * sin1), ry * (sin1 - k * cos1))
            let p3 = map(rx * cos1, ry * sin1)
            addCurve(to: p3, control1: p1, control2: p2)
            a0 = a1
        }
    }

    /// The end angles of the cubics of an arc, one at a time (nothing allocated per arc):
    /// equal parts of at most 45°, or with an anchor near zero the angles `anchor` + k·45°
    /// strictly inside the arc, then its end.
    struct ArcSplits: Sequence, IteratorProtocol {
        private static let step = Double.pi / 4
        private static let epsilon = 1e-12
        private let start: Double, end: Double
        /// Grid mode: the anchor and the direction of travel; nil splits equally.
        private let grid: (anchor: Double, direction: Double)?
        private let parts: Int, part: Double
        private var k: Double
        private var index = 0
        private var finished = false

        init(start: Double, sweep: Double, anchor: Double?) {
            self.start = start
            // A grid far from zero (or not a number) splits equally: its angles would lose the
            // precision that makes shared cubics identical.
            guard let anchor, abs(anchor) < 1e6, abs(start) < 1e6 else {
                grid = nil
                parts = Swift.max(1, Int((abs(sweep) / ArcSplits.step - 1e-9).rounded(.up)))
                part = sweep / Double(parts)
                end = start + sweep
                k = 0
                return
            }
            let direction = sweep > 0 ? 1.0 : -1.0
            grid = (anchor, direction)
            parts = 0
            part = 0
            var end = start + sweep
            let nearest = anchor + ((end - anchor) / ArcSplits.step).rounded() * ArcSplits.step
            if abs(end - nearest) < ArcSplits.epsilon { end = nearest }
            self.end = end
            k = ((start - anchor) / ArcSplits.step).rounded(direction > 0 ? .down : .up)
        }

        mutating func next() -> Double? {
            if finished { return nil }
            guard let grid else {
                index += 1
                if index >= parts { finished = true; return end }
                return start + Double(index) * part
            }
            // A sweep is at most a turn: at most 9 grid angles come before the end.
            while index < 10 {
                index += 1
                let angle = grid.anchor + k * ArcSplits.step
                k += grid.direction
                if grid.direction * (end - angle) <= ArcSplits.epsilon { break }
                if grid.direction * (angle - start) > ArcSplits.epsilon { return angle }
            }
            finished = true
            return end
        }
    }

    // MARK: - Whole-path operations

    /// The path with every point transformed.
    public func applying(_ t: Transform2D) -> Path {
        if t.isIdentity { return self }
        var p = Path()
        p.addPath(self, transform: t)
        return p
    }

    /// The smallest rectangle containing every point and control point (CGPathGetBoundingBox).
    public var controlPointBounds: Rect {
        var r = Rect.null
        func add(_ p: Point) { r = r.union(Rect(origin: p, size: .zero)) }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p): add(c); add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        return r
    }

    /// The tight bounds of the outline, curve extremes included (CGPathGetPathBoundingBox).
    public var bounds: Rect {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
        }
        var current = Point.zero
        var start = Point.zero
        for e in elements {
            switch e {
            case .move(let p): add(p); current = p; start = p
            case .line(let p): add(p); current = p
            case .quad(let c, let p):
                // Raise to a cubic: same curve, one extremum routine.
                let c1 = current + (c - current) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
                Path.forEachCubicExtremum(current, c1, c2, p, add)
                add(p); current = p
            case .cubic(let c1, let c2, let p):
                Path.forEachCubicExtremum(current, c1, c2, p, add)
                add(p); current = p
            case .close: current = start
            }
        }
        if minX > maxX { return .null }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Calls `body` with each point of a cubic where x or y reaches a local extremum strictly
    /// inside (0, 1).
    static func forEachCubicExtremum(
        _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ body: (Point) -> Void
    ) {
        @inline(__always) func visit(_ t: Double) { if t > 0 && t < 1 { body(Path.cubicPoint(p0, p1, p2, p3, t)) } }
        for axis in 0..<2 {
            let v0 = axis == 0 ? p0.x : p0.y, v1 = axis == 0 ? p1.x : p1.y
            let v2 = axis == 0 ? p2.x : p2.y, v3 = axis == 0 ? p3.x : p3.y
            // Derivative / 3: a t² + b t + c
            let a = -v0 + 3 * v1 - 3 * v2 + v3, b = 2 * (v0 - 2 * v1 + v2), c = v1 - v0
            if abs(a) < 1e-12 {
                if abs(b) > 1e-12 { visit(-c / b) }
            } else {
                let disc = b * b - 4 * a * c
                if disc >= 0 {
                    let s = disc.squareRoot()
                    visit((-b + s) / (2 * a))
                    visit((-b - s) / (2 * a))
                }
            }
        }
    }

    /// The point of the quadratic p0, c, p2 at parameter `t`.
    @inline(__always)
    public static func quadPoint(_ p0: Point, _ c: Point, _ p2: Point, _ t: Double) -> Point {
        let mt = 1 - t
        return Point(
            x: mt * mt * p0.x + 2 * mt * t * c.x + t * t * p2.x, y: mt * mt * p0.y + 2 * mt * t * c.y + t * t * p2.y)
    }

    /// The point of the cubic p0 … p3 at parameter `t`.
    @inline(__always)
    public static func cubicPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
        let mt = 1 - t
        let a = mt * mt * mt, b = 3 * mt * mt * t, c = 3 * mt * t * t, d = t * t * t
        return Point(
            x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
            y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// True when every coordinate is finite.
    public var isFinite: Bool {
        elements.allSatisfy { e in
            switch e {
            case .move(let p), .line(let p): return p.isFinite
            case .quad(let c, let p): return c.isFinite && p.isFinite
            case .cubic(let c1, let c2, let p): return c1.isFinite && c2.isFinite && p.isFinite
            case .close: return true
            }
        }
    }
}

/// The radii of the four corners of a rounded rectangle.
public struct CornerRadii: Hashable, Sendable {
    public var topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double

    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft; self.topRight = topRight
        self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }

    public init(uniform r: Double) { self.init(topLeft: r, topRight: r, bottomRight: r, bottomLeft: r) }

    /// Negative radii become 0; if two radii on one side need more than the side's length,
    /// all four are scaled by the smallest such ratio.
    public func clamped(to size: Size) -> CornerRadii {
        var r = CornerRadii(
            topLeft: max(0, topLeft), topRight: max(0, topRight),
            bottomRight: max(0, bottomRight), bottomLeft: max(0, bottomLeft))
        let w = abs(size.width), h = abs(size.height)
        var scale = 1.0
        for (sum, side) in [
            (r.topLeft + r.topRight, w), (r.bottomLeft + r.bottomRight, w),
            (r.topLeft + r.bottomLeft, h), (r.topRight + r.bottomRight, h)
        ] where sum > side {
            scale = min(scale, side / sum)
        }
        if scale < 1 {
            r.topLeft *= scale; r.topRight *= scale; r.bottomRight *= scale; r.bottomLeft *= scale
        }
        return r
    }
}
