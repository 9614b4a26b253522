/// The layer tree: sublayers back to front.
extension Layer {
    /// The sublayers, back to front. Setting replaces them all. Defaults to empty.
    public var sublayers: [Layer] {
        get { sublayerStorage }
        set {
            for old in sublayerStorage { old.superlayer = nil }
            sublayerStorage = []
            for layer in newValue { addSublayer(layer) }
            modelDidChange()
        }
    }

    /// Appends `layer` on top of the sublayers (removing it from its old superlayer first).
    public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: sublayerStorage.count)
    }

    /// Inserts `layer` at `index` (clamped to the valid range) among the sublayers.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        guard layer !== self, !isPresentationCopy else { return }
        layer.detach()
        let i = min(max(index, 0), sublayerStorage.count)
        sublayerStorage.insert(layer, at: i)
        layer.superlayer = self
        modelDidChange()
    }

    /// Inserts `layer` just above `sibling` (on top when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        guard layer !== sibling else { return }
        layer.detach()
        if let sibling, let i = sublayerStorage.firstIndex(where: { $0 === sibling }) {
            insertSublayer(layer, at: i + 1)
        } else {
            addSublayer(layer)
        }
    }

    /// Inserts `layer` just below `sibling` (at the bottom when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        guard layer !== sibling else { return }
        layer.detach()
        if let sibling, let i = sublayerStorage.firstIndex(where: { $0 === sibling }) {
            insertSublayer(layer, at: i)
        } else {
            insertSublayer(layer, at: 0)
        }
    }

    /// Puts `new` where `old` is among the sublayers; does nothing when `old` is not one.
    public func replaceSublayer(_ old: Layer, with new: Layer) {
        guard let i = sublayerStorage.firstIndex(where: { $0 === old }), old !== new else { return }
        old.removeFromSuperlayer()
        insertSublayer(new, at: i)
    }

    /// Removes the layer from its superlayer (or from the layer it masks).
    public func removeFromSuperlayer() {
        detach()
    }

    /// Takes the layer out of wherever it is in a tree.
    private func detach() {
        if let parent = superlayer {
            parent.sublayerStorage.removeAll { $0 === self }
            superlayer = nil
            parent.modelDidChange()
        }
        if let owner = maskOwner { owner.mask = nil }
    }

    /// The layer this one takes its coordinates and time from: its superlayer, or the layer it masks.
    var parentInTree: Layer? { superlayer ?? maskOwner }

    /// The top of this layer's tree.
    var rootLayer: Layer {
        var layer = self
        while let p = layer.parentInTree { layer = p }
        return layer
    }

    /// Whether `self` is `layer` or one of its descendants (masks included).
    func isDescendant(of layer: Layer) -> Bool {
        var current: Layer? = self
        while let c = current {
            if c === layer { return true }
            current = c.parentInTree
        }
        return false
    }
}
