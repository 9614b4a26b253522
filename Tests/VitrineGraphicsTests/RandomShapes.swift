import Foundation
@testable import VitrineGraphics

/// Shapes for comparing two ways of drawing them: numbers in ranges from a seeded sequence
/// (`SplitMix64`), and the convex paths, placements, colours and clips the rasterizer's tests
/// draw into a 64x90 bitmap (reaching past it).
struct RandomShapes {
    private var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func random(_ range: ClosedRange<Double>) -> Double { rng.next(in: range) }

    /// By `kind`: 0 an ellipse, 1 a rounded rectangle, 2 a convex polygon (points on an
    /// ellipse in order), 3 a wedge of a circle from its centre, of up to `widestWedge` radians.
    mutating func convexPath(kind: Int, widestWedge: Double) -> Path {
        var path = Path()
        switch kind {
        case 0:
            path.addEllipse(
                in: Rect(x: random(-20...60), y: random(-20...80), width: random(0.3...90), height: random(0.3...120)))
        case 1:
            path.addRoundedRect(
                Rect(x: random(-20...60), y: random(-20...80), width: random(1...90), height: random(1...120)),
                cornerRadius: random(0...30))
        case 2:
            let count = Int(random(3...12))
            let angles = (0..<count).map { _ in random(0...(2 * Double.pi)) }.sorted()
            let c = Point(random(0...60), random(0...80)), rx = random(1...70), ry = random(1...90)
            path = RandomShapes.polygon(angles.map { Point(c.x + rx * cos($0), c.y + ry * sin($0)) })
        default:
            path.move(to: Point(40, 40))
            let start = random(0...(2 * Double.pi))
            path.addArc(
                center: Point(40, 40), radius: random(1...80), startAngle: start,
                endAngle: start + random(0.05...widestWedge), clockwise: true)
            path.closeSubpath()
        }
        return path
    }

    /// A random turn, scale, skew, mirror and move.
    mutating func placement() -> Transform2D {
        let angle = random(0...(2 * Double.pi)), sx = random(0.2...2.5), sy = random(0.2...2.5)
        var transform = Transform2D(
            a: cos(angle) * sx, b: sin(angle) * sx, c: -sin(angle) * sy, d: cos(angle) * sy, tx: random(-10...50),
            ty: random(-10...60))
        transform.c += random(-0.5...0.5) * transform.a
        if random(0...1) < 0.3 { transform.a = -transform.a; transform.b = -transform.b }
        return transform
    }

    /// A colour of alpha 0.2 to 1.
    mutating func translucentColor() -> Color {
        Color(red: random(0...1), green: random(0...1), blue: random(0...1), alpha: random(0.2...1))
    }

    /// A clip rectangle half of the time.
    mutating func clip() -> Rect? {
        random(0...1) < 0.5
            ? Rect(x: random(0...30), y: random(0...40), width: random(5...60), height: random(5...90)) : nil
    }

    /// The polygon through `points`, closed unless told otherwise.
    static func polygon(_ points: [Point], closed: Bool = true) -> Path {
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.addLine(to: p) }
        if closed { path.closeSubpath() }
        return path
    }

    /// `n · turns` points of a regular polygon round (20, 20), each `step` corners on from the
    /// one before.
    static func regular(_ n: Int, turns: Int = 1, step: Int = 1, radius: Double = 10) -> [Point] {
        (0..<(n * turns)).map { i in
            let a = Double(i * step) * 2 * Double.pi / Double(n)
            return Point(20 + radius * cos(a), 20 + radius * sin(a))
        }
    }

    /// The pixels, row after row, of a 64x90 bitmap cleared to a dark blue and drawn on by
    /// `draw` under `placement` and `clip`, with shapes known or shown to wind at most once
    /// trusted or not (`Rasterizer.trustsWindsAtMostOnce`, trusted again afterwards).
    static func pixels(
        trusting: Bool, placement: Transform2D, clip: Rect?, _ draw: (GraphicsContext) -> Void
    ) -> [UInt32] {
        Rasterizer.ofThisThread.trustsWindsAtMostOnce = trusting
        defer { Rasterizer.ofThisThread.trustsWindsAtMostOnce = true }
        let bitmap = Bitmap(width: 64, height: 90)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.clear(Color(red: 0.1, green: 0.2, blue: 0.3))
        ctx.concatenate(placement)
        if let clip { ctx.clip(to: clip) }
        draw(ctx)
        return (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap[$0, y] } }
    }
}
