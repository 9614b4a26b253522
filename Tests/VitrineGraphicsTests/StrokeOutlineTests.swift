import XCTest
@testable import VitrineGraphics

/// A context keeps its last few stroke outlines (in user space) and rasterizes a stroke drawn
/// again from the kept one: the pixels must be those of the stroke outlined anew, in every
/// damage rectangle, under any placement at the same scale, and any change of what the outline
/// is made from (path, width, join, cap, dashes, trim, scale) must outline it again. A context
/// told not to keep them (a benchmark's) outlines every stroke anew.
final class StrokeOutlineTests: XCTestCase {
    private let size = 160
    private let orange = Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.8)

    private func ring() -> Path {
        var path = Path()
        path.addEllipse(in: Rect(x: 20.3, y: 25.7, width: 110, height: 95))
        return path
    }

    private func zigzag() -> Path {
        var path = Path()
        path.move(to: Point(x: 12, y: 140))
        path.addLine(to: Point(x: 50.5, y: 30.25))
        path.addQuadCurve(to: Point(x: 95, y: 130), control: Point(x: 70, y: 10))
        path.addLine(to: Point(x: 148, y: 20))
        return path
    }

    /// One drawing of a stroke: where, with what, and through which clip rectangle.
    private struct Stroke {
        var path: Path
        var style: StrokeStyle
        var strokeStart = 0.0
        var strokeEnd = 1.0
        var translation = Point(x: 0, y: 0)
        var scale = 1.0
        var clip = IntRect(x: 0, y: 0, width: 160, height: 160)
    }

    private func draw(_ stroke: Stroke, in ctx: GraphicsContext) {
        ctx.saveGState()
        ctx.clip(toDeviceRect: stroke.clip)
        ctx.translateBy(x: stroke.translation.x, y: stroke.translation.y)
        ctx.scaleBy(x: stroke.scale, y: stroke.scale)
        ctx.stroke(
            stroke.path, color: orange, style: stroke.style, strokeStart: stroke.strokeStart,
            strokeEnd: stroke.strokeEnd)
        ctx.restoreGState()
    }

    private func pixels(_ bitmap: Bitmap) -> [UInt32] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap[$0, y] } }
    }

    /// Draws each stroke on one context (clearing between them) and on a fresh context each,
    /// and checks that the two give the same pixels every time; returns the kept context.
    @discardableResult
    private func assertSameAsOutlinedAnew(
        _ strokes: [Stroke], file: StaticString = #filePath, line: UInt = #line
    ) -> GraphicsContext {
        let kept = GraphicsContext(bitmap: Bitmap(width: size, height: size))
        for (index, stroke) in strokes.enumerated() {
            kept.clear(.clear)
            draw(stroke, in: kept)
            let fresh = GraphicsContext(bitmap: Bitmap(width: size, height: size))
            draw(stroke, in: fresh)
            let a = pixels(kept.bitmap), b = pixels(fresh.bitmap)
            let differing = a.indices.filter { a[$0] != b[$0] }
            XCTAssertEqual(
                differing.count, 0,
                "stroke \(index) (\(stroke.style), trim \(stroke.strokeStart)…\(stroke.strokeEnd), scale "
                    + "\(stroke.scale)): first at \(differing.first.map { ($0 % size, $0 / size) } as Any)",
                file: file, line: line)
        }
        return kept
    }

    func testAStrokeDrawnAgainInOtherRectanglesAndPlacesIsTheSame() {
        let style = StrokeStyle(lineWidth: 9.5, lineJoin: .round)
        let rectangles = [
            IntRect(x: 0, y: 0, width: 160, height: 160), IntRect(x: 13, y: 7, width: 41, height: 33),
            IntRect(x: 90, y: 60, width: 70, height: 100), IntRect(x: 0, y: 100, width: 160, height: 9)
        ]
        var strokes = rectangles.map { Stroke(path: ring(), style: style, clip: $0) }
        // Moved by whole and fractional pixels, at the same scale: the kept outline serves.
        strokes += [Point(x: 3, y: -2), Point(x: 0.37, y: 5.5)].map {
            Stroke(path: ring(), style: style, translation: $0)
        }
        let kept = assertSameAsOutlinedAnew(strokes)
        XCTAssertEqual(kept.strokeOutlinesReused, strokes.count - 1, "outlined once, reused after")
    }

    func testAContextThatKeepsNoOutlinesOutlinesEveryStrokeAnew() {
        let stroke = Stroke(path: ring(), style: StrokeStyle(lineWidth: 9.5, lineJoin: .round))
        let notKeeping = GraphicsContext(bitmap: Bitmap(width: size, height: size))
        notKeeping.keepsStrokeOutlines = false
        let keeping = GraphicsContext(bitmap: Bitmap(width: size, height: size))
        for _ in 0..<3 {
            draw(stroke, in: notKeeping)
            draw(stroke, in: keeping)
        }
        XCTAssertEqual(pixels(notKeeping.bitmap), pixels(keeping.bitmap))
        XCTAssertEqual(notKeeping.strokeOutlinesReused, 0)
        XCTAssertEqual(notKeeping.strokeOutlines.count, 0)
        XCTAssertEqual(keeping.strokeOutlinesReused, 2, "the default keeps them")
    }

    func testAnyChangeToWhatTheOutlineIsMadeOfOutlinesItAgain() {
        let base = Stroke(path: zigzag(), style: StrokeStyle(lineWidth: 6, lineJoin: .miter))
        var changes = [base]
        for change in 0..<9 {
            var s = base
            switch change {
            case 0: s.style.lineWidth = 7
            case 1: s.style.lineJoin = .round
            case 2: s.style.lineJoin = .bevel
            case 3: s.style.lineCap = .square
            case 4: s.style.miterLimit = 1.5
            case 5: s.style.dashPattern = [14, 6]
            case 6:
                s.style.dashPattern = [14, 6]
                s.style.dashPhase = 5
            case 7: s.strokeEnd = 0.6
            default: s.scale = 1.25
            }
            changes.append(s)
        }
        var moved = zigzag()
        moved.addLine(to: Point(x: 150, y: 150))
        changes.append(Stroke(path: moved, style: base.style))
        // A trim that moves frame by frame, as an animated `strokeEnd` does, and back.
        for end in [0.3, 0.31, 0.32, 0.3] {
            changes.append(Stroke(path: zigzag(), style: base.style, strokeStart: 0.05, strokeEnd: end))
        }
        let kept = assertSameAsOutlinedAnew(changes)
        XCTAssertEqual(kept.strokeOutlinesReused, 1, "only the trim drawn twice (0.3) is the same")
    }

    func testTheOutlinesUsedLongestAgoMakeWayAndTheKeptOnesStay() {
        // More distinct strokes than there are slots, the first drawn between each: it stays.
        let first = Stroke(path: ring(), style: StrokeStyle(lineWidth: 3))
        var strokes = [first]
        for k in 0..<(GraphicsContext.strokeOutlineSlots + 3) {
            strokes.append(Stroke(path: zigzag(), style: StrokeStyle(lineWidth: 2 + Double(k))))
            strokes.append(first)
        }
        let kept = assertSameAsOutlinedAnew(strokes)
        XCTAssertEqual(kept.strokeOutlinesReused, GraphicsContext.strokeOutlineSlots + 3)
        XCTAssertEqual(kept.strokeOutlines.count, GraphicsContext.strokeOutlineSlots)
    }
}
