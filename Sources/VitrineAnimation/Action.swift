/// Something a layer runs when one of its properties changes (CAAction). Animations are actions:
/// running one adds it to the layer under the property's key.
public protocol Action: AnyObject {
    /// Runs the action for the property `key` of `layer`.
    func run(forKey key: String, object layer: Layer, arguments: [String: Any]?)
}

/// The null action (NSNull in Core Animation): returned from a delegate or stored in `actions`,
/// it ends the search and the change does not animate.
public final class NullAction: Action {
    /// The shared null action.
    public static let shared = NullAction()
    private init() {}
    /// Does nothing.
    public func run(forKey key: String, object layer: Layer, arguments: [String: Any]?) {}
}
