/// Every stored property by name, animatable or not, with its declared type: what a loader or
/// an inspector needs to configure any layer class from its declarations alone (as Core
/// Animation's `setValue(_:forKey:)` works for every property of every layer class).
///
/// `value(forKeyPath:)` covers animatable properties only and flattens an absent optional to
/// nil; these accessors cover every `@Animatable` and `@LayerProperty` declaration and keep an
/// optional's type.
extension Layer {
    /// The declarations of this layer's stored properties, in the order `propertyKeys` lists them.
    public var propertyDeclarations: [LayerPropertyDeclaration] {
        zip(slotLayout.keys, slots).compactMap { key, slot in
            guard let dynamic = slot as? KeyValueSlot else { return nil }
            return LayerPropertyDeclaration(
                key: key, valueType: dynamic.valueType, isAnimatable: slot.isAnimatable,
                isCustom: slotLayout.customKeys.contains(key))
        }
    }

    /// The value of the stored property `key`, typed as declared (an optional property's value
    /// is an `Optional` of its type, also when nil), or nil when the layer has no such property.
    public func storedValue(forKey key: String) -> Any? {
        guard let i = slotLayout.index[key], let slot = slots[i] as? KeyValueSlot else { return nil }
        return slot.anyValue
    }

    /// Sets the stored property `key` as assigning it would (a rendered model layer runs the
    /// key's action). Returns false when there is no such property or `value` does not have
    /// its declared type (a non-optional value may be given for an optional property).
    @discardableResult
    public func setStoredValue(_ value: Any, forKey key: String) -> Bool {
        guard let i = slotLayout.index[key], let slot = slots[i] as? KeyValueSlot else { return false }
        guard let change = slot.store(value) else { return false }
        // On a presentation copy this records the write, so the copy made over restores it.
        if change.changed { slotDidChange(slots[i], from: change.old) }
        return true
    }
}

/// A stored property of a layer class, as its declaration gives it.
public struct LayerPropertyDeclaration {
    /// The property's name, which is its key.
    public let key: String
    /// The declared type (`Double`, `Color?`, `LineCap` …).
    public let valueType: Any.Type
    /// Declared `@Animatable`.
    public let isAnimatable: Bool
    /// Declared below the library's Layer, ShapeLayer and TextLayer (see `customPropertyKeys`).
    public let isCustom: Bool
}

/// Untyped access to a slot's value, for the accessors above.
protocol KeyValueSlot: AnyObject {
    var valueType: Any.Type { get }
    var anyValue: Any { get }
    /// Stores `value` if it has the slot's type: whether that changed the value, and the old
    /// value for an animatable slot. Nil when the type is wrong.
    func store(_ value: Any) -> (changed: Bool, old: (any Interpolatable)?)?
}

extension AnimatableSlot: KeyValueSlot {
    var valueType: Any.Type { Value.self }
    var anyValue: Any { value }
    func store(_ new: Any) -> (changed: Bool, old: (any Interpolatable)?)? {
        guard let typed = new as? Value else { return nil }
        let old = value
        value = typed
        return (old != typed, old)
    }
}

extension PropertySlot: KeyValueSlot {
    var valueType: Any.Type { Value.self }
    var anyValue: Any { value }
    func store(_ new: Any) -> (changed: Bool, old: (any Interpolatable)?)? {
        guard let typed = new as? Value else { return nil }
        let changed = !same(value, typed)
        value = typed
        return (changed, nil)
    }
}
