import VitrineAnimation
import VitrineConfig

extension SceneInstance {
    /// The frame the player shows `time` seconds after `definition` started (no transition),
    /// computed as the player computes it — a fresh instance on an engine, started at 0 — but
    /// on virtual time, so the result is exact and repeatable. Used by `vitrine render`.
    public static func evaluate(
        _ definition: SceneDefinition, playlist: Playlist,
        at time: Double
    ) throws -> (scene: SceneInstance, frame: FrameUpdate) {
        let scene = try SceneInstance(definition, playlist: playlist)
        let engine = Engine(root: scene.root)
        scene.attach(to: engine)
        scene.start(at: 0)
        var frame = engine.tick(at: 0)
        if time > 0 && time.isFinite {
            frame = engine.tick(at: time)
        }
        return (scene, frame)
    }
}
