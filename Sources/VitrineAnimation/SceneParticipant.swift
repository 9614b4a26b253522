/// Work a layer needs from the scene beyond its properties: the scene calls these hooks.
public protocol SceneParticipant: Layer {
    /// The scene has started playing (its root's time is now the scene time).
    func sceneDidStart()
    /// Installs per-frame work on the engine running the scene; returns the observer tokens.
    func attachFrameObservers(to engine: Engine) -> [Int]
}
