import Glibc
import VitrineConfig
import VitrineDisplay
import VitrineGraphics
import VitrineSystem

/// The control socket's requests, carried out on the frame loop between frames: the same
/// requests as the signals and the progress inputs, and pausing, status and screenshots.
extension PlayerSession {
    /// Listens on `options.controlSocketPath`; a socket that cannot be made is logged and the
    /// player plays on without it.
    func openControlSocket() {
        guard let path = options.controlSocketPath else { return }
        do {
            control = try ControlServer(path: path, loop: loop, logger: logger) { [unowned self] client, request in
                self.answer(request, from: client)
            }
            logger.info("control socket at \(path)")
        } catch {
            logger.error("no control socket: \(error)")
        }
    }

    /// The playlist's time at link instant `instant`: the link's time less the time spent
    /// paused; while paused, the moment it paused.
    func playlistTime(at instant: MonotonicInstant) -> Double {
        let running = pausedAt.map { min($0, instant) } ?? instant
        return running.advanced(byNanoseconds: -pausedNanoseconds).seconds
    }

    /// Counts a presented frame in its second of the link's clock, for the achieved rate.
    func countFrame(at instant: MonotonicInstant) {
        let second = instant.nanoseconds / 1_000_000_000
        if second != frameRate.second {
            frameRate = (second, 0, second == frameRate.second + 1 ? frameRate.current : 0)
        }
        frameRate.current += 1
    }

    private func answer(_ parsed: Result<ControlRequest, ControlRequestError>, from client: ControlServer.ClientID) {
        let request: ControlRequest
        switch parsed {
        case .success(let value): request = value
        case .failure(let error): return respond(client, ["ok": false, "error": error.description])
        }
        logger.info("control: \(request.line)")
        var reply: [String: Any] = ["ok": true]
        switch request {
        case .status:
            reply.merge(status()) { $1 }
        case .next:
            player.requestNextScene()
        case .previous:
            player.requestPreviousScene()
        case .goto(let name):
            guard player.requestScene(named: name) else {
                let names = player.sceneNames.joined(separator: ", ")
                return respond(client, ["ok": false, "error": "no scene named '\(name)' (scenes: \(names))"])
            }
        case .restart:
            player.requestRestart()
        case .reload:
            // Answered when the build has finished (`answerReloadRequests`).
            reloadReplies.append(client)
            reload(asked: "control socket")
            return
        case .progress(let percent):
            guard send(.progress(percent / 100)) else { return refuseProgress(client) }
        case .message(let text):
            guard send(.message(text)) else { return refuseProgress(client) }
        case .pause:
            if pausedAt == nil {
                pausedAt = shownTime ?? link.clock.now()
                notifier?.status("paused")
            }
        case .resume:
            if let since = pausedAt {
                pausedNanoseconds += max(0, link.clock.now().nanoseconds(since: since))
                pausedAt = nil
                notifier?.status("playing '\(player.currentSceneName ?? "")'")
            }
        case .screenshot(let path):
            if let screenshots {
                // Answered when the file is written (`answerScreenshots`), off the frame loop.
                screenshots.request(path, from: client, frame: frames.bitmap)
                return
            }
            do {
                try frames.bitmap.writePNG(to: path, fast: true)
                reply["path"] = path
            } catch {
                return respond(client, ["ok": false, "error": "\(error)"])
            }
        }
        control?.reply(client, reply)
        wake()
    }

    /// Answers the clients whose screenshots were written (or could not be), once the writer
    /// says so; the requests that waited meanwhile go on with a copy of the frame now on screen.
    func answerScreenshots() {
        guard let done = screenshots?.takeFinished(frame: frames.bitmap) else { return }
        replyTo(done)
    }

    /// At the end of the run: the screenshot being written is finished and answered; those
    /// waiting for the next copy are refused.
    func finishScreenshots() {
        guard let screenshots else { return }
        screenshots.waitUntilWritten()
        if let done = screenshots.takeFinished(frame: nil) { replyTo(done) }
        for request in screenshots.dropWaiting() {
            respond(request.client, ["ok": false, "error": "the player stopped before the screenshot was taken"])
        }
    }

    private func replyTo(_ screenshots: [(ScreenshotWriter<ControlServer.ClientID>.Request, Error?)]) {
        for (request, error) in screenshots {
            if let error {
                respond(request.client, ["ok": false, "error": "\(error)"])
            } else {
                respond(request.client, ["ok": true, "path": request.path])
            }
        }
    }

    private func respond(_ client: ControlServer.ClientID, _ reply: [String: Any]) {
        control?.reply(client, reply)
    }

    /// Gives a progress command to every progress source of the playlist, as if each had
    /// sent the line; false when no scene reads progress.
    private func send(_ command: ProgressCommand) -> Bool {
        var sources: [ProgressSourceSpec] = []
        for scene in player.playlist.scenes {
            if let spec = scene.progressSource, !sources.contains(spec) { sources.append(spec) }
        }
        for spec in sources { player.receive(command, from: spec) }
        return !sources.isEmpty
    }

    private func refuseProgress(_ client: ControlServer.ClientID) {
        control?.reply(client, ["ok": false, "error": "no scene of the playlist reads progress (progressSource)"])
    }

    /// Answers the control clients waiting for a reload: `errors` empty when the new playlist
    /// was taken, else why it was refused (the old one plays on).
    func answerReloadRequests(errors: [String]) {
        let waiting = reloadReplies
        reloadReplies = []
        for client in waiting {
            if errors.isEmpty {
                control?.reply(client, ["ok": true, "generation": configGeneration])
            } else {
                control?.reply(
                    client,
                    [
                        "ok": false, "error": "the config was refused; still playing the previous playlist",
                        "errors": errors
                    ])
            }
        }
    }

    /// What `status` reports.
    private func status() -> [String: Any] {
        let now = link.clock.now()
        let second = now.nanoseconds / 1_000_000_000
        // The last whole second's frames, if that second has just ended.
        let achieved =
            frameRate.second == second ? frameRate.previous : frameRate.second == second - 1 ? frameRate.current : 0
        var status: [String: Any] = [
            "playlist": options.configFile,
            "generation": configGeneration,
            "state": pausedAt != nil ? "paused" : "playing",
            "screen": screenIsOff ? "off" : "on",
            "framesPerSecond": achieved,
            "preferredFramesPerSecond": link.preferredFramesPerSecond,
            "framesPresented": framesPresented,
            "framesSkipped": link.missedFrameCount,
            "lateFrames": lateFrames.map { $0.json as Any },
            "presenter": presenter.backendName,
            "screenSize": "\(presenter.size.width)x\(presenter.size.height)",
            "uptime": Double(now.nanoseconds(since: startedAt) / 1_000_000) / 1000
        ]
        if let name = player.currentSceneName, let index = player.currentSceneIndex {
            status["scene"] = name
            status["sceneIndex"] = index + 1
            status["sceneCount"] = player.playlist.scenes.count
            if let start = player.currentSceneStartTime {
                let time = playlistTime(at: now) - start
                status["sceneTime"] = (max(0, time) * 1000).rounded() / 1000
            }
        }
        if let bytes = ResidentMemory.currentBytes() { status["residentBytes"] = bytes }
        return status
    }
}
