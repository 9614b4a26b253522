import Foundation
import VitrineTestSupport
import XCTest

/// The real `vitrine play` process under a real Xvfb, with a real sd_notify socket, real
/// signals and a real FIFO: what an operator and systemd see.
final class PlayProcessTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "vitrine-play-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Colour scenes on a 32×24 canvas, each long enough that only signals change them.
    private func colourPlaylist(_ scenes: [(String, String)]) -> String {
        var text = """
            [player]
            fps = 30
            background = "#000000"
            transition = "none"
            canvas = [32, 24]

            """
        for (name, colour) in scenes {
            text += """

                [[scene]]
                name = "\(name)"
                duration = 600

                [[scene.layer]]
                id = "fill"
                type = "layer"
                frame = [0, 0, 32, 24]
                backgroundColor = "\(colour)"

                """
        }
        return text
    }

    func testSignalsReloadAndTheServiceProtocol() throws {
        let xvfb = try XvfbServer(width: 64, height: 48)
        let screen = try ScreenReader(xvfb.name)
        let saverBefore = screen.screenSaverTimeout
        let config = directory + "/playlist.toml"
        try writeFile(config, colourPlaylist([("red", "#ff0000"), ("green", "#00ff00"), ("blue", "#0000ff")]))
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
            environment: ["NOTIFY_SOCKET": notify.listener.name, "WATCHDOG_USEC": "200000"])

        // READY=1 once the first frame is on screen: the screen is red (32×24 scaled ×2 fills 64×48).
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        XCTAssertEqual(screen.pixel(x: 32, y: 24), 0xFF0000)
        XCTAssertEqual(screen.pixel(x: 1, y: 1), 0xFF0000)
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'red' (1/3)"))
        let windows = screen.windows(named: "Vitrine")
        XCTAssertEqual(windows.count, 1)
        XCTAssertEqual(screen.screenSaverTimeout, 0, "the screen saver is off while playing")
        // The link is paused on this static scene; the watchdog keeps going (every 0.1 s).
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2))

        player.send(SIGUSR1)
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'green' (2/3)"))
        XCTAssertEqual(screen.waitForPixel(x: 32, y: 24) { $0 == 0x00FF00 }, 0x00FF00)
        player.send(SIGUSR1)
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'blue' (3/3)"))
        player.send(SIGUSR2)
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'red' (1/3)"))
        XCTAssertEqual(screen.waitForPixel(x: 32, y: 24) { $0 == 0xFF0000 }, 0xFF0000)

        // A valid new config: RELOADING, then READY once its first frame is shown, same window.
        try writeFile(config, colourPlaylist([("yellow", "#ffff00")]))
        player.send(SIGHUP)
        XCTAssertNotNil(notify.wait { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") })
        XCTAssertTrue(notify.wait(for: "READY=1"))
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'yellow' (1/1)"))
        XCTAssertEqual(screen.waitForPixel(x: 32, y: 24) { $0 == 0xFFFF00 }, 0xFFFF00)
        XCTAssertEqual(screen.windows(named: "Vitrine"), windows, "the window stays across a reload")

        // A broken config: every error logged with its place, the old playlist plays on.
        try writeFile(
            config,
            colourPlaylist([("cyan", "#00ffff")])
                .replacingOccurrences(of: "backgroundColor", with: "backgroundColour")
                .replacingOccurrences(of: "duration = 600", with: "duration = \"soon\""))
        player.send(SIGHUP)
        XCTAssertNotNil(notify.wait { $0.hasPrefix("RELOADING=1") })
        XCTAssertNotNil(notify.wait { $0.hasPrefix("STATUS=reload of") })
        XCTAssertTrue(notify.wait(for: "READY=1"))
        XCTAssertTrue(player.waitForError(containing: "backgroundColour"), player.standardError)
        XCTAssertTrue(player.waitForError(containing: "duration"), player.standardError)
        let errorLines = player.standardError.split(separator: "\n").filter { $0.contains(config + ":") }
        XCTAssertGreaterThanOrEqual(
            errorLines.count, 2, "one line per error, each with the file and line:\n\(player.standardError)")
        usleep(200_000)
        XCTAssertEqual(screen.pixel(x: 32, y: 24), 0xFFFF00)
        XCTAssertTrue(player.process.isRunning)

        player.send(SIGTERM)
        XCTAssertTrue(notify.wait(for: "STOPPING=1"))
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
        XCTAssertEqual(screen.screenSaverTimeout, saverBefore, "the screen saver is restored")
        XCTAssertEqual(screen.windows(named: "Vitrine"), [])

        // The whole conversation, in order (watchdog pings aside).
        let reload = notify.stateMessages.map { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") ? "RELOADING=1" : $0 }
            .map { $0.hasPrefix("STATUS=reload of") ? "STATUS=reload failed" : $0 }
        XCTAssertEqual(
            reload,
            [
                "READY=1", "STATUS=playing 'red' (1/3)",
                "STATUS=playing 'green' (2/3)", "STATUS=playing 'blue' (3/3)", "STATUS=playing 'red' (1/3)",
                "RELOADING=1", "READY=1", "STATUS=playing 'yellow' (1/1)",
                "RELOADING=1", "STATUS=reload failed", "READY=1",
                "STOPPING=1"
            ])
        let pings = notify.messages.indices.filter { notify.messages[$0] == "WATCHDOG=1" }
        XCTAssertGreaterThanOrEqual(pings.count, 3)
        XCTAssertLessThan(pings.last!, notify.messages.firstIndex(of: "STOPPING=1")!)
        XCTAssertGreaterThan(pings.first!, notify.messages.firstIndex(of: "READY=1")!)
    }

    /// A monitor change while playing: the player lays the canvas out for the new screen in a
    /// new frame buffer and repaints it whole (32×24 on 48×48: scaled 1.5×, bars above and
    /// below).
    func testTheScreenChangingSizeLaysThePlaylistOutAgain() throws {
        let xvfb = try XvfbServer(width: 64, height: 48)
        let screen = try ScreenReader(xvfb.name)
        let config = directory + "/playlist.toml"
        try writeFile(config, colourPlaylist([("red", "#ff0000")]))
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
            environment: ["NOTIFY_SOCKET": notify.listener.name])
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        XCTAssertEqual(screen.pixel(x: 24, y: 2), 0xFF0000)

        try resizeXvfbScreen(screen.display, width: 48, height: 48)
        XCTAssertTrue(player.waitForError(containing: "output resized to 48x48"), player.standardError)
        // Canvas 48×36 at y 6…42 on black. (The server clears the resized window itself, so
        // wait for the whole layout, not one pixel.)
        let expected: [(x: Int, y: Int, rgb: UInt32)] = [
            (24, 2, 0x000000), (24, 45, 0x000000),
            (24, 24, 0xFF0000), (47, 7, 0xFF0000), (0, 41, 0xFF0000)
        ]
        let deadline = Date().addingTimeInterval(3)
        var seen: [UInt32?] = []
        repeat {
            seen = expected.map { screen.pixel(x: $0.x, y: $0.y) }
            if seen == expected.map(\.rgb) { break }
            usleep(20_000)
        } while Date() < deadline
        XCTAssertEqual(seen, expected.map(\.rgb), player.standardError)
        XCTAssertTrue(player.process.isRunning)

        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    /// A scene that changes only by its `messages` schedule: the player sleeps between entries
    /// (nothing animates) and wakes for each one.
    func testAStillSceneShowsItsScheduledMessages() throws {
        let xvfb = try XvfbServer(width: 64, height: 48)
        let screen = try ScreenReader(xvfb.name)
        let config = directory + "/playlist.toml"
        try writeFile(
            config,
            """
            [player]
            fps = 30
            background = "#000000"
            canvas = [64, 48]

            [[scene]]
            name = "schedule"
            duration = 600
            messages = [[0, ""], [0.8, "MM"]]

            [[scene.layer]]
            id = "message"
            type = "text"
            frame = [0, 0, 64, 48]
            fontSize = 40
            foregroundColor = "#ffffff"
            """)
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
            environment: ["NOTIFY_SOCKET": notify.listener.name])
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        func lit() -> Int { screen.capture(width: 64, height: 48)?.filter { $0 != 0 }.count ?? 0 }
        XCTAssertEqual(lit(), 0, "the empty first message")
        let deadline = Date().addingTimeInterval(4)
        while lit() == 0 && Date() < deadline { usleep(50_000) }
        XCTAssertGreaterThan(lit(), 100, "the second message, due 0.8 s in; stderr:\n\(player.standardError)")
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    func testAStalledXServerStopsTheWatchdogEvenWhileIdle() throws {
        let xvfb = try XvfbServer(width: 64, height: 48)
        let config = directory + "/playlist.toml"
        try writeFile(config, colourPlaylist([("red", "#ff0000")]))
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
            environment: ["NOTIFY_SOCKET": notify.listener.name, "WATCHDOG_USEC": "200000"])
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2), "pings while idle (a static scene)")

        // The server stops answering: the player's round trip blocks, so the pings stop (systemd
        // would restart it after WatchdogSec); when the server answers again they resume.
        kill(xvfb.pid, SIGSTOP)
        usleep(150_000)  // a ping already on its way may still arrive
        _ = notify.wait(seconds: 0.05) { _ in false }
        let countBefore = notify.messages.count
        XCTAssertNil(notify.wait(seconds: 0.6) { $0 == "WATCHDOG=1" }, "no ping while the X server is stopped")
        kill(xvfb.pid, SIGCONT)
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2), "pings again once the server answers")
        XCTAssertGreaterThanOrEqual(notify.messages.count, countBefore + 1)
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    func testProgressLinesFromAFIFOMoveTheBarAndQUITEndsThePlayer() throws {
        let xvfb = try XvfbServer(width: 64, height: 48)
        let screen = try ScreenReader(xvfb.name)
        let fifo = directory + "/progress"
        let config = directory + "/progress.toml"
        // A straight white bar from (4, 24) to (60, 24) whose tip sags 10 px at 50 % (seed 002's
        // wave): at 50 % the line passes through (32, 34), at 0 % it is straight.
        try writeFile(
            config,
            """
            [player]
            fps = 30
            canvas = [64, 48]

            [[scene]]
            name = "boot"
            duration = "progress"
            progressSource = "fifo:\(fifo)"

            [[scene.layer]]
            id = "bar"
            type = "progress"
            frame = [0, 0, 64, 48]
            origin = [4, 24]
            maxLength = 56
            maxOffset = 10
            lineWidth = 4
            strokeEnd = 0
            trackColor = "#ffffff"
            """)
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
            environment: ["NOTIFY_SOCKET": notify.listener.name])
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        XCTAssertEqual(FileManager.default.fileExists(atPath: fifo), true, "the FIFO is created")
        XCTAssertEqual(screen.pixel(x: 32, y: 24), 0xFFFFFF, "a straight bar at 0 %")
        XCTAssertEqual(screen.pixel(x: 32, y: 34), 0x000000)

        // A writer opens, writes garbage and a value, and closes: normal for psplash clients.
        let writer = try XCTUnwrap(FileHandle(forWritingAtPath: fifo))
        writer.write("garbage in\nPROGRESS 50\n".data(using: .utf8)!)
        try writer.close()
        XCTAssertTrue(player.waitForError(containing: "unknown command 'garbage'"), player.standardError)
        // The bar glides there (an implicit animation), then rests bent through (32, 34).
        let bent = screen.waitForPixel(x: 32, y: 34, seconds: 3) { $0 == 0xFFFFFF }
        XCTAssertEqual(bent, 0xFFFFFF)
        XCTAssertNotEqual(screen.pixel(x: 32, y: 24), 0xFFFFFF, "the middle of the straight line is left")
        XCTAssertTrue(player.process.isRunning, "garbage does not stop the player")

        // Another writer: QUIT ends the player cleanly.
        let second = try XCTUnwrap(FileHandle(forWritingAtPath: fifo))
        second.write("QUIT\n".data(using: .utf8)!)
        try second.close()
        XCTAssertTrue(notify.wait(for: "STOPPING=1"))
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    func testHeadlessBackendWritesNumberedFrames() throws {
        let config = directory + "/playlist.toml"
        try writeFile(config, colourPlaylist([("red", "#ff0000")]))
        let output = directory + "/frames"
        let player = try PlayProcess(
            arguments: [
                "play", config, "--backend", "headless", "--output", output,
                "--frames", "3", "--fps", "60"
            ], environment: [:])
        XCTAssertEqual(player.waitForExit(seconds: 10), 0, player.standardError)
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        XCTAssertEqual(files, ["frame-000000.png", "frame-000001.png", "frame-000002.png"])
    }

    func testABrokenConfigAtStartExitsWithEXCONFIG() throws {
        let config = directory + "/broken.toml"
        try writeFile(config, "[player]\nfps = \"fast\"\n")
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "headless", "--output", directory],
            environment: [:])
        XCTAssertEqual(player.waitForExit(seconds: 10), 78)
        XCTAssertTrue(player.standardError.contains(config + ":2:"), player.standardError)
    }
}
