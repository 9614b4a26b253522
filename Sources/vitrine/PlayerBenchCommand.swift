import ArgumentParser
import CLinux
import Glibc
import Logging
import VitrineAnimation
import VitrineConfig
import VitrineDisplay
import VitrineGraphics
import VitrineWayland
import VitrineX11
import VitrinePlayer
import VitrineSystem
import VitrineBench

/// `vitrine bench player`: what each scene of a playlist costs at 1920×1080 (or `--size`).
///
/// - Frame cost, in this process: `Player.frameWillRender` + `FrameRenderer.renderFrame` (engine
///   evaluation, damage, rasterizing) + `present`, wall time per frame over `--seconds` of the
///   scene at 60 fps, with damage tracking and with whole frames; and the pixels redrawn.
/// - CPU share and peak RSS, of the real player: `vitrine play --scene NAME` under Xvfb (or the
///   Wayland compositor of `--wayland-display`) at 60 fps as a child process, from its READY=1 for `--seconds`, read from
///   /proc/PID/task/*/schedstat (nanoseconds on CPU, all threads) and /proc/PID/status (VmHWM).
struct PlayerBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player",
        abstract:
            "Frame cost, pixels redrawn, CPU share and peak RSS of each scene of a playlist at 1920x1080 (or --size).")

    @Argument(help: "The playlist (TOML).")
    var config = "config/default.toml"

    // Not --seconds and --display: `vitrine bench` itself has those, and takes them first.
    @Option(
        name: .customLong("duration"),
        help:
            "Seconds of each scene to measure (frame cost: that many seconds of frames at 60 fps; CPU: that long live)."
    )
    var seconds: Double = 4

    @Option(
        name: .customLong("x-display"),
        help:
            "X display at the --size to present on and play under (default: a private Xvfb when installed, else in-memory presenting and no CPU column)."
    )
    var display: String?

    @Option(
        help:
            "Wayland socket to present on and play under instead of X11 (a name in $XDG_RUNTIME_DIR, or a path)."
    )
    var waylandDisplay: String?

    @Option(help: "Measure only the scene with this name.")
    var scene: String?

    @Flag(
        help:
            "Measure the playlist played in order from its start, transitions included, as one row (frame cost and pixels; no live CPU column)."
    )
    var wholePlaylist = false

    @Option(
        help:
            "Screen size WIDTHxHEIGHT of the frames and of the private Xvfb (the canvas scaled to fit, letterboxed), e.g. 3840x2160."
    )
    var size = "1920x1080"

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--duration must be from 0 to 600") }
        guard !wholePlaylist || scene == nil else {
            throw ValidationError("--whole-playlist plays every scene: no --scene")
        }
        guard RenderCommand.parseSize(size) != nil else {
            throw ValidationError(
                "--size must be WIDTHxHEIGHT, each from 1 to \(RenderCommand.maximumSide) and at most 8192x8192 pixels in all, e.g. 3840x2160"
            )
        }
    }

    func run() throws {
        StandardErrorLogHandler.bootstrap(level: .warning)
        // Frames are made with `play`'s allocation policy: buffers of a frame's size come from
        // the system and go back to it, so a scene's first frames fault their pages in as live.
        PlayCommand.useThePlayersAllocationPolicy()
        let playlist: Playlist
        do { playlist = try PlaylistLoader.load(file: config) } catch {
            printError(error)
            throw ExitStatus.invalidConfig.exit
        }
        // nil: the whole playlist, one row.
        let names: [String?] =
            wholePlaylist ? [nil] : playlist.scenes.map(\.name).filter { scene == nil || $0 == scene }
        guard !names.isEmpty else { throw ValidationError("no scene named '\(scene ?? "")' in \(config)") }

        let (width, height) = RenderCommand.parseSize(size) ?? (1920, 1080)
        var server: Xvfb?
        var displayName = display
        if displayName == nil, waylandDisplay == nil {
            do { server = try Xvfb(width: width, height: height) } catch Xvfb.Failure.notInstalled {}
            displayName = server?.name
        }
        defer { server?.stop() }

        let size = PixelSize(width: width, height: height)
        let presenter: Presenter
        let presenting: String
        if let waylandDisplay {
            let wayland = try WaylandPresenter(socketName: waylandDisplay, logger: Logger(label: "vitrine.bench"))
            presenter = wayland
            presenting = "Wayland \(waylandDisplay) (\(wayland.size) output)"
        } else if let displayName {
            presenter = try X11Presenter(displayName: displayName, logger: Logger(label: "vitrine.bench"))
            presenting = "X11 \(displayName)"
        } else {
            presenter = HeadlessPresenter(size: size, keepsFrames: false)
            presenting = "in-memory presenter"
        }
        defer { (presenter as? WaylandPresenter)?.close() }
        let frameCount = Int((seconds * 60).rounded())

        print(
            "vitrine bench player \(config): \(width)x\(height), \(frameCount) frames per mode (\(format(seconds)) s at 60 fps), \(presenting)"
        )
        print("")
        print(
            "| scene | frame median (ms) | frame p99 (ms) | whole frames: median | whole frames: p99 | pixels redrawn per frame | CPU at 60 fps | peak RSS |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name in names {
            let damage = try measureFrames(
                playlist, scene: name, presenter: presenter, size: size,
                frames: frameCount, damageTracking: true)
            let whole = try measureFrames(
                playlist, scene: name, presenter: presenter, size: size,
                frames: frameCount, damageTracking: false)
            var cpu = "n/a", rss = "n/a"
            let target = waylandDisplay.map { ("wayland", $0) } ?? displayName.map { ("x11", $0) }
            if let name, let (backend, display) = target,
                let live = try measureLive(scene: name, backend: backend, display: display)
            {
                cpu = "\(format(live.cpuShare * 100)) %"
                rss = "\(live.peakRSSKiB / 1024) MB"
            }
            print(
                "| \(name ?? "whole playlist") | \(format(damage.median)) | \(format(damage.p99)) | \(format(whole.median)) | \(format(whole.p99)) | \(Int(damage.meanPixels.rounded())) | \(cpu) | \(rss) |"
            )
        }
        print("")
        print(
            "bench process peak RSS: \(ProcessMemory.peakResidentKiB(pid: getpid()).map { "\($0 / 1024) MB" } ?? "n/a")"
        )
    }

    // MARK: - Frame cost

    private struct SceneFrameTimes { var median: Double; var p99: Double; var meanPixels: Double }

    /// Plays `scene` (nil: the playlist in order, transitions included) from its start for
    /// `frames` frames at 60 fps of virtual time, as fast as it renders, and times each frame.
    private func measureFrames(
        _ playlist: Playlist, scene: String?, presenter: Presenter, size: PixelSize,
        frames frameCount: Int, damageTracking: Bool
    ) throws -> SceneFrameTimes {
        let player = Player(
            playlist: playlist, screenSize: Size(width: Double(size.width), height: Double(size.height)),
            onlyScene: scene)
        // Made as the player makes them, in the presenter's frame buffer when it has one.
        let frames = PlayerFrames(player: player, bitmap: presenter.makeDrawingBitmap(size: size))
        frames.renderer.damageTracking = damageTracking
        var costs: [Double] = []
        var pixels = 0
        let start = 1000.0
        for i in 0...frameCount {
            let t = start + Double(i) / 60
            let before = MonotonicInstant.now().seconds
            presenter.prepareFrameBitmap()
            let (_, result) = try frames.makeFrame(at: t)
            try presenter.present(frames.bitmap, dirty: result.dirty)
            let cost = MonotonicInstant.now().seconds - before
            // Frame 0 paints everything in both modes and warms caches: not a steady frame.
            if i > 0 {
                costs.append(cost * 1000)
                pixels += result.pixelsRedrawn
            }
        }
        try presenter.finishPresenting()
        let sorted = costs.sorted()
        let median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return SceneFrameTimes(
            median: median, p99: SampleStatistics(costs).percentile99,
            meanPixels: Double(pixels) / Double(max(1, costs.count)))
    }

    // MARK: - Live process

    private struct Live { var cpuShare: Double; var peakRSSKiB: Int }

    /// `vitrine play CONFIG --scene NAME` on `display` of `backend` at 60 fps, from its READY=1
    /// for `seconds`; nil when it did not become ready.
    private func measureLive(scene: String, backend: String, display: String) throws -> Live? {
        try LivePlayer.measure(
            [
                config, "--scene", scene, "--backend", backend, "--display", display, "--fps", "60", "--log-level",
                "warning"
            ], seconds: seconds, label: scene, sample: {}
        ).map { Live(cpuShare: $0.cpuShare, peakRSSKiB: $0.peakRSSKiB) }
    }
}

/// `value` with two decimals.
private func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = String(abs(hundredths) % 100)
    return "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100).\(fraction.count == 1 ? "0" : "")\(fraction)"
}
