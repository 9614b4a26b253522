import VitrineGraphics

/// What one frame produced: the presentation tree and what changed since the previous frame.
public struct FrameUpdate {
    /// The scene time of the frame.
    public let time: Double
    /// The root of the presentation tree (copies with every animation applied).
    public let presentation: Layer
    /// Model layers whose presentation differs from the previous frame (new layers included),
    /// in tree order.
    public let changedLayers: [Layer]
    /// Model layers whose contents must be redrawn: first shown, `setNeedsDisplay()` called, a
    /// key named by `needsDisplay(forKey:)` changed, or the bounds size changed with
    /// `needsDisplayOnBoundsChange`. A finished animation held by its fill mode causes none.
    public let redrawLayers: [Layer]
    /// Areas of the root's coordinate space to repaint: old ∪ new extent of every changed
    /// layer (merged where they overlap).
    public let dirtyRects: [Rect]
    /// Whether some animation will still change what is shown as time passes (false when all
    /// are finished, held or paused: the display link may sleep).
    public let isAnimating: Bool
}

/// Runs a layer tree in time: commits transactions, evaluates presentation copies, notifies
/// animation delegates and tracks damage between frames. Drive it with `tick()` once per
/// display frame; the clock is injected.
public final class Engine {
    /// The root of the model tree. Its parent time is the scene time.
    public let root: Layer
    /// The source of the current time.
    public let clock: MediaClock

    private var observers: [(id: Int, body: (Double) -> Void)] = []
    private var nextObserverID = 0
    private var previous: [ObjectIdentifier: LayerRecord] = [:]
    private var redrawKeysByClass: [ObjectIdentifier: [Int]] = [:]

    /// An engine for the tree under `root`, reading time from `clock`.
    public init(root: Layer, clock: MediaClock) {
        self.root = root
        self.clock = clock
        root.attachedEngine = self
    }

    /// The current time (CACurrentMediaTime): use it for `beginTime = currentMediaTime + delay`.
    public var currentMediaTime: Double { clock.now }

    /// Calls `body` with the frame's time once per frame, after the tree has been evaluated and
    /// before it is finalised (a display link: read `presentation()` values, change the model
    /// with actions disabled). Returns a token for `removeFrameObserver`.
    @discardableResult
    public func addFrameObserver(_ body: @escaping (Double) -> Void) -> Int {
        nextObserverID += 1
        observers.append((nextObserverID, body))
        return nextObserverID
    }

    /// Stops calling the observer registered with `token`.
    public func removeFrameObserver(_ token: Int) { observers.removeAll { $0.id == token } }

    /// Produces the frame at the clock's current time.
    @discardableResult
    public func tick() -> FrameUpdate { tick(at: clock.now) }

    /// Produces the frame at scene time `t`: commits the implicit transaction (new animations
    /// get their begin time), evaluates the presentation tree, runs frame observers (and
    /// re-evaluates if they changed the model), sends animationDidStart/animationDidStop,
    /// removes finished animations and reports what changed.
    @discardableResult
    public func tick(at t: Double) -> FrameUpdate {
        commit(at: t)
        var presentation = presentationTree(at: t)
        storePresentations(presentation)
        if !observers.isEmpty {
            let generation = Layer.modelGeneration
            for observer in observers { observer.body(t) }
            if Layer.modelGeneration != generation {
                commit(at: t)
                presentation = presentationTree(at: t)
                storePresentations(presentation)
            }
        }
        let isAnimating = deliverAnimationEvents(at: t)
        return diff(presentation, at: t, isAnimating: isAnimating)
    }

    /// The presentation tree at scene time `t`: a pure function of the model tree and `t`
    /// (no callbacks, nothing removed). Animations not yet committed by a frame are not included.
    public func presentationTree(at t: Double) -> Layer {
        Engine.presentation(of: root, parentTime: t)
    }

    static func presentation(of model: Layer, parentTime: Double) -> Layer {
        let copy = type(of: model).init(layer: model)
        copy.isPresentationCopy = true
        copy.modelLayer = model
        let local = model.localTime(fromParentTime: parentTime)
        for entry in model.animationEntries where entry.animation.runtime.isCommitted {
            entry.animation.apply(to: copy, atParentTime: local, removedAtEnd: entry.animation.isRemovedOnCompletion)
        }
        copy.sublayerStorage = model.sublayerStorage.map { child in
            let c = presentation(of: child, parentTime: local)
            c.superlayer = copy
            return c
        }
        if let mask = model.mask {
            copy.mask = presentation(of: mask, parentTime: local)
        }
        return copy
    }

    // MARK: Commit

    /// Commits the implicit transaction; marks every layer rendered and resolves the begin time
    /// of animations added since the last frame: a begin time of 0 becomes the layer's time at
    /// the moment the animation was added (read from the engine's clock).
    private func commit(at t: Double) {
        Transaction.flush()
        visit(root, parentTime: t) { layer, local in
            layer.hasBeenCommitted = true
            for entry in layer.animationEntries where !entry.animation.runtime.isCommitted {
                let a = entry.animation
                if a.beginTime == 0 {
                    // "Now" is when it was added, if the clock was known then, else this frame.
                    a.beginTime = a.runtime.addedAt.map { layer.localTime(fromSceneTime: $0) } ?? local
                }
                a.runtime.isCommitted = true
            }
        }
    }

    /// Calls `body` for every layer of the model tree (masks included) with its local time.
    private func visit(_ layer: Layer, parentTime: Double, _ body: (Layer, Double) -> Void) {
        let local = layer.localTime(fromParentTime: parentTime)
        body(layer, local)
        for child in layer.sublayerStorage { visit(child, parentTime: local, body) }
        if let mask = layer.mask { visit(mask, parentTime: local, body) }
    }

    private func storePresentations(_ presentation: Layer) {
        walk(presentation) { copy in copy.modelLayer?.lastPresentation = copy }
    }

    private func walk(_ layer: Layer, _ body: (Layer) -> Void) {
        body(layer)
        for child in layer.sublayerStorage { walk(child, body) }
        if let mask = layer.mask { walk(mask, body) }
    }

    // MARK: Animation events

    /// Sends start/stop notifications, removes finished animations, runs the completions of
    /// transactions they ended. Returns whether any animation is still moving.
    private func deliverAnimationEvents(at t: Double) -> Bool {
        enum Event { case start(Animation), stop(Animation) }
        var events: [Event] = []
        var moving = false
        func scan(_ layer: Layer, parentTime: Double, rate: Double) {
            let local = layer.localTime(fromParentTime: parentTime)
            let layerRate = rate * layer.speed
            var kept: [(key: String?, animation: Animation)] = []
            for entry in layer.animationEntries {
                let a = entry.animation, r = a.runtime
                guard r.isCommitted else { kept.append(entry); continue }
                let s = a.sample(atParentTime: local, removedAtEnd: false)
                if !r.didStart && s.phase != .before { r.didStart = true; events.append(.start(a)) }
                if s.phase == .after {
                    if !r.didStop { r.didStop = true; events.append(.stop(a)) }
                    if a.isRemovedOnCompletion { continue }
                } else if layerRate * a.speed != 0 {
                    moving = true
                }
                kept.append(entry)
            }
            if kept.count != layer.animationEntries.count { layer.animationEntries = kept }
            for child in layer.sublayerStorage { scan(child, parentTime: local, rate: layerRate) }
            if let mask = layer.mask { scan(mask, parentTime: local, rate: layerRate) }
        }
        scan(root, parentTime: t, rate: 1)
        for event in events {
            switch event {
            case .start(let a): a.delegate?.animationDidStart(a)
            case .stop(let a):
                a.delegate?.animationDidStop(a, finished: true)
                a.runtime.releaseCompletionGroups()
            }
        }
        return moving
    }

    // MARK: Damage

    /// What a frame showed of one layer, to compare with the next frame.
    private struct LayerRecord {
        let presentation: Layer
        let toRoot: AffineTransform
        let opacity: Double
        let clip: Rect?
        let visible: Bool
        let extent: Rect
        var subtreeExtent: Rect
        let children: [ObjectIdentifier]
        let maskOwner: ObjectIdentifier?
    }

    private func diff(_ presentation: Layer, at t: Double, isAnimating: Bool) -> FrameUpdate {
        var records: [ObjectIdentifier: LayerRecord] = [:]
        var order: [Layer] = []
        @discardableResult
        func record(_ p: Layer, toRoot parent: AffineTransform, opacity parentOpacity: Double, clip parentClip: Rect?,
                    visible parentVisible: Bool, maskOwner: ObjectIdentifier?) -> Rect {
            guard let model = p.modelLayer else { return .null }
            let toRoot = p.transformToSuperlayer.concatenating(parent)
            let opacity = parentOpacity * p.opacity
            let visible = parentVisible && !p.isHidden && opacity > 0 && maskOwner == nil
            var extent = visible ? toRoot.apply(to: p.visualExtent()) : .null
            if let parentClip { extent = extent.intersection(parentClip) }
            var clip = parentClip
            if p.masksToBounds {
                let own = toRoot.apply(to: p.bounds)
                clip = clip.map { $0.intersection(own) } ?? own
            }
            let id = ObjectIdentifier(model)
            order.append(model)
            var subtree = extent
            for child in p.sublayerStorage {
                subtree = subtree.union(record(child, toRoot: toRoot, opacity: opacity, clip: clip,
                                               visible: visible, maskOwner: maskOwner))
            }
            if let mask = p.mask {
                record(mask, toRoot: toRoot, opacity: 1, clip: nil, visible: visible, maskOwner: id)
            }
            records[id] = LayerRecord(presentation: p, toRoot: toRoot, opacity: opacity, clip: clip, visible: visible,
                                      extent: extent, subtreeExtent: subtree,
                                      children: p.sublayerStorage.compactMap { $0.modelLayer.map(ObjectIdentifier.init) },
                                      maskOwner: maskOwner)
            return subtree
        }
        record(presentation, toRoot: .identity, opacity: 1, clip: nil, visible: true, maskOwner: nil)

        var changed: [Layer] = [], redraw: [Layer] = []
        var dirty: [Rect] = []
        func addDirty(_ r: Rect) { if !r.isNull && !r.isEmpty { dirty.append(r) } }
        for model in order {
            let id = ObjectIdentifier(model)
            guard let now = records[id] else { continue }
            let before = previous[id]
            let needsRedraw = needsRedraw(model, now.presentation, before?.presentation)
            if needsRedraw { redraw.append(model); model.needsDisplayFlag = false }
            let isChanged: Bool
            if let before {
                isChanged = needsRedraw || !Engine.sameSlots(before.presentation, now.presentation)
                    || before.toRoot != now.toRoot || before.opacity != now.opacity || before.clip != now.clip
                    || before.visible != now.visible || before.children != now.children
            } else {
                isChanged = true
            }
            guard isChanged else { continue }
            changed.append(model)
            if let owner = now.maskOwner {
                addDirty(records[owner]?.subtreeExtent ?? .null)
                addDirty(previous[owner]?.subtreeExtent ?? .null)
            } else {
                addDirty(now.extent); addDirty(before?.extent ?? .null)
                if let before, before.children != now.children {
                    addDirty(now.subtreeExtent); addDirty(before.subtreeExtent)
                }
            }
        }
        for (id, old) in previous where records[id] == nil { addDirty(old.subtreeExtent) }
        previous = records
        return FrameUpdate(time: t, presentation: presentation, changedLayers: changed, redrawLayers: redraw,
                           dirtyRects: Engine.merge(dirty), isAnimating: isAnimating)
    }

    /// Whether a layer's contents must be redrawn this frame.
    private func needsRedraw(_ model: Layer, _ now: Layer, _ before: Layer?) -> Bool {
        guard let before, before.slotLayout === now.slotLayout else { return true }
        if model.needsDisplayFlag { return true }
        if model.needsDisplayOnBoundsChange && before.bounds.size != now.bounds.size { return true }
        for i in redrawKeys(of: now) where !now.slots[i].hasSameValue(asSameType: before.slots[i]) { return true }
        return false
    }

    /// Indices of the slots whose keys the layer's class names in `needsDisplay(forKey:)`.
    private func redrawKeys(of layer: Layer) -> [Int] {
        let id = ObjectIdentifier(type(of: layer))
        if let cached = redrawKeysByClass[id] { return cached }
        let cls = type(of: layer)
        let keys = layer.slotLayout.keys.indices.filter { cls.needsDisplay(forKey: layer.slotLayout.keys[$0]) }
        redrawKeysByClass[id] = keys
        return keys
    }

    static func sameSlots(_ a: Layer, _ b: Layer) -> Bool {
        guard a.slotLayout === b.slotLayout else { return false }
        for i in a.slots.indices where !a.slots[i].hasSameValue(asSameType: b.slots[i]) { return false }
        return true
    }

    /// Merges rectangles that overlap until none do.
    static func merge(_ rects: [Rect]) -> [Rect] {
        var out: [Rect] = []
        for r in rects {
            var current = r
            var merged = true
            while merged {
                merged = false
                if let i = out.firstIndex(where: { $0.intersects(current) || $0 == current }) {
                    current = current.union(out.remove(at: i))
                    merged = true
                }
            }
            out.append(current)
        }
        return out
    }
}
