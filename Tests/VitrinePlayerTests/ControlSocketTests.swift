import Foundation
import VitrineGraphics
import VitrineSystem
import VitrineTestSupport
import XCTest
import Logging
import VitrineDisplay
@testable import VitrinePlayer

/// `vitrine ctl` talking to a real `vitrine play` over its control socket.
final class ControlSocketTests: TemporaryDirectoryTestCase {
    private var socketPath: String { directory + "/control" }
    private var xvfb: XvfbServer?

    // XCTest keeps every test case object to the end of the run: the server goes with its test.
    override func tearDown() {
        xvfb = nil
        super.tearDown()
    }

    private func playlist(background: String = "#00ff00") -> String {
        """
        [player]
        canvas = [64, 36]
        transition = "none"

        [[scene]]
        name = "a"
        duration = 600
        background = "\(background)"
        progressSource = "file:\(directory)/progress"

        [[scene.layer]]
        type = "progress"
        id = "bar"
        bounds = [0, 0, 60, 8]
        position = [32, 18]

        [[scene]]
        name = "b"
        duration = 600
        background = "#0000ff"

        [[scene]]
        name = "c"
        duration = 600
        background = "#ff0000"

        [[scene.layer]]
        type = "layer"
        bounds = [0, 0, 8, 8]
        position = [4, 4]
        backgroundColor = "#ffffff"

        [[scene.layer.animation]]
        keyPath = "position.x"
        from = 4
        to = 60
        duration = 2
        autoreverses = true
        repeatCount = "infinity"
        """
    }

    /// A player with a control socket on a 64x36 Xvfb screen, once it said READY=1.
    private func startPlayer(environment: [String: String] = [:]) throws -> (PlayProcess, NotifyLog) {
        let config = directory + "/playlist.toml"
        try writeFile(config, playlist())
        let notify = try NotifyLog()
        xvfb = try XvfbServer(width: 64, height: 36)
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb!.name, "--control", socketPath],
            environment: environment.merging(["NOTIFY_SOCKET": notify.listener.name]) { $1 })
        XCTAssertTrue(notify.wait(for: "READY=1"), player.standardError)
        return (player, notify)
    }

    private func ctl(_ arguments: String...) throws -> (status: Int32, output: String) {
        try runTool(PlayProcess.executable(), ["ctl", "--socket", socketPath] + arguments)
    }

    private func status() throws -> [String: Any] {
        let (code, output) = try ctl("status", "--json")
        XCTAssertEqual(code, 0, output)
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
    }

    func testEveryRequestAgainstAPlayerUnderXvfb() throws {
        let (player, notify) = try startPlayer()
        let screen = try ScreenReader(try XCTUnwrap(xvfb).name)
        func shows(_ colour: UInt32) -> Bool { screen.waitForPixel(x: 60, y: 30) { $0 == colour } == colour }
        XCTAssertTrue(shows(0x00FF00))
        var info = try status()
        XCTAssertEqual(info["scene"] as? String, "a")
        XCTAssertEqual(info["sceneIndex"] as? Int, 1)
        XCTAssertEqual(info["sceneCount"] as? Int, 3)
        XCTAssertEqual(info["generation"] as? Int, 1)
        XCTAssertEqual(info["presenter"] as? String, "x11")
        XCTAssertEqual(info["screenSize"] as? String, "64x36")
        XCTAssertEqual(info["state"] as? String, "playing")
        XCTAssertEqual(info["screen"] as? String, "on")
        XCTAssertEqual(info["playlist"] as? String, directory + "/playlist.toml")
        XCTAssertGreaterThan(info["residentBytes"] as? Int ?? 0, 1_000_000)
        for key in ["framesPerSecond", "preferredFramesPerSecond", "framesPresented", "framesSkipped"] {
            XCTAssertNotNil(info[key] as? Int, key)
        }
        XCTAssertNotNil(info["uptime"] as? Double)
        XCTAssertNotNil(info["lateFrames"] as? [Any])
        XCTAssertNotNil(info["sceneTime"] as? Double)
        let text = try ctl("status").output
        XCTAssertTrue(text.contains("scene      'a' (1/3)"), text)

        let mode = try FileManager.default.attributesOfItem(atPath: socketPath)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o660)

        XCTAssertEqual(try ctl("next").status, 0)
        XCTAssertTrue(shows(0x0000FF))
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'b' (2/3)"))
        XCTAssertEqual(try ctl("previous").status, 0)
        XCTAssertTrue(shows(0x00FF00))
        XCTAssertEqual(try ctl("goto", "c").status, 0)
        XCTAssertTrue(shows(0xFF0000))
        let unknown = try ctl("goto", "nope")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.output.contains("no scene named 'nope' (scenes: a, b, c)"), unknown.output)

        // Paused, the picture and the scene's time stand still; resumed, they go on from there.
        usleep(300_000)
        XCTAssertEqual(try ctl("pause").status, 0)
        usleep(100_000)
        let frozen = try XCTUnwrap(screen.capture(width: 64, height: 36))
        let pausedAt = try status()["sceneTime"] as? Double ?? -1
        usleep(600_000)
        XCTAssertEqual(screen.capture(width: 64, height: 36), frozen, "the picture moved while paused")
        info = try status()
        XCTAssertEqual(info["state"] as? String, "paused")
        XCTAssertEqual(info["sceneTime"] as? Double ?? -2, pausedAt, accuracy: 0.02)

        // The screenshot is the frame on screen (a relative path is the caller's).
        let shot = try runTool(
            "/bin/sh",
            [
                "-c",
                "cd '\(directory)' && '\(try PlayProcess.executable())' ctl --socket '\(socketPath)' screenshot shot.png"
            ])
        XCTAssertEqual(shot.status, 0, shot.output)
        let image = try Image(contentsOfFile: directory + "/shot.png")
        XCTAssertEqual([image.width, image.height], [64, 36])
        let worst = StillFrames.largestDifference(width: 64, height: 36, { x, y in frozen[y * 64 + x] }) {
            x, y in image[x, y]
        }
        XCTAssertLessThanOrEqual(worst, 2)
        XCTAssertEqual(try ctl("screenshot", "/nonexistent/shot.png").status, 73)

        XCTAssertEqual(try ctl("resume").status, 0)
        usleep(500_000)
        XCTAssertNotEqual(screen.capture(width: 64, height: 36), frozen, "the picture did not go on")
        let resumed = try status()["sceneTime"] as? Double ?? -1
        XCTAssertGreaterThan(resumed, pausedAt + 0.3)
        XCTAssertLessThan(resumed, pausedAt + 1.2)

        XCTAssertEqual(try ctl("restart").status, 0)
        XCTAssertTrue(shows(0x00FF00))
        XCTAssertTrue(notify.wait(for: "STATUS=playing 'a' (1/3)"))

        // Progress and messages reach the scenes that read progress.
        XCTAssertEqual(try ctl("progress", "40").status, 0)
        XCTAssertEqual(try ctl("message", "Installing", "updates").status, 0)
        XCTAssertEqual(try ctl("progress", "140").status, 64)

        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath), "the socket stays after the player")
        XCTAssertEqual(try ctl("status").status, 69)
    }

    func testAReloadAnswersWithTheConfigsErrors() throws {
        let (player, notify) = try startPlayer()
        let config = directory + "/playlist.toml"
        try writeFile(config, playlist().replacingOccurrences(of: "duration = 600\n", with: "duration = \"long\"\n"))
        let refused = try ctl("reload")
        XCTAssertEqual(refused.status, 78, refused.output)
        XCTAssertTrue(refused.output.contains("playlist.toml:"), refused.output)
        XCTAssertTrue(refused.output.contains("› duration"), refused.output)
        XCTAssertEqual(try status()["generation"] as? Int, 1)

        try writeFile(config, playlist(background: "#0000ff"))
        let taken = try ctl("reload")
        XCTAssertEqual(taken.status, 0, taken.output)
        XCTAssertTrue(taken.output.contains("reloaded (generation 2)"), taken.output)
        XCTAssertTrue(notify.wait(for: "READY=1"))
        XCTAssertEqual(try status()["generation"] as? Int, 2)
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    /// Clients that hold connections, never finish a line or send too much are bounded; the
    /// watchdog pings (each after a frame loop pass) keep their pace meanwhile.
    func testMisbehavingClientsAreBoundedAndTheLoopGoesOn() throws {
        let (player, notify) = try startPlayer(environment: ["WATCHDOG_USEC": "300000"])
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<8 { idle.append(try connect()) }
        usleep(100_000)
        let busy = try ctl("status")
        XCTAssertEqual(busy.status, 69, busy.output)
        XCTAssertTrue(busy.output.contains("busy"), busy.output)

        // A line longer than the limit is answered with an error and the connection closed.
        let flooder = idle.removeLast()
        let flood = [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
        _ = flood.withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let reply = readAll(flooder)
        XCTAssertTrue(reply.contains("request longer than 4095 bytes"), reply)
        close(flooder)

        // Garbage, invalid UTF-8 and unknown words get one error reply each.
        let garbage = try connect()
        idle.append(garbage)
        let bytes: [UInt8] = [0xFF, 0xFE, 0x0A] + Array("launch missiles\n".utf8)
        _ = bytes.withUnsafeBytes { send(garbage, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var replies = ""
        for _ in 0..<20 where replies.split(separator: "\n").count < 2 {
            replies += readAvailable(garbage)
            usleep(50_000)
        }
        XCTAssertTrue(replies.contains("not valid UTF-8"), replies)
        XCTAssertTrue(replies.contains("unknown request 'launch'"), replies)

        var last = Date()
        var longest = 0.0
        for _ in 0..<8 {
            XCTAssertNotNil(notify.wait(seconds: 2) { $0 == "WATCHDOG=1" }, player.standardError)
            longest = max(longest, Date().timeIntervalSince(last))
            last = Date()
        }
        XCTAssertLessThan(longest, 0.6, "a watchdog gap of \(longest) s")
        idle.forEach { close($0) }
        idle = []
        usleep(100_000)
        XCTAssertEqual(try ctl("status").status, 0)
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    /// Outside its `screenOn` hours (the machine's zone set to UTC, the hours two hours from
    /// now) the X screen is black, nothing is drawn, and `status` says the screen is off.
    func testOutsideItsHoursTheScreenIsBlackAndStatusSaysSo() throws {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let minute = Int(parts.tm_hour) * 60 + Int(parts.tm_min)
        func clock(_ m: Int) -> String { String(format: "%02d:%02d", m % 1440 / 60, m % 60) }
        let hours = "screenOn = [[\"daily\", \"\(clock(minute + 120))\", \"\(clock(minute + 180))\"]]"
        let config = directory + "/playlist.toml"
        try writeFile(config, playlist().replacingOccurrences(of: "[player]\n", with: "[player]\n\(hours)\n"))
        let xvfb = try XvfbServer(width: 64, height: 36)
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name, "--control", socketPath],
            environment: ["NOTIFY_SOCKET": notify.listener.name, "TZ": "UTC"])
        XCTAssertTrue(notify.wait(for: "STATUS=screen off (outside the screenOn hours)"), player.standardError)
        XCTAssertTrue(notify.wait(for: "READY=1"), "not ready with the screen off: \(player.standardError)")
        // A reload is answered with READY=1 too, the screen still off.
        XCTAssertEqual(try ctl("reload").status, 0)
        XCTAssertTrue(notify.wait(for: "READY=1"), "no READY=1 after a reload with the screen off")
        let screen = try ScreenReader(xvfb.name)
        usleep(300_000)
        XCTAssertEqual(screen.pixel(x: 32, y: 18), 0x000000)
        XCTAssertEqual(try status()["screen"] as? String, "off")
        let presented = try status()["framesPresented"] as? Int
        usleep(500_000)
        XCTAssertEqual(try status()["framesPresented"] as? Int, presented, "frames drawn with the screen off")
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    /// A client that connects and says nothing, or stops half-way through a line, is closed
    /// when its time is up; one that sends its line in pieces within it is answered.
    func testSilentClientsAreClosedAfterTheRequestTimeout() throws {
        let loop = FrameLoop(link: try DisplayLink(clock: SystemClock(), preferredFramesPerSecond: 10))
        let server = try ControlServer(
            path: socketPath, loop: loop, logger: Logger(label: "test"), requestTimeout: 0.3
        ) { client, request in
            XCTAssertEqual(try? request.get(), .status)
            self.serverReply = (client, ["ok": true])
        }
        let silent = try connect(), halfway = try connect(), slow = try connect()
        defer { [silent, halfway, slow].forEach { close($0) } }
        _ = "sta".withCString { send(halfway, $0, 3, Int32(MSG_NOSIGNAL)) }
        _ = "sta".withCString { send(slow, $0, 3, Int32(MSG_NOSIGNAL)) }
        loop.schedule(at: loop.link.clock.now().advanced(byNanoseconds: 150_000_000)) {
            _ = "tus\n".withCString { send(slow, $0, 4, Int32(MSG_NOSIGNAL)) }
        }
        loop.schedule(at: loop.link.clock.now().advanced(byNanoseconds: 250_000_000)) {
            if let (client, reply) = self.serverReply { server.reply(client, reply) }
        }
        loop.schedule(at: loop.link.clock.now().advanced(byNanoseconds: 800_000_000)) { loop.stop() }
        try loop.run { _ in }
        XCTAssertEqual(readAll(silent), "", "closed without a word")
        XCTAssertEqual(readAll(halfway), "")
        XCTAssertEqual(readAvailable(slow), "{\"ok\":true}\n")
    }
    private var serverReply: (ControlServer.ClientID, [String: Any])?

    private func connect() throws -> Int32 { try UnixSocket.connect(to: socketPath) }

    /// Everything the peer sends until it closes (at most 2 s).
    private func readAll(_ fd: Int32) -> String {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func readAvailable(_ fd: Int32) -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        return n > 0 ? String(decoding: chunk[..<n], as: UTF8.self) : ""
    }

    /// A notify socket whose reader stopped (its queue full of watchdog pings) must not stall
    /// the player: messages are dropped, frames go on and the control socket answers.
    func testAFullNotifyQueueDoesNotStallThePlayer() throws {
        let (player, notify) = try startPlayer(environment: ["WATCHDOG_USEC": "200000"])
        defer { withExtendedLifetime(player) {} }
        var size: Int32 = 1
        setsockopt(notify.listener.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        // Not read from now on: pings every 0.1 s fill the few datagrams the queue holds.
        usleep(2_000_000)
        // A blocked frame loop would answer nothing (ctl waits 60 s); this one answers at once,
        // and its scene's time goes on.
        let start = MonotonicInstant.now()
        let first = try XCTUnwrap(try status()["sceneTime"] as? Double)
        usleep(1_000_000)
        let second = try XCTUnwrap(try status()["sceneTime"] as? Double)
        XCTAssertLessThan(MonotonicInstant.now().seconds - start.seconds, 5)
        XCTAssertGreaterThan(second, first + 0.8, "the player goes on while the notify queue is full")
    }
}
