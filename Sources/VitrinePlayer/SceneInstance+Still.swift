import VitrineAnimation
import VitrineConfig
import VitrineGraphics

extension SceneInstance {
    /// The frame the player shows `time` seconds after `definition` started (no transition), as
    /// a `width × height` picture: made by `PlayerFrames`, as every frame of `play` is (the
    /// player's background, the canvas letterboxed onto the picture, the layer renderer), on
    /// virtual time, so it is exact and repeatable.
    public static func renderStill(
        _ definition: SceneDefinition, playlist: Playlist, at time: Double,
        width: Int, height: Int
    ) throws -> Bitmap {
        // A scene that cannot be built throws `PlayerError` with the scene's own error.
        var single = playlist
        single.scenes = [definition]
        let player = Player(
            playlist: single, screenSize: Size(width: Double(width), height: Double(height)),
            holdsScene: true)
        let frames = PlayerFrames(player: player, bitmap: Bitmap(width: width, height: height))
        _ = try frames.makeFrame(at: 0)
        if time > 0 && time.isFinite {
            frames.renderer.setNeedsFullFrame()
            _ = try frames.makeFrame(at: time)
        }
        return frames.bitmap
    }
}
