import ArgumentParser
import Glibc
import VitrineBench
import VitrineSystem

/// `vitrine bench summary`: the player's performance targets in one table, so that a
/// regression is one command away — the playlist played whole at 1920×1080 and at 3840×2160
/// (its canvas scaled up) with transitions, a still scene, and the time from exec to the first
/// frame on screen. Each measure runs the real `vitrine play` under a private Xvfb of that size.
struct SummaryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract:
            "The playlist at 1080p and 4K (CPU, peak RSS, missed frames), a still scene and the first frame, in one table."
    )

    @Argument(help: "The playlist (TOML).")
    var config = "config/default.toml"

    @Option(name: .customLong("duration"), help: "Seconds of the playlist to measure at each size.")
    var seconds: Double = 60

    @Option(help: "Starts timed for the first frame (the median and spread are reported).")
    var runs = 5

    @Option(
        name: .customLong("repeat"),
        help:
            "Plays of the playlist at each size: with more than one, each measure gives its median and every play's value."
    )
    var playCount = 1

    func validate() throws {
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--duration must be from 0 to 3600") }
        guard runs > 0, runs <= 50 else { throw ValidationError("--runs must be from 1 to 50") }
        guard playCount > 0, playCount <= 20 else { throw ValidationError("--repeat must be from 1 to 20") }
    }

    func run() throws {
        var rows: [(String, String, String)] = []
        var lateFrames: [String] = []
        for (width, height, cpuTarget, rssTarget) in [(1920, 1080, 3.0, 40), (3840, 2160, 8.0, 90)] {
            let server = try Xvfb(width: width, height: height)
            defer { server.stop() }
            let size = "\(width)x\(height)"
            var plays: [Live] = []
            for index in 1...playCount {
                guard let live = try play(config, on: server.name, for: seconds) else {
                    throw ExitStatus.displayUnavailable.exit
                }
                plays.append(live)
                let which = playCount > 1 ? "at \(size), play \(index)" : "at \(size)"
                for late in live.lateFrames {
                    lateFrames.append("\(which): \(ControlCommand.describe(lateFrame: late))")
                }
            }
            rows.append(
                (
                    "playlist at \(size): CPU",
                    spread(plays.map { $0.cpuShare * 100 }, format, unit: "% of a core", short: "%"),
                    "≤ \(format(cpuTarget)) %"
                ))
            // MB as /proc counts them (1024 KiB), to a tenth: a whole number would floor 40.9 to 40.
            let peaks = plays.map { Double($0.peakRSSKiB) / 1024 }
            rows.append(
                (
                    "playlist at \(size): peak RSS",
                    spread(peaks, { String(cFormat: "%.1f", $0) }, unit: "MB", short: "MB"),
                    "≤ \(rssTarget) MB"
                ))
            rows.append(("playlist at \(size): frames", frameCounts(plays.map(\.frames)), "0 missed"))
        }
        let server = try Xvfb(width: 1920, height: 1080)
        defer { server.stop() }
        let still = try stillPlaylist()
        defer { unlink(still) }
        if let live = try play(still, on: server.name, for: min(seconds, 10)) {
            rows.append(("a still scene at 1920x1080: CPU", "\(format(live.cpuShare * 100)) % of a core", "0 %"))
        }
        var starts: [Double] = []
        for _ in 0..<runs {
            if let time = try firstFrame(config, on: server.name) { starts.append(time * 1000) }
        }
        if !starts.isEmpty {
            let stats = SampleStatistics(starts)
            rows.append(
                (
                    "first frame (exec to READY=1), \(starts.count) runs",
                    "median \(format(stats.median)) ms (\(format(stats.minimum))–\(format(stats.maximum)))", "≤ 50 ms"
                ))
        }
        let repeated = playCount > 1 ? ", \(playCount) plays at each" : ""
        print(
            "vitrine bench summary \(config): \(format(seconds)) s of the playlist at each size\(repeated), private Xvfb"
        )
        print("")
        print("| measure | value | target |")
        print("| --- | --- | --- |")
        for (measure, value, target) in rows { print("| \(measure) | \(value) | \(target) |") }
        if !lateFrames.isEmpty {
            // Which frames were late, as the player's status keeps them (its last few).
            print("")
            for late in lateFrames { print("late frame \(late)") }
        }
    }

    // MARK: - The real player

    private struct Live {
        var cpuShare: Double
        var peakRSSKiB: Int
        /// Frames presented and deadlines missed while measured; nil when the player's status
        /// could not be read.
        var frames: (presented: Int, skipped: Int)?
        /// The late frames the player's status reported while measured (`LateFrame`'s JSON).
        var lateFrames: [[String: Any]]
    }

    /// Plays `playlist` on X display `display` for `seconds` from its READY=1: CPU share, peak
    /// RSS, and the frames it presented and missed meanwhile (from its control socket).
    private func play(_ playlist: String, on display: String, for seconds: Double) throws -> Live? {
        let control = Files.temporaryDirectory + "/vitrine-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(control) }
        let read = { () -> FrameCounts? in
            do { return try frames(at: control) } catch {
                printError("\(playlist): \(error)")
                return nil
            }
        }
        guard
            let live = try LivePlayer.measure(
                [
                    playlist, "--backend", "x11", "--display", display, "--fps", "60", "--log-level", "warning",
                    "--control", control
                ], seconds: seconds, label: playlist, sample: read)
        else { return nil }
        var late: [[String: Any]] = []
        if let before = live.before, let after = live.after {
            late = after.lateFrames.filter { ($0["uptime"] as? Double ?? 0) > before.uptime }
        }
        return Live(
            cpuShare: live.cpuShare, peakRSSKiB: live.peakRSSKiB,
            frames: live.before.flatMap { before in
                live.after.map { ($0.presented - before.presented, $0.skipped - before.skipped) }
            }, lateFrames: late)
    }

    /// What the player's status says of its frames at one moment.
    private struct FrameCounts {
        var presented: Int
        var skipped: Int
        /// Seconds since the player's session started.
        var uptime: Double
        /// Its last few late frames (`LateFrame`'s JSON).
        var lateFrames: [[String: Any]]
    }

    /// The player's frame counts, from `status` on its control socket.
    private func frames(at control: String) throws -> FrameCounts {
        let reply = try ControlCommand.exchange("status", at: control)
        let json = (try? JSON.decode(reply)) as? [String: Any]
        guard let presented = json?["framesPresented"] as? Int, let skipped = json?["framesSkipped"] as? Int,
            let uptime = json?["uptime"] as? Double
        else {
            throw ValidationError("the player's status has no frame counts: \(reply)")
        }
        let late = (json?["lateFrames"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        return FrameCounts(presented: presented, skipped: skipped, uptime: uptime, lateFrames: late)
    }

    /// Seconds from starting `vitrine play` to its READY=1 (sent once the first frame is shown).
    private func firstFrame(_ playlist: String, on display: String) throws -> Double? {
        let notify = try NotifySocket()
        let start = MonotonicInstant.now().seconds
        let child = try ChildProcess(
            ProcessMemory.executablePath(),
            ["play", playlist, "--backend", "x11", "--display", display, "--fps", "60", "--log-level", "warning"],
            environment: ["NOTIFY_SOCKET=" + notify.name])
        defer { child.terminate() }
        guard notify.waitFor("READY=1", seconds: 20) else { return nil }
        return MonotonicInstant.now().seconds - start
    }

    /// A playlist of one scene that never changes: one text layer.
    private func stillPlaylist() throws -> String {
        let path = Files.temporaryDirectory + "/vitrine-still-\(getpid()).toml"
        let text = """
            [player]
            canvas = [1920, 1080]

            [[scene]]
            name = "still"
            duration = 3600

            [[scene.layer]]
            type = "text"
            string = "A still scene"
            frame = [0, 500, 1920, 80]
            fontSize = 60
            alignmentMode = "center"
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// `value` with two decimals.
private func format(_ value: Double) -> String { String(cFormat: "%.2f", value) }

/// One play's value, or the median of several and each play's value in the order played (the
/// spread of the runs, never the best one alone), in `unit` (`short` after the list).
private func spread(_ values: [Double], _ format: (Double) -> String, unit: String, short: String) -> String {
    guard values.count > 1 else { return values.first.map { "\(format($0)) \(unit)" } ?? "n/a" }
    let each = values.map(format).joined(separator: ", ")
    return "median \(format(SampleStatistics(values).median)) \(unit); plays \(each) \(short)"
}

/// Frames presented and deadlines missed: one play's, or the range presented and the misses of
/// each play.
private func frameCounts(_ plays: [(presented: Int, skipped: Int)?]) -> String {
    let known = plays.compactMap { $0 }
    guard known.count == plays.count, let first = known.first else { return "n/a" }
    guard known.count > 1 else { return "\(first.presented) presented, \(first.skipped) deadlines missed" }
    let fewest = known.map(\.presented).min()!, most = known.map(\.presented).max()!
    let presented = fewest == most ? "\(most)" : "\(fewest)–\(most)"
    return "\(presented) presented; deadlines missed \(known.map { String($0.skipped) }.joined(separator: ", "))"
}
