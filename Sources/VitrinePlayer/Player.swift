import VitrineAnimation
import VitrineConfig
import VitrineGraphics
import VitrineTOML

/// Something a frame of the player did that the world outside the screen hears about.
public enum PlayerEvent: Equatable, Sendable {
    /// A scene began (with its transition in, if any). `index` is its place in the playlist.
    case sceneStarted(index: Int, name: String)
    /// A scene could not be built (e.g. an image vanished since the playlist was checked); the
    /// player went on to the next one.
    case sceneFailed(name: String, error: String)
    /// A playlist that does not loop played its last scene to the end.
    case finished
}

/// The playlist state machine: which scene plays, since when, what comes next, and the
/// transitions between scenes, as a layer tree an `Engine` runs.
///
/// Everything happens at frame time: signals, progress input and reloads are requests that the
/// next `frameWillRender(at:)` carries out with that frame's timestamp, so the display link's
/// clock is the one source of truth and a virtual clock drives the player as exactly as a real
/// one. The tree:
///
///     stage (the screen; background colour shows in the letterbox bars)
///     └─ viewport (the canvas's letterboxed rectangle, clipping)
///        ├─ holder of the outgoing scene (during a transition)
///        └─ holder of the current scene (canvas-sized, scaled to the viewport)
///           └─ the scene's root
public final class Player {
    /// The root of the layer tree: the whole screen.
    public let stage = Layer()
    /// Runs the tree; each frame begins at the display link's timestamp for it.
    public let engine: Engine
    /// The playlist playing.
    public private(set) var playlist: Playlist
    /// The size of the screen the stage covers, in pixels.
    public private(set) var screenSize: Size
    /// Whether a playlist without `loop` has played to its end.
    public private(set) var isFinished = false

    /// How long a scene that waits for progress stays after its progress is complete (100 %,
    /// and the bar has finished gliding there), so the full bar is seen.
    public static let progressCompleteHold = 0.5
    /// A scene that ends less than this before the frame that notices starts its successor at
    /// its exact end time (so durations do not drift by a frame per scene); a later one (the
    /// process was stalled) starts it at the frame's time.
    public static let catchUpLimit = 0.25

    private let viewport = Layer()
    private let onlyScene: String?
    private let holdsScene: Bool
    private var order: [Int] = []
    private var current: ShownScene?
    private var outgoing: ShownScene?
    private var transitionEnd: Double?
    private var requests: [Request] = []
    private var progressState: [ProgressSourceSpec: ProgressState] = [:]
    /// Where the canvas sits on the upright picture before any pixel shift.
    private var canvasOrigin = Point.zero
    /// The pixel shift's step shown (nil: none yet, or none).
    private var shiftStep: Int?

    private enum Request {
        case next, previous, scene(named: String), restart, replace(Playlist)
        case progress(ProgressCommand, ProgressSourceSpec)
    }

    /// The last PROGRESS and MSG of a source, given to a scene when it starts.
    private struct ProgressState { var fraction: Double?; var message: String? }

    /// A scene on the stage.
    private final class ShownScene {
        let position: Int
        let instance: SceneInstance
        let holder = Layer()
        let canvas: Size
        let startTime: Double
        var progressCompletedAt: Double?

        init(position: Int, instance: SceneInstance, canvas: Size, startTime: Double) {
            self.position = position
            self.instance = instance
            self.canvas = canvas
            self.startTime = startTime
        }
    }

    /// A player for `playlist` on a screen of `screenSize` pixels; `onlyScene` plays just the
    /// scene of that name over and over (all scenes when nil or not in the playlist), and
    /// `holdsScene` keeps the first scene on stage past its duration (a still of any time of
    /// it, for `vitrine render`). Nothing is on the stage before the first `frameWillRender(at:)`.
    public init(playlist: Playlist, screenSize: Size, onlyScene: String? = nil, holdsScene: Bool = false) {
        self.playlist = playlist
        self.screenSize = screenSize
        self.onlyScene = onlyScene
        self.holdsScene = holdsScene
        engine = Engine(root: stage)
        stage.anchorPoint = .zero
        viewport.anchorPoint = .zero
        viewport.masksToBounds = true
        stage.addSublayer(viewport)
        adopt(playlist)
        layout(for: screenSize)
    }

    // MARK: - State

    /// The name of the scene playing (the incoming one during a transition), nil before the
    /// first frame.
    public var currentSceneName: String? { current?.instance.definition.name }
    /// The playlist index of the scene playing.
    public var currentSceneIndex: Int? { current.map { order[$0.position] } }
    /// The scene playing.
    public var currentScene: SceneInstance? { current?.instance }
    /// The scene leaving during a transition.
    public var outgoingScene: SceneInstance? { outgoing?.instance }
    /// When the scene playing started, in engine time.
    public var currentSceneStartTime: Double? { current?.startTime }
    /// Whether a transition is under way.
    public var isTransitioning: Bool { outgoing != nil }
    /// Whether a request waits for the next frame (the display link must not stay paused).
    public var hasPendingRequests: Bool { !requests.isEmpty || current == nil }
    /// The layer holding the scene playing (placed, scaled and animated by transitions).
    public var currentHolder: Layer? { current?.holder }
    /// The layer holding the scene leaving, during a transition.
    public var outgoingHolder: Layer? { outgoing?.holder }
    /// The canvas's rectangle on the screen.
    public var viewportFrame: Rect { viewport.frame }

    /// When a frame must run even if nothing animates: the end of the scene playing (or of its
    /// hold after progress completed), or of the transition, or its next scheduled message.
    /// Nil when only input can end it.
    public var nextDeadline: Double? {
        guard !holdsScene else { return nil }
        let nextShift = shiftStep.flatMap { step in playlist.settings.pixelShift.map { Double(step + 1) * $0.every } }
        guard !isFinished else { return nextShift }
        let nextMessage = current?.instance.nextScheduledMessageTime(after: engine.currentMediaTime)
        return [transitionEnd, current.flatMap(endTime), nextMessage, nextShift].compactMap { $0 }.min()
    }

    // MARK: - Requests (carried out by the next frame)

    /// Goes to the next scene with the transition (after the last: the first, even without
    /// `loop`: an operator's skip never ends the player).
    public func requestNextScene() { requests.append(.next) }
    /// Goes back to the previous scene with the transition (before the first: the last).
    public func requestPreviousScene() { requests.append(.previous) }
    /// Goes to the scene named `name` with the transition; false (and nothing happens) when
    /// the play order has no such scene.
    @discardableResult
    public func requestScene(named name: String) -> Bool {
        guard order.contains(where: { playlist.scenes[$0].name == name }) else { return false }
        requests.append(.scene(named: name))
        return true
    }
    /// The names of the scenes in play order.
    public var sceneNames: [String] { order.map { playlist.scenes[$0].name } }
    /// Starts the playlist again from its first scene, with the transition.
    public func requestRestart() { requests.append(.restart) }
    /// Switches to `playlist` (a reload) from its first scene, with its transition; the stage
    /// and the screen stay, so nothing flashes.
    public func requestReplace(with playlist: Playlist) { requests.append(.replace(playlist)) }
    /// Routes a PROGRESS or MSG line from `source` to the scenes that read it: the one playing
    /// now animates to it, and a scene reading that source later starts from it. QUIT is the
    /// caller's to act on and is ignored here.
    public func receive(_ command: ProgressCommand, from source: ProgressSourceSpec) {
        requests.append(.progress(command, source))
    }

    // MARK: - Layout

    /// Lays the stage out for a screen of `size` pixels: turned by the playlist's `rotation`
    /// (the stage is the upright picture, its transform turns it onto the screen, so frames and
    /// their damage come out turned), with the canvas placed in it by `fit`. A transition under
    /// way ends at once (its motion was laid out for the old size).
    public func layout(for size: Size) {
        screenSize = size
        let settings = playlist.settings
        let upright = settings.rotation % 180 == 0 ? size : Size(width: size.height, height: size.width)
        withoutActions {
            finishTransition()
            stage.bounds = Rect(x: 0, y: 0, width: upright.width, height: upright.height)
            stage.transform = Transform3D(Player.turn(settings.rotation))
            stage.position = Player.turnedOrigin(settings.rotation, screen: size)
            let box = Letterbox(canvas: settings.canvas, screen: upright, fit: settings.fit)
            viewport.bounds = Rect(x: 0, y: 0, width: box.frame.width, height: box.frame.height)
            canvasOrigin = box.frame.origin
            viewport.position = canvasOrigin
            shiftStep = nil
            applyPixelShift(at: engine.currentMediaTime)
            if let current { place(current) }
        }
    }

    /// Turns clockwise by `degrees` (a multiple of 90) on the screen, whose y axis points down.
    static func turn(_ degrees: Int) -> Transform2D {
        switch degrees {
        case 90: return Transform2D(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        case 180: return Transform2D(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
        case 270: return Transform2D(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0)
        default: return .identity
        }
    }

    /// Where the upright picture's top-left corner lands on a screen of `screen` when turned.
    static func turnedOrigin(_ degrees: Int, screen: Size) -> Point {
        switch degrees {
        case 90: return Point(x: screen.width, y: 0)
        case 180: return Point(x: screen.width, y: screen.height)
        case 270: return Point(x: 0, y: screen.height)
        default: return .zero
        }
    }

    /// Puts a scene's holder at rest in the viewport: its canvas fitted and centred.
    private func place(_ shown: ShownScene) {
        let fit = Letterbox(canvas: shown.canvas, screen: viewport.bounds.size, fit: .stretch)
        let holder = shown.holder
        holder.anchorPoint = .zero
        holder.bounds = Rect(x: 0, y: 0, width: shown.canvas.width, height: shown.canvas.height)
        holder.transform = Transform3D(Transform2D(scaleX: fit.scaleX, y: fit.scaleY))
        holder.position = fit.frame.origin
        holder.opacity = 1
    }

    // MARK: - Pixel shift

    /// The pixel shift's position at playlist time `t`: the step it has reached (nil when the
    /// playlist has none, or a still is being made).
    private func shiftStep(at t: Double) -> Int? {
        guard let shift = playlist.settings.pixelShift, !holdsScene, t.isFinite else { return nil }
        return Int(max(0, min(t / shift.every, 1e15)).rounded(.down))
    }

    /// The offset of step `step`: from the picture's place, a walk one pixel at a time along
    /// the rows of the square of `by` pixels around it (alternately left and right) to one
    /// corner, the whole square back to the other, and on, so every pixel near an edge of the
    /// picture spends as long on each side of it.
    static func shiftOffset(step: Int, by: Int) -> Point {
        let side = 2 * by + 1, cells = side * side
        let period = 2 * (cells - 1)
        let position = (step % period + cells / 2) % period
        let cell = position < cells ? position : period - position
        let row = cell / side, column = cell % side
        let x = row % 2 == 0 ? column : side - 1 - column
        return Point(x: Double(x - by), y: Double(row - by))
    }

    /// Moves the picture to the pixel shift's place for time `t`.
    private func applyPixelShift(at t: Double) {
        guard let step = shiftStep(at: t), let shift = playlist.settings.pixelShift else { return }
        guard step != shiftStep else { return }
        shiftStep = step
        let offset = Player.shiftOffset(step: step, by: shift.by)
        withoutActions { viewport.position = Point(x: canvasOrigin.x + offset.x, y: canvasOrigin.y + offset.y) }
    }

    /// Starts decoding the images the load left for later (`Playlist.pendingImages`), on a
    /// thread of their own: called once the first frame is on screen, so that a first scene
    /// that holds still (no frame after its first until it ends) does not leave them all to the
    /// next scene's start. `whenTried` runs (on that thread) once every one was tried: then
    /// `checkPendingImages()` says whether the player can go on. Does nothing when there are
    /// none.
    public func startDecodingImages(whenTried: (@Sendable () -> Void)? = nil) {
        playlist.pendingImages?.startDecoding(whenTried: whenTried)
    }

    /// Throws `PlayerError.imagesNotDecoded` once the images the load left for later were all
    /// tried and some did not decode; when all decoded, lets go of them (nothing to ask from
    /// then on). Every frame asks first; a session asks as soon as they were tried.
    public func checkPendingImages() throws {
        guard let outcome = playlist.pendingImages?.outcome else { return }
        if !outcome.isEmpty { throw PlayerError.imagesNotDecoded(outcome) }
        playlist.pendingImages = nil
    }

    // MARK: - Frames

    /// Brings the tree to the frame at engine time `t` (the display link's timestamp): starts
    /// the first scene, carries out the requests, ends a finished transition, and moves on from
    /// a scene whose time is up. Then render the engine's tick at `t`. Throws
    /// `PlayerError.noPlayableScene` when no scene of the playlist can be built, and
    /// `PlayerError.imagesNotDecoded` when an image the load left for later does not decode.
    @discardableResult
    public func frameWillRender(at t: Double) throws -> [PlayerEvent] {
        // The first scene's images are decoded; the others' decode once it is on screen
        // (`startDecodingImages`), and a later scene waits for them (`show`).
        try checkPendingImages()
        engine.beginFrame(at: t)
        applyPixelShift(at: t)
        var events: [PlayerEvent] = []
        if current == nil {
            try show(position: 0, at: t, transition: Transition.none, duration: 0, events: &events)
        }

        let pending = requests
        requests.removeAll()
        for request in pending {
            switch request {
            case .next:
                try show(position: (current!.position + 1) % order.count, at: t, events: &events)
            case .previous:
                try show(position: (current!.position + order.count - 1) % order.count, at: t, events: &events)
            case .scene(let name):
                // A reload since the request may have taken the scene away.
                guard let position = order.firstIndex(where: { playlist.scenes[$0].name == name }) else { continue }
                try show(position: position, at: t, events: &events)
            case .restart:
                try show(position: 0, at: t, events: &events)
            case .replace(let newPlaylist):
                withoutActions {
                    finishTransition()
                    adopt(newPlaylist)
                    layout(for: screenSize)
                }
                try show(position: 0, at: t, events: &events)
            case .progress(let command, let source):
                apply(command, from: source)
            }
        }

        if let end = transitionEnd, t >= end { withoutActions { finishTransition() } }

        if !isFinished, !holdsScene, let shown = current, let end = endTime(of: shown), t >= end {
            let next = shown.position + 1
            if next < order.count || playlist.settings.loop {
                let begin = t - end <= Player.catchUpLimit ? end : t
                try show(position: next % order.count, at: begin, events: &events)
                if let end = transitionEnd, t >= end { withoutActions { finishTransition() } }
            } else {
                isFinished = true
                events.append(.finished)
            }
        }
        return events
    }

    /// When the scene shown ends: its duration after its start, or the hold after its progress
    /// completed (noted the first time it is asked after completion).
    private func endTime(of shown: ShownScene) -> Double? {
        switch shown.instance.definition.duration {
        case .seconds(let seconds):
            return shown.startTime + seconds
        case .untilProgressComplete:
            guard shown.instance.progressComplete else { return nil }
            if shown.progressCompletedAt == nil { shown.progressCompletedAt = engine.currentMediaTime }
            return shown.progressCompletedAt! + Player.progressCompleteHold
        }
    }

    // MARK: - Scenes and transitions

    /// Shows the scene at `position` of the play order from time `start`, with the playlist's
    /// transition unless one is given. A scene that cannot be built is reported and the next
    /// one tried; when none can be, throws.
    private func show(
        position: Int, at start: Double, transition: Transition? = nil, duration: Double? = nil,
        events: inout [PlayerEvent]
    ) throws {
        var attempt = position
        var failures: [String] = []
        for _ in 0..<order.count {
            let definition = playlist.scenes[order[attempt]]
            do {
                try playlist.pendingImages?.waitForImages(ofScene: order[attempt])
            } catch let errors as TOMLFieldErrors {
                throw PlayerError.imagesNotDecoded(errors)
            }
            do {
                let instance = try SceneInstance(definition, playlist: playlist)
                let shown = ShownScene(
                    position: attempt, instance: instance, canvas: playlist.settings.canvas,
                    startTime: start)
                begin(
                    shown, at: start, transition: transition ?? playlist.settings.transition,
                    duration: duration ?? playlist.settings.transitionDuration)
                events.append(.sceneStarted(index: order[attempt], name: definition.name))
                return
            } catch {
                events.append(.sceneFailed(name: definition.name, error: "\(error)"))
                failures.append("\(error)")
                attempt = (attempt + 1) % order.count
            }
        }
        throw PlayerError.noPlayableScene(file: playlist.file, errors: failures)
    }

    /// Puts `incoming` on the stage at `start` and starts the transition from the scene shown.
    private func begin(_ incoming: ShownScene, at start: Double, transition: Transition, duration: Double) {
        withoutActions {
            // A transition still under way is cut short: its outgoing scene goes, its incoming
            // one comes to rest, and the new transition starts from there.
            finishTransition()
            incoming.instance.attach(to: engine)
            incoming.instance.start(at: start)
            if let spec = incoming.instance.definition.progressSource, let state = progressState[spec] {
                if let fraction = state.fraction { incoming.instance.setProgress(fraction) }
                if let message = state.message { incoming.instance.setMessage(message) }
            }
            incoming.holder.addSublayer(incoming.instance.root)
            place(incoming)
            viewport.addSublayer(incoming.holder)

            let leaving = current
            current = incoming
            // The transition ends when it would have from the scene's start, but its motion
            // begins at the frame that first shows it (the scene may have started a moment
            // before that frame): that frame shows the transition's beginning, where a fade's
            // incoming scene is not seen yet and is made ready to draw unseen
            // (`FrameUpdate.fadingIn`) instead of all at once in a frame that also draws it.
            let end = start + duration
            let motionBegin = max(start, engine.currentMediaTime)
            guard let leaving else { return }
            if transition == .none || end <= motionBegin {
                remove(leaving)
                return
            }
            SceneTransition(style: transition, duration: end - motionBegin, beginTime: motionBegin)
                .apply(
                    incoming: incoming.holder, outgoing: leaving.holder, width: viewport.bounds.width,
                    background: playlist.settings.background)
            outgoing = leaving
            transitionEnd = end
        }
    }

    /// Ends the transition under way at once: the outgoing scene leaves the stage and the
    /// incoming one is at rest.
    private func finishTransition() {
        guard let leaving = outgoing else { return }
        remove(leaving)
        if let holder = current?.holder { SceneTransition.end(incoming: holder) }
        outgoing = nil
        transitionEnd = nil
    }

    /// Takes a scene off the stage and off the engine.
    private func remove(_ shown: ShownScene) {
        shown.holder.removeFromSuperlayer()
        shown.instance.detach()
    }

    /// Takes `newPlaylist`'s settings and play order; progress remembered for the old one is
    /// forgotten.
    private func adopt(_ newPlaylist: Playlist) {
        playlist = newPlaylist
        let indices = Array(newPlaylist.scenes.indices)
        let chosen = onlyScene.map { name in indices.filter { newPlaylist.scenes[$0].name == name } } ?? []
        order = chosen.isEmpty ? indices : chosen
        progressState = [:]
        isFinished = false
        stage.backgroundColor = newPlaylist.settings.background
    }

    // MARK: - Progress

    private func apply(_ command: ProgressCommand, from source: ProgressSourceSpec) {
        var state = progressState[source] ?? ProgressState()
        let reads = current?.instance.definition.progressSource == source
        switch command {
        case .progress(let fraction):
            state.fraction = fraction
            // An implicit animation from the value shown now to the new one.
            if reads { current?.instance.setProgress(fraction) }
        case .message(let text):
            state.message = text
            if reads { current?.instance.setMessage(text) }
        case .quit:
            return
        }
        progressState[source] = state
    }

    private func withoutActions(_ body: () -> Void) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        body()
        Transaction.commit()
    }
}

/// Why a player cannot play.
public enum PlayerError: Error, CustomStringConvertible, Equatable {
    /// No scene of the playlist in `file` could be built; `errors` says why, scene by scene.
    case noPlayableScene(file: String, errors: [String])
    /// Images the load only checked, to decode them after the first frame, did not decode:
    /// the config is in error at the keys naming them.
    case imagesNotDecoded(TOMLFieldErrors)

    /// The scenes' own errors, one per line (they name their file, line and key), when there
    /// are any; else that no scene could be built.
    public var description: String {
        switch self {
        case .noPlayableScene(let file, let errors):
            return errors.isEmpty ? "\(file): no scene of the playlist could be built" : errors.joined(separator: "\n")
        case .imagesNotDecoded(let errors):
            return "\(errors)"
        }
    }
}
