import ArgumentParser
import Glibc
import Logging
import VitrineDisplay
import VitrineGraphics
import VitrinePlayer

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a playlist full screen (X11) or headless into numbered PNG files.",
        discussion: """
            Signals: HUP re-reads and validates the config (a valid one replaces the playlist \
            without closing the window; an invalid one is logged and the old one plays on), USR1 \
            skips to the next scene, USR2 restarts the playlist, TERM and INT stop (exit 0).
            Under systemd (Type=notify) it sends READY, STATUS, RELOADING, WATCHDOG and STOPPING.
            Installed as a service it reads /etc/vitrine/playlist.toml (see systemd/vitrine.service).
            Exit status: 0 stopped or finished, 64 usage, 69 no X display or lost it, 78 bad config.
            """)

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case x11, headless
    }

    @Argument(help: "The playlist (TOML).")
    var config = "config/default.toml"

    @Option(help: "x11 or headless (default: x11 when a display can be opened, else headless).")
    var backend: Backend?

    @Option(help: "X display (default: $DISPLAY).")
    var display: String?

    @Option(help: "Frames per second (default: the playlist's fps).")
    var fps: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(help: "Stop after this many frames.")
    var frames: Int?

    @Option(help: "Directory for the headless backend's numbered PNG frames.")
    var output = "out/frames"

    @Option(help: "Play only the scene with this name, over and over.")
    var scene: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        if let fps, !(1...1000).contains(fps) { throw ValidationError("--fps must be from 1 to 1000") }
        if let duration, !(duration > 0 && duration <= 1e7) { throw ValidationError("--duration must be a positive number of seconds") }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        // Scenes and transitions come and go for months: their frame-sized buffers must not
        // stay resident after them.
        LargeAllocations.returnToTheSystem()
        StandardErrorLogHandler.bootstrap(level: Logger.Level(rawValue: logLevel) ?? .info)
        let logger = Logger(label: "vitrine.play")
        // Blocked before anything else can start a thread: the signals reach only the signalfd.
        let signals = try SignalSource()

        let playlist: Playlist
        do { playlist = try PlaylistLoader.load(file: config) } catch {
            printError(error)
            throw ExitCode(78)
        }
        if let scene, !playlist.scenes.contains(where: { $0.name == scene }) {
            printError("\(config): no scene named '\(scene)' (scenes: \(playlist.scenes.map(\.name).joined(separator: ", ")))")
            throw ExitCode(64)
        }

        let presenter = try makePresenter(for: playlist, logger: logger)
        defer { (presenter as? X11Presenter)?.close() }  // restores the screen saver

        let player = Player(playlist: playlist,
                            screenSize: Size(width: Double(presenter.size.width), height: Double(presenter.size.height)),
                            onlyScene: scene)
        let link = try DisplayLink(clock: SystemClock())
        let session = PlayerSession(
            player: player, presenter: presenter, loop: FrameLoop(link: link),
            options: .init(configFile: config, framesPerSecond: fps, stopAfterFrames: frames,
                           stopAfterSeconds: duration, pausesWhenIdle: presenter is X11Presenter),
            notifier: SystemdNotifier(environment: StandardErrorLogHandler.processEnvironment),
            signals: signals, logger: logger)
        let outcome = try session.run()
        logger.debug("stopped: \(outcome)")
    }

    /// The X11 presenter when asked for, or when a display opens; else the headless one, at
    /// the playlist's canvas size, writing each frame to `output`.
    private func makePresenter(for playlist: Playlist, logger: Logger) throws -> Presenter {
        if backend != .headless {
            do {
                return try X11Presenter(displayName: display, logger: Logger(label: "vitrine.display"))
            } catch {
                if backend == .x11 {
                    printError("cannot present on X11: \(error)")
                    throw ExitCode(69)
                }
                logger.notice("no X display (\(error)); playing headless into \(output)")
            }
        }
        try makeDirectories(output)
        let canvas = playlist.settings.canvas
        let size = PixelSize(width: max(1, Int(canvas.width.rounded())), height: max(1, Int(canvas.height.rounded())))
        let directory = output
        return HeadlessPresenter(size: size) { screen, index in
            try screen.writePNG(to: "\(directory)/\(PlayCommand.frameName(index))", fast: true)
        }
    }

    /// `frame-000042.png`: zero-padded so the files sort in frame order.
    static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }
}

/// `mkdir -p`.
func makeDirectories(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        prefix += component + "/"
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw ValidationError("cannot create \(prefix): \(String(cString: strerror(errno)))")
        }
    }
}

/// Prints a message to stderr as a line of its own.
func printError(_ message: String) {
    var standardError = StandardError()
    print(message, to: &standardError)
}
