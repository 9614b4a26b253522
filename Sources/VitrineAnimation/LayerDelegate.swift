import VitrineGraphics

/// A layer's delegate (CALayerDelegate): supplies actions and may provide contents itself.
/// Every method has a default, so a delegate implements only what it needs.
public protocol LayerDelegate: AnyObject {
    /// The action for a change of `key` on `layer`: nil lets the layer keep searching
    /// (`actions`, then its class default), `NullAction.shared` means no animation.
    func action(for layer: Layer, forKey key: String) -> Action?
    /// Sets the layer's `contents` itself instead of letting it draw; return true when it did.
    /// The default returns false.
    func display(_ layer: Layer) -> Bool
    /// Draws `layer`'s content in its coordinates (CALayerDelegate's drawLayer:inContext:), called
    /// by the layer's default `draw(in:)` with the presentation copy. Like Core Animation, the
    /// renderer asks for drawing only once `setNeedsDisplay()` has been called on the layer
    /// (or its class names keys in `needsDisplay(forKey:)`). The default draws nothing.
    func draw(_ layer: Layer, in ctx: GraphicsContext)
}

extension LayerDelegate {
    public func action(for layer: Layer, forKey key: String) -> Action? { nil }
    public func display(_ layer: Layer) -> Bool { false }
    public func draw(_ layer: Layer, in ctx: GraphicsContext) {}
}
