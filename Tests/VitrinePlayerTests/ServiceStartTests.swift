import Foundation
import VitrineTestSupport
import XCTest

/// How the player starts as a service, run as the unit runs it: the display missing at boot,
/// and the exit statuses systemd acts on.
final class ServiceStartTests: TemporaryDirectoryTestCase {
    private var repository: String { ConfigPaths.repository }

    /// The `KEY=` lines of a unit file, values in order.
    private func settings(_ key: String, unit: String) throws -> [String] {
        let text = try String(contentsOfFile: repository + "/systemd/" + unit, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            line.hasPrefix(key + "=") ? String(line.dropFirst(key.count + 1)) : nil
        }
    }

    private func stillPlaylist() throws -> String {
        let config = directory + "/playlist.toml"
        try writeFile(
            config,
            """
            [player]
            canvas = [32, 24]

            [[scene]]
            name = "still"
            duration = 600
            background = "#00ff00"
            """)
        return config
    }

    /// At boot the X server may come up after the player. The unit's own command line, started
    /// with its display missing and in a directory it may not write, waits (saying so in
    /// STATUS) instead of turning headless, and plays once the server is up.
    func testTheUnitsCommandWaitsForALateXServerAndNeverTurnsHeadless() throws {
        let execStart = try XCTUnwrap(settings("ExecStart", unit: "vitrine.service").first)
        var arguments = execStart.split(separator: " ").map(String.init)
        XCTAssertEqual(arguments.removeFirst(), "/usr/local/bin/vitrine")
        XCTAssertTrue(execStart.contains("--backend x11"), "the unit must name its backend: \(execStart)")
        let config = try stillPlaylist()
        arguments = arguments.map { $0 == "/etc/vitrine/playlist.toml" ? config : $0 }
        let number = XvfbServer.unusedDisplayNumber()
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: arguments,
            environment: [
                "DISPLAY": ":\(number)", "NOTIFY_SOCKET": notify.listener.name,
                "INVOCATION_ID": "0123456789abcdef", "RUNTIME_DIRECTORY": directory
            ],
            directory: directory)
        let waiting = notify.wait(seconds: 5) { $0.hasPrefix("STATUS=waiting for the X display") }
        XCTAssertNotNil(waiting, player.standardError)
        usleep(500_000)
        XCTAssertTrue(player.process.isRunning, "gave up at once: \(player.standardError)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/out"), "turned headless")

        let xvfb = try XvfbServer(width: 64, height: 48, number: number)
        XCTAssertTrue(
            notify.wait(for: "READY=1", seconds: 10), "no READY=1 once the server was up: \(player.standardError)")
        let screen = try ScreenReader(xvfb.name)
        XCTAssertEqual(screen.waitForPixel(x: 32, y: 24) { $0 == 0x00FF00 }, 0x00FF00)
        // Under systemd the control socket is in the unit's runtime directory, unasked.
        let ctl = try runTool(
            try PlayProcess.executable(), ["ctl", "status"], environment: ["RUNTIME_DIRECTORY": directory])
        XCTAssertEqual(ctl.status, 0, ctl.output)
        XCTAssertTrue(ctl.output.contains("presenter  x11, 64x48"), ctl.output)
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0, player.standardError)
    }

    /// When the display does not come in time the player exits 69, which the units restart
    /// (it is not among the statuses that need an operator).
    func testGivingUpOnTheDisplayExitsWithAStatusSystemdRestarts() throws {
        let config = try stillPlaylist()
        let number = XvfbServer.unusedDisplayNumber()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--wait-for-display", "0.5"],
            environment: ["DISPLAY": ":\(number)"], directory: directory)
        XCTAssertEqual(player.waitForExit(seconds: 10), 69)
        XCTAssertTrue(player.standardError.contains("cannot open X display \":\(number)\""), player.standardError)
        for unit in ["vitrine.service", "vitrine@.service"] {
            XCTAssertEqual(try settings("Restart", unit: unit), ["on-failure"])
            let prevented = try settings("RestartPreventExitStatus", unit: unit).flatMap { $0.split(separator: " ") }
            XCTAssertFalse(prevented.contains("69"), unit)
            XCTAssertTrue(prevented.contains("78"), unit)
        }
    }

    /// Under systemd, without --backend, no display means waiting and then 69, never frames.
    func testUnderSystemdWithoutABackendItDoesNotTurnHeadless() throws {
        let config = try stillPlaylist()
        let player = try PlayProcess(
            arguments: ["play", config, "--wait-for-display", "0.3", "--output", "frames"],
            environment: [
                "DISPLAY": ":\(XvfbServer.unusedDisplayNumber())",
                "INVOCATION_ID": "0123456789abcdef"
            ],
            directory: directory)
        XCTAssertEqual(player.waitForExit(seconds: 10), 69, player.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/frames"))
    }

    /// SIGTERM while waiting for the display stops the player cleanly.
    func testATerminateWhileWaitingForTheDisplayExitsZero() throws {
        let config = try stillPlaylist()
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--wait-for-display", "60"],
            environment: [
                "DISPLAY": ":\(XvfbServer.unusedDisplayNumber())",
                "NOTIFY_SOCKET": notify.listener.name
            ])
        XCTAssertNotNil(notify.wait(seconds: 5) { $0.hasPrefix("STATUS=waiting") }, player.standardError)
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 3), 0, player.standardError)
    }

    /// Headless output that cannot be created, or fills the disk, ends with its own status and
    /// a sentence naming the file.
    func testHeadlessOutputFailuresExitWithTheirOwnStatus() throws {
        let config = try stillPlaylist()
        try writeFile(directory + "/taken", "a file where the directory should be")
        let blocked = try PlayProcess(
            arguments: [
                "play", config, "--backend", "headless", "--output", directory + "/taken/frames",
                "--frames", "2"
            ], environment: [:])
        XCTAssertEqual(blocked.waitForExit(seconds: 10), 73)
        XCTAssertTrue(
            blocked.standardError.contains(
                "cannot create the output directory for headless frames: \(directory)/taken/frames: cannot create the directory: not a directory"
            ),
            blocked.standardError)

        // A full disk: a 64 KiB tmpfs (mounting needs root, as CI has).
        let small = directory + "/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        guard (try? runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small]))?.status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (not root)")
        }
        defer { _ = try? runTool("/bin/umount", [small]) }
        let full = try PlayProcess(
            arguments: [
                "play", ConfigPaths.defaultConfig, "--backend", "headless", "--output", small,
                "--fps", "10", "--frames", "50"
            ], environment: [:])
        XCTAssertEqual(full.waitForExit(seconds: 30), 74, full.standardError)
        XCTAssertTrue(
            full.standardError.contains(": cannot write the PNG: no space left on device"), full.standardError)
    }

    /// One status per cause, whatever the command: an invalid config is 78 for check, render,
    /// draw and play alike; an unknown scene is a usage error (64).
    func testEveryCommandExitsWithTheSameStatusForTheSameCause() throws {
        let broken = directory + "/broken.toml"
        try writeFile(broken, "[player]\nfps = \"fast\"\n")
        let commands: [[String]] = [
            ["check", broken],
            ["render", broken, "--scene", "s", "--time", "0", "-o", directory + "/x.png"],
            ["draw", broken, "-o", directory + "/x.png"],
            ["play", broken, "--backend", "headless", "--output", directory + "/frames"]
        ]
        for arguments in commands {
            let process = try PlayProcess(arguments: arguments, environment: [:])
            XCTAssertEqual(process.waitForExit(seconds: 10), 78, "\(arguments[0]): \(process.standardError)")
            XCTAssertTrue(process.standardError.contains(broken + ":"), "\(arguments[0]): \(process.standardError)")
        }
        let config = try stillPlaylist()
        let unknown = try PlayProcess(
            arguments: ["render", config, "--scene", "nope", "--time", "0", "-o", directory + "/x.png"],
            environment: [:])
        XCTAssertEqual(unknown.waitForExit(seconds: 10), 64)
        let unwritable = try PlayProcess(
            arguments: [
                "render", config, "--scene", "still", "--time", "0",
                "-o", directory + "/missing/x.png"
            ], environment: [:])
        XCTAssertEqual(unwritable.waitForExit(seconds: 10), 73)
        XCTAssertTrue(
            unwritable.standardError.contains(
                "\(directory)/missing/x.png: cannot write the PNG: no such file or directory"),
            unwritable.standardError)
    }
}
