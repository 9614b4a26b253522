import Glibc
import VitrineAnimation
import VitrineDisplay
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// The playlist state machine in virtual time: every time below is exact, chosen by the test.
final class PlayerTests: XCTestCase {
    /// Scenes of one colour each on a 40×30 canvas.
    static func playlistText(
        scenes: [(name: String, duration: String, colour: String)], transition: String = "none",
        transitionDuration: Double = 0.5, loop: Bool = true, canvas: (Int, Int) = (40, 30),
        progressSource: String? = nil
    ) -> String {
        var text = """
            [player]
            fps = 10
            background = "#000000"
            loop = \(loop)
            transition = "\(transition)"
            transitionDuration = \(transitionDuration)
            canvas = [\(canvas.0), \(canvas.1)]

            """
        for scene in scenes {
            text += """

                [[scene]]
                name = "\(scene.name)"
                duration = \(scene.duration)
                \(progressSource.map { "progressSource = \"\($0)\"" } ?? "")

                [[scene.layer]]
                id = "fill"
                type = "layer"
                frame = [0, 0, \(canvas.0), \(canvas.1)]
                backgroundColor = "\(scene.colour)"

                """
            if scene.duration == "\"progress\"" {
                text += """

                    [[scene.layer]]
                    id = "bar"
                    type = "progress"
                    frame = [0, 0, \(canvas.0), \(canvas.1)]

                    """
            }
        }
        return text
    }

    /// Writes `text` to a temporary file and loads it.
    static func load(_ text: String) throws -> Playlist {
        let path = "/tmp/vitrine-player-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).toml"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(path) }
        return try PlaylistLoader.load(file: path)
    }

    private let abc: [(name: String, duration: String, colour: String)] = [
        ("a", "1", "#ff0000"), ("b", "2", "#00ff00"), ("c", "1", "#0000ff")
    ]

    /// Runs frames every `step` seconds from `start` until `end` and returns each scene start as
    /// (name, frame time, scene start time).
    private func starts(
        _ player: Player, from start: Double, to end: Double, step: Double
    ) throws -> [(String, Double, Double)] {
        var result: [(String, Double, Double)] = []
        var n = 0
        while true {
            let t = start + Double(n) * step
            if t > end + 1e-9 { break }
            for case .sceneStarted(_, let name) in try player.frameWillRender(at: t) {
                result.append((name, t, player.currentSceneStartTime!))
            }
            player.engine.tick(at: t)
            n += 1
        }
        return result
    }

    func testScenesFollowTheirDurationsOnAnExactSchedule() throws {
        let player = Player(playlist: try Self.load(Self.playlistText(scenes: abc)), screenSize: Size(40, 30))
        // Frames every 0.3 s do not land on the scene ends (1, 3, 4, 5 s after 100): each scene
        // still starts at the exact end of the one before, so durations never drift.
        let seen = try starts(player, from: 100, to: 105.5, step: 0.3)
        XCTAssertEqual(seen.map(\.0), ["a", "b", "c", "a", "b"])
        XCTAssertEqual(seen.map(\.2), [100, 101, 103, 104, 105])
        // … and each is noticed by the first frame at or after its start.
        for (_, frameTime, startTime) in seen {
            XCTAssertGreaterThanOrEqual(frameTime, startTime)
            XCTAssertLessThan(frameTime - startTime, 0.3)
        }
        // Only the current scene is on the stage with a cut.
        XCTAssertNil(player.outgoingHolder)
    }

    func testAPlaylistWithoutLoopFinishesAfterItsLastScene() throws {
        let player = Player(
            playlist: try Self.load(Self.playlistText(scenes: abc, loop: false)), screenSize: Size(40, 30))
        var finishedAt: Double?
        for n in 0...60 {
            let t = Double(n) / 10
            if try player.frameWillRender(at: t).contains(.finished) { finishedAt = t }
        }
        XCTAssertEqual(finishedAt, 4.0)
        XCTAssertTrue(player.isFinished)
        XCTAssertEqual(player.currentSceneName, "c", "the last scene stays on screen")
        XCTAssertNil(player.nextDeadline)
    }

    func testFadeDissolvesTheIncomingSceneOverTheOutgoingOne() throws {
        let player = Player(
            playlist: try Self.load(Self.playlistText(scenes: abc, transition: "fade", transitionDuration: 0.5)),
            screenSize: Size(40, 30))
        for n in 0...10 { try player.frameWillRender(at: Double(n) / 10); player.engine.tick(at: Double(n) / 10) }
        // At 1.0 s "b" began fading in over "a".
        XCTAssertEqual(player.currentSceneName, "b")
        XCTAssertEqual(player.outgoingScene?.definition.name, "a")
        let incoming = try XCTUnwrap(player.currentHolder), outgoing = try XCTUnwrap(player.outgoingHolder)
        // Ease-in-ease-out is symmetric: half the time is half the opacity.
        try player.frameWillRender(at: 1.25)
        player.engine.tick(at: 1.25)
        XCTAssertEqual(try XCTUnwrap(incoming.presentation()).opacity, 0.5, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(outgoing.presentation()).opacity, 1, "the outgoing scene stays underneath")
        // The outgoing scene's own time keeps running during the transition.
        XCTAssertEqual(player.outgoingScene!.root.localTime(fromParentTime: 1.25), 1.25, accuracy: 1e-9)
        // At the end the outgoing scene leaves the stage.
        try player.frameWillRender(at: 1.5)
        XCTAssertNil(player.outgoingHolder)
        XCTAssertNil(outgoing.superlayer)
        XCTAssertFalse(player.isTransitioning)
    }

    /// A scene that ends between two frames starts at its exact end (durations do not drift),
    /// but its transition's motion begins at the frame that first shows it: that frame shows
    /// the fade's beginning (the incoming scene not yet seen, so it can be made ready to draw
    /// unseen), and the fade still ends when it would have.
    func testATransitionBeginsMovingAtTheFrameThatFirstShowsIt() throws {
        let player = Player(
            playlist: try Self.load(Self.playlistText(scenes: abc, transition: "fade", transitionDuration: 0.5)),
            screenSize: Size(40, 30))
        try player.frameWillRender(at: 0)
        player.engine.tick(at: 0)
        try player.frameWillRender(at: 1.1)
        let update = player.engine.tick(at: 1.1)
        XCTAssertEqual(player.currentSceneName, "b")
        XCTAssertEqual(player.currentSceneStartTime, 1, "the scene's time runs from its predecessor's end")
        let incoming = try XCTUnwrap(player.currentHolder)
        XCTAssertEqual(try XCTUnwrap(incoming.presentation()).opacity, 0)
        XCTAssertTrue(update.fadingIn.first?.model() === incoming, "drawn unseen in this frame")
        // Halfway between that frame and the end, half the opacity (ease-in-ease-out).
        try player.frameWillRender(at: 1.3)
        player.engine.tick(at: 1.3)
        XCTAssertEqual(try XCTUnwrap(incoming.presentation()).opacity, 0.5, accuracy: 1e-6)
        XCTAssertEqual(player.nextDeadline, 1.5, "the fade ends with the scene's first half second")
        try player.frameWillRender(at: 1.5)
        XCTAssertFalse(player.isTransitioning)
        // "b" ends at 3 s; a frame 0.2 s after that starts "c" there, its fade from 0 then.
        try player.frameWillRender(at: 3.2)
        player.engine.tick(at: 3.2)
        XCTAssertEqual(player.currentSceneStartTime, 3)
        XCTAssertEqual(try XCTUnwrap(player.currentHolder?.presentation()).opacity, 0)
        XCTAssertEqual(player.nextDeadline, 3.5)
    }

    /// Scenes without a background of their own (the stage's shows through them) dissolve into
    /// each other: halfway, what only the outgoing scene draws is half gone, and what only the
    /// incoming one draws is half there. Nothing of the outgoing scene stays at full strength
    /// until it is taken away at the end.
    func testAFadeDissolvesTheOutgoingSceneAsTheIncomingOneAppears() throws {
        let text = """
            [player]
            background = "#000000"
            transition = "fade"
            transitionDuration = 1
            canvas = [40, 30]

            [[scene]]
            name = "left"
            duration = 1
            [[scene.layer]]
            type = "layer"
            frame = [0, 0, 20, 30]
            backgroundColor = "#ffffff"

            [[scene]]
            name = "right"
            duration = 10
            [[scene.layer]]
            type = "layer"
            frame = [20, 0, 20, 30]
            backgroundColor = "#ff0000"
            """
        let player = Player(playlist: try Self.load(text), screenSize: Size(40, 30))
        let frames = PlayerFrames(player: player, bitmap: Bitmap(width: 40, height: 30))
        for n in 0...15 { _ = try frames.makeFrame(at: Double(n) / 10) }
        XCTAssertEqual(player.outgoingScene?.definition.name, "left")
        // Ease-in-ease-out is symmetric: at 1.5 s the fade is halfway.
        let left = frames.bitmap[10, 15], right = frames.bitmap[30, 15]
        XCTAssertEqual(Double((left >> 8) & 0xFF), 127.5, accuracy: 1.5, "the outgoing white, half gone")
        XCTAssertEqual(Double((right >> 16) & 0xFF), 127.5, accuracy: 1.5, "the incoming red, half there")
        XCTAssertEqual(right & 0xFFFF, 0)
        for n in 16...21 { _ = try frames.makeFrame(at: Double(n) / 10) }
        XCTAssertNil(player.outgoingHolder)
        XCTAssertEqual(frames.bitmap[10, 15] & 0xFF_FFFF, 0, "the stage's black")
        XCTAssertEqual(frames.bitmap[30, 15] & 0xFF_FFFF, 0xFF_0000)
        XCTAssertNil(try XCTUnwrap(player.currentHolder).backgroundColor, "the stage shows through the scene again")
    }

    func testPushSlidesTheScenesAcrossTheViewport() throws {
        // A 40×30 canvas on an 80×60 screen: scale 2, the viewport is the whole screen.
        let player = Player(
            playlist: try Self.load(Self.playlistText(scenes: abc, transition: "push", transitionDuration: 1)),
            screenSize: Size(80, 60))
        try player.frameWillRender(at: 0)
        player.requestNextScene()
        try player.frameWillRender(at: 0.5)
        let incoming = try XCTUnwrap(player.currentHolder), outgoing = try XCTUnwrap(player.outgoingHolder)
        player.engine.tick(at: 0.5)
        XCTAssertEqual(
            try XCTUnwrap(incoming.presentation()).position.x, 80, accuracy: 1e-9, "starts one viewport to the right")
        XCTAssertEqual(try XCTUnwrap(outgoing.presentation()).position.x, 0, accuracy: 1e-9)
        try player.frameWillRender(at: 1.0)
        player.engine.tick(at: 1.0)
        XCTAssertEqual(incoming.presentation()!.position.x, 40, accuracy: 1e-6, "halfway at half time")
        XCTAssertEqual(outgoing.presentation()!.position.x, -40, accuracy: 1e-6)
        XCTAssertEqual(incoming.transform, Transform3D(Transform2D(scaleX: 2, y: 2)))
        try player.frameWillRender(at: 1.5)
        player.engine.tick(at: 1.5)
        XCTAssertEqual(incoming.presentation()!.position.x, 0)
        XCTAssertNil(player.outgoingHolder)
    }

    func testOperatorRequestsTakeEffectAtTheNextFrame() throws {
        let player = Player(
            playlist: try Self.load(Self.playlistText(scenes: abc, loop: false)), screenSize: Size(40, 30))
        try player.frameWillRender(at: 10)
        player.requestNextScene()
        XCTAssertTrue(player.hasPendingRequests)
        XCTAssertEqual(try player.frameWillRender(at: 10.5), [.sceneStarted(index: 1, name: "b")])
        XCTAssertEqual(player.currentSceneStartTime, 10.5)
        player.requestNextScene()
        try player.frameWillRender(at: 10.6)
        player.requestNextScene()
        // After the last scene a skip wraps to the first, even without loop.
        XCTAssertEqual(try player.frameWillRender(at: 10.7), [.sceneStarted(index: 0, name: "a")])
        player.requestNextScene()
        try player.frameWillRender(at: 10.8)
        player.requestRestart()
        XCTAssertEqual(try player.frameWillRender(at: 10.9), [.sceneStarted(index: 0, name: "a")])
        XCTAssertEqual(player.currentSceneStartTime, 10.9)
    }

    func testOnlySceneRepeatsThatScene() throws {
        let player = Player(
            playlist: try Self.load(Self.playlistText(scenes: abc)), screenSize: Size(40, 30), onlyScene: "b")
        let seen = try starts(player, from: 0, to: 4.5, step: 0.5)
        XCTAssertEqual(seen.map(\.0), ["b", "b", "b"])
        XCTAssertEqual(seen.map(\.2), [0, 2, 4])
    }

    func testReplacingThePlaylistKeepsTheStageAndStartsOver() throws {
        let player = Player(playlist: try Self.load(Self.playlistText(scenes: abc)), screenSize: Size(100, 30))
        let stage = player.stage
        try player.frameWillRender(at: 0)
        XCTAssertEqual(player.viewportFrame, Rect(x: 30, y: 0, width: 40, height: 30))
        let other = try Self.load(Self.playlistText(scenes: [("x", "5", "#ffffff")], canvas: (100, 10)))
        player.requestReplace(with: other)
        XCTAssertEqual(try player.frameWillRender(at: 0.5), [.sceneStarted(index: 0, name: "x")])
        XCTAssertTrue(player.stage === stage)
        XCTAssertEqual(player.playlist.scenes.map(\.name), ["x"])
        // 100×10 on 100×30: scale 1, bars of 10 above and below.
        XCTAssertEqual(player.viewportFrame, Rect(x: 0, y: 10, width: 100, height: 10))
        XCTAssertEqual(player.nextDeadline, 5.5)
    }

    /// A scene whose only change is its `messages` schedule draws nothing between entries, so
    /// the player sleeps then: each entry is a deadline it wakes for, in the engine's time (the
    /// scene started after another one).
    func testScheduledMessagesAreDeadlines() throws {
        let text =
            Self.playlistText(scenes: [("first", "1", "#202020")]) + """

                [[scene]]
                name = "messages"
                duration = 10
                messages = [[0, "one"], [2.5, "two"], [6, "three"]]

                [[scene.layer]]
                id = "message"
                type = "text"
                frame = [0, 0, 40, 30]
                transition = { type = "fade", duration = 0.5 }
                """
        let player = Player(playlist: try Self.load(text), screenSize: Size(40, 30))
        func frame(_ t: Double) throws {
            try player.frameWillRender(at: t)
            player.engine.tick(at: t)
        }
        try frame(0)
        XCTAssertEqual(player.nextDeadline, 1, "the first scene's end")
        try frame(1)
        XCTAssertEqual(player.currentSceneName, "messages")
        XCTAssertEqual(try XCTUnwrap(player.nextDeadline), 3.5, accuracy: 1e-9, "\"two\", 2.5 s into the scene")
        let message = try XCTUnwrap(player.currentHolder?.sublayers.first?.sublayers.first as? TextLayer)
        XCTAssertEqual(message.string, "one")
        try frame(3.5)
        XCTAssertEqual(message.string, "two")
        XCTAssertEqual(try XCTUnwrap(player.nextDeadline), 7, accuracy: 1e-9)
        try frame(7.2)
        XCTAssertEqual(message.string, "three")
        XCTAssertEqual(player.nextDeadline, 11, "none left: the scene's end")
    }

    func testLetterboxKeepsTheAspectAndCentres() {
        let wide = Letterbox(canvas: Size(1920, 1080), screen: Size(1280, 1024))
        XCTAssertEqual(wide.scale, 2.0 / 3.0, accuracy: 1e-12)
        XCTAssertEqual(wide.frame, Rect(x: 0, y: 152, width: 1280, height: 720))
        let tall = Letterbox(canvas: Size(1080, 1920), screen: Size(1920, 1080))
        XCTAssertEqual(tall.scale, 0.5625, accuracy: 1e-12)
        XCTAssertEqual(tall.frame.origin.x, 656, "(1920 - 607.5) / 2 = 656.25, down to a whole pixel")
        XCTAssertEqual(tall.frame.height, 1080)
        XCTAssertEqual(Letterbox(canvas: Size(0, 10), screen: Size(100, 100)).scale, 0)
    }

    func testResizeLaysTheCanvasOutAgain() throws {
        let player = Player(playlist: try Self.load(Self.playlistText(scenes: abc)), screenSize: Size(40, 30))
        try player.frameWillRender(at: 0)
        player.layout(for: Size(120, 60))
        // 40×30 in 120×60: scale 2, 80×60 centred.
        XCTAssertEqual(player.viewportFrame, Rect(x: 20, y: 0, width: 80, height: 60))
        XCTAssertEqual(player.currentHolder?.transform, Transform3D(Transform2D(scaleX: 2, y: 2)))
        XCTAssertEqual(player.stage.bounds, Rect(x: 0, y: 0, width: 120, height: 60))
    }

    func testCompletedProgressEndsAProgressScene() throws {
        let spec = ProgressSourceSpec.fifo("/tmp/vitrine-never-opened")
        let text = Self.playlistText(
            scenes: [("wait", "\"progress\"", "#202020"), ("after", "10", "#ffffff")],
            progressSource: "fifo:/tmp/vitrine-never-opened")
        let player = Player(playlist: try Self.load(text), screenSize: Size(40, 30))
        var t = 0.0
        func frame() throws -> [PlayerEvent] {
            let events = try player.frameWillRender(at: t)
            player.engine.tick(at: t)
            t += 0.1
            return events
        }
        _ = try frame()
        XCTAssertNil(player.nextDeadline, "waits for progress only")
        player.receive(.progress(0.5), from: spec)
        player.receive(.progress(1), from: .fifo("/tmp/some-other-source"))
        for _ in 0..<20 { XCTAssertEqual(try frame(), []) }
        player.receive(.progress(1), from: spec)
        var startedAt: Double?
        for _ in 0..<30 where startedAt == nil {
            let now = t
            if try frame().contains(.sceneStarted(index: 1, name: "after")) { startedAt = now }
        }
        // Received at 2.1 s: the bar glides for progressAnimationDuration, then the hold.
        let expected = 2.1 + SceneInstance.progressAnimationDuration + Player.progressCompleteHold
        XCTAssertEqual(try XCTUnwrap(startedAt), expected, accuracy: 0.15)
    }

    func testMessagesReachTheMessageLayerAndWaitForLaterScenes() throws {
        let source = ProgressSourceSpec.fifo("/tmp/vitrine-never-opened")
        var text = Self.playlistText(scenes: [("first", "1", "#000000")])
        for name in ["second", "third"] {
            text += """

                [[scene]]
                name = "\(name)"
                duration = 1
                \(name == "second" ? "progressSource = \"fifo:/tmp/vitrine-never-opened\"" : "")

                [[scene.layer]]
                id = "message"
                type = "text"
                frame = [0, 0, 40, 30]

                """
        }
        let player = Player(playlist: try Self.load(text), screenSize: Size(40, 30))
        try player.frameWillRender(at: 0)
        // Sent while "first" (which reads no source) plays: kept for "second".
        player.receive(.message("Installing"), from: source)
        try player.frameWillRender(at: 0.5)
        try player.frameWillRender(at: 1.0)
        XCTAssertEqual(player.currentSceneName, "second")
        func shown() -> String? { (player.currentScene?.layer(withID: "message") as? TextLayer)?.string }
        XCTAssertEqual(shown(), "Installing")
        player.receive(.message("Done"), from: source)
        try player.frameWillRender(at: 1.5)
        XCTAssertEqual(shown(), "Done")
        // "third" reads no source: its message layer is left alone.
        try player.frameWillRender(at: 2.0)
        XCTAssertEqual(player.currentSceneName, "third")
        XCTAssertNil(shown())
    }
}
