import Glibc
import VitrineGraphics

/// The wavy progress bar of seed 002: a line from `origin` across `maxLength` whose progress
/// point sags by `maxOffset · (1 − |progress − 0.5| · 2)` (most at 50 %), splitting it into a
/// done part (`strokeColor`) and a remaining part (`trackColor`) at `strokeEnd`, with a
/// percentage label that follows the tip. Round caps; the done part is drawn last.
open class ProgressLayer: Layer {
    /// Progress, clamped to 0…1 when drawn. Defaults to 0. Animatable.
    @Animatable public var progress: Double = 0
    /// Where the colours meet, as a fraction of the horizontal extent, 0…1. Defaults to 1. Animatable.
    @Animatable public var strokeEnd: Double = 1
    /// The sag at 50 % progress. Defaults to 25. Animatable.
    @Animatable public var maxOffset: Double = 25
    /// Where the line starts, in the layer's coordinates. Defaults to (25, 150). Animatable.
    @Animatable public var origin: Point = Point(x: 25, y: 150)
    /// The horizontal length of the line. Defaults to 350. Animatable.
    @Animatable public var maxLength: Double = 350
    /// Width of both parts. Defaults to 5. Animatable.
    @Animatable public var lineWidth: Double = 5
    /// Colour of the remaining part. Defaults to #cccccc. Animatable.
    @Animatable public var trackColor: Color = Color(r8: 204, g8: 204, b8: 204)
    /// Colour of the done part. Defaults to #42ff42. Animatable.
    @Animatable public var strokeColor: Color = Color(r8: 66, g8: 255, b8: 66)
    /// The label's rectangle at progress 0; it moves with the tip. Defaults to zero. Not animatable.
    @LayerProperty public var textRect: Rect = .zero

    open override class func needsDisplay(forKey key: String) -> Bool {
        customPropertyKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    /// What the renderer draws for one state of the bar (the seed's `report` output included).
    public struct Layout: Equatable, Sendable {
        /// The progress point (where the line bends).
        public var tip: Point
        /// Where the colours meet.
        public var contact: Point
        /// The remaining part, drawn first.
        public var track: [Point]
        /// The done part, drawn over the track; empty when progress or strokeEnd is 0.
        public var done: [Point]
        /// The label text: the whole percentage of progress ("37%").
        public var labelText: String
        /// Where the label goes: `textRect` moved by the tip's displacement.
        public var labelRect: Rect
    }

    /// The layout for the given values. With s = strokeEnd and p = progress (both clamped):
    /// when s > p the contact point lies on tip → end and the done part is origin → tip →
    /// contact; otherwise it lies on origin → tip and the done part is origin → contact, the
    /// track contact → tip → end. The contact's x is origin.x + maxLength·s. At p = 0 the bar is
    /// straight and nothing is green (the track then covers the whole line).
    public static func layout(
        origin: Point, maxLength: Double, maxOffset: Double, progress: Double,
        strokeEnd: Double, textRect: Rect
    ) -> Layout {
        let parts = Parts(
            origin: origin, maxLength: maxLength, maxOffset: maxOffset, progress: progress, strokeEnd: strokeEnd,
            textRect: textRect)
        return Layout(
            tip: parts.tip, contact: parts.contact, track: Array(parts.track), done: Array(parts.done),
            labelText: parts.labelText, labelRect: parts.labelRect)
    }

    /// The layout held inline, as drawing and damage use it every frame (nothing allocated).
    struct Parts {
        var tip: Point, contact: Point
        var track: Polyline, done: Polyline
        /// The whole percentage of progress.
        var percent: Int
        var labelRect: Rect

        init(origin: Point, maxLength: Double, maxOffset: Double, progress: Double, strokeEnd: Double, textRect: Rect) {
            func unit(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
            let p = unit(progress), s = unit(strokeEnd)
            let sag = maxOffset * (1 - abs(p - 0.5) * 2)
            tip = Point(x: origin.x + maxLength * p, y: origin.y + sag)
            let end = Point(x: origin.x + maxLength, y: origin.y)
            let contactX = origin.x + maxLength * s
            if p == 0 {
                contact = origin
                track = Polyline(origin, end)
                done = Polyline()
            } else if s > p {
                let along = p < 1 ? (s - p) / (1 - p) : 1
                contact = Point(x: contactX, y: origin.y + (tip.y - origin.y) * (1 - along))
                track = Polyline(contact, end)
                done = Polyline(origin, tip, contact)
            } else {
                let along = s / p
                contact = Point(x: contactX, y: origin.y + (tip.y - origin.y) * along)
                track = Polyline(contact, tip, end)
                done = s > 0 ? Polyline(origin, contact) : Polyline()
            }
            percent = Int((p * 100).rounded(.down))
            labelRect = textRect.offsetBy(dx: maxLength * p, dy: sag)
        }

        var labelText: String { "\(percent)%" }
    }

    /// A polyline of at most three points (the bar's parts never have more), held inline.
    /// Consecutive equal points are dropped (a zero-length piece would draw a stray round cap),
    /// and one that collapses to a single point is empty.
    struct Polyline: RandomAccessCollection {
        private var points: (Point, Point, Point) = (.zero, .zero, .zero)
        private(set) var endIndex = 0
        var startIndex: Int { 0 }

        init() {}

        init(_ a: Point, _ b: Point) {
            append(a)
            append(b)
            if endIndex == 1 { endIndex = 0 }
        }

        init(_ a: Point, _ b: Point, _ c: Point) {
            append(a)
            append(b)
            append(c)
            if endIndex == 1 { endIndex = 0 }
        }

        subscript(i: Int) -> Point {
            switch i {
            case 0: points.0
            case 1: points.1
            default: points.2
            }
        }

        private mutating func append(_ p: Point) {
            guard endIndex == 0 || self[endIndex - 1] != p else { return }
            switch endIndex {
            case 0: points.0 = p
            case 1: points.1 = p
            default: points.2 = p
            }
            endIndex += 1
        }
    }

    /// This layer's layout for its current properties.
    public var layout: Layout {
        ProgressLayer.layout(
            origin: origin, maxLength: maxLength, maxOffset: maxOffset, progress: progress,
            strokeEnd: strokeEnd, textRect: textRect)
    }

    private var parts: Parts {
        Parts(
            origin: origin, maxLength: maxLength, maxOffset: maxOffset, progress: progress, strokeEnd: strokeEnd,
            textRect: textRect)
    }

    /// A polyline as an open path (for stroking with round caps).
    public static func path(through points: [Point]) -> Path {
        var path = Path()
        append(points, to: &path)
        return path
    }

    private static func append(_ points: some Collection<Point>, to path: inout Path) {
        for (i, p) in points.enumerated() { if i == 0 { path.move(to: p) } else { path.addLine(to: p) } }
    }

    /// The stroke of both parts: `lineWidth`, round caps, round joins.
    public var strokeStyle: StrokeStyle { StrokeStyle(lineWidth: lineWidth, lineCap: .round, lineJoin: .round) }

    /// Strokes the track, then the done part over it (round caps, `lineWidth`), then writes the
    /// percentage in `strokeColor`, centred in the label rectangle, sized to its height.
    open override func draw(in ctx: GraphicsContext) {
        let l = parts
        let style = strokeStyle
        let scratch = ScratchPath.ofThisThread
        func stroke(_ part: Polyline, _ color: Color) {
            guard part.count > 1 else { return }
            scratch.path.removeAll(keepingCapacity: true)
            ProgressLayer.append(part, to: &scratch.path)
            ctx.stroke(scratch.path, color: color, style: style)
        }
        stroke(l.track, trackColor)
        stroke(l.done, strokeColor)
        let label = l.labelRect.standardized
        if !label.isEmpty {
            TextBox.draw(
                l.labelText, family: Font.defaultFamily, lineHeight: label.height, color: strokeColor,
                alignment: .center, in: label, into: ctx)
        }
    }

    /// The line (out to its round caps) and the label; the bounds only when the layer paints
    /// them itself (a background, border or contents). A bar in a wide, tall layer then damages
    /// the strip its line sweeps, not the whole layer, as its progress moves.
    open override func visualExtent() -> Rect {
        let l = parts
        var r = Rect.null
        for p in l.track { r = r.union(Rect(origin: p, size: .zero)) }
        for p in l.done { r = r.union(Rect(origin: p, size: .zero)) }
        r = r.insetBy(dx: -lineWidth, dy: -lineWidth)
        if !l.labelRect.isEmpty {
            // The percentage is centred on the label's rectangle and may be wider than it.
            let label = l.labelRect.standardized
            r = r.union(label.insetBy(dx: -label.height, dy: -1))
        }
        if paintsItsBounds || r.isNull { r = r.union(bounds.standardized) }
        return r
    }
}
