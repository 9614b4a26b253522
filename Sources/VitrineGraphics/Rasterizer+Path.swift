/// Geometry into the rasterizer: transform, cull, flatten, clip, quantize.
extension Rasterizer {
    /// Coordinates beyond this magnitude are clamped before any arithmetic, so differences
    /// of two coordinates stay finite; the clamp never moves a visible edge.
    static let coordinateLimit = 1e300

    /// Adds the interior of `path` (every subpath implicitly closed) under `transform`.
    /// Curves are flattened in device space by `Flattening`'s rule. Returns false, adding
    /// nothing, when a transformed coordinate is not finite.
    @discardableResult
    func addPath(_ path: Path, transform t: Transform2D) -> Bool {
        guard !clip.isEmpty, !path.isEmpty else { return true }
        // Pass 1: device bounds of every point, control points included (a cheap upper bound
        // of the outline), and a finiteness check before anything is accumulated.
        var bounds = DeviceBounds()
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p): bounds.add(t.apply(to: p))
            case .quad(let c, let p): bounds.add(t.apply(to: c)); bounds.add(t.apply(to: p))
            case .cubic(let c1, let c2, let p):
                bounds.add(t.apply(to: c1)); bounds.add(t.apply(to: c2)); bounds.add(t.apply(to: p))
            case .close: break
            }
        }
        guard bounds.isFinite else { return false }
        guard var sink = beginShape(bounds, windsAtMostOnce: Rasterizer.isOneConvexContour(path)) else { return true }
        for element in path.elements {
            switch element {
            case .move(let p): sink.move(to: t.apply(to: p))
            case .line(let p): sink.line(to: t.apply(to: p))
            case .quad(let c, let p): sink.quad(t.apply(to: c), t.apply(to: p))
            case .cubic(let c1, let c2, let p): sink.cubic(t.apply(to: c1), t.apply(to: c2), t.apply(to: p))
            case .close: sink.close()
            }
        }
        sink.close()
        return true
    }

    /// Adds closed polygons given as consecutive runs of `points` (run k ends before
    /// `ends[k]`) under `transform`: a stroke outline, without building a `Path`. False,
    /// adding nothing, when a transformed coordinate is not finite. `windsAtMostOnce`: every
    /// point winds 0 or 1 under them, as under the stroke outlines the stroker vouches for
    /// (`Stroker.windsAtMostOnce`), and so under any affine image of them.
    @discardableResult
    func addPolygons(
        _ points: [Point], ends: [Int], windsAtMostOnce: Bool = false, transform t: Transform2D
    ) -> Bool {
        guard !clip.isEmpty, !points.isEmpty else { return true }
        return points.withUnsafeBufferPointer { points in
            var bounds = DeviceBounds()
            for p in points { bounds.add(t.apply(to: p)) }
            guard bounds.isFinite else { return false }
            // One polygon (a card's projection, a segment's stroke) may be convex.
            guard
                var sink = beginShape(
                    bounds,
                    windsAtMostOnce: windsAtMostOnce
                        || ends.count == 1 && Rasterizer.isConvexPolygon(points.prefix(ends[0])))
            else { return true }
            var start = 0
            for end in ends where end > start {
                sink.move(to: t.apply(to: points[start]))
                for i in (start &+ 1)..<end { sink.line(to: t.apply(to: points[i])) }
                start = end
            }
            sink.close()
            return true
        }
    }

    /// Adds a rectangle with rounded corners (radius clamped to half the shorter side; 0 for
    /// a plain rectangle) under `transform`, without building a `Path`. Same outline as
    /// `Path.addRoundedRect(_:cornerRadius:)`. False when a coordinate is not finite.
    @discardableResult
    func addRoundedRect(_ rect: Rect, cornerRadius: Double, transform t: Transform2D) -> Bool {
        guard !clip.isEmpty, !rect.isNull else { return true }
        let s = rect.standardized
        let x0 = s.minX, y0 = s.minY, x1 = s.maxX, y1 = s.maxY
        var bounds = DeviceBounds()
        bounds.add(t.apply(to: Point(x: x0, y: y0))); bounds.add(t.apply(to: Point(x: x1, y: y0)))
        bounds.add(t.apply(to: Point(x: x1, y: y1))); bounds.add(t.apply(to: Point(x: x0, y: y1)))
        guard bounds.isFinite else { return false }
        // Under an affine transform a rounded rectangle stays one convex contour.
        guard var sink = beginShape(bounds, windsAtMostOnce: true) else { return true }
        let r = Rasterizer.clampedCornerRadius(cornerRadius, of: s)
        @inline(__always) func p(_ x: Double, _ y: Double) -> Point { t.apply(to: Point(x: x, y: y)) }
        if r == 0 {
            sink.move(to: p(x0, y0)); sink.line(to: p(x1, y0)); sink.line(to: p(x1, y1)); sink.line(to: p(x0, y1))
        } else {
            // Quarter circles as cubics with the usual 4/3·tan(π/8) handle length.
            let k = r * (1 - 0.5522847498307936)
            sink.move(to: p(x0 + r, y0))
            sink.line(to: p(x1 - r, y0))
            sink.cubic(p(x1 - k, y0), p(x1, y0 + k), p(x1, y0 + r))
            sink.line(to: p(x1, y1 - r))
            sink.cubic(p(x1, y1 - k), p(x1 - k, y1), p(x1 - r, y1))
            sink.line(to: p(x0 + r, y1))
            sink.cubic(p(x0 + k, y1), p(x0, y1 - k), p(x0, y1 - r))
            sink.line(to: p(x0, y0 + r))
            sink.cubic(p(x0, y0 + k), p(x0 + k, y0), p(x0 + r, y0))
        }
        sink.close()
        return true
    }

    /// Paths of more elements than this (polygons of four times as many points) are taken as
    /// not convex without a test. An ellipse has 6, a rounded rectangle 10, a pie's wedge 4 to 8.
    static let convexTestLimit = 16

    /// Whether `path` is one convex contour: a single subpath whose points, control points
    /// included, turn one way all around and go up and down (and left and right) once each.
    /// Its curves then turn the same way (a Bézier curve crosses a line no more often than its
    /// control polygon), and so does any affine image of it, flattened or not: every point
    /// winds 0 or 1. A star that turns one way but goes round twice changes direction too
    /// often.
    static func isOneConvexContour(_ path: Path) -> Bool {
        // Longer paths (a wave, a glyph, a morph's outline) are seldom convex: not worth the test.
        guard path.elements.count <= convexTestLimit else { return false }
        var contour = ConvexityCheck()
        var started = false, closed = false
        for element in path.elements {
            if closed { return false }
            switch element {
            case .move(let p):
                if started { return false }
                started = true
                contour.start(at: p)
            case .line(let p):
                guard started else { return false }
                contour.add(p)
            case .quad(let c, let p):
                guard started else { return false }
                contour.add(c); contour.add(p)
            case .cubic(let c1, let c2, let p):
                guard started else { return false }
                contour.add(c1); contour.add(c2); contour.add(p)
            case .close:
                closed = true
            }
            if contour.failed { return false }
        }
        return started && contour.closes()
    }

    /// Whether the closed polygon through `points` is convex (`isOneConvexContour`'s test).
    static func isConvexPolygon(_ points: Slice<UnsafeBufferPointer<Point>>) -> Bool {
        guard let first = points.first, points.count <= 4 * convexTestLimit else { return false }
        var contour = ConvexityCheck()
        contour.start(at: first)
        for p in points.dropFirst() {
            contour.add(p)
            if contour.failed { return false }
        }
        return contour.closes()
    }

    /// The corner radius `addRoundedRect` uses for the standardized `rect`: clamped to half its
    /// shorter side, 0 when not a number.
    static func clampedCornerRadius(_ radius: Double, of rect: Rect) -> Double {
        radius.isNaN ? 0 : max(0, min(radius, rect.width / 2, rect.height / 2))
    }

    /// A shape's geometry for device bounds `minX…maxX × minY…maxY`: its box widened to whole
    /// pixels, within a `width × height` target (the origin its edges are quantized from).
    static func geometryBox(minX: Double, minY: Double, maxX: Double, maxY: Double, width: Int, height: Int) -> IntRect
    {
        let x0 = Int(max(minX, 0).rounded(.down)), y0 = Int(max(minY, 0).rounded(.down))
        let x1 = Int(min(maxX, Double(width)).rounded(.up)), y1 = Int(min(maxY, Double(height)).rounded(.up))
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `v` in 24.8 fixed point from `lo` (a whole pixel), clamped to `lo…hi` (flattening and
    /// rounding may step a hair outside): how every edge's ends are quantized.
    @inline(__always)
    static func fixedPoint(_ v: Double, from lo: Double, to hi: Double) -> Int {
        Int((min(max(v, lo), hi) - lo) * 256 + 0.5)  // non-negative: truncation rounds
    }

    /// Culls a shape by its device bounds and fixes its geometry and region; nil when the
    /// shape cannot touch the clip. (Entirely left of the clip counts as invisible too: a
    /// closed outline winds to zero at every point to its right.) The geometry is the shape's
    /// box within the target, whatever the clip, so the clip never moves an edge.
    /// `windsAtMostOnce`: every point of the shape winds 0 or 1 (`Rasterizer.beginRegion`).
    private func beginShape(_ b: DeviceBounds, windsAtMostOnce: @autoclosure () -> Bool = false) -> EdgeSink? {
        if b.maxY <= Double(clip.y) || b.minY >= Double(clip.maxY) || b.minX >= Double(clip.maxX)
            || b.maxX <= Double(clip.x) || !(b.minX <= b.maxX)
        {
            return nil
        }
        let box = Rasterizer.geometryBox(
            minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, width: width, height: height)
        // Whether it winds at most once is asked only of a shape that may be drawn.
        let (geometry, region) = beginRegion(box, windsAtMostOnce: windsAtMostOnce())
        guard !region.isEmpty else { return nil }
        // Clipping to the geometry is clipping to the target: the shape lies inside it
        // wherever the target's edges do not cut it.
        let gx0 = Double(geometry.x), gy0 = Double(geometry.y)
        let gx1 = Double(geometry.maxX), gy1 = Double(geometry.maxY)
        let rx0 = Double(region.x), ry0 = Double(region.y)
        let rx1 = Double(region.maxX), ry1 = Double(region.maxY)
        return EdgeSink(
            rasterizer: self, left: gx0, top: gy0, right: gx1, bottom: gy1,
            needsClipping: b.minX < gx0 || b.maxX > gx1 || b.minY < gy0 || b.maxY > gy1,
            visible: (rx0, ry0, rx1, ry1),
            needsCulling: b.minX < rx0 || b.maxX > rx1 || b.minY < ry0 || b.maxY > ry1)
    }
}

/// The device-space box of a shape's points.
private struct DeviceBounds {
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity
    var isFinite = true

    @inline(__always)
    mutating func add(_ p: Point) {
        if !(p.x.isFinite && p.y.isFinite) { isFinite = false }
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
    }
}

/// Where a curve lies relative to the geometry box, judged by its control points (the curve
/// stays inside their convex hull).
private enum CurvePlacement {
    /// Above, below or right of the box: contributes nothing.
    case invisible
    /// Left of the box: only its net vertical travel matters, so its chord stands in.
    case leftOfClip
    case visible
}

/// Clips device-space lines to the shape's geometry box (the target) and hands them to the
/// rasterizer in fixed point. Parts left of it become vertical edges on its left side (they
/// still wind the pixels to their right); parts above, below or right of it are dropped.
///
/// Geometry that cannot reach the visible region (the clip) is skipped before any work, which
/// changes no pixel: curves and lines entirely above, below or right of it add nothing there,
/// and a curve entirely left of it adds only its net vertical travel in each row, which its
/// chord adds too.
private struct EdgeSink {
    let rasterizer: Rasterizer
    let left: Double, top: Double, right: Double, bottom: Double
    let needsClipping: Bool
    /// The visible region (device), and whether the shape reaches beyond it.
    let visibleLeft: Double, visibleTop: Double, visibleRight: Double, visibleBottom: Double
    let needsCulling: Bool
    /// Start of the current subpath and the current point (device space, clamped).
    private var start = Point.zero
    private var current = Point.zero

    init(
        rasterizer: Rasterizer, left: Double, top: Double, right: Double, bottom: Double, needsClipping: Bool,
        visible: (left: Double, top: Double, right: Double, bottom: Double), needsCulling: Bool
    ) {
        self.rasterizer = rasterizer
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
        self.needsClipping = needsClipping
        visibleLeft = visible.left; visibleTop = visible.top
        visibleRight = visible.right; visibleBottom = visible.bottom
        self.needsCulling = needsCulling
    }

    /// Closes the current subpath (fills close implicitly) and starts one at `p`.
    mutating func move(to p: Point) {
        close()
        start = device(p)
        current = start
    }

    mutating func line(to p: Point) {
        let q = device(p)
        line(current, q)
        current = q
    }

    mutating func quad(_ control: Point, _ end: Point) {
        let p0 = current, c = device(control), p1 = device(end)
        current = p1
        switch classify(p0, c, p1) {
        case .invisible: rasterizer.breakChain(); return
        case .leftOfClip: line(p0, p1); return
        case .visible: break
        }
        let n = Flattening.segmentCount(p0, c, p1, tolerance: Flattening.defaultTolerance)
        let step = 1 / Double(n)
        var previous = p0
        for i in 1..<n {
            let s = Double(i) * step, ms = 1 - s
            let q = Point(
                x: ms * ms * p0.x + 2 * ms * s * c.x + s * s * p1.x,
                y: ms * ms * p0.y + 2 * ms * s * c.y + s * s * p1.y)
            line(previous, q)
            previous = q
        }
        line(previous, p1)
    }

    mutating func cubic(_ control1: Point, _ control2: Point, _ end: Point) {
        let p0 = current, c1 = device(control1), c2 = device(control2), p1 = device(end)
        current = p1
        switch classify(p0, c1, c2, p1) {
        case .invisible: rasterizer.breakChain(); return
        case .leftOfClip: line(p0, p1); return
        case .visible: break
        }
        let n = Flattening.segmentCount(p0, c1, c2, p1, tolerance: Flattening.defaultTolerance)
        let step = 1 / Double(n)
        var previous = p0
        for i in 1..<n {
            let q = Path.cubicPoint(p0, c1, c2, p1, Double(i) * step)
            line(previous, q)
            previous = q
        }
        line(previous, p1)
    }

    /// Adds the closing edge back to the subpath's start.
    mutating func close() {
        line(current, start)
        current = start
    }

    @inline(__always)
    private func device(_ p: Point) -> Point {
        if !needsClipping { return p }
        let limit = Rasterizer.coordinateLimit
        return Point(x: min(max(p.x, -limit), limit), y: min(max(p.y, -limit), limit))
    }

    private func classify(_ p0: Point, _ p1: Point, _ p2: Point) -> CurvePlacement {
        if !needsCulling { return .visible }
        let top = visibleTop, bottom = visibleBottom, right = visibleRight, left = visibleLeft
        if (p0.y <= top && p1.y <= top && p2.y <= top) || (p0.y >= bottom && p1.y >= bottom && p2.y >= bottom)
            || (p0.x >= right && p1.x >= right && p2.x >= right)
        {
            return .invisible
        }
        if p0.x <= left && p1.x <= left && p2.x <= left { return .leftOfClip }
        return .visible
    }

    private func classify(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> CurvePlacement {
        if !needsCulling { return .visible }
        if max(p0.y, p1.y, p2.y, p3.y) <= visibleTop || min(p0.y, p1.y, p2.y, p3.y) >= visibleBottom
            || min(p0.x, p1.x, p2.x, p3.x) >= visibleRight
        {
            return .invisible
        }
        if max(p0.x, p1.x, p2.x, p3.x) <= visibleLeft { return .leftOfClip }
        return .visible
    }

    @inline(__always)
    private func line(_ a: Point, _ b: Point) {
        if a.y == b.y { return }
        if needsCulling
            && (max(a.y, b.y) <= visibleTop || min(a.y, b.y) >= visibleBottom
                || min(a.x, b.x) >= visibleRight)
        {
            rasterizer.breakChain()  // so chains, and the pixels they decide, ignore the clip
            return
        }
        if needsClipping { clipped(a, b) } else { emit(a.x, a.y, b.x, b.y) }
    }

    private func clipped(_ a: Point, _ b: Point) {
        var (x0, y0, x1, y1) = (a.x, a.y, b.x, b.y)
        // Vertical extent.
        if min(y0, y1) >= bottom || max(y0, y1) <= top { return }
        let dy = y1 - y0
        if y0 < top {
            x0 += (x1 - x0) * ((top - y0) / dy); y0 = top
        } else if y0 > bottom {
            x0 += (x1 - x0) * ((bottom - y0) / dy); y0 = bottom
        }
        if y1 < top {
            x1 = x0 + (x1 - x0) * ((top - y0) / (y1 - y0)); y1 = top
        } else if y1 > bottom {
            x1 = x0 + (x1 - x0) * ((bottom - y0) / (y1 - y0)); y1 = bottom
        }
        if y0 == y1 { return }
        // Right of the box: invisible.
        if x0 >= right && x1 >= right { return }
        if x0 > right || x1 > right {
            let ym = y0 + (y1 - y0) * ((right - x0) / (x1 - x0))
            if x0 > right { x0 = right; y0 = ym } else { x1 = right; y1 = ym }
        }
        // Left of the box: projected onto its left side.
        if x0 <= left && x1 <= left { emit(left, y0, left, y1); return }
        if x0 < left || x1 < left {
            let ym = y0 + (y1 - y0) * ((left - x0) / (x1 - x0))
            if x0 < left {
                emit(left, y0, left, ym); emit(left, ym, x1, y1)
            } else {
                emit(x0, y0, left, ym); emit(left, ym, left, y1)
            }
            return
        }
        emit(x0, y0, x1, y1)
    }

    /// Quantizes to 24.8 fixed point relative to the geometry's origin, clamped to it.
    @inline(__always)
    private func emit(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        rasterizer.addFixedEdge(
            x0: Rasterizer.fixedPoint(x0, from: left, to: right), y0: Rasterizer.fixedPoint(y0, from: top, to: bottom),
            x1: Rasterizer.fixedPoint(x1, from: left, to: right), y1: Rasterizer.fixedPoint(y1, from: top, to: bottom))
    }
}

/// Follows a closed polygon point by point: whether it turns one way only and reverses its
/// horizontal and its vertical direction at most twice each (a convex polygon's test, which a
/// star going round twice fails).
private struct ConvexityCheck {
    private var firstX = 0.0, firstY = 0.0, lastX = 0.0, lastY = 0.0
    /// The first edge and the last one.
    private var startDX = 0.0, startDY = 0.0, edgeDX = 0.0, edgeDY = 0.0
    private var count = 0
    /// The sign of the turns so far (0: none yet).
    private var turn = 0.0
    /// The signs of the first and the last edges' moves along x and y (0: none yet), and how
    /// often they reversed.
    private var firstXSign = 0.0, firstYSign = 0.0, xSign = 0.0, ySign = 0.0
    private var reversals = (x: 0, y: 0)
    private(set) var failed = false

    @inline(__always)
    mutating func start(at p: Point) {
        (firstX, firstY, lastX, lastY) = (p.x, p.y, p.x, p.y)
        count = 1
    }

    @inline(__always)
    mutating func add(_ p: Point) {
        let dx = p.x - lastX, dy = p.y - lastY
        if dx == 0 && dy == 0 { return }
        if !(dx.isFinite && dy.isFinite) { return failed = true }
        if count == 1 { (startDX, startDY) = (dx, dy) } else { turns(edgeDX, edgeDY, dx, dy) }
        moves(dx, dy)
        (edgeDX, edgeDY, lastX, lastY) = (dx, dy, p.x, p.y)
        count += 1
    }

    /// Closes the polygon back to its first point; whether it is convex.
    mutating func closes() -> Bool {
        if failed || count < 3 { return !failed }
        let dx = firstX - lastX, dy = firstY - lastY
        if dx != 0 || dy != 0 {
            turns(edgeDX, edgeDY, dx, dy)
            moves(dx, dy)
            (edgeDX, edgeDY) = (dx, dy)
        }
        turns(edgeDX, edgeDY, startDX, startDY)
        // The moves wrap around: the first edge's against the last one's.
        if firstXSign != 0 && xSign != 0 && firstXSign != xSign { reversals.x += 1 }
        if firstYSign != 0 && ySign != 0 && firstYSign != ySign { reversals.y += 1 }
        return !failed && reversals.x <= 2 && reversals.y <= 2
    }

    @inline(__always)
    private mutating func turns(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        let cross = ax * by - ay * bx, scale = (abs(ax) + abs(ay)) * (abs(bx) + abs(by))
        // Coordinates so large that the products overflow tell nothing: not shown convex (the
        // watched path is right for any shape).
        guard scale.isFinite else { return failed = true }
        // Nearly straight on: no turn either way (rounding must not fail a straight side).
        if abs(cross) <= scale * 1e-12 { return }
        if turn == 0 { turn = cross } else if (turn > 0) != (cross > 0) { failed = true }
    }

    @inline(__always)
    private mutating func moves(_ dx: Double, _ dy: Double) {
        if dx != 0 {
            let sign: Double = dx > 0 ? 1 : -1
            if firstXSign == 0 { firstXSign = sign } else if xSign != sign { reversals.x += 1 }
            xSign = sign
        }
        if dy != 0 {
            let sign: Double = dy > 0 ? 1 : -1
            if firstYSign == 0 { firstYSign = sign } else if ySign != sign { reversals.y += 1 }
            ySign = sign
        }
        if reversals.x > 2 || reversals.y > 2 { failed = true }
    }
}
