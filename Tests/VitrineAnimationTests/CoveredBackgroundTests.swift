import XCTest
@testable import VitrineAnimation
@testable import VitrineGraphics

/// A background that the first sublayer paints over at once (a player's stage under a scene
/// that fills the screen) is not painted: the frames are the same to the bit as when every
/// background is painted, and it is left out only where nothing of it could show.
final class CoveredBackgroundTests: XCTestCase {
    /// A stage, a clipping viewport, a holder and a scene filling it, as the player builds them,
    /// with `change` applied to the scene (or its surroundings); returns the frame drawn with
    /// and without leaving covered backgrounds out, and how many were left out.
    private func frames(
        _ change: (_ stage: Layer, _ viewport: Layer, _ scene: Layer, _ other: Layer) -> Void
    )
        -> (skipping: Bitmap, painting: Bitmap, skipped: Int)
    {
        let frames = RenderScene.framesWithAndWithout(
            \.skipsCoveredBackgrounds, counting: \.coveredBackgroundCount, width: 160, height: 120, background: .black
        ) { render in
            let stage = Layer()
            stage.frame = Rect(x: 0, y: 0, width: 160, height: 120)
            stage.backgroundColor = Color(red: 0.9, green: 0.1, blue: 0.1)
            let viewport = Layer()
            viewport.frame = Rect(x: 0, y: 0, width: 160, height: 120)
            viewport.masksToBounds = true
            let holder = Layer()
            holder.frame = viewport.bounds
            let scene = Layer()
            scene.frame = holder.bounds
            scene.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.8)
            let other = Layer()
            other.frame = Rect(x: 30.5, y: 20.25, width: 60, height: 40)
            other.backgroundColor = Color(red: 0.2, green: 0.9, blue: 0.3, alpha: 0.6)
            scene.addSublayer(other)
            holder.addSublayer(scene)
            viewport.addSublayer(holder)
            stage.addSublayer(viewport)
            render.root.addSublayer(stage)
            change(stage, viewport, scene, other)
        }
        return (frames.on, frames.off, frames.count)
    }

    func testACoveringSceneHidesTheStageAndItIsNotPainted() {
        let (skipping, painting, skipped) = frames { _, _, _, _ in }
        XCTAssertTrue(samePixels(skipping, painting))
        XCTAssertEqual(skipped, 1, "the stage's background, under the scene")
    }

    func testWhatLetsTheBackgroundShowKeepsItPainted() {
        let cases: [(String, (Layer, Layer, Layer, Layer) -> Void)] = [
            ("a translucent scene", { _, _, scene, _ in scene.opacity = 0.5 }),
            (
                "a translucent background",
                { _, _, scene, _ in scene.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5) }
            ),
            ("rounded corners", { _, _, scene, _ in scene.cornerRadius = 12 }),
            ("a smaller scene", { _, _, scene, _ in scene.frame = Rect(x: 10, y: 10, width: 140, height: 100) }),
            ("half a pixel short", { _, _, scene, _ in scene.frame = Rect(x: 0.5, y: 0, width: 160, height: 120) }),
            (
                "a turned scene",
                { _, _, scene, _ in scene.transform = Transform3D(rotationAngle: 0.05, x: 0, y: 0, z: 1) }
            ),
            ("a hidden scene", { _, _, scene, _ in scene.isHidden = true }),
            (
                "a letterboxed viewport",
                { _, viewport, _, _ in viewport.frame = Rect(x: 0, y: 10, width: 160, height: 100) }
            ),
            ("a rounded viewport", { _, viewport, _, _ in viewport.cornerRadius = 8 }),
            (
                "a masked scene",
                { _, _, scene, _ in
                    let mask = Layer()
                    mask.frame = Rect(x: 20, y: 20, width: 100, height: 60)
                    mask.backgroundColor = .white
                    scene.mask = mask
                }
            ),
            (
                "another layer drawn first",
                { _, viewport, _, _ in
                    let first = Layer()
                    first.frame = Rect(x: 0, y: 0, width: 40, height: 40)
                    first.backgroundColor = Color(red: 1, green: 1, blue: 0, alpha: 0.5)
                    first.zPosition = -1
                    viewport.addSublayer(first)
                }
            )
        ]
        for (name, change) in cases {
            let (skipping, painting, skipped) = frames(change)
            XCTAssertTrue(samePixels(skipping, painting), name)
            XCTAssertEqual(skipped, 0, name)
        }
    }

    /// A scene fading in over another, as the player builds it: its group's first drawing is its
    /// background over all of it, which the group takes as an underlay instead of painting, and
    /// where the scene draws nothing the frame is the two backgrounds mixed by the fade.
    func testAFadingSceneTakesItsBackgroundAsTheUnderlayOfItsGroup() {
        let stage = Layer()
        stage.anchorPoint = .zero
        stage.bounds = Rect(x: 0, y: 0, width: 160, height: 120)
        stage.backgroundColor = .black
        func scene(_ background: Color, _ content: Color) -> Layer {
            let holder = Layer()
            holder.anchorPoint = .zero
            holder.bounds = stage.bounds
            let root = Layer()
            root.anchorPoint = .zero
            root.bounds = stage.bounds
            root.backgroundColor = background
            let shape = Layer()
            shape.frame = Rect(x: 30.5, y: 20.25, width: 60, height: 40)
            shape.backgroundColor = content
            shape.cornerRadius = 6
            root.addSublayer(shape)
            holder.addSublayer(root)
            return holder
        }
        let outgoing = scene(Color(red: 0.8, green: 0.2, blue: 0.1), .white)
        let incoming = scene(Color(red: 0.1, green: 0.2, blue: 0.8), Color(red: 0, green: 1, blue: 0, alpha: 0.5))
        incoming.opacity = 0.25
        stage.addSublayer(outgoing)
        stage.addSublayer(incoming)
        let bitmap = Bitmap(width: 160, height: 120)
        let ctx = GraphicsContext(bitmap: bitmap)
        LayerRenderer().render(stage, into: ctx, dirty: [IntRect(x: 0, y: 0, width: 160, height: 120)])
        XCTAssertEqual(ctx.underlayCount, 1, "the incoming scene's background")
        let out = PixelMath.premultipliedPixel(Color(red: 0.8, green: 0.2, blue: 0.1), alpha: 1)
        let into = PixelMath.premultipliedPixel(Color(red: 0.1, green: 0.2, blue: 0.8), alpha: 1)
        XCTAssertEqual(bitmap[5, 100], PixelMath.sourceOver(PixelMath.scale(into, 64), out))
    }
}
