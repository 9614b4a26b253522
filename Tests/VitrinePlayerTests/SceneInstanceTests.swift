import Foundation
import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// Scene instances: the tree built from the config, scene time, live progress and messages.
final class SceneInstanceTests: XCTestCase {
    func testTreeParentsMasksAndRoot() throws {
        let playlist = try loadPlaylist(
            """
            [player]
            canvas = [800, 600]

            [[scene]]
            name = "s"
            duration = 2
            background = "#102030"

            [[scene.layer]]
            id = "group"
            type = "layer"
            frame = [100, 50, 400, 300]

            [[scene.layer]]
            id = "photo"
            type = "image"
            contents = "images/lake.png"
            parent = "group"
            mask = "ring"

            [[scene.layer]]
            id = "ring"
            type = "arrow"
            bounds = [0, 0, 800, 800]

            [[scene.layer]]
            id = "late"
            type = "layer"
            anchorPoint = [0, 0]
            frame = [10, 20, 30, 40]
            """)
        let scene = try SceneInstance(playlist.scenes[0], playlist: playlist)
        XCTAssertEqual(scene.root.bounds, Rect(x: 0, y: 0, width: 800, height: 600))
        XCTAssertEqual(scene.root.frame, Rect(x: 0, y: 0, width: 800, height: 600))
        XCTAssertEqual(scene.root.backgroundColor, Color(r8: 0x10, g8: 0x20, b8: 0x30))
        let group = try XCTUnwrap(scene.layer(withID: "group"))
        let photo = try XCTUnwrap(scene.layer(withID: "photo"))
        let ring = try XCTUnwrap(scene.layer(withID: "ring"))
        XCTAssertEqual(scene.root.sublayers.map(\.name), ["group", "late"])
        XCTAssertTrue(photo.superlayer === group)
        XCTAssertTrue(photo.mask === ring)
        XCTAssertNil(ring.superlayer, "a mask is not in the tree")
        XCTAssertEqual(group.position, Point(x: 300, y: 200))
        // An image without bounds takes the image's size (lake.png is 800 × 800).
        XCTAssertEqual(photo.bounds, Rect(x: 0, y: 0, width: 800, height: 800))
        // frame honours the configured anchor point.
        let late = try XCTUnwrap(scene.layer(withID: "late"))
        XCTAssertEqual(late.position, Point(x: 10, y: 20))
        XCTAssertEqual(late.frame, Rect(x: 10, y: 20, width: 30, height: 40))
    }

    /// Animation begin times are in scene time, whatever the start time on the engine's clock;
    /// a layer's own timing shifts its animations.
    func testSceneTimeStartsAtTheStart() throws {
        let playlist = try loadPlaylist(
            oneScene(
                """
                [[scene.layer]]
                id = "a"
                type = "layer"

                [[scene.layer.animation]]
                keyPath = "opacity"
                from = 0
                to = 1
                duration = 2

                [[scene.layer]]
                id = "b"
                type = "layer"
                beginTime = 1
                speed = 2

                [[scene.layer.animation]]
                keyPath = "position.x"
                from = 0
                to = 100
                duration = 4
                beginTime = 0.5
                """))
        let scene = try SceneInstance(playlist.scenes[0], playlist: playlist)
        let engine = Engine(root: scene.root, time: 1000)
        scene.attach(to: engine)
        scene.start(at: 1000)
        func shown(_ id: String) -> Layer {
            engine.tick(at: engine.currentMediaTime).presentation.sublayers.first { $0.name == id }!
        }
        XCTAssertEqual(shown("a").opacity, 0, accuracy: 1e-12)
        engine.beginFrame(at: 1000.5)
        XCTAssertEqual(shown("a").opacity, 0.25, accuracy: 1e-12)
        // b's time is (scene − 1) × 2; its animation starts at its time 0.5 = scene time 1.25.
        engine.beginFrame(at: 1001.25)
        XCTAssertEqual(shown("b").position.x, 0, accuracy: 1e-9)
        engine.beginFrame(at: 1002.25)  // b's time 2.5: 2 s into a 4 s animation
        XCTAssertEqual(shown("b").position.x, 50, accuracy: 1e-9)
    }

    /// Every playlist shipped under config/ (the default and the examples) passes what `check`
    /// runs: it loads, its images decode and every scene builds.
    func testEveryShippedConfigBuilds() throws {
        let root = ConfigPaths.repository + "/config"
        let examples = try FileManager.default.contentsOfDirectory(atPath: root + "/examples")
            .filter { $0.hasSuffix(".toml") }.sorted()
        XCTAssertTrue(examples.contains("status-board.toml"), "\(examples)")
        for file in ["default.toml"] + examples.map({ "examples/" + $0 }) {
            XCTAssertNoThrow(try PlaylistBuilder.build(root + "/" + file), file)
        }
    }

    func testLiveProgressGlidesAndCompletes() throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.repository + "/config/examples/boot.toml")
        XCTAssertEqual(playlist.scenes[0].duration, .untilProgressComplete)
        XCTAssertEqual(playlist.scenes[0].progressSource, .fifo("/run/vitrine/progress"))
        let scene = try SceneInstance(playlist.scenes[0], playlist: playlist)
        let engine = Engine(root: scene.root)
        scene.attach(to: engine)
        scene.start(at: 0)
        func barShown() -> Double {
            let presentation = engine.tick(at: engine.currentMediaTime).presentation
            return (presentation.sublayers.first { $0.name == "bar" } as! ProgressLayer).progress
        }
        XCTAssertEqual(barShown(), 0)
        engine.beginFrame(at: 1)
        scene.setProgress(0.5)
        XCTAssertEqual(barShown(), 0, "the glide starts from what was shown")
        let d = SceneInstance.progressAnimationDuration
        engine.beginFrame(at: 1 + d / 2)
        let midway = barShown()
        XCTAssertGreaterThan(midway, 0.25, "easeOut is past half way at half time")
        XCTAssertLessThan(midway, 0.5)
        engine.beginFrame(at: 1 + d)
        XCTAssertEqual(barShown(), 0.5, accuracy: 1e-12)
        scene.setProgress(1.7)
        XCTAssertFalse(scene.progressComplete, "the bar is still gliding")
        engine.beginFrame(at: 3)
        XCTAssertEqual(barShown(), 1, accuracy: 1e-12)
        _ = engine.tick(at: engine.currentMediaTime)
        XCTAssertTrue(scene.progressComplete)

        scene.setMessage("Mounting filesystems")
        XCTAssertEqual((scene.layer(withID: "message") as? TextLayer)?.string, "Mounting filesystems")
    }

    func testPieGrowsFromTheTop() throws {
        let playlist = try loadPlaylist(
            oneScene(
                """
                [[scene.layer]]
                id = "pie"
                type = "pie"
                bounds = [0, 0, 200, 200]
                values = [1, 1, 2]
                growthDuration = 2
                """))
        let definition = playlist.scenes[0]
        func angles(at t: Double) throws -> [Double] {
            let (scene, _) = try SceneInstance.evaluate(definition, playlist: playlist, at: t)
            let pie = try XCTUnwrap(scene.layer(withID: "pie") as? PieLayer)
            return pie.slices.map { $0.presentation()!.sliceAngle }
        }
        let top = -Double.pi / 2
        for (a, e) in zip(try angles(at: 0), [top, top, top]) { XCTAssertEqual(a, e, accuracy: 1e-12) }
        // easeInEaseOut is symmetric: half way in time is half way in angle.
        let half = try angles(at: 1)
        for (a, e) in zip(half, [top + .pi / 4, top + .pi / 2, top + .pi]) { XCTAssertEqual(a, e, accuracy: 1e-6) }
        let end = try angles(at: 2.5)
        for (a, e) in zip(end, [top + .pi / 2, top + .pi, top + 2 * .pi]) { XCTAssertEqual(a, e, accuracy: 1e-12) }
    }

    func testGroupsSpringsAndKeyframes() throws {
        let playlist = try loadPlaylist(
            oneScene(
                """
                [[scene.layer]]
                id = "g"
                type = "layer"

                [[scene.layer.animation]]
                type = "group"
                duration = 4

                [[scene.layer.animation.animations]]
                keyPath = "opacity"
                values = [0, 1, 0.5]
                keyTimes = [0, 0.25, 1]
                duration = 2

                [[scene.layer.animation.animations]]
                keyPath = "transform.rotation.z"
                from = 0
                to = 1
                beginTime = 1
                duration = 2

                [[scene.layer]]
                id = "s"
                type = "layer"
                position = [100, 0]

                [[scene.layer.animation]]
                type = "spring"
                keyPath = "position.x"
                from = 0
                damping = 20
                """))
        let definition = playlist.scenes[0]
        let (_, frame) = try SceneInstance.evaluate(definition, playlist: playlist, at: 1.5)
        let g = frame.presentation.sublayers[0]
        // Keyframes: 1.5 s of 2 s is 0.75, two thirds into the 0.25…1 segment from 1 to 0.5.
        XCTAssertEqual(g.opacity, 1 + (0.5 - 1) * (0.5 / 0.75), accuracy: 1e-9)
        XCTAssertEqual(TransformComponents(g.transform.affine).rotation, 0.25, accuracy: 1e-9)
        // Critically damped (c = 2√(km) = 20) from 0 to the model's 100: x(t) = 100·(1 − (1 + ωt)e^(−ωt)), ω = 10.
        // Without a duration it plays until it settles (under a second).
        let (_, springFrame) = try SceneInstance.evaluate(definition, playlist: playlist, at: 0.3)
        let s = springFrame.presentation.sublayers[1]
        let w = 10.0, t = 0.3
        XCTAssertEqual(s.position.x, 100 * (1 - (1 + w * t) * exp(-w * t)), accuracy: 1e-6)
    }
}
