import VitrineAnimation
import VitrineConfig
import VitrineGraphics

/// The one way a frame of the player is made, whatever then shows it (a presenter's screen, the
/// headless backend's files, `vitrine render`, the benchmarks): the player's state at the
/// frame's time (scenes starting and ending, requests carried out), then the engine's tick, the
/// damage and the layer rendering into one bitmap, with the canvas placed by `Letterbox`.
public final class PlayerFrames {
    /// The playlist state machine whose stage is drawn.
    public let player: Player
    /// Ticks the player's engine and repaints the damaged part of the bitmap.
    public let renderer: FrameRenderer

    /// Frames of `player` drawn into `bitmap` (a presenter's frame buffer, or a picture of its
    /// own), laid out for a screen of the bitmap's size.
    public init(player: Player, bitmap: Bitmap) {
        self.player = player
        renderer = FrameRenderer(engine: player.engine, bitmap: bitmap, background: player.playlist.settings.background)
        let size = Size(width: Double(bitmap.width), height: Double(bitmap.height))
        if player.screenSize != size { player.layout(for: size) }
    }

    /// The bitmap frames are drawn into.
    public var bitmap: Bitmap { renderer.bitmap }

    /// Makes the frame at engine time `t`: what the player did to get there, and the pixels
    /// repainted (`result.dirty`, for presenting).
    public func makeFrame(at t: Double) throws -> (events: [PlayerEvent], result: FrameResult) {
        let events = try player.frameWillRender(at: t)
        // Setting the background repaints the frame whole: only when a reload changed it.
        let background = player.playlist.settings.background
        if renderer.background != background { renderer.background = background }
        return (events, renderer.renderFrame(at: t))
    }

    /// Draws into `bitmap` from now on, laid out for a screen of its size (the output changed
    /// size); the next frame is repainted whole.
    public func use(_ bitmap: Bitmap) {
        player.layout(for: Size(width: Double(bitmap.width), height: Double(bitmap.height)))
        renderer.use(bitmap)
    }
}
