/// Properties by key and key path (`opacity`, `position.x`, `bounds.size.width`,
/// `transform.rotation.z`, custom property names), as animations address them.
extension Layer {
    /// The value of the animatable property `key`, or nil when there is none.
    public func value(forKey key: String) -> (any Interpolatable)? {
        guard let i = slotLayout.index[key] else { return nil }
        return slots[i].interpolatableValue
    }

    /// The value at an animatable key path, or nil when the path does not name one.
    public func value(forKeyPath keyPath: String) -> (any Interpolatable)? {
        let (head, rest) = splitKeyPath(Substring(keyPath))
        guard let i = slotLayout.index[String(head)], let value = slots[i].interpolatableValue else { return nil }
        guard let rest else { return value }
        return value.value(atSubPath: rest)
    }

    /// Sets the value at an animatable key path, as assigning the property would (a model
    /// layer runs the key's action). Returns false when the path or the value's type is wrong.
    @discardableResult
    public func setValue(_ value: any Interpolatable, forKeyPath keyPath: String) -> Bool {
        let (head, rest) = splitKeyPath(Substring(keyPath))
        guard let i = slotLayout.index[String(head)], let old = slots[i].interpolatableValue else { return false }
        let slot = slots[i]
        let new: any Interpolatable
        if let rest {
            guard let replaced = old.replacing(atSubPath: rest, with: value) else { return false }
            new = replaced
        } else {
            new = value
        }
        guard slot.setInterpolatable(new) else { return false }
        if isPresentationCopy { noteWrittenSlot(i) }
        if !isPresentationCopy, let stored = slot.interpolatableValue, !isEqualValue(old, stored) {
            slotDidChange(slot, from: old)
        }
        return true
    }
}

/// Actions: what runs when a property of a rendered layer changes.
extension Layer {
    /// A basic animation of a built-in animatable property from the value shown in the last
    /// frame to the new model value, with the transaction's duration (0.25 s by default) and
    /// timing function (`TimingFunction.default` when unset). Custom properties have none.
    func implicitAnimation(forKey key: String) -> Action? {
        guard let i = slotLayout.index[key], slots[i].isAnimatable, !slotLayout.customKeys.contains(key) else {
            return nil
        }
        let animation = BasicAnimation(keyPath: key)
        animation.fromValue = presentation()?.value(forKey: key)
        animation.duration = Transaction.animationDuration()
        animation.timingFunction = Transaction.animationTimingFunction() ?? .default
        return animation
    }
}
