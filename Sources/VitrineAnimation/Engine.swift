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
    /// layer (`DamagePolicy` merges them into device rectangles).
    public let dirtyRects: [Rect]
    /// Whether some animation will still change what is shown as time passes (false when all
    /// are finished, held or paused: the display link may sleep).
    public let isAnimating: Bool
    /// Presentation copies of layers shown for the first time this frame at opacity 0 while an
    /// animation of their opacity runs (a scene fading in): the next frames show them. A
    /// renderer can make what drawing them needs in this frame, which draws nothing of them
    /// (`LayerRenderer.render(_:into:dirty:background:fadingIn:)`).
    public var fadingIn: [Layer] = []
}

/// Runs a layer tree in time: commits transactions, evaluates presentation copies, notifies
/// animation delegates and tracks damage between frames. Drive it with `tick(at:)` once per
/// display frame. It has no clock of its own: its time is the time of the frame it is making,
/// which the caller takes from the one clock it runs on (a display link's, or virtual time).
public final class Engine {
    /// The root of the model tree. Its parent time is the scene time.
    public let root: Layer
    /// The time of the frame being made (CACurrentMediaTime): use it for
    /// `beginTime = currentMediaTime + delay`. Set by `beginFrame(at:)` and `tick(at:)`.
    public private(set) var currentMediaTime: Double

    private var observers: [(id: Int, body: (Double) -> Void)] = []
    private var nextObserverID = 0
    /// What the last reported frame showed of each layer, and the records being built for the
    /// next (both kept to reuse their storage).
    private var previous: [ObjectIdentifier: LayerRecord] = [:]
    private var current: [ObjectIdentifier: LayerRecord] = [:]
    /// The model layers of the frame being diffed, in tree order.
    private var order: [Layer] = []
    /// The previous frame's `order` (what its records' `over` ranges index).
    private var previousOrder: [Layer] = []
    /// The root of the last reported frame's presentation tree.
    private var previousPresentation: Layer?
    /// New copies of this tick whose own values are those of the copy they replace (the model
    /// and its animations' samples unchanged, only a sublayer's copy new), by the identities of
    /// both: the diff then need not compare their slots. Cleared every tick.
    private var sameValuesAsReplaced: [ObjectIdentifier: ObjectIdentifier] = [:]
    /// The keys that differ between a layer's two presentations, reused from layer to layer
    /// and frame to frame (no allocation per changed layer).
    private var changedKeys: [String] = []
    /// Where a layer says its drawing changed (reused likewise).
    private var changedAreas: [Rect] = []
    /// The slots in which two copies of a layer can differ (reused likewise).
    private var slotsToCompare: [Int] = []
    /// `Layer.modelGeneration` when the tree was last committed: while it is the same, no
    /// layer, sublayer or animation was added since, and committing would change nothing.
    private var committedGeneration: UInt64?
    /// The sublayer copies of the layers being evaluated, innermost last.
    private var childCopies: [Layer] = []
    /// What the last diff found (one array each for every frame; a caller that keeps a frame's
    /// update keeps its own).
    private var changedLayers: [Layer] = []
    private var redrawLayers: [Layer] = []
    private var dirtyRects: [Rect] = []
    private var fadingIn: [Layer] = []
    /// The samples of a replicator's delayed instances, to compare with the last ones.
    private var instanceSamples: [TimingSample?] = []
    /// Copies that evaluation replaced: the last frame's diff still compared them; the next
    /// frame recycles those no one else holds.
    private var retiredCopies: [Layer] = []

    /// An engine for the tree under `root`, at time `time` until its first frame.
    public init(root: Layer, time: Double = 0) {
        self.root = root
        currentMediaTime = time
        root.attachedEngine = self
    }

    /// Starts the frame at scene time `t`: animations added from now until its `tick(at:)`
    /// begin at `t` (a `beginTime` of 0 means now), as in Core Animation, where they begin at
    /// the time of the transaction that adds them.
    public func beginFrame(at t: Double) {
        currentMediaTime = t
    }

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

    /// Produces the frame at scene time `t`: commits the implicit transaction (new animations
    /// get their begin time), evaluates the presentation tree, runs frame observers (and
    /// re-evaluates what they changed), sends animationDidStart/animationDidStop, removes
    /// finished animations and reports what changed.
    ///
    /// Evaluation is incremental: a layer keeps its presentation copy from the previous frame
    /// (or the first pass of this one) while its model is unchanged and each of its animations
    /// samples the same time; a layer whose copy, sublayers' copies or mask's copy changed gets
    /// a new copy, so earlier frames' trees are never modified.
    @discardableResult
    public func tick(at t: Double) -> FrameUpdate {
        beginFrame(at: t)
        sameValuesAsReplaced.removeAll(keepingCapacity: true)
        recycleRetiredCopies()
        commit(at: t)
        var presentation = evaluate(root, parentTime: t)
        if !observers.isEmpty {
            let generation = Layer.modelGeneration
            for observer in observers { observer.body(t) }
            if Layer.modelGeneration != generation {
                commit(at: t)
                presentation = evaluate(root, parentTime: t)
            }
        }
        let isAnimating = deliverAnimationEvents(at: t)
        return diff(presentation, at: t, isAnimating: isAnimating)
    }

    /// The presentation tree at scene time `t`: a pure function of the model tree and `t`
    /// (no callbacks, nothing removed, nothing reused). Animations not yet committed by a frame
    /// are not included.
    public func presentationTree(at t: Double) -> Layer {
        presentation(of: root, parentTime: t, recycling: false)
    }

    /// The presentation copy of `model` at `parentTime` with its whole subtree, every copy made
    /// for it: new copies, or with `recycling`, spare copies made over where there are some (a
    /// replicator's delayed instances, retired with the replicator's copy).
    private func presentation(of model: Layer, parentTime: Double, recycling: Bool) -> Layer {
        let local = model.localTime(fromParentTime: parentTime)
        let copy = recycling ? newCopy(of: model) : Engine.presentationCopy(of: model)
        for entry in model.animationEntries where entry.animation.runtime.isCommitted {
            entry.animation.apply(to: copy, atParentTime: local, removedAtEnd: entry.animation.isRemovedOnCompletion)
        }
        for child in model.sublayerStorage {
            let c = presentation(of: child, parentTime: local, recycling: recycling)
            c.superlayer = copy
            copy.sublayerStorage.append(c)
        }
        if let mask = model.mask {
            let m = presentation(of: mask, parentTime: local, recycling: recycling)
            m.maskOwner = copy
            copy.maskStorage = m
        }
        if let replicator = copy as? ReplicatorLayer {
            fillDelayedInstances(of: model, into: replicator, at: local, recycling: recycling)
        }
        return copy
    }

    /// A presentation copy of `model`'s own properties (no animations, no sublayers).
    private static func presentationCopy(of model: Layer) -> Layer {
        let copy = type(of: model).init(layer: model)
        copy.isPresentationCopy = true
        copy.modelLayer = model
        copy.copiedModelVersion = model.modelVersion
        return copy
    }

    /// A copy of the presentation copy `shown` with the same values, sublayers and mask, and
    /// no transition of its own.
    static func detachedCopy(of shown: Layer) -> Layer {
        let copy = type(of: shown).init(layer: shown)
        copy.isPresentationCopy = true
        copy.modelLayer = shown.modelLayer
        copy.sublayerStorage = shown.sublayerStorage
        copy.maskStorage = shown.maskStorage
        if let replicator = copy as? ReplicatorLayer, let shown = shown as? ReplicatorLayer {
            replicator.delayedInstances = shown.delayedInstances
        }
        return copy
    }

    /// The presentation copy of `model` at `parentTime`, reusing `model.lastPresentation`
    /// when nothing it shows changed; records the result as `model.lastPresentation`.
    private func evaluate(_ model: Layer, parentTime: Double) -> Layer {
        let local = model.localTime(fromParentTime: parentTime)
        var reusable = model.presentedVersion == model.modelVersion
        for entry in model.animationEntries where entry.animation.runtime.isCommitted {
            let a = entry.animation
            let s = a.sample(atParentTime: local, removedAtEnd: a.isRemovedOnCompletion)
            if a.runtime.presentedSample != s {
                reusable = false
                a.runtime.presentedSample = s
            }
        }
        let children = model.sublayerStorage
        var old = reusable ? model.lastPresentation : nil
        if let o = old, o.sublayerStorage.count != children.count || (o.maskStorage == nil) != (model.mask == nil) {
            old = nil
        }
        // The sublayers' copies wait on one stack for the whole tree (no array per layer).
        let base = childCopies.count
        var childrenChanged = old == nil
        for (i, child) in children.enumerated() {
            let c = evaluate(child, parentTime: local)
            if !childrenChanged, c !== old!.sublayerStorage[i] { childrenChanged = true }
            childCopies.append(c)
        }
        let maskCopy = model.mask.map { evaluate($0, parentTime: local) }
        if let old, !childrenChanged, maskCopy === old.maskStorage,
            !delayedInstancesChanged(of: model, shownBy: old, at: local)
        {
            childCopies.removeLast(children.count)
            return old
        }

        let copy = newCopy(of: model)
        for entry in model.animationEntries where entry.animation.runtime.isCommitted {
            if let s = entry.animation.runtime.presentedSample { entry.animation.apply(to: copy, sample: s) }
        }
        copy.sublayerStorage.removeAll(keepingCapacity: true)
        copy.sublayerStorage.append(contentsOf: childCopies[base...])
        childCopies.removeLast(children.count)
        for child in copy.sublayerStorage { child.superlayer = copy }
        maskCopy?.maskOwner = copy
        copy.maskStorage = maskCopy
        if let replicator = copy as? ReplicatorLayer, let model = model as? ReplicatorLayer {
            evaluateDelayedInstances(of: model, into: replicator, at: local)
        }
        if let replaced = model.lastPresentation {
            retiredCopies.append(replaced)
            if reusable { sameValuesAsReplaced[ObjectIdentifier(copy)] = ObjectIdentifier(replaced) }
        }
        model.lastPresentation = copy
        model.presentedVersion = model.modelVersion
        return copy
    }

    /// A presentation copy of `model`'s own properties: one of its spare copies made over, else
    /// a new one.
    private func newCopy(of model: Layer) -> Layer {
        while !model.spareCopies.isEmpty {
            var spare = model.spareCopies.removeLast()
            guard isKnownUniquelyReferenced(&spare) else { continue }
            spare.recycle(asCopyOf: model)
            return spare
        }
        return Engine.presentationCopy(of: model)
    }

    /// Gives the copies replaced since the last frame's diff back to their model layers as
    /// spares, each one that no one holds: no earlier frame's tree the caller kept, no renderer
    /// cache, no `presentation()` result still in use.
    private func recycleRetiredCopies() {
        // Parents first (taken from the end: evaluation retires sublayers first). A retired
        // copy lets go of its sublayers, mask and instances, which may then be unheld in turn.
        while !retiredCopies.isEmpty {
            var copy = retiredCopies.removeLast()
            guard isKnownUniquelyReferenced(&copy) else { continue }
            copy.retire(releasingInto: &retiredCopies)
            guard Layer.recyclableCopyClasses.contains(ObjectIdentifier(type(of: copy))), let model = copy.modelLayer
            else { continue }
            model.spareCopies.append(copy)
        }
    }

    // MARK: Replicator instances

    /// Whether a replicator's delayed instances differ from those its copy `shown` has: they
    /// change while their animations' samples do.
    private func delayedInstancesChanged(of model: Layer, shownBy shown: Layer, at local: Double) -> Bool {
        guard let replicator = shown as? ReplicatorLayer, replicator.delaysInstances,
            let model = model as? ReplicatorLayer
        else { return false }
        Engine.instanceSamples(of: model, as: replicator, at: local, into: &instanceSamples)
        return instanceSamples != model.instanceSamples
    }

    /// Gives `copy` (a presentation of `model` at local time `local`) the sublayers of its
    /// delayed instances: instance i's at `local − i × instanceDelay` (the incremental copies
    /// are the first instance's), made of recycled copies where there are some.
    private func evaluateDelayedInstances(of model: ReplicatorLayer, into copy: ReplicatorLayer, at local: Double) {
        fillDelayedInstances(of: model, into: copy, at: local, recycling: true)
        if copy.delaysInstances {
            Engine.instanceSamples(of: model, as: copy, at: local, into: &model.instanceSamples)
        } else {
            model.instanceSamples.removeAll()
        }
    }

    /// Gives `copy` its delayed instances' sublayers, as `presentation(of:parentTime:recycling:)`
    /// makes them.
    private func fillDelayedInstances(of model: Layer, into copy: ReplicatorLayer, at local: Double, recycling: Bool) {
        let count = copy.delaysInstances ? copy.drawnInstanceCount - 1 : 0
        if copy.delayedInstances.count > count { copy.delayedInstances.removeLast(copy.delayedInstances.count - count) }
        while copy.delayedInstances.count < count { copy.delayedInstances.append([]) }
        for i in 0..<count {
            let time = local - Double(i + 1) * copy.instanceDelay
            copy.delayedInstances[i].removeAll(keepingCapacity: true)
            for child in model.sublayerStorage {
                let c = presentation(of: child, parentTime: time, recycling: recycling)
                c.superlayer = copy
                copy.delayedInstances[i].append(c)
            }
        }
    }

    /// The samples of every committed animation under `model`'s sublayers at each delayed
    /// instance's time (with `presentation`'s count and delay), into `samples`: equal samples,
    /// equal copies.
    static func instanceSamples(
        of model: ReplicatorLayer, as presentation: ReplicatorLayer, at local: Double,
        into samples: inout [TimingSample?]
    ) {
        samples.removeAll(keepingCapacity: true)
        for i in 1..<max(1, presentation.drawnInstanceCount) {
            let time = local - Double(i) * presentation.instanceDelay
            for child in model.sublayerStorage {
                visit(child, parentTime: time) { layer, layerTime in
                    for entry in layer.animationEntries where entry.animation.runtime.isCommitted {
                        let a = entry.animation
                        samples.append(a.sample(atParentTime: layerTime, removedAtEnd: a.isRemovedOnCompletion))
                    }
                }
            }
        }
    }

    /// Whether an animation under `layer` (at its parent's time `parentTime`) is running.
    private static func animates(_ layer: Layer, parentTime: Double, rate: Double) -> Bool {
        let local = layer.localTime(fromParentTime: parentTime)
        let layerRate = rate * layer.speed
        for entry in layer.animationEntries where entry.animation.runtime.isCommitted {
            let a = entry.animation
            if layerRate * a.speed != 0, a.sample(atParentTime: local, removedAtEnd: false).phase == .active {
                return true
            }
        }
        return layer.sublayerStorage.contains { animates($0, parentTime: local, rate: layerRate) }
    }

    // MARK: Commit

    /// Commits the implicit transaction; marks every layer rendered and resolves the begin time
    /// of animations added since the last frame: a begin time of 0 becomes the layer's time at
    /// the moment the animation was added (the engine's time then).
    private func commit(at t: Double) {
        Transaction.flush()
        guard Layer.modelGeneration != committedGeneration else { return }
        visit(root, parentTime: t) { layer, local in
            layer.hasBeenCommitted = true
            for entry in layer.animationEntries where !entry.animation.runtime.isCommitted {
                let a = entry.animation
                if a.beginTime == 0 {
                    // "Now" is when it was added, if an engine ran the tree then, else this frame.
                    a.beginTime = a.runtime.addedAt.map { layer.localTime(fromSceneTime: $0) } ?? local
                }
                a.runtime.isCommitted = true
            }
        }
        committedGeneration = Layer.modelGeneration
    }

    /// Calls `body` for every layer of the model tree (masks included) with its local time.
    private func visit(_ layer: Layer, parentTime: Double, _ body: (Layer, Double) -> Void) {
        Engine.visit(layer, parentTime: parentTime, body)
    }

    private static func visit(_ layer: Layer, parentTime: Double, _ body: (Layer, Double) -> Void) {
        let local = layer.localTime(fromParentTime: parentTime)
        body(layer, local)
        for child in layer.sublayerStorage { visit(child, parentTime: local, body) }
        if let mask = layer.mask { visit(mask, parentTime: local, body) }
    }

    // MARK: Animation events

    private enum AnimationEvent { case start(Animation), stop(Animation) }

    /// Sends start/stop notifications, removes finished animations, runs the completions of
    /// transactions they ended. Returns whether any animation is still moving.
    private func deliverAnimationEvents(at t: Double) -> Bool {
        var events: [AnimationEvent] = []
        var moving = false
        scanAnimations(root, parentTime: t, rate: 1, events: &events, moving: &moving)
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

    private func scanAnimations(
        _ layer: Layer, parentTime: Double, rate: Double, events: inout [AnimationEvent],
        moving: inout Bool
    ) {
        let local = layer.localTime(fromParentTime: parentTime)
        let layerRate = rate * layer.speed
        var removed = false
        for entry in layer.animationEntries {
            let a = entry.animation, r = a.runtime
            guard r.isCommitted else { continue }
            let s = a.sample(atParentTime: local, removedAtEnd: false)
            if !r.didStart && s.phase != .before { r.didStart = true; events.append(.start(a)) }
            if s.phase == .after {
                if !r.didStop { r.didStop = true; events.append(.stop(a)) }
                if a.isRemovedOnCompletion { removed = true }
            } else if layerRate * a.speed != 0 {
                moving = true
            }
        }
        if removed {
            layer.animationEntries.removeAll { entry in
                let r = entry.animation.runtime
                return r.isCommitted && r.didStop && entry.animation.isRemovedOnCompletion
                    && entry.animation.sample(atParentTime: local, removedAtEnd: false).phase == .after
            }
            // Not a model change (no re-evaluation by observers), but the next copy is made anew.
            layer.modelVersion &+= 1
        }
        for child in layer.sublayerStorage {
            scanAnimations(child, parentTime: local, rate: layerRate, events: &events, moving: &moving)
        }
        // A replicator's later instances run behind: the last may still move after the first.
        if !moving, let replicator = layer as? ReplicatorLayer, replicator.delaysInstances {
            let behind = Double(replicator.drawnInstanceCount - 1) * replicator.instanceDelay
            moving = layer.sublayerStorage.contains {
                Engine.animates($0, parentTime: local - behind, rate: layerRate)
            }
        }
        if let mask = layer.mask {
            scanAnimations(mask, parentTime: local, rate: layerRate, events: &events, moving: &moving)
        }
    }

    // MARK: Damage

    /// What a frame showed of one layer, to compare with the next frame.
    private struct LayerRecord {
        let presentation: Layer
        let toRoot: Transform2D
        let opacity: Double
        let clip: Rect?
        let visible: Bool
        /// Where the layer draws, in the root's superlayer space (for a layer of a mask's tree:
        /// where it gives the mask alpha).
        let extent: Rect
        var subtreeExtent: Rect
        /// Where the layer's shadow can draw, in the root's superlayer space (null: no shadow).
        let shadowExtent: Rect
        /// The model of the layer this one's mask tree masks.
        let maskOwner: ObjectIdentifier?
        /// The model of this layer's mask.
        let mask: ObjectIdentifier?
        /// For a background over its own colour: the layers drawn over that colour before it
        /// (indices into the frame's `order`), the only places where it shows.
        var over: Range<Int>? = nil
        /// The layer's place in the frame's `order`.
        var index = 0
    }

    private func diff(_ presentation: Layer, at t: Double, isAnimating: Bool) -> FrameUpdate {
        // Incremental evaluation makes a new root copy whenever anything in the tree changed.
        if presentation === previousPresentation {
            return FrameUpdate(
                time: t, presentation: presentation, changedLayers: [], redrawLayers: [],
                dirtyRects: [], isAnimating: isAnimating)
        }
        current.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        record(presentation, toRoot: .identity, opacity: 1, clip: nil, visible: true, maskOwner: nil)

        changedLayers.removeAll(keepingCapacity: true)
        redrawLayers.removeAll(keepingCapacity: true)
        dirtyRects.removeAll(keepingCapacity: true)
        fadingIn.removeAll(keepingCapacity: true)
        func addDirty(_ r: Rect) { if !r.isNull && !r.isEmpty { dirtyRects.append(r) } }
        var kept = 0
        for model in order {
            let id = ObjectIdentifier(model)
            guard let now = current[id] else { continue }
            let before = previous[id]
            if before != nil { kept += 1 }
            let same = before?.presentation === now.presentation
            // A shadow follows everything under its layer: a new copy (a change anywhere in the
            // subtree), a new place or opacity repaints where it was and where it is. A shadow
            // path's shadow follows only the layer's own properties.
            if let before, !before.shadowExtent.isNull || !now.shadowExtent.isNull,
                before.toRoot != now.toRoot || before.clip != now.clip || before.opacity != now.opacity
                    || before.visible != now.visible
                    || (!same
                        && (now.presentation.shadowPath == nil || before.presentation.shadowPath == nil
                            || !sameValues(before.presentation, now.presentation)))
            {
                addDirty(now.maskOwner == nil ? now.shadowExtent : maskDamage(now.shadowExtent, owner: now.maskOwner))
                addDirty(
                    now.maskOwner == nil ? before.shadowExtent : maskDamage(before.shadowExtent, owner: now.maskOwner))
            }
            let needsRedraw =
                model.needsDisplayFlag || (!same && needsRedraw(model, now.presentation, before?.presentation))
            if needsRedraw { redrawLayers.append(model); model.needsDisplayFlag = false }
            if before == nil, now.presentation.opacity == 0, Engine.fadesIn(model) { fadingIn.append(now.presentation) }
            // A mask shows its owner only where it has alpha, so what a change in a mask's tree
            // can alter lies within its old and new extents, and within what the owner draws.
            func damage(_ r: Rect) { addDirty(now.maskOwner == nil ? r : maskDamage(r, owner: now.maskOwner)) }
            // A background over its own colour shows only where layers drawn before it draw;
            // where it was and is over the same drawing, once is enough.
            func damageOwnDrawing(
                _ r: LayerRecord, of order: [Layer], in records: [ObjectIdentifier: LayerRecord],
                besides shown: LayerRecord? = nil
            ) {
                guard let over = r.over else { return damage(r.extent) }
                for model in order[over] {
                    let id = ObjectIdentifier(model)
                    guard let under = records[id], under.maskOwner == nil else { continue }
                    if let shown, let shownOver = shown.over, shown.extent == r.extent, let same = current[id],
                        shownOver.contains(same.index), same.extent == under.extent,
                        same.shadowExtent == under.shadowExtent
                    {
                        continue
                    }
                    damage(r.extent.intersection(under.extent))
                    damage(r.extent.intersection(under.shadowExtent))
                }
            }
            guard let before else {
                changedLayers.append(model)
                damageOwnDrawing(now, of: order, in: current)
                damage(now.shadowExtent)
                continue
            }
            let sameChildren =
                same || Engine.sameModels(before.presentation.sublayerStorage, now.presentation.sublayerStorage)
            // Anything besides the layer's own property values: its place, opacity, clip,
            // visibility, sublayers or mask.
            let surroundingsChanged =
                before.toRoot != now.toRoot || before.opacity != now.opacity
                || before.clip != now.clip || before.visible != now.visible || !sameChildren || before.mask != now.mask
            // A replicator's copies are not in the tree, nor is a transition's old look: any
            // change under them changes what they show.
            let inSpace =
                now.presentation is TransformLayer || now.presentation.isProjected || before.presentation.isProjected
            let showsMore =
                now.presentation is ReplicatorLayer || now.presentation.transitionState != nil
                || before.presentation.transitionState != nil
                // A layer in space shows its subtree flattened: a new copy that looks the same
                // all through (a turning card held still by its animation) changes nothing.
                || (inSpace && !Engine.drawsTheSameSubtree(before.presentation, now.presentation))
            // Comparing the slots, the dearest test, comes last.
            let isChanged =
                needsRedraw || surroundingsChanged || (!same && showsMore)
                || (!same && !sameValues(before.presentation, now.presentation))
            guard isChanged else { continue }
            changedLayers.append(model)
            // A plain layer that only moved its edges along the axes, under a parent placed as
            // before (a bar growing from its foot, a progress fill widening): where they swept.
            if !needsRedraw, now.presentation.showsOnlyItsBackground,
                before.presentation.showsOnlyItsBackground, before.clip == now.clip,
                before.opacity == now.opacity, before.over == nil, now.over == nil, !before.extent.isNull,
                !now.extent.isNull, let parent = now.presentation.superlayer?.modelLayer,
                before.presentation.superlayer?.modelLayer === parent,
                let under = current[ObjectIdentifier(parent)]?.toRoot,
                previous[ObjectIdentifier(parent)]?.toRoot == under,
                let swept = Engine.sweptEdges(of: before.presentation, to: now.presentation, under: under)
            {
                let drawn = now.extent.union(before.extent)
                damage(swept.0.intersection(drawn))
                damage(swept.1.intersection(drawn))
                continue
            }
            // A replicator with the same values in the same place: its first instance's
            // sublayers are in the tree and damage where they change themselves, the later
            // instances' where they change at their places, not over all the instances.
            if let replicator = now.presentation as? ReplicatorLayer,
                let old = before.presentation as? ReplicatorLayer, !needsRedraw, !surroundingsChanged,
                replicator.transitionState == nil, old.transitionState == nil, sameValues(old, replicator),
                damageLaterInstances(
                    of: replicator, since: old, toRoot: now.toRoot, within: now.extent.union(before.extent), damage)
            {
                continue
            }
            if !model.needsDisplayFlag, !surroundingsChanged,
                findChangedDrawingAreas(now.presentation, since: before.presentation)
            {
                // Only the layer's own drawing changed, and the layer knows where.
                let extent = now.extent.union(before.extent)
                for area in changedAreas { damage(now.toRoot.apply(to: area).intersection(extent)) }
                continue
            }
            damageOwnDrawing(now, of: order, in: current)
            damageOwnDrawing(before, of: previousOrder, in: previous, besides: now)
            // Sublayers added damage where they draw and removed ones where they drew; only a
            // new order of those that stay changes what is drawn over what.
            let reordered = !sameChildren && !keepsOrder(of: before.presentation, in: now.presentation)
            if reordered || before.mask != now.mask
                || before.presentation.sublayerTransform != now.presentation.sublayerTransform
            {
                damage(now.subtreeExtent)
                damage(before.subtreeExtent)
            }
        }
        if kept != previous.count {
            for (id, old) in previous where current[id] == nil { addDirty(old.subtreeExtent) }
        }
        swap(&previous, &current)
        swap(&previousOrder, &order)
        // Not kept until the next diff: frames in which nothing changes make none, and a layer
        // taken out of the tree would stay alive through them.
        order.removeAll(keepingCapacity: true)
        current.removeAll(keepingCapacity: true)
        previousPresentation = presentation
        var update = FrameUpdate(
            time: t, presentation: presentation, changedLayers: changedLayers, redrawLayers: redrawLayers,
            dirtyRects: dirtyRects, isAnimating: isAnimating)
        update.fadingIn = fadingIn
        return update
    }

    /// Whether an animation of the layer's opacity is running (it will show the layer).
    private static func fadesIn(_ model: Layer) -> Bool {
        model.animationEntries.contains { entry in
            entry.animation.runtime.presentedSample?.phase == .active
                && (entry.animation as? PropertyAnimation)?.keyPath == "opacity"
        }
    }

    /// `area` (a change in a mask's tree) within what the mask's owner and its sublayers draw,
    /// in this frame or the previous one, grown by two units: a mask is applied pixel by pixel,
    /// so its edge and the owner's show together in every pixel both touch, even where the two
    /// shapes themselves do not meet (a mask moving off its owner's side leaves a pixel the
    /// owner's edge shares with it). Two units are a device pixel down to a half-size screen.
    private func maskDamage(_ area: Rect, owner: ObjectIdentifier?) -> Rect {
        guard let owner else { return area }
        let drawn = (current[owner]?.subtreeExtent ?? .null).union(previous[owner]?.subtreeExtent ?? .null)
        return area.intersection(drawn.insetBy(dx: -2, dy: -2))
    }

    /// What lies under the layers being recorded, where it is known: an opaque colour over
    /// `covered` (the root's superlayer space), drawn over since by the layers recorded from
    /// `order[firstOver]` on. A background of the same colour drawn on it, at any opacity,
    /// changes no pixel but where those draw (c·α + c·(1 − α) rounds back to c), so it damages
    /// only there: a scene fading in over the stage's colour damages where either scene draws,
    /// not the whole frame.
    private struct Backdrop {
        let color: Color
        let covered: Rect
        let firstOver: Int
    }

    /// Records `p` and its subtree (and masks) into `current` and `order`; returns the
    /// subtree's extent. `backdrop` is what lies under `p`, when known.
    @discardableResult
    private func record(
        _ p: Layer, toRoot parent: Transform2D, opacity parentOpacity: Double, clip parentClip: Rect?,
        visible parentVisible: Bool, maskOwner: ObjectIdentifier?, flattened: Bool = false,
        backdrop: Backdrop? = nil
    ) -> Rect {
        guard let model = p.modelLayer else { return .null }
        let toRoot = p.transformToSuperlayer.concatenating(parent)
        let opacity = parentOpacity * p.opacity
        var visible = parentVisible && !p.isHidden && opacity > 0
        // A layer in space is one picture with everything under it: its extent is all of it
        // through its projection, and its sublayers (flattened into it) have none of their own.
        let inSpace = p is TransformLayer || p.isProjected
        let plain = p.drawsAtMostItsBackground && p.transitionState == nil && !inSpace
        let background = p.backgroundColor.flatMap { $0.alpha > 0 ? $0 : nil }
        var extent: Rect
        if flattened {
            extent = .null
        } else if inSpace {
            extent =
                visible ? Engine.planeExtent(of: p, then: parent) : .null
        } else if plain && background == nil {
            // A layer that only holds sublayers draws no pixel itself.
            extent = .null
        } else {
            extent = visible ? toRoot.apply(to: p.presentedExtent) : .null
        }
        if parentVisible, let transition = p.transitionState {
            // Both looks show while it runs (a layer being hidden included).
            let old = transition.old
            extent = extent.union(old.transformToSuperlayer.concatenating(parent).apply(to: Engine.bodyExtent(of: old)))
            extent = extent.union(toRoot.apply(to: Engine.bodyExtent(of: p)))
            visible = true
        }
        if let parentClip { extent = extent.intersection(parentClip) }
        // What the sublayers are drawn over, when it is one known colour.
        var inner: Backdrop?
        if plain, !flattened, p.opacity == 1, p.maskStorage == nil, !p.castsShadow,
            Engine.drawsInOrder(p.sublayerStorage)
        {
            if let background, background.alpha == 1, p.clampedCornerRadius == 0, !extent.isNull {
                inner = Backdrop(color: background, covered: extent, firstOver: order.count + 1)
            } else if background == nil {
                inner = backdrop
            }
        }
        var over: Range<Int>?
        if plain, let background, let backdrop, background == backdrop.color, !p.castsShadow, p.maskStorage == nil,
            backdrop.covered.contains(extent), Engine.liesOnWholePixels(extent)
        {
            let under = backdrop.firstOver..<order.count
            over = under
            extent = extent.intersection(drawnExtent(of: order[under], in: current))
        }
        var clip = parentClip
        if p.masksToBounds {
            let own = toRoot.apply(to: p.bounds)
            clip = clip.map { $0.intersection(own) } ?? own
        }
        let id = ObjectIdentifier(model)
        let index = order.count
        order.append(model)
        var subtree = extent
        for child in p.sublayerStorage {
            let drawn = record(
                child, toRoot: toRoot, opacity: opacity, clip: clip,
                visible: visible, maskOwner: maskOwner, flattened: flattened || inSpace, backdrop: inner)
            subtree = subtree.union(drawn)
        }
        if let mask = p.maskStorage {
            record(
                mask, toRoot: toRoot, opacity: 1, clip: nil, visible: visible, maskOwner: id,
                flattened: flattened || inSpace)
        }
        var shadow = Rect.null
        if visible, p.castsShadow, !flattened, !inSpace {
            shadow = Engine.shadowExtent(of: p, toRoot: toRoot)
            if let parentClip { shadow = shadow.intersection(parentClip) }
            subtree = subtree.union(shadow)
        }
        current[id] = LayerRecord(
            presentation: p, toRoot: toRoot, opacity: opacity, clip: clip, visible: visible,
            extent: extent, subtreeExtent: subtree, shadowExtent: shadow, maskOwner: maskOwner,
            mask: p.maskStorage?.modelLayer.map(ObjectIdentifier.init), over: over, index: index)
        return subtree
    }

    /// Whether the sublayers `now` shares with `before` (copies of the same layer's, a frame
    /// apart) are in the same order.
    private func keepsOrder(of before: Layer, in now: Layer) -> Bool {
        var last = -1
        for child in now.sublayerStorage {
            guard let model = child.modelLayer, let shown = previous[ObjectIdentifier(model)] else { continue }
            // One that came from another superlayer is drawn among new neighbours.
            guard shown.index > last, before.sublayerStorage.contains(where: { $0.modelLayer === model }) else {
                return false
            }
            last = shown.index
        }
        return true
    }

    /// Where the layers `models` draw (their own extents and shadows; not the masks' trees).
    private func drawnExtent(of models: ArraySlice<Layer>, in records: [ObjectIdentifier: LayerRecord]) -> Rect {
        var drawn = Rect.null
        for model in models {
            guard let r = records[ObjectIdentifier(model)], r.maskOwner == nil else { continue }
            drawn = drawn.union(r.extent).union(r.shadowExtent)
        }
        return drawn
    }

    /// Whether sublayers are drawn in their order (all at one `zPosition`).
    private static func drawsInOrder(_ sublayers: [Layer]) -> Bool {
        guard let z = sublayers.first?.zPosition else { return true }
        return sublayers.allSatisfy { $0.zPosition == z }
    }

    /// Whether `rect`'s edges lie on whole pixels of the root's superlayer space (the frame's),
    /// so a fill of it covers each pixel wholly or not at all.
    private static func liesOnWholePixels(_ rect: Rect) -> Bool {
        func whole(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-6 }
        return !rect.isNull && whole(rect.minX) && whole(rect.minY) && whole(rect.maxX) && whole(rect.maxY)
    }

    /// Where `layer`'s shadow can draw, in the space `toRoot` maps to: what casts it (its
    /// shadow path, or its body and sublayers), moved by the offset and grown by the blur's
    /// reach (under 3σ + 3 device pixels; 3σ + 6 here holds down to a half-size device scale,
    /// with the damage policy's outset).
    static func shadowExtent(of layer: Layer, toRoot: Transform2D) -> Rect {
        let caster = layer.shadowPath?.bounds ?? Engine.bodyExtent(of: layer)
        guard !caster.isNull, !caster.isEmpty else { return .null }
        let offset = layer.shadowOffset
        let moved = toRoot.apply(to: caster.offsetBy(dx: offset.width, dy: offset.height))
        let scale = abs(toRoot.a * toRoot.d - toRoot.b * toRoot.c).squareRoot()
        let reach = 3 * max(0, layer.shadowRadius) / 2 * scale + 6
        var extent = moved.insetBy(dx: -reach, dy: -reach)
        if layer.masksToBounds { extent = extent.intersection(toRoot.apply(to: layer.bounds)) }
        return extent
    }

    /// What `layer` and its visible sublayers draw, in its own coordinates (sublayers cut to
    /// the bounds when it masks to them; their shadows included).
    static func bodyExtent(of layer: Layer) -> Rect {
        var extent = layer.presentedExtent
        if let image = layer.contents as? Image { extent = extent.union(layer.contentsPlacement(of: image)) }
        for child in layer.sublayerStorage where !child.isHidden && child.opacity > 0 {
            var c: Rect
            if child is TransformLayer || child.isProjected {
                c = planeExtent(of: child, then: .identity)
            } else {
                c = extentInSuperlayer(of: child)
            }
            if layer.masksToBounds { c = c.intersection(layer.bounds) }
            extent = extent.union(c)
        }
        return extent
    }

    /// What a sublayer in its superlayer's plane and the layers under it draw, its shadow
    /// included, in the superlayer's coordinates (null when it is hidden or transparent).
    static func extentInSuperlayer(of child: Layer) -> Rect {
        guard !child.isHidden, child.opacity > 0 else { return .null }
        let toParent = child.transformToSuperlayer
        let body = toParent.apply(to: bodyExtent(of: child))
        return child.castsShadow ? body.union(shadowExtent(of: child, toRoot: toParent)) : body
    }

    /// Where a layer in space (projected, or a transform layer) can draw in the space its
    /// superlayer's coordinates are mapped to by `then`: its body and shadow through its
    /// projection; for a transform layer, each sublayer's through its place in the layer's space.
    static func planeExtent(of layer: Layer, then: Transform2D) -> Rect {
        guard let space = layer as? TransformLayer else {
            return planeExtent(of: layer, through: layer.projectionToSuperlayer.concatenating(then))
        }
        let place = space.transform3DToSuperlayer
        var extent = Rect.null
        for child in space.sublayerStorage where !child.isHidden && child.opacity > 0 {
            // A transform layer inside another is not followed into its space: anywhere.
            guard !(child is TransformLayer) else { return Rect(x: -1e8, y: -1e8, width: 2e8, height: 2e8) }
            let projection = child.transform3DToSuperlayer.concatenating(place).projection.concatenating(then)
            extent = extent.union(planeExtent(of: child, through: projection))
        }
        return extent
    }

    /// `layer`'s body and shadow (in its plane) through `projection`.
    private static func planeExtent(of layer: Layer, through projection: Projection) -> Rect {
        var box = bodyExtent(of: layer)
        if layer.castsShadow { box = box.union(shadowExtent(of: layer, toRoot: .identity)) }
        return box.isNull ? box : projection.boundingBox(of: box)
    }

    /// Whether a layer's contents must be redrawn this frame.
    private func needsRedraw(_ model: Layer, _ now: Layer, _ before: Layer?) -> Bool {
        guard let before else { return true }
        if model.needsDisplayFlag { return true }
        if model.needsDisplayOnBoundsChange && before.bounds.size != now.bounds.size { return true }
        return !now.drawsTheSame(as: before.slots, layout: before.slotLayout)
    }

    /// Where `now`'s drawing differs from `before`'s when they differ in property values only,
    /// as the layer reports it (`Layer.changedDrawingAreas(since:changedKeys:into:)`), into
    /// `changedAreas`; false: anywhere.
    private func findChangedDrawingAreas(_ now: Layer, since before: Layer) -> Bool {
        guard now.slotLayout === before.slotLayout else { return false }
        changedKeys.removeAll(keepingCapacity: true)
        if Engine.copiedAlike(now, before) {
            // In slot order, each once, as the whole comparison lists them.
            slotsToCompare.removeAll(keepingCapacity: true)
            slotsToCompare.append(contentsOf: now.writtenSlots)
            slotsToCompare.append(contentsOf: before.writtenSlots)
            slotsToCompare.sort()
            var last = -1
            for i in slotsToCompare where i != last {
                last = i
                guard !now.slots[i].hasSameValue(asSameType: before.slots[i]) else { continue }
                changedKeys.append(now.slotLayout.keys[i])
            }
        } else {
            for i in now.slots.indices where !now.slots[i].hasSameValue(asSameType: before.slots[i]) {
                changedKeys.append(now.slotLayout.keys[i])
            }
        }
        guard !changedKeys.isEmpty else { return false }
        changedAreas.removeAll(keepingCapacity: true)
        return now.changedDrawingAreas(since: before, changedKeys: changedKeys, into: &changedAreas)
    }

    /// Whether `now`, this tick's copy of a layer, has the values of `before`, the copy the
    /// last diff saw: known when evaluation made it in place of that copy with nothing of the
    /// layer's own changed (both are alive here, so equal identities are the same object),
    /// else compared.
    private func sameValues(_ before: Layer, _ now: Layer) -> Bool {
        sameValuesAsReplaced[ObjectIdentifier(now)] == ObjectIdentifier(before) || Engine.sameSlots(before, now)
    }

    static func sameSlots(_ a: Layer, _ b: Layer) -> Bool {
        guard a.slotLayout === b.slotLayout else { return false }
        if copiedAlike(a, b) {
            for i in a.writtenSlots where !a.slots[i].hasSameValue(asSameType: b.slots[i]) { return false }
            for i in b.writtenSlots where !a.slots[i].hasSameValue(asSameType: b.slots[i]) { return false }
            return true
        }
        for i in a.slots.indices where !a.slots[i].hasSameValue(asSameType: b.slots[i]) { return false }
        return true
    }

    /// Damages where the instances after the first of a replicator differ between `before` and
    /// `now`, two copies with the same values placed by `toRoot`: where each sublayer that does
    /// not draw as the one it replaces drew and draws at that instance's place, within
    /// `bound`. False when the instances do not pair up (their number, or their layers' models)
    /// or a layer in space is among them: anywhere, then.
    private func damageLaterInstances(
        of now: ReplicatorLayer, since before: ReplicatorLayer, toRoot: Transform2D, within bound: Rect,
        _ damage: (Rect) -> Void
    ) -> Bool {
        let count = now.drawnInstanceCount
        guard count == before.drawnInstanceCount else { return false }
        // What a sublayer draws at an instance's place (as `ReplicatorLayer.visualExtent`).
        func drawn(_ child: Layer, at place: Transform2D) -> Rect {
            place.concatenating(toRoot).apply(to: Engine.extentInSuperlayer(of: child))
        }
        var place = Transform2D.identity
        for i in 1..<max(count, 1) {
            place = now.instanceTransform(after: place)
            let shown = before.sublayers(ofInstance: i), showing = now.sublayers(ofInstance: i)
            guard shown.count == showing.count else { return false }
            for (old, new) in zip(shown, showing) where old !== new {
                guard old.modelLayer === new.modelLayer, !(new is TransformLayer), !new.isProjected,
                    !(old is TransformLayer), !old.isProjected
                else { return false }
                if Engine.drawsTheSameSubtree(old, new) { continue }
                if let swept = Engine.sweptEdges(of: old, to: new, under: place.concatenating(toRoot)) {
                    damage(swept.0.intersection(bound))
                    damage(swept.1.intersection(bound))
                    continue
                }
                damage(drawn(old, at: place).intersection(bound))
                damage(drawn(new, at: place).intersection(bound))
            }
        }
        return true
    }

    /// Where a plain layer (one showing only its background) differs between two copies placed
    /// under the same `parent` transform (to the root's superlayer space) that moved only its
    /// edges along the axes: two bands, each between an edge's old and new place and grown by
    /// the corners' reach. The columns (or rows) the two copies share keep every pixel between
    /// the bands, their edges being placed by the same numbers. Nil when anything else
    /// changed, something turns, or the layer draws more than its background.
    static func sweptEdges(of old: Layer, to new: Layer, under parent: Transform2D) -> (Rect, Rect)? {
        // Drawn in both frames, as the renderer decides it from the layer's own transform.
        func plainAndDrawn(_ layer: Layer, _ own: Transform2D) -> Bool {
            let determinant = own.determinant
            return layer.showsOnlyItsBackground && !layer.isHidden && own.b == 0 && own.c == 0
                && determinant != 0 && determinant.isFinite && (layer.isDoubleSided || determinant > 0)
        }
        let o = old.transformToSuperlayer, n = new.transformToSuperlayer
        guard plainAndDrawn(old, o), plainAndDrawn(new, n), old.backgroundColor == new.backgroundColor,
            old.clampedCornerRadius == new.clampedCornerRadius, old.opacity == new.opacity,
            old.zPosition == new.zPosition, parent.b == 0, parent.c == 0
        else { return nil }
        let ob = old.bounds.standardized, nb = new.bounds.standardized
        let was = o.concatenating(parent), now = n.concatenating(parent)
        let from = was.apply(to: ob), to = now.apply(to: nb)
        guard from.minX.isFinite, from.maxX.isFinite, from.minY.isFinite, from.maxY.isFinite, to.minX.isFinite,
            to.maxX.isFinite, to.minY.isFinite, to.maxY.isFinite
        else { return nil }
        let radius = new.clampedCornerRadius
        // Between the two places of the low edges and of the high ones, each grown inward by
        // the corners' reach, and a unit outward both ways: an edge placed in a later frame by
        // other numbers than in the root's space may round to a neighbouring device row.
        func bands(
            _ lowA: Double, _ lowB: Double, _ highA: Double, _ highB: Double, corner: Double
        )
            -> (Double, Double, Double, Double)
        {
            (min(lowA, lowB) - 1, max(lowA, lowB) + corner + 1, min(highA, highB) - corner - 1, max(highA, highB) + 1)
        }
        if o.a == n.a, o.tx == n.tx, ob.minX == nb.minX, ob.width == nb.width {
            // The same columns: the rows between the bands are straight in both.
            let (a0, a1, b0, b1) = bands(
                from.minY, to.minY, from.maxY, to.maxY, corner: radius * max(abs(was.d), abs(now.d)))
            let x = from.minX - 1, width = from.width + 2
            return (Rect(x: x, y: a0, width: width, height: a1 - a0), Rect(x: x, y: b0, width: width, height: b1 - b0))
        }
        if o.d == n.d, o.ty == n.ty, ob.minY == nb.minY, ob.height == nb.height {
            let (a0, a1, b0, b1) = bands(
                from.minX, to.minX, from.maxX, to.maxX, corner: radius * max(abs(was.a), abs(now.a)))
            let y = from.minY - 1, height = from.height + 2
            return (
                Rect(x: a0, y: y, width: a1 - a0, height: height), Rect(x: b0, y: y, width: b1 - b0, height: height)
            )
        }
        return nil
    }

    /// Whether `a` and `b` are copies of one model layer copied whole from it at the same
    /// version: they then hold its values but in the slots either has written since
    /// (`writtenSlots`: animations, setters), and a changed layer is compared in its one or two
    /// animated slots, not its sixty-odd.
    private static func copiedAlike(_ a: Layer, _ b: Layer) -> Bool {
        guard let version = a.copiedModelVersion, version == b.copiedModelVersion else { return false }
        return a.modelLayer != nil && a.modelLayer === b.modelLayer
    }

    /// Whether two presentation copies of one layer show the same with everything under them:
    /// the same property values, sublayers and masks, all the way down. Layers whose look
    /// depends on more than their values (a replicator's delayed copies, a running transition,
    /// a layer asked to redraw) never count as the same.
    static func drawsTheSameSubtree(_ a: Layer, _ b: Layer) -> Bool {
        if a === b { return true }
        guard a.modelLayer === b.modelLayer, a.modelLayer?.needsDisplayFlag != true,
            !(a is ReplicatorLayer), a.transitionState == nil, b.transitionState == nil,
            sameSlots(a, b), a.sublayerStorage.count == b.sublayerStorage.count
        else { return false }
        switch (a.maskStorage, b.maskStorage) {
        case (nil, nil): break
        case let (am?, bm?): guard drawsTheSameSubtree(am, bm) else { return false }
        default: return false
        }
        for (x, y) in zip(a.sublayerStorage, b.sublayerStorage) where !drawsTheSameSubtree(x, y) { return false }
        return true
    }

    /// Whether two lists of presentation copies are copies of the same model layers, in order.
    static func sameModels(_ a: [Layer], _ b: [Layer]) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where a[i].modelLayer !== b[i].modelLayer { return false }
        return true
    }
}
