import Foundation
import XCTest
@testable import VitrineGraphics

/// Every context on a thread shares one rasterizer (`Rasterizer.ofThisThread`): a shape must
/// come out the same whichever contexts, of whatever sizes, drew before it on the thread, and
/// threads must not share one.
final class SharedRasterizerTests: XCTestCase {
    /// A star reaching past the target's edges, a ring stroked with round joins and a clipped circle: edges banded (taller than
    /// a band), exact-coverage pixels (the star's crossings) and a path clip.
    private func draw(in ctx: GraphicsContext) {
        let w = Double(ctx.bitmap.width), h = Double(ctx.bitmap.height)
        var star = Path()
        for k in 0..<5 {
            let angle = Double(k) * 4 * Double.pi / 5 - Double.pi / 2
            let point = Point(w / 2 + 0.7 * w * cos(angle), h / 2 + 0.7 * h * sin(angle))
            if k == 0 { star.move(to: point) } else { star.addLine(to: point) }
        }
        star.closeSubpath()
        ctx.fill(star, color: Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8), rule: .evenOdd)
        var ring = Path()
        ring.addEllipse(in: Rect(x: w * 0.2, y: h * 0.2, width: w * 0.6, height: h * 0.6))
        ctx.stroke(
            ring,
            color: Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.7),
            style: StrokeStyle(lineWidth: 5.5, lineJoin: .round))
        ctx.saveGState()
        var oval = Path()
        oval.addEllipse(in: Rect(x: w * 0.1, y: h * 0.3, width: w * 0.5, height: h * 0.5))
        ctx.clip(to: oval)
        ctx.fill(
            Rect(x: 0.5, y: 0.5, width: w - 1, height: h - 1), color: Color(red: 0, green: 0.6, blue: 0.3, alpha: 0.5))
        ctx.restoreGState()
    }

    private func drawnOnAFreshThread(width: Int, height: Int) -> [UInt32] {
        let bitmap = Bitmap(width: width, height: height)
        let done = DispatchSemaphore(value: 0)
        Thread {
            self.draw(in: GraphicsContext(bitmap: bitmap))
            done.signal()
        }.start()
        done.wait()
        return pixels(of: bitmap)
    }

    private func pixels(of bitmap: Bitmap) -> [UInt32] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap[$0, y] } }
    }

    func testAShapeIsTheSameWhateverWasDrawnBeforeOnTheThread() {
        let sizes = [(97, 141), (3840, 90), (31, 7), (640, 360), (5, 300)]
        let references = sizes.map { drawnOnAFreshThread(width: $0.0, height: $0.1) }
        // Here, the contexts follow one another on one thread (the rasterizer grows for the
        // 3840-wide one and serves the small ones after it), interleaved shape by shape.
        let bitmaps = sizes.map { Bitmap(width: $0.0, height: $0.1) }
        let contexts = bitmaps.map { GraphicsContext(bitmap: $0) }
        for ctx in contexts.reversed() { ctx.clear(.clear) }
        for ctx in contexts { draw(in: ctx) }
        for (index, bitmap) in bitmaps.enumerated() {
            XCTAssertEqual(pixels(of: bitmap), references[index], "\(sizes[index])")
        }
    }

    func testContextsShareTheirThreadsRasterizerOnly() {
        let a = GraphicsContext(bitmap: Bitmap(width: 8, height: 8))
        let b = GraphicsContext(bitmap: Bitmap(width: 4000, height: 8))
        XCTAssertTrue(a.rasterizer === b.rasterizer)
        final class Answer: @unchecked Sendable { var same = true }
        let mine = a.rasterizer, answer = Answer(), done = DispatchSemaphore(value: 0)
        Thread {
            answer.same = GraphicsContext(bitmap: Bitmap(width: 1, height: 1)).rasterizer === mine
            done.signal()
        }.start()
        done.wait()
        XCTAssertFalse(answer.same)
    }
}
