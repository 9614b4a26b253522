import Logging
import VitrineAnimation
import VitrineDisplay
import VitrineGraphics
import VitrineSystem
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// The session's run loop on a virtual clock and a headless presenter: what is on screen when,
/// and how little the loop does while nothing moves.
final class PlayerSessionTests: XCTestCase {
    private func session(
        _ text: String, screen: PixelSize, clock: VirtualClock,
        options: (inout PlayerSession.Options) -> Void = { _ in }
    ) throws -> (PlayerSession, HeadlessPresenter) {
        let playlist = try PlayerTests.load(text)
        let presenter = HeadlessPresenter(size: screen, keepsFrames: true)
        let player = Player(playlist: playlist, screenSize: Size(Double(screen.width), Double(screen.height)))
        // On a virtual clock, reloads are built on the loop so the run stays exactly repeatable.
        var o = PlayerSession.Options(configFile: playlist.file, buildsReloadsInBackground: false)
        options(&o)
        let session = PlayerSession(
            player: player, presenter: presenter,
            loop: FrameLoop(link: try DisplayLink(clock: clock)), options: o,
            notifier: nil, signals: nil, logger: Logger(label: "test"))
        return (session, presenter)
    }

    /// The link never runs faster than the monitor refreshes (RandR's rate), unless --fps asks.
    func testFrameRateFollowsTheDisplaysRefreshRate() throws {
        let playlist = try PlayerTests.load(PlayerTests.playlistText(scenes: [("red", "2", "#ff0000")]))
        func rate(display: Double?, requested: Int?) throws -> Int {
            let presenter = HeadlessPresenter(
                size: PixelSize(width: 40, height: 30), refreshRate: display, keepsFrames: false)
            var options = PlayerSession.Options(configFile: playlist.file)
            options.framesPerSecond = requested
            let session = PlayerSession(
                player: Player(playlist: playlist, screenSize: Size(40, 30)), presenter: presenter,
                loop: FrameLoop(link: try DisplayLink(clock: VirtualClock())), options: options,
                notifier: nil, signals: nil, logger: Logger(label: "test"))
            return session.framesPerSecond(for: playlist)
        }
        // The test playlist asks for 10 fps.
        XCTAssertEqual(try rate(display: nil, requested: nil), 10)
        XCTAssertEqual(try rate(display: 5, requested: nil), 5)
        XCTAssertEqual(try rate(display: 59.94, requested: nil), 10)
        XCTAssertEqual(try rate(display: 5, requested: 30), 30)
    }

    /// A reload whose playlist loads but cannot build (here a value of the wrong type, which
    /// the loader itself never lets through) is refused like an invalid one: the old playlist
    /// plays on. A playlist that builds replaces it.
    func testReloadThatCannotBuildKeepsThePlayingPlaylist() throws {
        let red = try PlayerTests.load(PlayerTests.playlistText(scenes: [("red", "10", "#ff0000")]))
        let blue = try PlayerTests.load(PlayerTests.playlistText(scenes: [("blue", "10", "#0000ff")]))
        var broken = blue
        let colour = try XCTUnwrap(
            broken.scenes[0].layers[0].settings.firstIndex { $0.property.key == "backgroundColor" })
        broken.scenes[0].layers[0].settings[colour].value = "not a colour"
        for (replacement, expected) in [(broken, 0xFF0000 as UInt32), (blue, 0x0000FF)] {
            let clock = VirtualClock()
            let presenter = HeadlessPresenter(size: PixelSize(width: 40, height: 30), keepsFrames: true)
            var options = PlayerSession.Options(configFile: red.file, buildsReloadsInBackground: false)
            options.stopAfterSeconds = 2
            let session = PlayerSession(
                player: Player(playlist: red, screenSize: Size(40, 30)), presenter: presenter,
                loop: FrameLoop(link: try DisplayLink(clock: clock)), options: options,
                notifier: nil, signals: nil, logger: Logger(label: "test"),
                loadPlaylist: { _ in replacement })
            // As SIGHUP arrives:
            session.loop.schedule(at: clock.now().advanced(byNanoseconds: 1_000_000_000)) { session.handle([.reload]) }
            XCTAssertEqual(try session.run(), .durationElapsed)
            XCTAssertEqual(presenter.frames.first.map { $0[20, 15] & 0xFFFFFF }, 0xFF0000)
            XCTAssertEqual(presenter.screen[20, 15] & 0xFFFFFF, expected)
            XCTAssertEqual(session.player.playlist.scenes.map(\.name), [expected == 0xFF0000 ? "red" : "blue"])
        }
    }

    func testStaticScenesPauseTheLinkAndWakeForTheNextScene() throws {
        let text = PlayerTests.playlistText(scenes: [("red", "2", "#ff0000"), ("blue", "2", "#0000ff")])
        let clock = VirtualClock()
        let (session, presenter) = try session(text, screen: PixelSize(width: 80, height: 30), clock: clock) {
            $0.stopAfterSeconds = 5
        }
        XCTAssertEqual(try session.run(), .durationElapsed)
        // Static scenes: a frame for each scene change and the one after it that finds nothing
        // moving, not 10 frames a second for 5 s.
        XCTAssertLessThanOrEqual(presenter.presentCount, 6)
        XCTAssertLessThanOrEqual(session.loop.wakeUps, 10)
        // Red (40×30 canvas, pillarboxed in 80×30 between black bars), then blue from 2 s, red at 4 s.
        let first = try XCTUnwrap(presenter.frames.first)
        XCTAssertEqual(first[40, 15] & 0xFFFFFF, 0xFF0000)
        XCTAssertEqual(first[5, 15] & 0xFFFFFF, 0x000000, "letterbox bars show the background")
        XCTAssertEqual(presenter.screen[40, 15] & 0xFFFFFF, 0xFF0000)
        XCTAssertTrue(presenter.frames.contains { $0[40, 15] & 0xFFFFFF == 0x0000FF })
    }

    /// The playlist's clock starts when its first frame is on screen: an output that takes
    /// 250 ms to show it (a 4K frame on a busy X server) holds the playlist's time by the
    /// deadlines that passed meanwhile, and counts none of them missed; the frames are those of
    /// an output that shows the first frame at once.
    func testTheClockStartsWhenTheFirstFrameIsOnScreen() throws {
        let text = PlayerTests.playlistText(
            scenes: [("red", "0.2", "#ff0000"), ("blue", "10", "#0000ff")],
            transition: "fade", transitionDuration: 0.5)
        func frames(firstFrameTakes nanoseconds: Int64) throws -> (colours: [UInt32], missed: Int, time: Double) {
            let clock = VirtualClock()
            let playlist = try PlayerTests.load(text)
            let shown = HeadlessPresenter(size: PixelSize(width: 40, height: 30), keepsFrames: true)
            let presenter = SlowPresenter(shown, clock: clock, firstFinishTakes: nanoseconds)
            var options = PlayerSession.Options(configFile: playlist.file, buildsReloadsInBackground: false)
            options.stopAfterSeconds = 3
            options.framesPerSecond = 10
            let session = PlayerSession(
                player: Player(playlist: playlist, screenSize: Size(40, 30)), presenter: presenter,
                loop: FrameLoop(link: try DisplayLink(clock: clock)), options: options,
                notifier: nil, signals: nil, logger: Logger(label: "test"))
            var time = 0.0
            session.loop.schedule(at: clock.now().advanced(byNanoseconds: 500_000_000)) {
                time = session.playlistTime(at: clock.now())
            }
            XCTAssertEqual(try session.run(), .durationElapsed)
            return (shown.frames.map { $0[20, 15] }, session.link.missedFrameCount, time)
        }
        let atOnce = try frames(firstFrameTakes: 0), slowly = try frames(firstFrameTakes: 250_000_000)
        XCTAssertEqual(slowly.missed, 0)
        // Deadlines 1 and 2 (at 10 fps) passed while the first frame was being shown.
        XCTAssertEqual(atOnce.time - slowly.time, 0.2, accuracy: 1e-9)
        XCTAssertEqual(slowly.colours, atOnce.colours)
        let mixed = atOnce.colours.filter { $0 & 0xFF_FFFF != 0xFF_0000 && $0 & 0xFF_FFFF != 0x00_00FF }
        XCTAssertGreaterThanOrEqual(mixed.count, 3, "the fade's frames, the same in both")
    }

    /// A frame shown after missed deadlines is kept for `status` (`lateFrames`): when, in
    /// which scene, how many deadlines, and what the frame before it cost.
    func testALateFrameIsKeptForStatus() throws {
        let text = PlayerTests.playlistText(
            scenes: [("red", "1", "#ff0000"), ("blue", "10", "#0000ff")], transition: "fade",
            transitionDuration: 1)
        let clock = VirtualClock()
        let playlist = try PlayerTests.load(text)
        let shown = HeadlessPresenter(size: PixelSize(width: 40, height: 30), keepsFrames: true)
        // The third frame presented (red's first, then two of the fade, which starts at 1 s)
        // takes 350 ms to present: three deadlines pass meanwhile.
        let presenter = SlowPresenter(shown, clock: clock, stalledPresent: 3, stallTakes: 350_000_000)
        var options = PlayerSession.Options(configFile: playlist.file, buildsReloadsInBackground: false)
        options.stopAfterSeconds = 3
        options.framesPerSecond = 10
        let session = PlayerSession(
            player: Player(playlist: playlist, screenSize: Size(40, 30)), presenter: presenter,
            loop: FrameLoop(link: try DisplayLink(clock: clock)), options: options,
            notifier: nil, signals: nil, logger: Logger(label: "test"))
        XCTAssertEqual(try session.run(), .durationElapsed)
        XCTAssertEqual(session.link.missedFrameCount, 3)
        XCTAssertEqual(session.lateFrames.count, 1)
        let late = try XCTUnwrap(session.lateFrames.first?.json)
        XCTAssertEqual(late["scene"] as? String, "blue")
        XCTAssertEqual(late["inTransition"] as? Bool, true)
        XCTAssertEqual(late["missedDeadlines"] as? Int, 3)
        XCTAssertEqual(late["uptime"] as? Double ?? 0, 1.55, accuracy: 0.151, "in the fade, after the stall")
        let before = try XCTUnwrap(late["frameBefore"] as? [String: Any])
        for key in ["waitingMs", "drawingMs", "presentingMs"] { XCTAssertNotNil(before[key] as? Double, key) }
        // The JSON writer takes it as it is.
        XCTAssertTrue(try JSON.encode(["lateFrames": session.lateFrames.map { $0.json as Any }]).contains("\"blue\""))
    }

    func testAFadeRunsFramesOnlyWhileItMoves() throws {
        let text = PlayerTests.playlistText(
            scenes: [("red", "1", "#ff0000"), ("blue", "10", "#0000ff")],
            transition: "fade", transitionDuration: 0.5)
        let clock = VirtualClock()
        let (session, presenter) = try session(text, screen: PixelSize(width: 40, height: 30), clock: clock) {
            $0.stopAfterSeconds = 3
            $0.framesPerSecond = 10
        }
        XCTAssertEqual(try session.run(), .durationElapsed)
        let colours = presenter.frames.map { $0[20, 15] & 0xFFFFFF }
        // Red, then a dissolve through mixtures of red and blue, then blue, and then quiet.
        XCTAssertEqual(colours.first, 0xFF0000)
        XCTAssertEqual(colours.last, 0x0000FF)
        let mixed = colours.filter { $0 != 0xFF0000 && $0 != 0x0000FF }
        XCTAssertGreaterThanOrEqual(mixed.count, 3, "about five frames of a 0.5 s fade at 10 fps")
        XCTAssertLessThanOrEqual(presenter.presentCount, 12)
    }

    /// A still frame lets go of what the scenes before it left: the photo's resampled copy,
    /// made while the fade drew it frame after frame, is not held through the next scene's pause
    /// (no frames count its idle frames there).
    func testAStillFrameLetsGoOfTheScenesBeforeIt() throws {
        let photo = ConfigPaths.fixtures + "/lake-sideways-exif6.jpg"
        let text = PlayerTests.playlistText(
            scenes: [("photo", "2", "#202020"), ("plain", "10", "#ff0000")], transition: "fade",
            transitionDuration: 0.5
        ).replacingOccurrences(
            of: "backgroundColor = \"#202020\"\n",
            with: """
                backgroundColor = "#202020"

                [[scene.layer]]
                type = "image"
                contents = "\(photo)"
                frame = [5, 5, 20, 15]

                """)
        let clock = VirtualClock()
        let (session, _) = try session(text, screen: PixelSize(width: 80, height: 60), clock: clock) {
            $0.stopAfterSeconds = 4
        }
        var copiedDuringTheFade = 0
        // 2.4 s: late in the fade into the plain scene, which draws the photo each frame once the
        // fade has begun to show (its first frame shows the photo's scene as it was).
        session.loop.schedule(at: clock.now().advanced(byNanoseconds: 2_400_000_000)) {
            copiedDuringTheFade = session.renderer.resampledImagePixels
        }
        XCTAssertEqual(try session.run(), .durationElapsed)
        XCTAssertGreaterThan(copiedDuringTheFade, 0, "the photo drawn at twice its size from a copy")
        XCTAssertEqual(session.renderer.resampledImagePixels, 0)
    }

    func testFrameLimitAndHeadlessModeRenderEveryDeadline() throws {
        let text = PlayerTests.playlistText(scenes: [("red", "60", "#ff0000")])
        let clock = VirtualClock()
        let (session, presenter) = try session(text, screen: PixelSize(width: 40, height: 30), clock: clock) {
            $0.stopAfterFrames = 25
            $0.pausesWhenIdle = false
        }
        XCTAssertEqual(try session.run(), .frameLimitReached)
        XCTAssertEqual(presenter.presentCount, 25)
    }

    /// The player makes the presenter's drawing bitmap while its playlist loads and hands it
    /// to the session: the frames are drawn in that bitmap, not in one the session makes.
    func testFramesAreDrawnInTheBitmapTheCallerMadeAlready() throws {
        let playlist = try PlayerTests.load(PlayerTests.playlistText(scenes: [("red", "60", "#ff0000")]))
        let presenter = HeadlessPresenter(size: PixelSize(width: 40, height: 30), keepsFrames: false)
        let made = presenter.makeDrawingBitmap(size: presenter.size)
        var options = PlayerSession.Options(configFile: playlist.file)
        options.stopAfterFrames = 1
        let session = PlayerSession(
            player: Player(playlist: playlist, screenSize: Size(40, 30)), presenter: presenter,
            loop: FrameLoop(link: try DisplayLink(clock: VirtualClock())), options: options,
            notifier: nil, signals: nil, logger: Logger(label: "test"), drawingBitmap: made)
        XCTAssertEqual(try session.run(), .frameLimitReached)
        XCTAssertTrue(session.renderer.bitmap === made)
        XCTAssertEqual(made[20, 15] & 0xFFFFFF, 0xFF0000)
    }

    func testAResizedOutputGetsTheCanvasLaidOutAgain() throws {
        let text = PlayerTests.playlistText(scenes: [("red", "60", "#ff0000")])
        let clock = VirtualClock()
        let (session, presenter) = try session(text, screen: PixelSize(width: 40, height: 30), clock: clock) {
            $0.stopAfterSeconds = 2
        }
        // At 1 s the output becomes 120×60 (a monitor swapped): an event, like X11's.
        clock.schedule(at: clock.now().advanced(byNanoseconds: 1_000_000_000)) {
            presenter.simulateResize(to: PixelSize(width: 120, height: 60))
            session.loop.link.resume()
        }
        XCTAssertEqual(try session.run(), .durationElapsed)
        // 40×30 in 120×60: scale 2, an 80×60 canvas between 20-pixel bars.
        XCTAssertEqual(session.renderer.bitmap.width, 120)
        XCTAssertEqual(presenter.screen[60, 30] & 0xFFFFFF, 0xFF0000)
        XCTAssertEqual(presenter.screen[21, 59] & 0xFFFFFF, 0xFF0000)
        XCTAssertEqual(presenter.screen[18, 30] & 0xFFFFFF, 0x000000)
        XCTAssertEqual(presenter.screen[101, 30] & 0xFFFFFF, 0x000000)
    }
    /// Outside the `screenOn` hours the screen is black (this output cannot power down) and
    /// nothing is drawn; at the hour the playlist comes back. The local clock here starts on a
    /// Monday at 06:58:30 and runs with the virtual one; the screen is on from 07:00 to 07:02.
    func testTheScreenIsBlankOutsideItsHours() throws {
        let text = PlayerTests.playlistText(scenes: [("red", "600", "#ff0000")])
            .replacingOccurrences(of: "[player]\n", with: "[player]\nscreenOn = [[\"Mon\", \"07:00\", \"07:02\"]]\n")
        let clock = VirtualClock()
        let start = clock.now()
        let (session, presenter) = try session(text, screen: PixelSize(width: 40, height: 30), clock: clock) {
            $0.stopAfterSeconds = 300
            $0.pausesWhenIdle = false  // a frame at every deadline while the screen is on
            $0.localTime = {
                let seconds = 6 * 3600 + 58 * 60 + 30 + Int(clock.now().nanoseconds(since: start) / 1_000_000_000)
                return LocalTime(weekday: 1, minuteOfDay: seconds / 60 % 1440, second: seconds % 60)
            }
        }
        var colourAt: [(seconds: Double, colour: UInt32)] = []
        var offAt: [Double] = []
        clock.schedule(at: start.advanced(byNanoseconds: 60_000_000_000)) {
            offAt.append(1)
            XCTAssertTrue(session.screenIsOff)
        }
        clock.schedule(at: start.advanced(byNanoseconds: 150_000_000_000)) {
            XCTAssertFalse(session.screenIsOff, "on at 07:01")
            colourAt.append((150, presenter.screen[20, 15] & 0xFF_FFFF))
        }
        XCTAssertEqual(try session.run(), .durationElapsed)
        XCTAssertTrue(session.screenIsOff, "off again after 07:02")
        XCTAssertEqual(presenter.frames.first.map { $0[20, 15] & 0xFF_FFFF }, 0x000000)
        XCTAssertEqual(presenter.screen[20, 15] & 0xFF_FFFF, 0x000000)
        XCTAssertEqual(colourAt.first?.colour, 0xFF0000)
        XCTAssertEqual(offAt.count, 1)
        // Two minutes on at 10 fps, a black frame at each end, nothing while off.
        XCTAssertGreaterThan(presenter.presentCount, 1100)
        XCTAssertLessThan(presenter.presentCount, 1250)
    }
    /// The screen hours follow the local clock, not a count of minutes: across a daylight
    /// saving change (Berlin, 29 March 2026: 01:59:59 CET is followed by 03:00:00 CEST) and
    /// across midnight.
    func testScreenHoursFollowTheLocalClockAcrossDSTAndMidnight() throws {
        let previousZone = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "Europe/Berlin", 1)
        tzset()
        defer {
            if let previousZone { setenv("TZ", previousZone, 1) } else { unsetenv("TZ") }
            tzset()
        }
        // (start in seconds since 1970 UTC, hours, when it must be on and off in seconds).
        let cases: [(start: Int, hours: String, on: [Int], off: [Int])] = [
            (1_774_745_910, #"[["Sun", "03:00", "03:02"]]"#, [95, 200], [5, 80, 215]),  // 01:58:30 CET
            (1_774_738_710, #"[["Sat", "23:59", "00:01"]]"#, [35, 140], [5, 155])  // Saturday 23:58:30
        ]
        for test in cases {
            let text = PlayerTests.playlistText(scenes: [("red", "600", "#ff0000")])
                .replacingOccurrences(of: "[player]\n", with: "[player]\nscreenOn = \(test.hours)\n")
            let clock = VirtualClock()
            let origin = clock.now()
            let (session, _) = try session(text, screen: PixelSize(width: 40, height: 30), clock: clock) {
                $0.stopAfterSeconds = 240
                $0.localTime = {
                    LocalTime(
                        secondsSinceEpoch: test.start + Int(clock.now().nanoseconds(since: origin) / 1_000_000_000))
                }
            }
            for (seconds, isOn) in test.on.map({ ($0, true) }) + test.off.map({ ($0, false) }) {
                clock.schedule(at: origin.advanced(byNanoseconds: Int64(seconds) * 1_000_000_000)) {
                    XCTAssertEqual(!session.screenIsOff, isOn, "\(test.hours) at \(seconds) s")
                }
            }
            XCTAssertEqual(try session.run(), .durationElapsed)
        }
    }
}

/// A headless output that takes time on the virtual clock: its first `finishPresenting` (a
/// server copying a large first frame), or its `stalledPresent`-th `present` (a stalled
/// server).
private final class SlowPresenter: Presenter {
    private let shown: HeadlessPresenter
    private let clock: VirtualClock
    private var firstFinishTakes: Int64
    private let stalledPresent: Int
    private let stallTakes: Int64
    private var presented = 0

    init(
        _ shown: HeadlessPresenter, clock: VirtualClock, firstFinishTakes: Int64 = 0, stalledPresent: Int = 0,
        stallTakes: Int64 = 0
    ) {
        self.shown = shown
        self.clock = clock
        self.firstFinishTakes = firstFinishTakes
        self.stalledPresent = stalledPresent
        self.stallTakes = stallTakes
    }

    var size: PixelSize { shown.size }
    var refreshRate: Double? { shown.refreshRate }
    var eventDescriptor: Int32? { shown.eventDescriptor }
    var hasPendingEvents: Bool { shown.hasPendingEvents }
    func configure(frameSize: PixelSize) throws { try shown.configure(frameSize: frameSize) }
    func handleEvents() throws -> [PresenterEvent] { try shown.handleEvents() }

    func present(_ frame: Bitmap, dirty: [IntRect]) throws {
        presented += 1
        if presented == stalledPresent { clock.advance(byNanoseconds: stallTakes) }
        try shown.present(frame, dirty: dirty)
    }

    func finishPresenting() throws {
        clock.advance(byNanoseconds: firstFinishTakes)
        firstFinishTakes = 0
        try shown.finishPresenting()
    }
}
