/// What the renderer makes for one layer and draws again while it still serves: a shadow's
/// blurred shape, a layer in space's flat image. One per model layer, kept through the passes
/// that draw (or keep) it and dropped by the first that does not, when its model layer goes, or
/// when the drawing of the layer or of one of its sublayers changes unseen by presentation
/// copies (`setNeedsDisplay`).
final class KeptPerLayer<Value> {
    private final class Entry {
        /// The owner's reference (`Layer.cacheOwner`: the model layer, or a transition's old
        /// look; its layer is nil once the owner is gone).
        let owner: LayerReference
        /// The presentation copy the value was made from.
        let source: Layer
        let value: Value
        var lastPass: Int

        init(owner: Layer, source: Layer, value: Value, pass: Int) {
            self.owner = owner.reference
            self.source = source
            self.value = value
            lastPass = pass
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// How many values were made (for tests and benchmarks).
    private(set) var renderCount = 0

    /// The kept value for `layer` when `serves` accepts it (given the copy it was made from),
    /// marked as used by `pass`; else nil.
    func servedValue(for layer: Layer, pass: Int, serves: (_ source: Layer, _ value: Value) -> Bool) -> Value? {
        let owner = layer.cacheOwner()
        guard let entry = entries[ObjectIdentifier(owner)], entry.owner === owner.reference,
            serves(entry.source, entry.value)
        else { return nil }
        entry.lastPass = pass
        return entry.value
    }

    /// Forgets the layer's value and returns it. A value that no longer serves goes before its
    /// replacement is made, so a layer's new image (a turning card's plane at its next scale,
    /// a 4K frame's worth) and the one it replaces are not held at once: the peak of resident
    /// memory. A thread drawing with the old one holds its own reference.
    func removeValue(for layer: Layer) -> Value? {
        entries.removeValue(forKey: ObjectIdentifier(layer.cacheOwner()))?.value
    }

    /// Keeps `value`, made from `layer` (a presentation copy), for its model layer (for a
    /// transition's old look, for the look: `Layer.cacheOwner`).
    func insert(_ value: Value, for layer: Layer, pass: Int) {
        let owner = layer.cacheOwner()
        renderCount += 1
        entries[ObjectIdentifier(owner)] = Entry(owner: owner, source: layer, value: value, pass: pass)
    }

    /// Keeps the layer's value (if any) through a pass that does not draw it.
    func keep(_ layer: Layer, pass: Int) {
        guard !entries.isEmpty, let entry = entries[ObjectIdentifier(layer.cacheOwner())] else { return }
        entry.lastPass = pass
    }

    /// Forgets the values of `model` and its ancestors.
    func invalidate(from model: Layer) {
        guard !entries.isEmpty else { return }
        var layer: Layer? = model
        while let l = layer {
            entries[ObjectIdentifier(l)] = nil
            layer = l.superlayer ?? l.maskOwner
        }
    }

    /// Drops the values not drawn or kept in this pass.
    func endPass(_ pass: Int) {
        guard entries.values.contains(where: { $0.lastPass != pass || $0.owner.layer == nil }) else { return }
        entries = entries.filter { $0.value.lastPass == pass && $0.value.owner.layer != nil }
    }

    func removeAll() { entries.removeAll() }
}

extension Layer {
    /// Whether this presentation copy draws what `before` (a copy of the same layer) drew,
    /// apart from the properties named in `ignoring`: the same copy, or one with the same
    /// sublayer copies and mask and the same values but those.
    func drawsTheSame(as before: Layer, ignoring keys: Set<String>) -> Bool {
        if self === before { return true }
        guard slotLayout === before.slotLayout, sublayerStorage.count == before.sublayerStorage.count,
            maskStorage === before.maskStorage
        else { return false }
        for (a, b) in zip(sublayerStorage, before.sublayerStorage) where a !== b { return false }
        let names = slotLayout.keys
        for i in slots.indices where !slots[i].hasSameValue(asSameType: before.slots[i]) {
            if !keys.contains(names[i]) { return false }
        }
        return true
    }
}
