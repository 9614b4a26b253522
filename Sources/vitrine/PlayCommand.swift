import ArgumentParser
import Glibc
import Logging
import VitrineConfig
import VitrineDisplay
import VitrineGraphics
import VitrineWayland
import VitrineX11
import VitrinePlayer
import VitrineSystem

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a playlist full screen (Wayland or X11) or headless into numbered PNG files.",
        discussion: """
            Signals: HUP re-reads and validates the config (a valid one replaces the playlist \
            without closing the window; an invalid one is logged and the old one plays on), USR1 \
            skips to the next scene, USR2 restarts the playlist, TERM and INT stop (exit 0).
            Under systemd (Type=notify) it sends READY, STATUS, RELOADING, WATCHDOG and STOPPING.
            Installed as a service it reads /etc/vitrine/playlist.toml (see systemd/vitrine.service).
            Without --backend it plays on Wayland when a compositor answers ($WAYLAND_DISPLAY, or \
            wayland-0 in $XDG_RUNTIME_DIR), else on X11 when a display opens, else headless; under \
            systemd (NOTIFY_SOCKET or INVOCATION_ID set) it never turns headless on its own: it waits \
            --wait-for-display seconds for a compositor or an X server, then exits 69 so systemd \
            starts it again.
            \(ExitStatus.summary)
            """)

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case wayland, x11, headless
    }

    @Argument(help: "The playlist (TOML).")
    var config = "config/default.toml"

    @Option(
        help:
            "wayland, x11 or headless (default: wayland when a compositor answers, else x11 when a display can be opened, else headless)."
    )
    var backend: Backend?

    @Option(help: "X display (default: $DISPLAY), or the Wayland socket (default: $WAYLAND_DISPLAY).")
    var display: String?

    @Option(
        help:
            "Seconds to wait for the X display (or Wayland compositor) before exiting 69 (default: 0; 60 under systemd)."
    )
    var waitForDisplay: Double?

    @Option(help: "Frames per second (default: the playlist's fps).")
    var fps: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(help: "Stop after this many frames.")
    var frames: Int?

    @Option(help: "Directory for the headless backend's numbered PNG frames.")
    var output = "out/frames"

    @Option(
        help:
            "Listen for `vitrine ctl` on this Unix socket, mode 0660 (default under systemd: $RUNTIME_DIRECTORY/control)."
    )
    var control: String?

    @Option(help: "Play only the scene with this name, over and over.")
    var scene: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        if let fps, !(1...1000).contains(fps) { throw ValidationError("--fps must be from 1 to 1000") }
        if let duration, !(duration > 0 && duration <= 1e7) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        if let waitForDisplay, !(waitForDisplay >= 0 && waitForDisplay <= 86_400) {
            throw ValidationError("--wait-for-display must be from 0 to 86400 seconds")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError(
                "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// How the player allocates (`bench player` makes its frames so too): scenes and
    /// transitions come and go for months, and their frame-sized buffers must not stay
    /// resident after them; every thread allocates from one heap.
    static func useThePlayersAllocationPolicy() {
        LargeAllocations.returnToTheSystem()
        LargeAllocations.keepInOneHeap()
    }

    func run() throws {
        PlayCommand.useThePlayersAllocationPolicy()
        StandardErrorLogHandler.bootstrap(level: Logger.Level(rawValue: logLevel) ?? .info)
        let logger = Logger(label: "vitrine.play")
        // Blocked before anything else can start a thread: the signals reach only the signalfd.
        let signals = try SignalSource()

        let environment = StandardErrorLogHandler.processEnvironment
        let notifier = SystemdNotifier(environment: environment)
        let underSystemd = notifier != nil || environment["INVOCATION_ID"] != nil

        // The playlist loads on a thread of its own while this one gets the rest of the first
        // frame ready: the first frame waits for the longer of the two, not their sum. A bad
        // config is still reported before anything plays. This thread opens the display (one
        // try, no waiting), makes the frame buffer the first frame is drawn into, and starts
        // fontconfig and loads the default face, which the first text would otherwise wait for
        // (fontconfig reads its whole configuration on first use). A third thread for fontconfig
        // was no faster: this one mostly waits for the display server.
        let file = config, firstScene = scene
        // Only the first scene's images are decoded before its frame; the player decodes the
        // others' while it is on screen (`Playlist.pendingImages`).
        let loading = BackgroundWork { try PlaylistLoader.load(file: file, decoding: .firstScene(named: firstScene)) }
        let opened = backend == .headless ? nil : openDisplayNow(underSystemd: underSystemd)
        let drawingBitmap = opened.map { $0.makeDrawingBitmap(size: $0.size) }
        _ = try? Font(size: 12)
        func close(_ presenter: Presenter?) {
            (presenter as? X11Presenter)?.close()  // restores the screen saver
            (presenter as? WaylandPresenter)?.close()
        }
        let playlist: Playlist
        switch loading.wait() {
        case .success(let loaded): playlist = loaded
        case .failure(let error):
            close(opened)
            printError(error)
            throw ExitStatus.invalidConfig.exit
        }
        if let scene, !playlist.scenes.contains(where: { $0.name == scene }) {
            close(opened)
            printError(
                "\(config): no scene named '\(scene)' (scenes: \(playlist.scenes.map(\.name).joined(separator: ", ")))")
            throw ExitStatus.usage.exit
        }

        let presenter =
            try opened
            ?? makePresenter(
                for: playlist, underSystemd: underSystemd, notifier: notifier,
                signals: signals, logger: logger)
        defer { close(presenter) }

        let player = Player(
            playlist: playlist,
            screenSize: Size(width: Double(presenter.size.width), height: Double(presenter.size.height)),
            onlyScene: scene)
        let link = try DisplayLink(clock: SystemClock())
        let session = PlayerSession(
            player: player, presenter: presenter, loop: FrameLoop(link: link),
            options: .init(
                configFile: config, framesPerSecond: fps, stopAfterFrames: frames,
                stopAfterSeconds: duration, pausesWhenIdle: !(presenter is HeadlessPresenter),
                controlSocketPath: control ?? ControlSocketPath.serviceDefault(environment)),
            notifier: notifier, signals: signals, logger: logger, drawingBitmap: drawingBitmap)
        do {
            let outcome = try session.run()
            logger.debug("stopped: \(outcome)")
        } catch let error as PresenterError {
            if case .sinkFailed(let frame, let detail) = error {
                printError("cannot write headless frame \(frame): \(detail)")
                throw ExitStatus.outputFailed.exit
            }
            printError("the display failed: \(error)")
            throw ExitStatus.displayUnavailable.exit
        } catch let error as PlayerError {
            // No scene of the playlist builds any more (its images went since it was checked),
            // or an image left to decode after the first frame did not decode.
            printError("\(error)")
            throw ExitStatus.invalidConfig.exit
        } catch {
            printError("the display failed: \(error)")
            throw ExitStatus.displayUnavailable.exit
        }
    }

    /// The presenter the options ask for. Without `--backend`: Wayland when a compositor
    /// answers, else X11 when a display opens, else headless at the playlist's canvas size,
    /// writing each frame to `output` — except under systemd, where a kiosk must show its screen
    /// or be restarted, never turn headless.
    private func makePresenter(
        for playlist: Playlist, underSystemd: Bool, notifier: SystemdNotifier?,
        signals: SignalSource, logger: Logger
    ) throws -> Presenter {
        if backend != .headless {
            // Under systemd without --backend: whichever display comes up first, waited for.
            let stacks = displayStacks(underSystemd: underSystemd)
            let waits = backend != nil || underSystemd
            let wait = waits ? waitForDisplay ?? (underSystemd ? 60 : 0) : 0
            do {
                if !stacks.isEmpty {
                    return try openDisplay(
                        stacks, waitingUpTo: wait, notifier: notifier, signals: signals, logger: logger)
                }
            } catch let error as PresenterError {
                if backend != nil || underSystemd {
                    printError("cannot present on \(stacks.map(\.name).joined(separator: " or ")): \(error)")
                    throw ExitStatus.displayUnavailable.exit
                }
                logger.notice("no display (\(error)); playing headless into \(output)")
            }
            if stacks.isEmpty {
                logger.notice("no Wayland compositor and no X display; playing headless into \(output)")
            }
        }
        do { try Files.makeDirectories(output) } catch {
            printError("cannot create the output directory for headless frames: \(error)")
            throw ExitStatus.cannotCreateOutput.exit
        }
        let canvas = playlist.settings.canvas
        let size = PixelSize(width: max(1, Int(canvas.width.rounded())), height: max(1, Int(canvas.height.rounded())))
        let directory = output
        return HeadlessPresenter(size: size) { screen, index in
            try screen.writePNG(to: "\(directory)/\(PlayCommand.frameName(index))", fast: true)
        }
    }

    /// The display stacks to try, in order: the one --backend names, else those that may answer.
    private func displayStacks(underSystemd: Bool) -> [DisplayStack] {
        switch backend {
        case .wayland: [.wayland]
        case .x11: [.x11]
        default: DisplayStack.available(socketName: display, underSystemd: underSystemd)
        }
    }

    /// The first display stack that answers right now, or nil (`makePresenter` then tries again,
    /// waiting and reporting as it does).
    private func openDisplayNow(underSystemd: Bool) -> Presenter? {
        for stack in displayStacks(underSystemd: underSystemd) {
            if let opened = try? open(stack) { return opened.presenter }
        }
        return nil
    }

    /// A display stack a presenter can open.
    enum DisplayStack {
        case wayland, x11

        var name: String { self == .wayland ? "Wayland" : "X11" }
        var displayWord: String { self == .wayland ? "Wayland compositor" : "X display" }

        /// The stacks worth trying without --backend, in order: Wayland when its socket (the
        /// one named, `$WAYLAND_DISPLAY` or wayland-0) exists in `$XDG_RUNTIME_DIR`, X11 when a
        /// display is named. Under systemd X11 always, and Wayland whenever `$WAYLAND_DISPLAY`
        /// is set: the compositor may come up after the player.
        static func available(socketName: String?, underSystemd: Bool) -> [DisplayStack] {
            let environment = StandardErrorLogHandler.processEnvironment
            var stacks: [DisplayStack] = []
            if let runtime = environment["XDG_RUNTIME_DIR"] {
                let socket = socketName ?? environment["WAYLAND_DISPLAY"] ?? "wayland-0"
                let path = socket.hasPrefix("/") ? socket : runtime + "/" + socket
                if access(path, F_OK) == 0 || (underSystemd && environment["WAYLAND_DISPLAY"] != nil) {
                    stacks.append(.wayland)
                }
            }
            if underSystemd || socketName != nil || environment["DISPLAY"] != nil { stacks.append(.x11) }
            return stacks
        }
    }

    /// Opens the first of `stacks` that answers, trying them all again every quarter second for
    /// `seconds` (at boot the compositor or X server may come up after the player). Says so
    /// once in the log and in systemd's STATUS; SIGTERM or SIGINT while waiting exits 0.
    private func openDisplay(
        _ stacks: [DisplayStack], waitingUpTo seconds: Double, notifier: SystemdNotifier?, signals: SignalSource,
        logger: Logger
    ) throws -> Presenter {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(seconds * 1e9))
        var announced = false
        let what = stacks.map(\.displayWord).joined(separator: " or ")
        while true {
            var lastError: PresenterError?
            for stack in stacks {
                do {
                    let presenter = try open(stack)
                    if announced { logger.notice("\(stack.displayWord) \(presenter.name) is up") }
                    return presenter.presenter
                } catch let error as PresenterError {
                    lastError = error
                }
            }
            let error = lastError ?? PresenterError.cannotOpenDisplay(display ?? "")
            guard MonotonicInstant.now() < deadline else { throw error }
            if !announced {
                announced = true
                logger.notice(
                    "waiting up to \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s for the \(what): \(error)"
                )
                notifier?.status("waiting for the \(what): \(error)")
            }
            var descriptor = pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 250) > 0, signals.drain().contains(.terminate) {
                logger.info("stopping on a signal while waiting for the \(what)")
                throw ExitStatus.success.exit
            }
        }
    }

    private func open(_ stack: DisplayStack) throws -> (presenter: Presenter, name: String) {
        switch stack {
        case .wayland:
            let presenter = try WaylandPresenter(socketName: display, logger: Logger(label: "vitrine.display"))
            return (presenter, presenter.socketName)
        case .x11:
            let presenter = try X11Presenter(displayName: display, logger: Logger(label: "vitrine.display"))
            return (presenter, presenter.displayName)
        }
    }

    /// `frame-000042.png`: zero-padded so the files sort in frame order.
    static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }
}
