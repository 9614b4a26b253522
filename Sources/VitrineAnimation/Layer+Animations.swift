/// Adding, finding and removing animations.
extension Layer {
    /// Adds a copy of `animation` under `key` (replacing an animation with the same key) after
    /// the animations already added; the next frame commits it (a `beginTime` of 0 becomes the
    /// layer's time now: the time of the engine's frame). A property animation without a key path animates
    /// `key`. An animation with no duration (or timing function) takes the one an open
    /// transaction sets, as Core Animation does. Presentation copies ignore this.
    public func add(_ animation: Animation, forKey key: String?) {
        guard !isPresentationCopy else { return }
        let copy = animation.copy()
        if copy.duration == 0, let d = Transaction.explicitAnimationDuration() { copy.duration = d }
        if copy.timingFunction == nil, let f = Transaction.animationTimingFunction() { copy.timingFunction = f }
        if let property = copy as? PropertyAnimation, property.keyPath == nil { property.keyPath = key }
        if let basic = copy as? BasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil,
            let keyPath = basic.keyPath
        {
            copy.runtime.capturedValue = presentation()?.value(forKeyPath: keyPath) ?? value(forKeyPath: keyPath)
        }
        copy.runtime.addedAt = rootLayer.attachedEngine?.currentMediaTime
        if let key { removeAnimation(forKey: key) }
        Transaction.register(copy)
        animationEntries.append((key, copy))
        modelDidChange()
    }

    /// Removes the animation added under `key`; its delegate hears it stop unfinished.
    public func removeAnimation(forKey key: String) {
        guard let i = animationEntries.firstIndex(where: { $0.key == key }) else { return }
        let animation = animationEntries.remove(at: i).animation
        modelDidChange()
        end(animation, finished: false)
    }

    /// Removes every animation; their delegates hear them stop unfinished.
    public func removeAllAnimations() {
        let removed = animationEntries
        animationEntries = []
        if !removed.isEmpty { modelDidChange() }
        for entry in removed { end(entry.animation, finished: false) }
    }

    /// The animation added under `key` (the layer's copy), or nil.
    public func animation(forKey key: String) -> Animation? {
        animationEntries.first { $0.key == key }?.animation
    }

    /// The keys of the added animations, in the order they were added (animations added with a
    /// nil key are not listed).
    public func animationKeys() -> [String] { animationEntries.compactMap(\.key) }

    /// Marks an animation over: tells its delegate (once, if it had started) and the
    /// transactions waiting for it.
    func end(_ animation: Animation, finished: Bool) {
        let runtime = animation.runtime
        if runtime.didStart && !runtime.didStop {
            runtime.didStop = true
            animation.delegate?.animationDidStop(animation, finished: finished)
        }
        runtime.didStop = true
        runtime.releaseCompletionGroups()
    }
}
