import ArgumentParser
import CLinux
import Glibc
import Logging
import VitrineAnimation
import VitrineDisplay
import VitrineGraphics
import VitrinePlayer

/// `vitrine bench player`: what each scene of a playlist costs at 1920×1080.
///
/// - Frame cost, in this process: `Player.frameWillRender` + `FrameRenderer.renderFrame` (engine
///   evaluation, damage, rasterizing) + `present`, wall time per frame over `--seconds` of the
///   scene at 60 fps, with damage tracking and with whole frames; and the pixels redrawn.
/// - CPU share and peak RSS, of the real player: `vitrine play --scene NAME` under Xvfb at 60
///   fps as a child process, from its READY=1 for `--seconds`, read from
///   /proc/PID/task/*/schedstat (nanoseconds on CPU, all threads) and /proc/PID/status (VmHWM).
struct PlayerBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player",
        abstract: "Frame cost, pixels redrawn, CPU share and peak RSS of each scene of a playlist at 1920x1080.")

    @Argument(help: "The playlist (TOML).")
    var config = "config/default.toml"

    // Not --seconds and --display: `vitrine bench` itself has those, and takes them first.
    @Option(name: .customLong("duration"),
            help: "Seconds of each scene to measure (frame cost: that many seconds of frames at 60 fps; CPU: that long live).")
    var seconds: Double = 4

    @Option(name: .customLong("x-display"),
            help: "X display at 1920x1080 to present on and play under (default: a private Xvfb when installed, else in-memory presenting and no CPU column).")
    var display: String?

    @Option(help: "Measure only the scene with this name.")
    var scene: String?

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--duration must be from 0 to 600") }
    }

    func run() throws {
        StandardErrorLogHandler.bootstrap(level: .warning)
        let playlist: Playlist
        do { playlist = try PlaylistLoader.load(file: config) } catch {
            printError(error)
            throw ExitStatus.invalidConfig.exit
        }
        let names = playlist.scenes.map(\.name).filter { scene == nil || $0 == scene }
        guard !names.isEmpty else { throw ValidationError("no scene named '\(scene ?? "")' in \(config)") }

        var server: PrivateXServer?
        var displayName = display
        if displayName == nil, let started = try PrivateXServer.start(width: 1920, height: 1080) {
            server = started
            displayName = started.name
        }
        defer { server?.stop() }

        let size = PixelSize(width: 1920, height: 1080)
        let presenter: Presenter
        if let displayName {
            presenter = try X11Presenter(displayName: displayName, logger: Logger(label: "vitrine.bench"))
        } else {
            presenter = HeadlessPresenter(size: size, keepsFrames: false)
        }
        let presenting = presenter is X11Presenter ? "X11 \(displayName ?? "")" : "in-memory presenter"
        let frameCount = Int((seconds * 60).rounded())

        print("vitrine bench player \(config): 1920x1080, \(frameCount) frames per mode (\(format(seconds)) s at 60 fps), \(presenting)")
        print("")
        print("| scene | frame median (ms) | frame p99 (ms) | whole frames: median | whole frames: p99 | pixels redrawn per frame | CPU at 60 fps | peak RSS |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name in names {
            let damage = try measureFrames(playlist, scene: name, presenter: presenter, size: size,
                                           frames: frameCount, damageTracking: true)
            let whole = try measureFrames(playlist, scene: name, presenter: presenter, size: size,
                                          frames: frameCount, damageTracking: false)
            var cpu = "n/a", rss = "n/a"
            if let displayName, let live = try measureLive(scene: name, display: displayName) {
                cpu = "\(format(live.cpuShare * 100)) %"
                rss = "\(live.peakRSSKiB / 1024) MB"
            }
            print("| \(name) | \(format(damage.median)) | \(format(damage.p99)) | \(format(whole.median)) | \(format(whole.p99)) | \(Int(damage.meanPixels.rounded())) | \(cpu) | \(rss) |")
        }
        print("")
        print("bench process peak RSS: \(ProcessMemory.peakResidentKiB(pid: getpid()).map { "\($0 / 1024) MB" } ?? "n/a")")
    }

    // MARK: - Frame cost

    private struct FrameCost { var median: Double; var p99: Double; var meanPixels: Double }

    /// Plays `scene` from its start for `frames` frames at 60 fps of virtual time, as fast as it
    /// renders, and times each frame.
    private func measureFrames(_ playlist: Playlist, scene: String, presenter: Presenter, size: PixelSize,
                               frames: Int, damageTracking: Bool) throws -> FrameCost {
        let player = Player(playlist: playlist, screenSize: Size(width: Double(size.width), height: Double(size.height)),
                            onlyScene: scene)
        // Drawn where the player draws: in the presenter's frame buffer when it has one.
        let renderer = FrameRenderer(engine: player.engine, bitmap: presenter.makeDrawingBitmap(size: size),
                                     background: playlist.settings.background)
        renderer.damageTracking = damageTracking
        var costs: [Double] = []
        var pixels = 0
        let start = 1000.0
        for i in 0...frames {
            let t = start + Double(i) / 60
            let before = monotonicSeconds()
            try player.frameWillRender(at: t)
            presenter.prepareFrameBitmap()
            let result = renderer.renderFrame(at: t)
            try presenter.present(renderer.bitmap, dirty: result.dirty)
            let cost = monotonicSeconds() - before
            // Frame 0 paints everything in both modes and warms caches: not a steady frame.
            if i > 0 {
                costs.append(cost * 1000)
                pixels += result.pixelsRedrawn
            }
        }
        try presenter.finishPresenting()
        let sorted = costs.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return FrameCost(median: median, p99: SampleStatistics(costs).percentile99,
                         meanPixels: Double(pixels) / Double(max(1, costs.count)))
    }

    // MARK: - Live process

    private struct Live { var cpuShare: Double; var peakRSSKiB: Int }

    /// Runs `vitrine play CONFIG --scene NAME` on `display` at 60 fps and measures it from its
    /// READY=1 for `seconds`; nil when it did not become ready.
    private func measureLive(scene: String, display: String) throws -> Live? {
        let notify = try NotifySocket()
        let executable = ProcessMemory.executablePath()
        let child = try ChildProcess(executable, ["play", config, "--scene", scene, "--backend", "x11",
                                                  "--display", display, "--fps", "60", "--log-level", "warning"],
                                     environment: ["NOTIFY_SOCKET=" + notify.name])
        defer { child.terminate() }
        guard notify.waitFor("READY=1", seconds: 20) else {
            printError("\(scene): the player did not report READY=1")
            return nil
        }
        let cpuBefore = ProcessMemory.cpuNanoseconds(pid: child.pid)
        let wallBefore = monotonicSeconds()
        var wake = timespec()
        clock_gettime(CLOCK_MONOTONIC, &wake)
        let target = Int64(wake.tv_sec) * 1_000_000_000 + Int64(wake.tv_nsec) + Int64(seconds * 1e9)
        wake = timespec(tv_sec: Int(target / 1_000_000_000), tv_nsec: Int(target % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) == EINTR {}
        let cpuAfter = ProcessMemory.cpuNanoseconds(pid: child.pid)
        let wall = monotonicSeconds() - wallBefore
        guard let before = cpuBefore, let after = cpuAfter,
              let peak = ProcessMemory.peakResidentKiB(pid: child.pid) else { return nil }
        return Live(cpuShare: Double(after - before) / 1e9 / wall, peakRSSKiB: peak)
    }
}

private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Facts about a process from /proc.
enum ProcessMemory {
    /// VmHWM (peak resident set) in KiB.
    static func peakResidentKiB(pid: pid_t) -> Int? {
        guard let status = readText("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Nanoseconds every thread of `pid` has spent on a CPU (the first field of each task's
    /// schedstat), finer than the clock ticks of /proc/PID/stat.
    static func cpuNanoseconds(pid: pid_t) -> UInt64? {
        guard let directory = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(directory) }
        var total: UInt64 = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true,
                  let text = readText("/proc/\(pid)/task/\(name)/schedstat"),
                  let first = text.split(separator: " ").first, let value = UInt64(first) else { continue }
            total += value
        }
        return total
    }

    /// This executable's path (for running itself as the player).
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }

    static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A child started with posix_spawn, with the default signal mask and dispositions.
final class ChildProcess {
    let pid: pid_t
    private var reaped = false

    init(_ path: String, _ arguments: [String], environment extra: [String] = [], quiet: Bool = false) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var environment: [String] = []
        var entry = environ
        while let e = entry.pointee {
            let text = String(cString: e)
            if !text.hasPrefix("NOTIFY_SOCKET=") && !text.hasPrefix("WATCHDOG_") { environment.append(text) }
            entry += 1
        }
        environment += extra
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw ValidationError("cannot start \(path): \(String(cString: strerror(result)))") }
        pid = child
    }

    /// SIGTERM, then SIGKILL after two seconds; reaps the child.
    func terminate() {
        guard !reaped else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        reaped = true
    }

    deinit { terminate() }
}

/// A private Xvfb for the live measurements.
struct PrivateXServer {
    let name: String
    let process: ChildProcess

    /// Starts Xvfb on a free display number; nil when Xvfb is not installed.
    static func start(width: Int, height: Int) throws -> PrivateXServer? {
        let candidates: [String] = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
        guard let binary = candidates.first(where: { path in access(path, X_OK) == 0 }) else { return nil }
        for number in 900..<940 where access("/tmp/.X\(number)-lock", F_OK) != 0 && access("/tmp/.X11-unix/X\(number)", F_OK) != 0 {
            let process = try ChildProcess(binary, [":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"],
                                           quiet: true)
            for _ in 0..<500 where access("/tmp/.X11-unix/X\(number)", F_OK) != 0 { usleep(10_000) }
            if access("/tmp/.X11-unix/X\(number)", F_OK) == 0 { return PrivateXServer(name: ":\(number)", process: process) }
            process.terminate()
        }
        return nil
    }

    func stop() { process.terminate() }
}

/// A datagram socket standing in for systemd's notify socket (abstract name).
final class NotifySocket {
    let fd: Int32
    let name: String

    init() throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        name = "@vitrine-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        bytes[0] = 0
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard fd >= 0, bound == 0 else { throw ValidationError("cannot bind a notify socket: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Waits up to `seconds` for a datagram equal to `message`.
    func waitFor(_ message: String, seconds: Double) -> Bool {
        let end = monotonicSeconds() + seconds
        var buffer = [UInt8](repeating: 0, count: 4096)
        while monotonicSeconds() < end {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) == 1 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0, String(decoding: buffer[0..<n], as: UTF8.self) == message { return true }
        }
        return false
    }
}

/// `value` with two decimals.
private func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = String(abs(hundredths) % 100)
    return "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100).\(fraction.count == 1 ? "0" : "")\(fraction)"
}
