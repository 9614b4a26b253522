import VitrineAnimation
import VitrineGraphics

extension SceneInstance {
    /// The frame the player shows `time` seconds after `definition` started (no transition), as
    /// a `width × height` picture: the player's background, and over it the canvas scaled to fit
    /// (aspect kept, letterboxed) and drawn by the layer renderer. Exact and repeatable.
    public static func renderStill(_ definition: SceneDefinition, playlist: Playlist, at time: Double,
                                   width: Int, height: Int) throws -> Bitmap {
        let (_, frame) = try evaluate(definition, playlist: playlist, at: time)
        let bitmap = Bitmap(width: width, height: height)
        let context = GraphicsContext(bitmap: bitmap)
        context.clear(playlist.settings.background)
        let fit = CanvasFit(canvas: playlist.settings.canvas, width: width, height: height)
        context.concatenate(fit.transform)
        LayerRenderer().render(frame.presentation, into: context)
        return bitmap
    }
}
