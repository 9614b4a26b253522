import VitrineAnimation
import VitrineConfig
import VitrineGraphics

/// One live scene: a fresh layer tree built from its definition, started once.
///
/// Time: the root's `beginTime` is set to the start time, so the root's local time — the scene
/// time — is 0 when the scene starts. Animation `beginTime`s are in their layer's time, which
/// is the scene time for every layer without timing of its own.
public final class SceneInstance {
    /// Seconds the bar takes to glide to a new `setProgress` value.
    public static let progressAnimationDuration = 0.4

    /// The definition it was built from.
    public let definition: SceneDefinition
    /// The root: canvas-sized, origin and anchor at (0, 0), position (0, 0).
    public let root: Layer

    private var layersByID: [String: Layer] = [:]
    private var built: [(definition: LayerDefinition, layer: Layer)] = []
    private var progressLayers: [ProgressLayer] = []
    private var participants: [SceneParticipant] = []
    /// The `messages` entry on show.
    private var shownMessage: Int?
    private var observers: [(engine: Engine, token: Int)] = []
    private var latestProgress = 0.0
    private var started = false

    /// Builds the layer tree of `definition` on `playlist`'s canvas.
    public init(_ definition: SceneDefinition, playlist: Playlist) throws {
        self.definition = definition
        root = Layer()
        root.name = definition.name
        root.anchorPoint = .zero
        root.bounds = Rect(origin: .zero, size: playlist.settings.canvas)
        root.backgroundColor = definition.background

        for layerDefinition in definition.layers {
            let layer = layerDefinition.type.makeLayer()
            layer.name = layerDefinition.id
            for (property, value) in layerDefinition.settings
            where !layer.setStoredValue(value, forKey: property.propertyKey) {
                throw SceneBuildError(
                    scene: definition.name, layer: layerDefinition.id, key: property.key,
                    message: "the value does not fit the property's type \(property.type.valueType)")
            }
            if let frame = layerDefinition.frame { layer.frame = frame }
            if !layerDefinition.hasExplicitBounds, let contents = layer.contents {
                layer.bounds = Rect(origin: .zero, size: contents.contentsSize)
            }
            if let id = layerDefinition.id { layersByID[id] = layer }
            if let bar = layer as? ProgressLayer {
                let glide = BasicAnimation()
                glide.duration = SceneInstance.progressAnimationDuration
                glide.timingFunction = .easeOut
                bar.actions["progress"] = glide
                progressLayers.append(bar)
            }
            if let participant = layer as? SceneParticipant { participants.append(participant) }
            built.append((layerDefinition, layer))
        }
        // The loader checked every reference; masks stay out of the tree.
        let masks = Set(definition.layers.compactMap(\.mask))
        for (layerDefinition, layer) in built where !(layerDefinition.id.map(masks.contains) ?? false) {
            let parent = layerDefinition.parent.flatMap { layersByID[$0] } ?? root
            parent.addSublayer(layer)
        }
        for (layerDefinition, layer) in built {
            if let id = layerDefinition.mask, let mask = layersByID[id] { layer.mask = mask }
        }
    }

    /// The layer with `id`, if the scene has one.
    public func layer(withID id: String) -> Layer? { layersByID[id] }

    /// Installs the scene's per-frame work (the pie's slice rebuild) on the engine running it.
    /// Call once, before `start(at:)`.
    public func attach(to engine: Engine) {
        for participant in participants {
            for token in participant.attachFrameObservers(to: engine) { observers.append((engine, token)) }
        }
        if !definition.messages.isEmpty {
            observers.append((engine, engine.addFrameObserver { [weak self] t in self?.showScheduledMessage(at: t) }))
        }
    }

    /// The engine time of the first `messages` entry due after engine time `t`; nil when none
    /// is left, none can show (no text layer "message") or the scene's time does not run
    /// forwards. A scene that only changes by its schedule draws nothing between entries, so the
    /// player sleeps then and must wake for the next one.
    public func nextScheduledMessageTime(after t: Double) -> Double? {
        guard root.speed > 0, layersByID["message"] is TextLayer else { return nil }
        let sceneTime = root.localTime(fromParentTime: t)
        guard let next = definition.messages.first(where: { $0.time > sceneTime }) else { return nil }
        return root.parentTime(fromLocalTime: next.time)
    }

    /// Shows the scene's latest `messages` entry due at engine time `t`. Its transition plays
    /// from the entry's own time, so a frame shows the same whatever frames came before (one
    /// long over is set without it).
    private func showScheduledMessage(at t: Double) {
        let sceneTime = root.localTime(fromParentTime: t)
        guard let index = definition.messages.lastIndex(where: { $0.time <= sceneTime }), index != shownMessage,
            let layer = layersByID["message"] as? TextLayer
        else { return }
        shownMessage = index
        let entry = definition.messages[index]
        let transition = layer.transition
        let over = transition.map { sceneTime - entry.time >= max($0.duration, 0) } ?? true
        Transaction.begin()
        Transaction.setDisableActions(over)
        layer.string = entry.text
        Transaction.commit()
        // Begun at the entry's time (in the layer's time: the scene's, as the root's child).
        if !over {
            // (0 would mean "when committed": the time just before it is the same instant.)
            let begin = layer.localTime(fromParentTime: entry.time)
            layer.animation(forKey: LayerTransition.animationKey)?.beginTime = begin == 0 ? (0.0).nextDown : begin
        }
    }

    /// Removes what `attach(to:)` installed and ends every animation of the tree (when the
    /// scene leaves the screen). An animation holds its delegate, as Core Animation's does:
    /// one whose delegate is a layer of the same tree (the pie, for its slices' growth) would
    /// keep that part of the tree alive for good if the scene left before it finished.
    /// Delegates hear `animationDidStop(_:finished: false)`.
    public func detach() {
        for (engine, token) in observers { engine.removeFrameObserver(token) }
        observers = []
        Self.endAnimations(in: root)
    }

    private static func endAnimations(in layer: Layer) {
        layer.removeAllAnimations()
        if let mask = layer.mask { endAnimations(in: mask) }
        for sublayer in layer.sublayers { endAnimations(in: sublayer) }
    }

    /// Starts the scene at `startTime`, a time of the root's parent (the engine's time when
    /// the root is the engine's root): the scene time is 0 then, and the configured animations
    /// are added. Only the first call has an effect.
    public func start(at startTime: Double) {
        guard !started else { return }
        started = true
        root.beginTime = startTime
        for (layerDefinition, layer) in built {
            for configured in layerDefinition.animations {
                let animation = configured.animation.copy()
                // The engine reads a begin time of exactly 0 as "when committed"; a configured 0
                // is the layer's time 0, so it becomes the nearest earlier time (the same in
                // every computation but that test).
                if animation.beginTime == 0 { animation.beginTime = (0.0).nextDown }
                layer.add(animation, forKey: configured.key)
            }
        }
        for participant in participants { participant.sceneDidStart() }
    }

    /// Live progress, 0…1 (clamped; non-finite values are ignored): every progress layer glides
    /// to it from what it shows now (an implicit action), once the scene has been on screen.
    public func setProgress(_ fraction: Double) {
        guard fraction.isFinite else { return }
        latestProgress = min(max(fraction, 0), 1)
        for bar in progressLayers { bar.progress = latestProgress }
    }

    /// Shows `text` in the text layer with id "message", if the scene has one.
    public func setMessage(_ text: String) {
        (layersByID["message"] as? TextLayer)?.string = text
    }

    /// Whether progress has reached 1 and every bar has finished gliding there (for
    /// `duration = "progress"`).
    public var progressComplete: Bool {
        latestProgress >= 1 && progressLayers.allSatisfy { $0.animation(forKey: "progress") == nil }
    }
}

/// A defined layer that could not be built (a registry type whose declared property refuses
/// the value its `PropertyType` reads: a programming error, reported rather than trapped).
public struct SceneBuildError: Error, CustomStringConvertible {
    public let scene: String
    public let layer: String?
    public let key: String
    public let message: String
    public var description: String {
        "scene '\(scene)' › layer '\(layer ?? "?")' › \(key): \(message)"
    }
}
