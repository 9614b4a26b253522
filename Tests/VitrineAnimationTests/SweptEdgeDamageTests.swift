import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A plain layer that only moves its edges along the axes (a bar growing from its foot, a
/// progress fill widening) damages the bands its moving edges sweep, with its corners' reach,
/// not all it covered and covers; anything more changing falls back to both extents.
final class SweptEdgeDamageTests: XCTestCase {
    private func bar(in root: Layer) -> Layer {
        let bar = Layer()
        bar.bounds = Rect(x: 0, y: 0, width: 30.5, height: 200)
        bar.anchorPoint = Point(x: 0.5, y: 1)
        bar.position = Point(x: 50.25, y: 270.5)
        bar.cornerRadius = 8.5
        bar.backgroundColor = Color(red: 0.31, green: 0.76, blue: 0.97)
        let grow = linearAnimation("transform.scale.y", from: 0.1, to: 1, duration: 0.55)
        grow.autoreverses = true
        grow.repeatCount = .infinity
        bar.add(grow, forKey: "grow")
        root.addSublayer(bar)
        return bar
    }

    private func progressFill(in root: Layer) -> Layer {
        let fill = Layer()
        fill.anchorPoint = Point(x: 0, y: 0.5)
        fill.bounds = Rect(x: 0, y: 0, width: 20, height: 20.5)
        fill.position = Point(x: 90.5, y: 40.25)
        fill.cornerRadius = 10
        fill.backgroundColor = Color(red: 0.95, green: 0.6, blue: 0.2, alpha: 0.8)
        fill.add(linearAnimation("bounds.size.width", from: 20, to: 290, duration: 1.2), forKey: "fill")
        root.addSublayer(fill)
        return fill
    }

    func testMovingEdgesRepaintTheBandsTheySwept() {
        func make() -> RenderScene {
            let scene = RenderScene(width: 400, height: 300, background: Color(red: 0.1, green: 0.12, blue: 0.2))
            _ = bar(in: scene.root)
            _ = progressFill(in: scene.root)
            scene.frame(at: 0)
            return scene
        }
        let tracked = make()
        let redrawn = repaintedPixels(tracked, against: make(), at: (1...70).map { Double($0) / 60 })
        // Both extents, old and new, are about 13,000 pixels in most frames.
        XCTAssertGreaterThan(redrawn.filter { $0 < 5_000 }.count, 60, "the moving edges' bands were repainted")
        savePNG(tracked.bitmap, "swept-edges")
    }

    /// A bar whose colour, place across its moving edge or turn also changes, a bar with a
    /// sublayer and a shadowed one: each repaints all it covered and covers, and every frame
    /// shows what a whole repaint shows.
    func testMoreThanMovingEdgesRepaintsBothExtents() {
        func make() -> (RenderScene, [Layer]) {
            let scene = RenderScene(width: 400, height: 300, background: Color(red: 0.1, green: 0.12, blue: 0.2))
            var bars: [Layer] = []
            for k in 0..<5 {
                let b = bar(in: scene.root)
                b.position = Point(x: 50.25 + 70 * Double(k), y: 270.5)
                bars.append(b)
            }
            bars[0].add(linearAnimation("position.x", from: 40, to: 60, duration: 1), forKey: "slide")
            let tint = BasicAnimation(keyPath: "backgroundColor")
            tint.fromValue = Color.redColor
            tint.toValue = Color.greenColor
            tint.duration = 1
            bars[1].add(tint, forKey: "tint")
            bars[2].add(linearAnimation("transform.rotation.z", from: 0, to: 0.3, duration: 1), forKey: "turn")
            let dot = Layer()
            dot.frame = Rect(x: 5, y: 5, width: 10, height: 10)
            dot.backgroundColor = .white
            bars[3].addSublayer(dot)
            bars[4].shadowOpacity = 0.8
            bars[4].shadowOffset = Size(width: 3, height: 3)
            scene.frame(at: 0)
            return (scene, bars)
        }
        _ = repaintedPixels(make().0, against: make().0, at: (1...70).map { Double($0) / 60 })
        let (scene, bars) = make()
        scene.frame(at: 0.3)
        let before = bars.map { $0.presentation()! }
        scene.frame(at: 0.31)
        for (k, b) in bars.enumerated() {
            XCTAssertFalse(before[k] === b.presentation()!)
            XCTAssertNil(Engine.sweptEdges(of: before[k], to: b.presentation()!, under: .identity), "bar \(k)")
        }
    }

    /// The two bands of a bar scaled from its foot: its top edge's sweep and its foot's corners.
    func testABarsBandsLieAtItsEnds() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        let engine = Engine(root: root)
        _ = bar(in: root)
        let shown = (0..<2).map { i in engine.tick(at: 0.1 + 0.05 * Double(i)).presentation.sublayers[0] }
        let swept = try XCTUnwrap(Engine.sweptEdges(of: shown[0], to: shown[1], under: .identity))
        let tops = shown.map { $0.transformToSuperlayer.apply(to: $0.bounds).minY }
        XCTAssertLessThan(tops[1], tops[0], "growing")
        XCTAssertEqual(swept.0.minY, tops[1] - 1, accuracy: 1e-9)
        XCTAssertEqual(
            swept.0.maxY, tops[0] + 8.5 * max(shown[0].transform.m22, shown[1].transform.m22) + 1, accuracy: 1e-9)
        let foot = 8.5 * max(shown[0].transform.m22, shown[1].transform.m22)
        XCTAssertEqual(swept.1.minY, 270.5 - foot - 1, accuracy: 1e-9)
        XCTAssertEqual(swept.1.maxY, 270.5 + 1, accuracy: 1e-9)
        XCTAssertEqual(swept.0.minX, 50.25 - 15.25 - 1, accuracy: 1e-9)
        XCTAssertEqual(swept.0.width, 30.5 + 2, accuracy: 1e-9)
    }
}
