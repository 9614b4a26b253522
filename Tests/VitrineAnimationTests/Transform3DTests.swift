import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// Layers in space: a card turned about y seen through its superlayer's perspective, back faces,
/// transform layers, and the 3D transform's parts.
final class Transform3DTests: XCTestCase {
    /// An 800 × 450 stage with an eye 900 px away (sublayerTransform m34 = −1/900, about its
    /// centre) holding a white 300 × 250 card centred at (400, 225) over black.
    private func stage(turn angle: Double, doubleSided: Bool = true) -> (RenderScene, Layer) {
        let scene = RenderScene(width: 800, height: 450, background: .black)
        let stage = Layer()
        stage.frame = Rect(x: 0, y: 0, width: 800, height: 450)
        stage.sublayerTransform = Transform3D(perspective: 900)
        let card = Layer()
        card.frame = Rect(x: 250, y: 100, width: 300, height: 250)
        card.backgroundColor = .white
        card.isDoubleSided = doubleSided
        card.transform = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
        stage.addSublayer(card)
        scene.root.addSublayer(stage)
        return (scene, card)
    }

    /// A red-to-blue gradient layer at `frame` on a stage filling `scene`, seen with the eye
    /// `perspective` away.
    private func gradientFace(in scene: RenderScene, perspective: Double, frame: Rect) -> GradientLayer {
        let stage = Layer()
        stage.frame = scene.root.bounds
        stage.sublayerTransform = Transform3D(perspective: perspective)
        let face = GradientLayer()
        face.frame = frame
        face.colors = [.redColor, .blueColor]
        stage.addSublayer(face)
        scene.root.addSublayer(stage)
        return face
    }

    /// The box of the pixels at least half covered.
    private func inkBox(_ bitmap: Bitmap) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where (bitmap[x, y] >> 8) & 0xFF >= 128 {
                box =
                    box.map { (min($0.0, x), max($0.1, x + 1), min($0.2, y), max($0.3, y + 1)) } ?? (x, x + 1, y, y + 1)
            }
        }
        return box.map { (minX: $0.0, maxX: $0.1, minY: $0.2, maxY: $0.3) }
    }

    /// Turned by θ about y, a card point dx, dy from its centre lands at depth z = −dx·sin θ and
    /// is seen at (400 + dx·cos θ / w, 225 + dy / w) with w = 1 − z / 900.
    func testAt60DegreesTheCornersAreWhereThePerspectiveMatrixPutsThem() throws {
        let (scene, _) = stage(turn: .pi / 3)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "card-60")
        let c = cos(Double.pi / 3), s = sin(Double.pi / 3)
        func seen(_ dx: Double, _ dy: Double) -> Point {
            let w = 1 + dx * s / 900
            return Point(x: 400 + dx * c / w, y: 225 + dy / w)
        }
        let box = try XCTUnwrap(inkBox(scene.bitmap))
        XCTAssertEqual(Double(box.minX), seen(-150, 0).x, accuracy: 1)
        XCTAssertEqual(Double(box.maxX), seen(150, 0).x, accuracy: 1)
        XCTAssertEqual(Double(box.minY), seen(-150, -125).y, accuracy: 1, "the near edge is taller")
        XCTAssertEqual(Double(box.maxY), seen(-150, 125).y, accuracy: 1)
        // The far edge's height, measured at its column.
        let far = Int(seen(150, 0).x) - 2
        let column = (0..<450).filter { (scene.bitmap[far, $0] >> 8) & 0xFF >= 128 }
        let farEdge = (seen(150, 125).y - seen(150, -125).y)
        XCTAssertEqual(Double(column.count), farEdge, accuracy: 3)
    }

    func testABackFaceShowsOnlyWhenDoubleSided() {
        for angle in [Double.pi / 2, 2 * .pi / 3] {
            let (single, _) = stage(turn: angle, doubleSided: false)
            single.frame(at: 0)
            XCTAssertEqual(countPixels(single.bitmap) { $0 != .black }, 0, "θ = \(angle)")
        }
        let (double, _) = stage(turn: 2 * .pi / 3)
        double.frame(at: 0)
        XCTAssertGreaterThan(countPixels(double.bitmap) { $0 == .white }, 10_000)
        let (front, _) = stage(turn: .pi / 3, doubleSided: false)
        front.frame(at: 0)
        XCTAssertGreaterThan(countPixels(front.bitmap) { $0 == .white }, 10_000)
    }

    func testAnimatedFlipDamageEqualsWholeRepaints() {
        func make() -> RenderScene {
            let (scene, card) = stage(turn: 0)
            let label = TextLayer()
            label.frame = Rect(x: 20, y: 90, width: 260, height: 70)
            label.string = "FRONT"
            label.foregroundColor = .redColor
            card.addSublayer(label)
            scene.frame(at: 0)
            card.add(linearAnimation("transform.rotation.y", from: 0, to: 2 * .pi, duration: 2), forKey: "flip")
            return scene
        }
        let tracked = make(), full = make()
        full.frames.damageTracking = false
        for i in 1...24 {
            let t = Double(i) * 0.1
            tracked.frame(at: t)
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
        }
    }

    /// A card turned by keyframes that hold each face (as the default playlist's flip does): its
    /// layer gets a new presentation copy every frame the animation runs, but while the angle
    /// holds nothing is repainted, and every frame equals a whole repaint.
    func testAFlipHeldByItsKeyframesRepaintsNothingWhileItHolds() {
        func make() -> RenderScene {
            let scene = RenderScene(width: 800, height: 450, background: .black)
            let space = TransformLayer()
            space.frame = Rect(x: 250, y: 100, width: 300, height: 250)
            let face = Layer()
            face.frame = Rect(x: 0, y: 0, width: 300, height: 250)
            face.backgroundColor = .white
            let label = TextLayer()
            label.frame = Rect(x: 20, y: 90, width: 260, height: 70)
            label.string = "FRONT"
            label.foregroundColor = .redColor
            face.addSublayer(label)
            space.addSublayer(face)
            let stage = Layer()
            stage.frame = Rect(x: 0, y: 0, width: 800, height: 450)
            stage.sublayerTransform = Transform3D(perspective: 900)
            stage.addSublayer(space)
            scene.root.addSublayer(stage)
            scene.frame(at: 0)
            let turn = KeyframeAnimation(keyPath: "transform.rotation.y")
            turn.values = [0.0, 0.0, Double.pi / 3, Double.pi / 3]
            turn.keyTimes = [0, 0.4, 0.6, 1]
            turn.duration = 2
            space.add(turn, forKey: "flip")
            return scene
        }
        let tracked = make(), full = make()
        full.frames.damageTracking = false
        for i in 1...20 {
            let t = Double(i) * 0.1
            let result = tracked.frame(at: t)
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
            let holds = t < 0.75 || (t > 1.25 && t < 1.95)
            if holds { XCTAssertEqual(result.pixelsRedrawn, 0, "t = \(t): the card holds still") }
            if t > 0.85 && t < 1.15 { XCTAssertGreaterThan(result.pixelsRedrawn, 10_000, "t = \(t): it turns") }
        }
    }

    func testATransformLayerDrawsItsSublayersNearestLast() {
        let scene = RenderScene(width: 400, height: 300, background: .black)
        let space = TransformLayer()
        space.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        space.sublayerTransform = Transform3D(perspective: 800)
        let near = Layer(), far = Layer()
        for (layer, colour, z) in [(near, Color.redColor, 100.0), (far, Color.blueColor, -100.0)] {
            layer.frame = Rect(x: 100, y: 75, width: 200, height: 150)
            layer.backgroundColor = colour
            layer.zPosition = z
        }
        space.addSublayer(near)  // first in order, yet nearer: drawn last
        space.addSublayer(far)
        scene.root.addSublayer(space)
        scene.frame(at: 0)
        assertColor(scene.bitmap, Point(x: 200, y: 150), .redColor)
        // Nearer is larger: the red card reaches beyond the blue one.
        let w = 1 - 100.0 / 800  // the near card's w
        XCTAssertEqual(
            Double(countPixels(scene.bitmap) { $0.red >= 0.5 }), 200 * 150 / (w * w), accuracy: 400)
    }

    func testPartsRoundTripAndRotationKeepsPerspective() {
        var parts = Transform3DComponents(
            plane: TransformComponents(
                translationX: 12, translationY: -7, rotation: 0.4, scaleX: 1.5, scaleY: 0.8, shear: 0.2))
        parts.rotationX = -0.3
        parts.rotationY = 0.7
        parts.translationZ = 25
        parts.perspective = -1.0 / 600
        let back = Transform3DComponents(parts.transform)
        for (a, b) in [
            (back.plane.translationX, 12.0), (back.plane.translationY, -7), (back.plane.rotation, 0.4),
            (back.plane.scaleX, 1.5), (back.plane.scaleY, 0.8), (back.plane.shear, 0.2), (back.rotationX, -0.3),
            (back.rotationY, 0.7), (back.translationZ, 25), (back.perspective, -1.0 / 600)
        ] {
            XCTAssertEqual(a, b, accuracy: 1e-9)
        }
        let perspective = Transform3D(perspective: 500)
        let turned = perspective.replacing(atSubPath: "rotation.y", with: 1.0)!
        XCTAssertEqual(
            turned.m34, Transform3D(rotationAngle: 1, x: 0, y: 1, z: 0).concatenating(perspective).m34, accuracy: 1e-12)
        XCTAssertEqual(turned.value(atSubPath: "rotation.y") as! Double, 1, accuracy: 1e-9)
        // A transform of the plane keeps its 2D behaviour exactly.
        let flat = Transform3D(Transform2D(rotationAngle: 0.5).scaledBy(x: 2, y: 3))
        XCTAssertEqual(
            flat.interpolated(to: .identity, fraction: 0.3),
            Transform3D(Transform2D(rotationAngle: 0.5).scaledBy(x: 2, y: 3).interpolated(to: .identity, fraction: 0.3))
        )
    }

    func testExtremeMatricesDrawWithoutCrashing() {
        for matrix in [
            [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1],  // m14 = m24 = m34 = 1: much of the plane behind the eye
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],  // singular
            [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1]  // m34 = 1
        ] as [[Double]] {
            let (scene, card) = stage(turn: 0)
            card.transform = Transform3D(matrix)
            scene.frame(at: 0)
            card.transform = Transform3D(matrix).concatenating(Transform3D(rotationAngle: 0.3, x: 1, y: 0, z: 0))
            scene.frame(at: 1)
        }
    }

    /// A plane remade while a frame's bands are drawn on two threads is drawn in strips that
    /// both take: every frame of a turning card (a gradient face with a title) is the same, to
    /// the bit, as on one thread, and no plane is left half made.
    func testAPlaneDrawnInStripsByTheBandThreadsIsThePlaneDrawnWhole() {
        func make(parallel: Bool) -> RenderScene {
            let scene = RenderScene(width: 640, height: 360, background: .black)
            let renderer = scene.frames.renderer
            renderer.drawsBandsInParallel = parallel
            renderer.parallelMinimumFramePixels = 0
            renderer.parallelMinimumPixels = 0
            let face = gradientFace(in: scene, perspective: 700, frame: Rect(x: 170, y: 60, width: 300, height: 240))
            face.startPoint = Point(x: 0, y: 0)
            face.endPoint = Point(x: 1, y: 1)
            face.cornerRadius = 20
            face.masksToBounds = true
            let title = TextLayer()
            title.frame = Rect(x: 0, y: 90, width: 300, height: 60)
            title.string = "Line 3"
            title.fontSize = 40
            title.alignmentMode = .center
            face.addSublayer(title)
            scene.frame(at: 0)
            face.add(linearAnimation("transform.rotation.y", from: 0, to: 1.3, duration: 1), forKey: "turn")
            return scene
        }
        let banded = make(parallel: true), single = make(parallel: false)
        for i in 1...60 {
            let t = Double(i) / 60
            banded.frame(at: t)
            single.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(banded.bitmap, single.bitmap), 0, "t = \(t)")
            XCTAssertTrue(banded.frames.renderer.planeJobs.isEmpty)
        }
        XCTAssertGreaterThan(banded.frames.renderer.planes.renderCount, 3, "the plane was remade as it turned")
    }

    /// What a layer in space draws of its own (a gradient here) goes straight into its plane,
    /// which is kept: no backing store is kept beside it.
    func testContentDrawnIntoAPlaneKeepsNoStoreOfItsOwn() {
        let scene = RenderScene(width: 400, height: 300, background: .black)
        let face = gradientFace(in: scene, perspective: 800, frame: Rect(x: 100, y: 75, width: 200, height: 150))
        face.transform = Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0)
        scene.frame(at: 0)
        XCTAssertEqual(scene.frames.renderer.planes.renderCount, 1)
        XCTAssertEqual(scene.frames.renderer.backingStoreBytes, 0)
    }

    /// A card's two faces in a transform layer, turning: each face is drawn flat once (per
    /// scale step) and only the card's area is repainted, the same pixels as whole frames.
    func testAFlippingCardDrawsItsFacesOnceAndRepaintsOnlyItsArea() {
        func make() -> (RenderScene, TransformLayer) {
            let scene = RenderScene(width: 800, height: 450, background: .black)
            let stage = Layer()
            stage.frame = Rect(x: 0, y: 0, width: 800, height: 450)
            stage.sublayerTransform = Transform3D(perspective: 1000)
            let card = TransformLayer()
            card.frame = Rect(x: 300, y: 150, width: 200, height: 150)
            let front = Layer(), back = Layer()
            for (face, colour) in [(front, Color.redColor), (back, Color.blueColor)] {
                face.frame = Rect(x: 0, y: 0, width: 200, height: 150)
                face.backgroundColor = colour
                face.isDoubleSided = false
                card.addSublayer(face)
            }
            back.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
            stage.addSublayer(card)
            scene.root.addSublayer(stage)
            scene.frame(at: 0)
            card.add(linearAnimation("transform.rotation.y", from: 0, to: 2 * .pi, duration: 2), forKey: "flip")
            return (scene, card)
        }
        let (tracked, _) = make()
        let (full, _) = make()
        full.frames.damageTracking = false
        var sawBack = false
        for i in 1...119 {
            let t = Double(i) / 60
            let result = tracked.frame(at: t)
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
            XCTAssertLessThan(result.pixelsRedrawn, 800 * 450 / 4, "t = \(t)")
            if i == 60 {
                assertColor(tracked.bitmap, Point(x: 400, y: 225), .blueColor)
                sawBack = true
            }
        }
        XCTAssertTrue(sawBack)
        // Per face: a few steps down as it turns edge-on (across) and up as its near edge nears
        // the eye (down), and back.
        let made = tracked.frames.renderer.planes.renderCount
        XCTAssertLessThanOrEqual(made, 24, "two faces, a few scale steps each, in 119 frames")
    }
}
