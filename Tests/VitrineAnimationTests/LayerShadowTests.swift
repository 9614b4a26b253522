import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// Layer shadows: where they fall and how far they spread (from the Gaussian of σ = radius / 2),
/// that they are drawn under the body and inside masks, kept while what casts them is
/// unchanged, and counted in damage.
final class LayerShadowTests: XCTestCase {
    /// A 60 × 60 square casting a shadow of radius 10 (σ = 5) moved by (30, 20), nothing else
    /// drawn: the shadow path stands for the body, which is transparent.
    private func squareShadowScene(shadowPath: Bool) -> (RenderScene, Layer) {
        let scene = RenderScene(width: 240, height: 200, background: .white)
        let layer = Layer()
        layer.frame = Rect(x: 40, y: 40, width: 60, height: 60)
        layer.shadowOpacity = 1
        layer.shadowRadius = 10
        layer.shadowOffset = Size(width: 30, height: 20)
        if shadowPath {
            var path = Path()
            path.addRect(Rect(x: 0, y: 0, width: 60, height: 60))
            layer.shadowPath = path
        } else {
            layer.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.002)
            let body = Layer()
            body.frame = Rect(x: 0, y: 0, width: 60, height: 60)
            body.backgroundColor = .black
            body.opacity = 0.999
            layer.addSublayer(body)
        }
        scene.root.addSublayer(layer)
        return (scene, layer)
    }

    /// How dark a pixel of a black shadow over white is, 0…1.
    private func darkness(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Double {
        1 - color(bitmap, at: Point(x: Double(x) + 0.5, y: Double(y) + 0.5)).green
    }

    func testShadowPathShadowIsCentredOnTheOffsetAndSpreadsLikeItsGaussian() {
        let (scene, _) = squareShadowScene(shadowPath: true)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "shadow-square")
        // The shadow's centre of mass is the square's centre (70, 70) moved by (30, 20).
        var mass = 0.0, sx = 0.0, sy = 0.0
        for y in 0..<200 {
            for x in 0..<240 {
                let d = darkness(scene.bitmap, x, y)
                mass += d
                sx += d * (Double(x) + 0.5)
                sy += d * (Double(y) + 0.5)
            }
        }
        XCTAssertEqual(sx / mass, 100, accuracy: 0.5)
        XCTAssertEqual(sy / mass, 90, accuracy: 0.5)
        // The blur keeps the area: 60 × 60 pixels of full darkness.
        XCTAssertEqual(mass, 3600, accuracy: 36)
        // Across the right edge (x = 130) at mid-height (y = 90): Φ(d / σ) of a step.
        XCTAssertEqual(darkness(scene.bitmap, 129, 89), 0.5 + 0.04, accuracy: 0.05)
        XCTAssertEqual(darkness(scene.bitmap, 134, 89), 0.159, accuracy: 0.05)  // one σ out
        XCTAssertEqual(darkness(scene.bitmap, 124, 89), 0.841, accuracy: 0.05)  // one σ in
        XCTAssertEqual(darkness(scene.bitmap, 100, 90), 1, accuracy: 0.01)  // the middle
        // Beyond 3σ and a few pixels of the box blur's reach, nothing.
        for y in 0..<200 {
            for x in 0..<240 {
                let outside = x < 70 - 18 || x >= 130 + 18 || y < 60 - 18 || y >= 120 + 18
                if outside { XCTAssertEqual(darkness(scene.bitmap, x, y), 0, "(\(x), \(y))") }
            }
        }
    }

    func testBodyCastsTheSameShadowAsAnEqualShadowPath() {
        // The body is drawn over its shadow; compare the shadow where the body is not.
        let (path, _) = squareShadowScene(shadowPath: true)
        let (body, _) = squareShadowScene(shadowPath: false)
        path.frame(at: 0)
        body.frame(at: 0)
        var worst = 0.0
        for y in 0..<200 {
            for x in 0..<240 where !(x >= 40 && x < 100 && y >= 40 && y < 100) {
                worst = max(worst, abs(darkness(path.bitmap, x, y) - darkness(body.bitmap, x, y)))
            }
        }
        XCTAssertLessThanOrEqual(worst, 2 / 255)
    }

    func testNoShadowAtZeroOpacityAndNoneWithoutAColour() {
        let (scene, layer) = squareShadowScene(shadowPath: true)
        layer.shadowOpacity = 0
        scene.frame(at: 0)
        XCTAssertEqual(countPixels(scene.bitmap) { $0 != .white }, 0)
        layer.shadowOpacity = 1
        layer.shadowColor = nil
        scene.frame(at: 1)
        XCTAssertEqual(countPixels(scene.bitmap) { $0 != .white }, 0)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 0)
    }

    func testShadowIsDrawnUnderTheBodyAndInsideTheMask() {
        let scene = RenderScene(width: 200, height: 200, background: .white)
        let card = Layer()
        card.frame = Rect(x: 50, y: 50, width: 100, height: 100)
        card.backgroundColor = .redColor
        card.shadowOpacity = 1
        card.shadowColor = .blueColor
        card.shadowRadius = 0
        card.shadowOffset = Size(width: 20, height: 20)
        scene.root.addSublayer(card)
        scene.frame(at: 0)
        assertColor(scene.bitmap, Point(x: 140, y: 140), .redColor)  // body on top
        assertColor(scene.bitmap, Point(x: 160, y: 160), .blueColor)  // shadow beside it
        // A mask clips the shadow with everything else the layer shows.
        let mask = Layer()
        mask.frame = Rect(x: 0, y: 0, width: 105, height: 105)
        mask.backgroundColor = .black
        card.mask = mask
        scene.frame(at: 1)
        assertColor(scene.bitmap, Point(x: 152, y: 152), .blueColor)
        assertColor(scene.bitmap, Point(x: 160, y: 160), .white)
    }

    func testBlurredShapeIsKeptWhileTheCasterOnlyMovesByWholePixelsOrChangesShadowColour() {
        let (scene, layer) = squareShadowScene(shadowPath: false)
        scene.frame(at: 0)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 1)
        layer.position.x += 3
        layer.shadowColor = .blueColor
        layer.shadowOpacity = 0.5
        scene.frame(at: 1)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 1)
        // The kept shape, moved, draws what a new one draws.
        let fresh = squareShadowScene(shadowPath: false)
        fresh.1.position.x += 3
        fresh.1.shadowColor = .blueColor
        fresh.1.shadowOpacity = 0.5
        fresh.0.frame(at: 0)
        XCTAssertTrue(samePixels(scene.bitmap, fresh.0.bitmap))
        // A half-pixel move, a new radius or a changed sublayer makes a new one.
        layer.position.x += 0.5
        scene.frame(at: 2)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 2)
        layer.shadowRadius = 4
        scene.frame(at: 3)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 3)
        layer.sublayers[0].bounds.size.width = 30
        scene.frame(at: 4)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 4)
    }

    /// The kept shape is blurred only over the target: a huge radius costs a mask the target's
    /// size, and a move that would bring in what was cut off makes a new shape.
    func testTheKeptShapeIsBlurredOnlyOverTheTarget() {
        let (huge, hugeLayer) = squareShadowScene(shadowPath: false)
        hugeLayer.shadowRadius = 19_999
        huge.frame(at: 0)
        XCTAssertEqual(huge.frames.renderer.shadows.renderCount, 1)
        // The shadow's reach runs past the target on the left (σ 30, about 90 pixels): a move
        // left is still covered, a move right is not.
        let (scene, layer) = squareShadowScene(shadowPath: false)
        layer.shadowRadius = 60
        scene.frame(at: 0)
        layer.position.x -= 3
        scene.frame(at: 1)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 1)
        layer.position.x += 6
        scene.frame(at: 2)
        XCTAssertEqual(scene.frames.renderer.shadows.renderCount, 2)
        for (dx, t) in [(-3.0, 3.0), (4, 4)] {
            layer.position.x += dx
            scene.frame(at: t)
            let fresh = squareShadowScene(shadowPath: false)
            fresh.1.shadowRadius = 60
            fresh.1.position.x = layer.position.x
            fresh.0.frame(at: 0)
            XCTAssertTrue(samePixels(scene.bitmap, fresh.0.bitmap), "moved by \(dx)")
        }
    }

    func testDamageTrackedFramesEqualWholeRepaintsWithShadows() {
        func make() -> (RenderScene, [Layer]) {
            let scene = RenderScene(width: 640, height: 400, background: .white)
            let card = Layer()
            card.frame = Rect(x: 30, y: 30, width: 120, height: 90)
            card.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.8)
            card.cornerRadius = 10
            card.shadowOpacity = 0.7
            card.shadowRadius = 14
            card.shadowOffset = Size(width: 6, height: 10)
            let dot = ShapeLayer()
            dot.path = ovalPath(30)
            dot.fillColor = .redColor
            dot.frame = Rect(x: 10, y: 10, width: 30, height: 30)
            card.addSublayer(dot)
            let ring = ShapeLayer()
            ring.path = ovalPath(80)
            ring.fillColor = nil
            ring.strokeColor = .blueColor
            ring.lineWidth = 10
            ring.frame = Rect(x: 190, y: 40, width: 80, height: 80)
            ring.shadowOpacity = 0.8
            ring.shadowRadius = 6
            ring.shadowOffset = Size(width: 4, height: 4)
            scene.root.addSublayer(card)
            scene.root.addSublayer(ring)
            scene.frame(at: 0)
            dot.add(linearAnimation("position.x", from: 25, to: 95, duration: 2), forKey: "x")
            card.add(linearAnimation("position.y", from: 75, to: 140, duration: 2), forKey: "y")
            ring.add(linearAnimation("strokeEnd", from: 0, to: 1, duration: 2), forKey: "s")
            ring.add(linearAnimation("shadowRadius", from: 2, to: 20, duration: 2), forKey: "r")
            return (scene, [card, ring])
        }
        let (tracked, _) = make()
        let (full, _) = make()
        full.frames.damageTracking = false
        var partial = 0
        for i in 1...25 {
            let t = Double(i) * 0.09
            let result = tracked.frame(at: t)
            full.frame(at: t)
            if result.pixelsRedrawn < 640 * 400 { partial += 1 }
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
        }
        XCTAssertGreaterThan(partial, 10)
        savePNG(tracked.bitmap, "shadow-damage")
    }

    private func ovalPath(_ size: Double) -> Path {
        var path = Path()
        path.addEllipse(in: Rect(x: 0, y: 0, width: size, height: size))
        return path
    }

    func testShadowOfAGroupWithOpacityIsPartOfTheGroup() {
        // opacity 0.5 over a red body and its blue shadow: where they overlap only the body shows.
        let scene = RenderScene(width: 200, height: 200, background: .white)
        let card = Layer()
        card.frame = Rect(x: 50, y: 50, width: 80, height: 80)
        card.backgroundColor = .redColor
        card.shadowOpacity = 1
        card.shadowColor = .blueColor
        card.shadowRadius = 0
        card.shadowOffset = Size(width: 20, height: 20)
        card.opacity = 0.5
        scene.root.addSublayer(card)
        scene.frame(at: 0)
        assertColor(scene.bitmap, Point(x: 120, y: 120), Color(red: 1, green: 0.5, blue: 0.5), tolerance: 0.01)
        assertColor(scene.bitmap, Point(x: 140, y: 140), Color(red: 0.5, green: 0.5, blue: 1), tolerance: 0.01)
    }
}
