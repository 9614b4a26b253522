import Foundation
import VitrineGraphics
import VitrineTestSupport
import XCTest

/// The real `vitrine play` under real headless compositors: sway (the main one: screenshots,
/// resizing, rotation), cage (the player as its child, as in production) and weston (real
/// presentation feedback). Each test skips when its compositor is not installed.
final class WaylandPlayTests: TemporaryDirectoryTestCase {
    private func stillConfig() throws -> String {
        try StillFrames.writeConfig(in: directory, title: "Vitrine on Wayland")
    }

    /// A scene that never stops moving: a bar sliding across the canvas, over and over.
    private func movingConfig() throws -> String {
        let config = directory + "/moving.toml"
        try writeFile(
            config,
            """
            [player]
            background = "#000000"
            canvas = [640, 360]

            [[scene]]
            name = "moving"
            duration = 600

            [[scene.layer]]
            type = "layer"
            frame = [0, 100, 80, 160]
            backgroundColor = "#ffcc00"

            [[scene.layer.animation]]
            keyPath = "position.x"
            from = 40
            to = 600
            duration = 1.5
            repeatCount = "infinity"
            """)
        return config
    }

    private func render(_ config: String, size: String) throws -> Image {
        try StillFrames.render(config, size: size, in: directory)
    }

    private func maximumDifference(_ a: Image, _ b: Image) -> Int { StillFrames.largestDifference(a, b) }

    /// Screenshots `compositor` until the picture matches `expected` (max channel difference
    /// ≤ 2) or `seconds` pass; returns the last difference.
    private func waitForScreen(
        of compositor: WaylandCompositor, toShow expected: Image, seconds: Double = 3
    ) throws -> Int {
        let shot = directory + "/screen.png"
        let deadline = Date().addingTimeInterval(seconds)
        var difference = 255
        repeat {
            try compositor.screenshot(to: shot)
            difference = maximumDifference(try Image(contentsOfFile: shot), expected)
            if difference <= 2 { return difference }
            usleep(50_000)
        } while Date() < deadline
        return difference
    }

    private func play(
        _ arguments: [String], on compositor: WaylandCompositor, notify: NotifyLog? = nil
    ) throws
        -> PlayProcess
    {
        var environment = compositor.environment
        if let notify { environment["NOTIFY_SOCKET"] = notify.listener.name }
        return try PlayProcess(arguments: ["play"] + arguments, environment: environment)
    }

    /// The default backend picks the compositor; a still scene is on screen exactly as `render`
    /// draws it, and again after the output changes mode and turns.
    func testSwayShowsWhatRenderDrawsAndFollowsModeAndRotation() throws {
        let sway = try WaylandCompositor.sway(width: 960, height: 540)
        let config = try stillConfig()
        let notify = try NotifyLog()
        let player = try play([config], on: sway, notify: notify)
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        XCTAssertTrue(player.standardError.contains("presenting on Wayland"), player.standardError)
        XCTAssertLessThanOrEqual(try waitForScreen(of: sway, toShow: try render(config, size: "960x540")), 2)

        try sway.swaymsg("output", "HEADLESS-1", "enable", "mode", "800x600")
        XCTAssertTrue(player.waitForError(containing: "output resized to 800x600"), player.standardError)
        XCTAssertLessThanOrEqual(try waitForScreen(of: sway, toShow: try render(config, size: "800x600")), 2)

        try sway.swaymsg("output", "HEADLESS-1", "transform", "90")
        XCTAssertTrue(player.waitForError(containing: "output resized to 600x800"), player.standardError)
        XCTAssertLessThanOrEqual(try waitForScreen(of: sway, toShow: try render(config, size: "600x800")), 2)

        // Scale 2: the surface is 300x400 units, the buffer still 600x800 native pixels (drawn
        // at 300x400 and scaled up, the picture would not match).
        try sway.swaymsg("output", "HEADLESS-1", "scale", "2")
        XCTAssertTrue(player.waitForError(containing: "at scale 2"), player.standardError)
        XCTAssertLessThanOrEqual(try waitForScreen(of: sway, toShow: try render(config, size: "600x800")), 2)

        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    /// An animated scene drawn in place into alternating buffers (the compositor holds each
    /// until the next is attached), each frame's damage handed on: once it stands still, the
    /// screen is exactly `render` of that moment. (That the buffer drawn into always holds the
    /// frame before, outside the damage too, WaylandPresenterTests checks on the bitmap.)
    func testAnAnimationEndsOnTheFrameRenderDrawsUnderWeston() throws {
        try checkAnAnimationEndsOnTheFrameRenderDraws(under: try WaylandCompositor.weston(width: 640, height: 360))
    }

    func testAnAnimationEndsOnTheFrameRenderDrawsUnderSway() throws {
        try checkAnAnimationEndsOnTheFrameRenderDraws(under: try WaylandCompositor.sway(width: 640, height: 360))
    }

    private func checkAnAnimationEndsOnTheFrameRenderDraws(under compositor: WaylandCompositor) throws {
        let config = directory + "/settle.toml"
        try writeFile(
            config,
            """
            [player]
            background = "#000000"
            canvas = [640, 360]

            [[scene]]
            name = "still"
            duration = 600

            [[scene.layer]]
            type = "shape"
            oval = [0, 0, 120, 120]
            position = [60, 180]
            fillColor = "#33aaff"
            strokeColor = "#ffffff"
            lineWidth = 5

            [[scene.layer.animation]]
            keyPath = "position.x"
            from = 60
            to = 580
            duration = 0.6
            """)
        let player = try play([config, "--backend", "wayland"], on: compositor)
        XCTAssertTrue(player.waitForError(containing: "scene 'still'"), player.standardError)
        usleep(900_000)
        XCTAssertLessThanOrEqual(
            try waitForScreen(of: compositor, toShow: try render(config, size: "640x360")), 2, player.standardError)
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    func testSignalsAndTheServiceProtocolAsOnX11() throws {
        let sway = try WaylandCompositor.sway(width: 320, height: 240)
        let config = directory + "/colours.toml"
        func colours(_ scenes: [(String, String)]) -> String {
            var text = "[player]\nfps = 30\nbackground = \"#000000\"\ncanvas = [32, 24]\n"
            for (name, colour) in scenes {
                text += """

                    [[scene]]
                    name = "\(name)"
                    duration = 600

                    [[scene.layer]]
                    type = "layer"
                    frame = [0, 0, 32, 24]
                    backgroundColor = "\(colour)"

                    """
            }
            return text
        }
        try writeFile(config, colours([("red", "#ff0000"), ("green", "#00ff00")]))
        let notify = try NotifyLog()
        var environment = sway.environment
        environment["NOTIFY_SOCKET"] = notify.listener.name
        environment["WATCHDOG_USEC"] = "200000"
        let player = try PlayProcess(arguments: ["play", config, "--backend", "wayland"], environment: environment)
        let shot = directory + "/shot.png"
        func centre() throws -> UInt32 {
            try sway.screenshot(to: shot)
            let image = try Image(contentsOfFile: shot)
            return image[image.width / 2, image.height / 2] & 0xFF_FFFF
        }
        func waitForCentre(_ colour: UInt32) throws -> UInt32 {
            let deadline = Date().addingTimeInterval(3)
            var last = try centre()
            while last != colour, Date() < deadline {
                usleep(30_000)
                last = try centre()
            }
            return last
        }

        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        XCTAssertEqual(try centre(), 0xFF0000)
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'red' (1/2)"))
        // The scene stands still; the watchdog keeps going.
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2))
        player.send(SIGUSR1)
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'green' (2/2)"))
        XCTAssertEqual(try waitForCentre(0x00FF00), 0x00FF00)

        try writeFile(config, colours([("blue", "#0000ff")]))
        player.send(SIGHUP)
        XCTAssertNotNil(notify.wait { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") })
        XCTAssertTrue(notify.wait(for: "READY=1"))
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'blue' (1/1)"))
        XCTAssertEqual(try waitForCentre(0x0000FF), 0x0000FF)
        // Still standing: the pings go on (every 0.1 s).
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2))
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2))

        player.send(SIGTERM)
        XCTAssertTrue(notify.wait(for: "STOPPING=1"))
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
        XCTAssertGreaterThanOrEqual(notify.messages.filter { $0 == "WATCHDOG=1" }.count, 3)
    }

    /// The compositor dying (SIGKILL) ends the player with 69 within a second, saying why.
    func testLosingTheCompositorExits69WithinASecond() throws {
        let sway = try WaylandCompositor.sway(width: 320, height: 240)
        let notify = try NotifyLog()
        let player = try play([try movingConfig()], on: sway, notify: notify)
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        let killed = Date()
        sway.kill()
        XCTAssertEqual(player.waitForExit(seconds: 3), 69, player.standardError)
        XCTAssertLessThan(Date().timeIntervalSince(killed), 1.0)
        XCTAssertTrue(player.standardError.contains("compositor went away"), player.standardError)
    }

    /// A compositor that stops answering (SIGSTOP) while the player animates: frames wait for
    /// the frame callback and the watchdog's round trip blocks, so WATCHDOG=1 stops (systemd
    /// restarts the player); when it answers again the pings resume.
    func testAStalledCompositorStopsTheWatchdog() throws {
        let sway = try WaylandCompositor.sway(width: 320, height: 240)
        let notify = try NotifyLog()
        var environment = sway.environment
        environment["NOTIFY_SOCKET"] = notify.listener.name
        environment["WATCHDOG_USEC"] = "200000"
        let player = try PlayProcess(arguments: ["play", try movingConfig()], environment: environment)
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2))
        kill(sway.pid, SIGSTOP)
        usleep(150_000)  // a ping already on its way may still arrive
        _ = notify.wait(seconds: 0.05) { _ in false }
        XCTAssertNil(notify.wait(seconds: 0.6) { $0 == "WATCHDOG=1" }, "no ping while the compositor is stopped")
        kill(sway.pid, SIGCONT)
        XCTAssertTrue(notify.wait(for: "WATCHDOG=1", seconds: 2), "pings again once the compositor answers")
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    /// Resizing over and over while animating: the buffers of old sizes all go (memfds counted
    /// in /proc), nothing crashes, and no frame is drawn into a buffer the compositor holds.
    func testResizingManyTimesLeaksNoBuffers() throws {
        let sway = try WaylandCompositor.sway(width: 640, height: 360)
        let notify = try NotifyLog()
        let player = try play([try movingConfig(), "--log-level", "debug"], on: sway, notify: notify)
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        func memfds() -> Int {
            let fds = "/proc/\(player.process.processIdentifier)/fd"
            return ((try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []).filter {
                ((try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0)) ?? "")
                    .hasPrefix("/memfd:vitrine-frame")
            }.count
        }
        usleep(300_000)
        let before = memfds()
        XCTAssertGreaterThanOrEqual(before, 2)
        for i in 0..<24 {
            let size = ["800x600", "640x360", "1024x768", "320x240"][i % 4]
            try sway.swaymsg("output", "HEADLESS-1", "enable", "mode", size)
            usleep(60_000)
        }
        XCTAssertTrue(player.waitForError(containing: "output resized to 320x240"), player.standardError)
        usleep(500_000)
        XCTAssertTrue(player.process.isRunning, player.standardError)
        XCTAssertLessThanOrEqual(memfds(), before + 1, "frame buffers of old sizes are gone")
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
        XCTAssertFalse(player.standardError.contains("still holds"), player.standardError)
    }

    /// As in production: cage starts the player as its only client; the scene moves on screen.
    func testCageRunsThePlayerAsItsChild() throws {
        chmod(directory, 0o755)
        let config = try movingConfig()
        chmod(config, 0o644)
        let cage = try WaylandCompositor.cage(running: [try PlayProcess.executable(), "play", config])
        let first = directory + "/first.png", second = directory + "/second.png"
        // The player's first frames take a moment after the socket appears.
        var different = false
        let deadline = Date().addingTimeInterval(5)
        while !different, Date() < deadline {
            try cage.screenshot(to: first)
            usleep(300_000)
            try cage.screenshot(to: second)
            let a = try Image(contentsOfFile: first), b = try Image(contentsOfFile: second)
            different = maximumDifference(a, b) > 100
        }
        XCTAssertTrue(different, "the moving bar did not move between two screenshots")
        cage.kill()
    }

    /// Weston delivers real presentation feedback (its headless output runs at about 40 Hz
    /// whatever it reports): the player commits a frame only when the compositor asks for
    /// one, so frames presented follow feedback rather than the 60 fps asked for.
    func testUnderWestonFramesFollowPresentationFeedback() throws {
        let weston = try WaylandCompositor.weston(width: 640, height: 360)
        let player = try play(
            [try movingConfig(), "--fps", "60", "--duration", "2", "--log-level", "debug"], on: weston)
        XCTAssertEqual(player.waitForExit(seconds: 10), 0, player.standardError)
        let line = try XCTUnwrap(
            player.standardError.split(separator: "\n").first { $0.contains("committed") }, player.standardError)
        // "committed N frames; C frame callbacks (median interval X ms), P presented (median interval Y ms) …"
        let numbers = line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        let committed = numbers[0], presented = numbers[3], interval = numbers[4] / 1000
        XCTAssertGreaterThan(presented, committed - 5, "nearly every commit is presented: \(line)")
        let expected = 2 / interval
        XCTAssertEqual(committed, expected, accuracy: expected * 0.2, "one commit per presentation: \(line)")
    }

    /// `--backend wayland` without a compositor: 69, saying where it looked.
    func testNoCompositorExits69() throws {
        let player = try PlayProcess(
            arguments: ["play", try movingConfig(), "--backend", "wayland", "--display", "wayland-none"],
            environment: ["XDG_RUNTIME_DIR": directory])
        XCTAssertEqual(player.waitForExit(seconds: 5), 69, player.standardError)
        XCTAssertTrue(
            player.standardError.contains(
                "cannot present on Wayland: cannot connect to the Wayland compositor at \"wayland-none\""),
            player.standardError)
    }

    /// Under systemd with `$WAYLAND_DISPLAY` set and no --backend, a compositor that comes up
    /// after the player is waited for (never headless), then played on.
    func testUnderSystemdALateCompositorIsWaitedFor() throws {
        let runtime = directory + "/run"
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", try movingConfig(), "--output", directory + "/frames"],
            environment: [
                "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "wayland-vitrine", "INVOCATION_ID": "0123456789abcdef",
                "NOTIFY_SOCKET": notify.listener.name
            ])
        XCTAssertNotNil(
            notify.wait(seconds: 5) { $0.hasPrefix("STATUS=waiting for the Wayland compositor or X display") },
            player.standardError)
        let weston = try WaylandCompositor.weston(width: 320, height: 240, runtimeDirectory: runtime)
        XCTAssertTrue(notify.wait(for: "READY=1", seconds: 10), player.standardError)
        XCTAssertTrue(player.standardError.contains("presenting on Wayland wayland-vitrine"), player.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/frames"))
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
        weston.kill()
    }

    /// The pointer over the player shows no cursor: with a pointer moved across the output
    /// (a virtual pointer through wayvnc), a screenshot with the cursor (`grim -c`) is still
    /// exactly `render` of the scene. (sway draws its own cursor where no client hides it.)
    func testTheCursorIsHiddenOverThePlayer() throws {
        let sway = try WaylandCompositor.sway(width: 640, height: 360)
        let pointer = try VirtualPointer(on: sway)
        try pointer.move(x: 100, y: 100)
        let config = try stillConfig()
        let notify = try NotifyLog()
        let player = try play([config], on: sway, notify: notify)
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1; stderr:\n\(player.standardError)")
        for x in stride(from: 120, through: 320, by: 20) {
            try pointer.move(x: x, y: 180)
            usleep(20_000)
        }
        let expected = try render(config, size: "640x360")
        let shot = directory + "/cursor.png"
        usleep(200_000)
        try sway.screenshot(to: shot, cursor: true)
        XCTAssertLessThanOrEqual(maximumDifference(try Image(contentsOfFile: shot), expected), 2, "a cursor is drawn")
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
        // Without the player the compositor's own cursor is there: the test can see one.
        usleep(200_000)
        try pointer.move(x: 330, y: 180)
        usleep(200_000)
        try sway.screenshot(to: shot, cursor: true)
        let desktop = try Image(contentsOfFile: shot)
        let corner = desktop[2, 2]
        var differing = 0
        for y in 170..<200 { for x in 320..<350 where desktop[x, y] != corner { differing += 1 } }
        XCTAssertGreaterThan(differing, 20, "sway's cursor shows over its empty desktop")
    }
}
