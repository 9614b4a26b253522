import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A scene: a root layer with an engine on virtual time.
final class Scene {
    let root = Layer()
    let engine: Engine

    init() {
        engine = Engine(root: root)
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 400)
        root.position = Point(x: 200, y: 200)
    }

    /// Moves the clock to `t` and produces that frame.
    @discardableResult
    func frame(at t: Double) -> FrameUpdate {
        engine.tick(at: t)
    }

    /// The presentation copy of `layer` at `t` (pure evaluation).
    func presented<L: Layer>(_ layer: L, at t: Double) -> L {
        find(layer, in: engine.presentationTree(at: t)) as! L
    }

    private func find(_ model: Layer, in p: Layer) -> Layer? {
        if p.model() === model { return p }
        for child in p.sublayers { if let f = find(model, in: child) { return f } }
        if let m = p.mask { return find(model, in: m) }
        return nil
    }
}

/// Records animation delegate calls.
final class DelegateLog: AnimationDelegate {
    var events: [String] = []
    func animationDidStart(_ animation: Animation) { events.append("start") }
    func animationDidStop(_ animation: Animation, finished: Bool) {
        events.append(finished ? "stop" : "stop-unfinished")
    }
}

func assertPoint(
    _ p: Point, _ x: Double, _ y: Double, accuracy: Double = 1e-9, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(p.x, x, accuracy: accuracy, "x " + message, file: file, line: line)
    XCTAssertEqual(p.y, y, accuracy: accuracy, "y " + message, file: file, line: line)
}
