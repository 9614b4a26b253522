import Logging
import VitrineAnimation
import VitrineConfig
import VitrineDisplay
import VitrineGraphics
import VitrineSystem

/// One run of the player on a presenter, in one thread: a `FrameLoop` polls the frame
/// deadlines, the presenter's events, the signalfd and the progress inputs together.
///
/// - Frames: the display link's target timestamp is the time of everything (`Player`, the
///   engine, the transitions). When nothing animates, no transition runs and no request waits,
///   the link pauses (a static scene costs no CPU) and a timer wakes it for the scene's end.
/// - systemd: `READY=1` once the first frame is on screen; `STATUS=` naming the scene after
///   each scene change is presented; `RELOADING=1` + `MONOTONIC_USEC` on SIGHUP, then `READY=1`
///   when the new playlist's first frame is on screen (or at once when the reload failed);
///   `WATCHDOG=1` from a loop timer at the interval systemd asks for, after a round trip to the
///   output (also while paused: a loop stuck in a frame or on a stalled X server stops sending
///   it); `STOPPING=1` on the way out.
/// - Signals (`SignalSource`): HUP reloads, USR1 skips to the next scene, USR2 restarts the
///   playlist, TERM and INT stop after the frame in progress.
/// - Progress inputs: one `ProgressSource` per distinct `progressSource` of the playlist;
///   PROGRESS and MSG go to the `Player`, QUIT stops, malformed lines are logged rate-limited.
public final class PlayerSession {
    /// Why `run()` returned.
    public enum Outcome: Equatable, Sendable {
        /// SIGTERM or SIGINT.
        case terminated
        /// A progress source sent QUIT.
        case quit
        /// A playlist without `loop` played to its end.
        case finished
        /// `stopAfterFrames` frames were presented.
        case frameLimitReached
        /// `stopAfterSeconds` passed.
        case durationElapsed
    }

    /// How a session runs.
    public struct Options {
        /// The config file SIGHUP re-reads.
        public var configFile: String
        /// Frames per second; nil takes the playlist's `fps` (and a reload's).
        public var framesPerSecond: Int?
        /// Stop after presenting this many frames.
        public var stopAfterFrames: Int?
        /// Stop this many seconds after the first frame.
        public var stopAfterSeconds: Double?
        /// Pause the display link while nothing changes (false: a frame at every deadline, e.g.
        /// for a headless run that writes a file per frame).
        public var pausesWhenIdle: Bool
        /// Build reloaded playlists on a thread of their own, so frames go on meanwhile (false:
        /// on the frame loop, between two frames, as a run on a virtual clock needs to stay
        /// exactly repeatable).
        public var buildsReloadsInBackground: Bool
        /// Where the control socket listens (`vitrine ctl`); nil: no control socket.
        public var controlSocketPath: String?
        /// The local calendar time, read once a minute for the playlist's `screenOn` hours.
        public var localTime: () -> LocalTime

        /// Options for playing `configFile`.
        public init(
            configFile: String, framesPerSecond: Int? = nil, stopAfterFrames: Int? = nil,
            stopAfterSeconds: Double? = nil, pausesWhenIdle: Bool = true, buildsReloadsInBackground: Bool = true,
            controlSocketPath: String? = nil, localTime: @escaping () -> LocalTime = LocalTime.now
        ) {
            self.controlSocketPath = controlSocketPath
            self.localTime = localTime
            self.configFile = configFile
            self.framesPerSecond = framesPerSecond
            self.stopAfterFrames = stopAfterFrames
            self.stopAfterSeconds = stopAfterSeconds
            self.pausesWhenIdle = pausesWhenIdle
            self.buildsReloadsInBackground = buildsReloadsInBackground
        }
    }

    /// The playlist state machine.
    public let player: Player
    /// Where frames go.
    public let presenter: Presenter
    /// The loop (and through it the display link and its clock).
    public let loop: FrameLoop
    /// Makes the frames: the player's stage drawn into the presenter's frame bitmap.
    public let frames: PlayerFrames
    /// Renders the player's stage into the frame bitmap (resized with the output).
    public var renderer: FrameRenderer { frames.renderer }
    /// Frames presented so far.
    public private(set) var framesPresented = 0

    let options: Options
    let notifier: SystemdNotifier?
    private let signals: SignalSource?
    let logger: Logger
    private let loadPlaylist: (String) throws -> Playlist
    var link: DisplayLink { loop.link }

    private var outcome: Outcome?
    /// What the last frame spent, for the note on a late frame that follows it: waiting for
    /// the display to finish reading the frame buffer, drawing, presenting (nanoseconds).
    private var lastFrameCost: (waiting: Int64, drawing: Int64, presenting: Int64)?
    /// The last few frames that came after missed deadlines, oldest first (`status` reports
    /// them: an operator, or `bench summary`, sees which scene stuttered and why).
    private(set) var lateFrames: [LateFrame] = []
    /// How many late frames `lateFrames` keeps.
    static let lateFramesKept = 8
    private var readyPending = true
    private var statusPending: String?
    private var wakeTimer: FrameLoop.TimerID?
    private var inputs: [ProgressSourceSpec: OpenInput] = [:]

    /// A progress source being read, and what the loop watches for it: its data, and for a
    /// FIFO its directory (a FIFO deleted while open is made again).
    private struct OpenInput {
        let source: ProgressSource
        var data: FrameLoop.SourceID
        var directory: FrameLoop.SourceID?
        /// What took the FIFO's path, as last reported (so it is said once).
        var replacement: String?
        var watches: [FrameLoop.SourceID] { [data] + (directory.map { [$0] } ?? []) }
    }
    private var malformedInput = RateLimiter(burst: 5, interval: 10)
    /// Builds reloaded playlists off the frame loop (nil: on it).
    private let builder: PlaylistBuilder?
    /// Turns readable when the images the start's load left for later were all tried, so
    /// that one that did not decode stops the player at once, not at the next frame (a first
    /// scene that holds still has none until it ends). Nil (no eventfd left): at that frame.
    private let imagesTried = try? WakeUpDescriptor()
    /// What ended the run early besides a frame's error: images that did not decode.
    private var failure: Error?
    private var reloadAgain = false

    /// The control socket, while running (nil: none asked for, or it could not listen).
    var control: ControlServer?
    /// Writes screenshots off the frame loop (nil, no eventfd left: on it).
    let screenshots = try? ScreenshotWriter<ControlServer.ClientID>()
    /// Control clients waiting for the reload under way to finish.
    var reloadReplies: [ControlServer.ClientID] = []
    /// Playlists played: 1, and one more for each reload that replaced the playlist.
    var configGeneration = 1
    /// The link's time when `run()` started.
    var startedAt = MonotonicInstant(nanoseconds: 0)
    /// Frames presented in the current whole second of the link's clock, and in the one before.
    var frameRate = (second: Int64(0), current: 0, previous: 0)
    /// When the playlist's time stopped (`pause`), as a link instant: the time of the frame
    /// on screen then. Nil while it runs.
    var pausedAt: MonotonicInstant?
    /// Link time spent paused before: the playlist's time is the link's less this.
    var pausedNanoseconds: Int64 = 0
    /// The target time of the frame on screen.
    var shownTime: MonotonicInstant?
    /// The hours the screen is on (the latest playlist's), nil: always.
    private var screenSchedule: ScreenSchedule?
    /// Whether a minute timer checks `screenSchedule`.
    private var checksScreenSchedule = false
    /// Outside the `screenOn` hours: the screen is blanked and no frame is drawn.
    private(set) var screenIsOff = false

    /// A session playing `player` on `presenter` through `loop`. `notifier` (nil: not under
    /// systemd) hears the service state; `signals` (nil: signals keep their default actions)
    /// delivers the operator's signals; `loadPlaylist` re-reads the config on SIGHUP.
    /// `drawingBitmap` is the presenter's `makeDrawingBitmap(size: presenter.size)` when the
    /// caller made it already (while the playlist loaded); nil: the session makes it.
    public init(
        player: Player, presenter: Presenter, loop: FrameLoop, options: Options,
        notifier: SystemdNotifier?, signals: SignalSource?, logger: Logger,
        loadPlaylist: @escaping (String) throws -> Playlist = PlaylistLoader.load(file:),
        drawingBitmap: Bitmap? = nil
    ) {
        self.player = player
        self.presenter = presenter
        self.loop = loop
        self.options = options
        self.notifier = notifier
        self.signals = signals
        self.logger = logger
        self.loadPlaylist = loadPlaylist
        // Without an eventfd (none left), reloads are built on the loop, between frames.
        builder = options.buildsReloadsInBackground ? try? PlaylistBuilder() : nil
        // Drawn straight into the presenter's frame buffer when it has one.
        frames = PlayerFrames(
            player: player, bitmap: drawingBitmap ?? presenter.makeDrawingBitmap(size: presenter.size))
    }

    // MARK: - Running

    /// `--fps` when given; else the playlist's `fps`, but never faster than the monitor refreshes
    /// when the X server reports its rate (RandR): frames it cannot show are wasted work.
    func framesPerSecond(for playlist: Playlist) -> Int {
        if let requested = options.framesPerSecond { return requested }
        guard let rate = presenter.refreshRate, rate.isFinite, rate >= 1 else { return playlist.settings.fps }
        return min(playlist.settings.fps, Int(rate.rounded()))
    }

    /// Plays until a signal, QUIT, the end of a playlist that does not loop, or a limit of the
    /// options; says STOPPING=1 before returning. Errors of the presenter or of building every
    /// scene end the run (thrown).
    public func run() throws -> Outcome {
        link.preferredFramesPerSecond = framesPerSecond(for: player.playlist)
        if let signals {
            loop.watch(signals.fileDescriptor) { [unowned self] in self.handle(signals.drain()) }
        }
        loop.watch(presenter) { [unowned self] events in self.handle(events) }
        if let builder { loop.watch(builder.fileDescriptor) { [unowned self] in self.takeBuiltPlaylist() } }
        if let imagesTried { loop.watch(imagesTried.fileDescriptor) { [unowned self] in self.checkImages() } }
        if let screenshots { loop.watch(screenshots.fileDescriptor) { [unowned self] in self.answerScreenshots() } }
        openInputs(for: player.playlist)
        if let interval = notifier?.watchdogInterval { scheduleWatchdog(every: interval) }
        startedAt = link.clock.now()
        openControlSocket()
        follow(player.playlist.settings.screenOn)
        if let seconds = options.stopAfterSeconds {
            loop.schedule(at: link.clock.now().advanced(byNanoseconds: Int64(seconds * 1e9))) { [unowned self] in
                self.stop(.durationElapsed)
            }
        }
        logger.info(
            "playing \(options.configFile): \(player.playlist.scenes.count) scene(s) on \(presenter.size) at \(link.preferredFramesPerSecond) fps"
        )

        defer {
            // A screenshot being written is finished, and its clients answered, before the end.
            finishScreenshots()
            control = nil
            notifier?.stopping()
            for (_, input) in inputs { input.watches.forEach(loop.unwatch) }
            inputs = [:]
        }
        try loop.run { [unowned self] frame in try self.render(frame) }
        if let failure { throw failure }
        logger.info("stopped after \(framesPresented) frames; \(link.missedFrameCount) frame deadlines missed")
        return outcome ?? .terminated
    }

    func stop(_ reason: Outcome) {
        if outcome == nil { outcome = reason }
        loop.stop()
    }

    /// One frame: the player's state at the frame's target time, rendered and presented; then
    /// what systemd should hear, and whether the link may sleep.
    private func render(_ frame: DisplayFrame) throws {
        if screenIsOff {
            // Nothing is drawn while the screen is off, and requests wait for it to come on;
            // the service is ready all the same (systemd waits for READY=1 at start and after
            // a reload).
            link.isPaused = true
            if readyPending {
                readyPending = false
                notifier?.ready()
                startDecodingImages()
            }
            return
        }
        if frame.missedDeadlines > 0 {
            let scene = player.currentSceneName ?? ""
            let cost = lastFrameCost.map {
                func ms(_ ns: Int64) -> String { String(cFormat: "%.2f", Double(ns) / 1e6) }
                return
                    "; the frame before waited \(ms($0.waiting)) ms for the display, drew in \(ms($0.drawing)) ms, presented in \(ms($0.presenting)) ms"
            }
            logger.debug(
                "\(frame.missedDeadlines) frame deadline(s) missed before this frame (scene '\(scene)'\(player.isTransitioning ? ", in a transition" : ""))\(cost ?? "")"
            )
            if lateFrames.count == Self.lateFramesKept { lateFrames.removeFirst() }
            lateFrames.append(
                LateFrame(
                    uptime: Double(link.clock.now().nanoseconds(since: startedAt)) / 1e9, scene: scene,
                    inTransition: player.isTransitioning, missedDeadlines: frame.missedDeadlines,
                    costBefore: lastFrameCost))
        }
        let started = MonotonicInstant.now()
        presenter.prepareFrameBitmap()
        let prepared = MonotonicInstant.now()
        let target = targetTime(of: frame)
        let (events, result) = try frames.makeFrame(at: playlistTime(at: target))
        let drawn = MonotonicInstant.now()
        for event in events { note(event) }
        try presenter.present(frames.bitmap, dirty: result.dirty)
        lastFrameCost = (
            prepared.nanoseconds(since: started), drawn.nanoseconds(since: prepared),
            MonotonicInstant.now().nanoseconds(since: drawn)
        )
        framesPresented += 1
        countFrame(at: target)
        shownTime = target

        if readyPending {
            try presenter.finishPresenting()
            readyPending = false
            notifier?.ready()
            startClockWithFirstFrameOnScreen()
            startDecodingImages()
        }
        if let status = statusPending {
            statusPending = nil
            notifier?.status(status)
        }
        if events.contains(.finished) {
            logger.info("the playlist has played to its end (loop = false)")
            stop(.finished)
        }
        if let limit = options.stopAfterFrames, framesPresented >= limit { stop(.frameLimitReached) }

        if pausedAt != nil, !player.hasPendingRequests {
            // The playlist's time stands still: no frame until a request or `resume`.
            link.isPaused = true
            frames.renderer.releaseUnused()
        } else if options.pausesWhenIdle, !result.isAnimating, !player.isTransitioning, !player.hasPendingRequests {
            sleepUntilNeeded(frameDuration: frame.duration)
            // The frame stays as it is until the next deadline: what the scenes before left
            // (an image's resampled copies, offscreen buffers) is let go now rather than held
            // through the pause.
            frames.renderer.releaseUnused()
        }
    }

    /// Once the first frame is on screen: the player decodes the images its load left for
    /// later, and the loop hears when they were all tried.
    private func startDecodingImages() {
        player.startDecodingImages(whenTried: { [imagesTried] in imagesTried?.post() })
    }

    /// The images left for later were all tried: one that did not decode ends the run with
    /// its config error, as the next frame would have.
    private func checkImages() {
        imagesTried?.drain()
        do { try player.checkPendingImages() } catch {
            failure = error
            loop.stop()
        }
    }

    /// What plays starts when its first frame is on screen: deadlines that passed while the
    /// output took that frame (the X server copying a whole 4K frame takes longer than one)
    /// hold the playlist's clock instead of counting as missed, so its second frame follows the
    /// first by one frame's time, as every later one does.
    private func startClockWithFirstFrameOnScreen() {
        let passed = link.passDeadlinesWithoutMissing()
        guard passed > 0, pausedAt == nil else { return }
        pausedNanoseconds += Int64(passed) * 1_000_000_000 / Int64(link.preferredFramesPerSecond)
    }

    /// The time the frame is drawn for: when the output says it will reach the screen
    /// (presentation feedback), else the display link's target; later than the frame before.
    private func targetTime(of frame: DisplayFrame) -> MonotonicInstant {
        let target = presenter.nextPresentationTime(after: link.clock.now()) ?? frame.targetTime
        guard let shown = shownTime, target <= shown else { return target }
        return max(frame.targetTime, shown.advanced(byNanoseconds: 1))
    }

    private func note(_ event: PlayerEvent) {
        switch event {
        case .sceneStarted(let index, let name):
            logger.info("scene '\(name)' (\(index + 1)/\(player.playlist.scenes.count))")
            statusPending = "playing '\(name)' (\(index + 1)/\(player.playlist.scenes.count))"
        case .sceneFailed(let name, let error):
            logger.error("scene '\(name)' could not be built, skipped: \(error)")
        case .finished:
            break
        }
    }

    // MARK: - Sleeping and waking

    /// Pauses the link, with a timer for the player's next deadline (one frame early, so the
    /// frame that answers it is the one due then).
    private func sleepUntilNeeded(frameDuration: Double) {
        link.isPaused = true
        if let id = wakeTimer { loop.cancel(id) }
        wakeTimer = nil
        guard let deadline = player.nextDeadline else { return }
        let due = MonotonicInstant(seconds: deadline - frameDuration).advanced(byNanoseconds: pausedNanoseconds)
        wakeTimer = loop.schedule(at: due) { [unowned self] in
            self.wakeTimer = nil
            self.link.isPaused = false
        }
    }

    /// Something changed outside the frame: the next deadline gets a frame.
    func wake() {
        link.isPaused = false
    }

    /// Pings systemd's watchdog every `interval`, after a round trip to the output: a loop
    /// stuck in a frame never gets here, and a stalled X server (even behind a paused link)
    /// blocks the round trip, so the pings stop and systemd restarts the player.
    private func scheduleWatchdog(every interval: Double) {
        loop.schedule(at: link.clock.now().advanced(byNanoseconds: Int64(interval * 1e9))) { [unowned self] in
            try self.presenter.finishPresenting()
            self.notifier?.watchdog()
            self.scheduleWatchdog(every: interval)
        }
    }

    // MARK: - Screen hours

    /// Follows `schedule` from now on: the screen goes off or on as it says at once, then at
    /// each minute of the local clock (so a changed time zone or clock is followed too).
    private func follow(_ schedule: ScreenSchedule?) {
        screenSchedule = schedule
        applyScreenSchedule()
        if schedule != nil && !checksScreenSchedule {
            checksScreenSchedule = true
            scheduleScreenCheck()
        }
    }

    private func scheduleScreenCheck() {
        let second = min(options.localTime().second, 59)
        let nextMinute = link.clock.now().advanced(byNanoseconds: Int64(60 - second) * 1_000_000_000 + 50_000_000)
        loop.schedule(at: nextMinute) { [unowned self] in
            self.applyScreenSchedule()
            if self.screenSchedule == nil {
                self.checksScreenSchedule = false
            } else {
                self.scheduleScreenCheck()
            }
        }
    }

    private func applyScreenSchedule() {
        let on = screenSchedule.map { $0.isOn(at: options.localTime()) } ?? true
        guard on == screenIsOff else { return }
        if on {
            screenIsOff = false
            _ = presenter.setScreenPowered(true)
            frames.renderer.setNeedsFullFrame()
            logger.info("screen on: inside the screenOn hours")
            if let name = player.currentSceneName, let index = player.currentSceneIndex {
                statusPending = "playing '\(name)' (\(index + 1)/\(player.playlist.scenes.count))"
            }
            wake()
        } else {
            screenIsOff = true
            logger.info("screen off: outside the screenOn hours")
            notifier?.status("screen off (outside the screenOn hours)")
            if let id = wakeTimer { loop.cancel(id) }
            wakeTimer = nil
            link.isPaused = true
            if !presenter.setScreenPowered(false) {
                // No power control: black, presented once.
                presenter.prepareFrameBitmap()
                frames.bitmap.fill(0xFF00_0000)
                try? presenter.present(frames.bitmap)
            }
            // The screen shows what it should: ready, even before a first frame.
            if readyPending {
                readyPending = false
                notifier?.ready()
            }
        }
    }

    // MARK: - Presenter events

    private func handle(_ events: [PresenterEvent]) {
        for event in events {
            guard case .resized(let size) = event else { continue }
            logger.info("output resized to \(size)")
            frames.use(presenter.makeDrawingBitmap(size: size))
            wake()
        }
    }

    // MARK: - Signals

    /// Acts on signals the signal source delivered (internal: tests deliver them on a
    /// virtual clock).
    func handle(_ received: [PlayerSignal]) {
        for signal in received {
            switch signal {
            case .reload:
                reload(asked: "SIGHUP")
            case .nextScene:
                logger.info("SIGUSR1: next scene")
                player.requestNextScene()
            case .restartPlaylist:
                logger.info("SIGUSR2: restarting the playlist")
                player.requestRestart()
            case .terminate:
                logger.info("stopping on a signal")
                stop(.terminated)
                return
            }
        }
        wake()
    }

    /// SIGHUP or `vitrine ctl reload`: validates the config again; a valid one replaces the
    /// playlist (READY=1 follows its first frame), an invalid one is reported line by line and
    /// the old one plays on.
    func reload(asked by: String) {
        notifier?.reloading()
        logger.info("\(by): reloading \(options.configFile)")
        guard let builder else {
            finishReload(Result { try PlaylistBuilder.build(options.configFile, with: loadPlaylist) })
            return
        }
        // A SIGHUP while a build runs is answered by one more build after it: the file may
        // have changed since the running one read it.
        if builder.isBuilding {
            reloadAgain = true
        } else {
            builder.start(options.configFile, with: loadPlaylist)
        }
    }

    /// The background build finished: its playlist replaces the playing one between frames.
    private func takeBuiltPlaylist() {
        guard let builder, let result = builder.takeResult() else { return }
        if reloadAgain {
            reloadAgain = false
            builder.start(options.configFile, with: loadPlaylist)
            return
        }
        finishReload(result)
        wake()
    }

    /// A valid playlist replaces the playing one (READY=1 follows its first frame); an invalid
    /// one is reported line by line and the old one plays on.
    private func finishReload(_ result: Result<Playlist, Error>) {
        let playlist: Playlist
        switch result {
        case .success(let built):
            playlist = built
        case .failure(let error):
            let lines = "\(error)".split(separator: "\n")
            logger.error("reload failed with \(lines.count) error(s); still playing the previous playlist")
            for line in lines { logger.error("\(line)") }
            let more = lines.count > 1 ? " (and \(lines.count - 1) more)" : ""
            let first = lines.first.map { String($0.prefix(200)) } ?? ""
            notifier?.status("reload of \(options.configFile) failed: \(first)\(more); playing the previous playlist")
            notifier?.ready()
            answerReloadRequests(errors: lines.map(String.init))
            return
        }
        player.requestReplace(with: playlist)
        follow(playlist.settings.screenOn)
        configGeneration += 1
        answerReloadRequests(errors: [])
        if options.framesPerSecond == nil { link.preferredFramesPerSecond = framesPerSecond(for: playlist) }
        openInputs(for: playlist)
        readyPending = true
        logger.info("reloaded: \(playlist.scenes.count) scene(s)")
    }

    // MARK: - Progress inputs

    /// Opens the progress sources `playlist` reads (keeping those already open, so a FIFO
    /// survives a reload) and closes the others.
    private func openInputs(for playlist: Playlist) {
        var wanted: [ProgressSourceSpec] = []
        for scene in playlist.scenes {
            if let spec = scene.progressSource, !wanted.contains(spec) { wanted.append(spec) }
        }
        for (spec, input) in inputs where !wanted.contains(spec) {
            input.watches.forEach(loop.unwatch)
            inputs[spec] = nil
        }
        for spec in wanted where inputs[spec] == nil {
            do {
                let source = try ProgressSource(spec)
                let data = loop.watch(source.fileDescriptor) { [unowned self] in self.read(source) }
                let directory = source.directoryWatch.map { fd in
                    loop.watch(fd) { [unowned self] in self.checkFIFO(of: source) }
                }
                inputs[spec] = OpenInput(source: source, data: data, directory: directory)
            } catch {
                logger.error("progress input \(spec) cannot be opened: \(error)")
            }
        }
    }

    /// Its FIFO's directory changed: a FIFO deleted or replaced is read again from a new one;
    /// something else in its place is reported (once per change).
    private func checkFIFO(of source: ProgressSource) {
        guard var input = inputs[source.spec], input.source === source else { return }
        do {
            switch try source.checkFIFO() {
            case .unchanged:
                input.replacement = nil
                inputs[source.spec] = input
            case .reopened:
                input.replacement = nil
                loop.unwatch(input.data)
                input.data = loop.watch(source.fileDescriptor) { [unowned self] in self.read(source) }
                inputs[source.spec] = input
                logger.warning("progress input \(source.spec) was deleted or replaced; reading a FIFO there again")
            case .replaced(let kind):
                guard input.replacement != kind else { return }
                input.replacement = kind
                inputs[source.spec] = input
                logger.error(
                    "progress input \(source.spec) is now \(kind), not a FIFO: lines written there are not read until a FIFO is back"
                )
            }
        } catch {
            logger.error("progress input \(source.spec) was deleted and cannot be made again: \(error)")
        }
    }

    private func read(_ source: ProgressSource) {
        for result in source.read() {
            switch result {
            case .success(.quit):
                logger.info("QUIT from \(source.spec)")
                stop(.quit)
                return
            case .success(let command):
                player.receive(command, from: source.spec)
                wake()
            case .failure(let error):
                guard malformedInput.allow(at: link.clock.now().seconds) else { continue }
                let dropped = malformedInput.suppressed
                malformedInput.resetSuppressed()
                logger.warning(
                    "ignored a line of \(source.spec): \(error)\(dropped > 0 ? " (\(dropped) more suppressed)" : "")")
            }
        }
    }
}

/// A frame shown after one or more missed deadlines, as `status` reports it.
struct LateFrame {
    /// Seconds since the session started.
    var uptime: Double
    var scene: String
    var inTransition: Bool
    var missedDeadlines: Int
    /// What the frame before it spent (nanoseconds): waiting for the display to finish reading
    /// the frame buffer, drawing, presenting; nil when it is the first frame.
    var costBefore: (waiting: Int64, drawing: Int64, presenting: Int64)?

    /// The JSON object of `status`'s `lateFrames` (times in milliseconds, to a hundredth).
    var json: [String: Any] {
        func ms(_ ns: Int64) -> Double { (Double(ns) / 1e4).rounded() / 100 }
        var object: [String: Any] = [
            "uptime": (uptime * 1000).rounded() / 1000, "scene": scene, "inTransition": inTransition,
            "missedDeadlines": missedDeadlines
        ]
        if let cost = costBefore {
            object["frameBefore"] = [
                "waitingMs": ms(cost.waiting), "drawingMs": ms(cost.drawing), "presentingMs": ms(cost.presenting)
            ]
        }
        return object
    }
}

extension ProgressSourceSpec: CustomStringConvertible {
    public var description: String {
        switch self {
        case .fifo(let path): return "fifo:\(path)"
        case .file(let path): return "file:\(path)"
        }
    }
}
