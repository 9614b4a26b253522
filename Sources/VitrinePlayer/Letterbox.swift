import VitrineConfig
import VitrineGraphics

/// Where a design canvas goes on a screen: scaled uniformly to fit, centred, the rest left to
/// the background (letterbox bars above and below, or pillarbox bars at the sides).
public struct Letterbox: Equatable, Sendable {
    /// The factor from canvas units to screen pixels.
    public var scale: Double
    /// The canvas's rectangle on the screen, in pixels (origin rounded to whole pixels so the
    /// canvas edges fall on pixel boundaries when the scaled size is whole).
    public var frame: Rect

    /// The largest placement of `canvas` inside `screen` keeping its aspect ratio, centred.
    /// An empty canvas or screen gives scale 0 and an empty frame at the screen's centre.
    public init(canvas: Size, screen: Size) {
        guard canvas.width > 0, canvas.height > 0, screen.width > 0, screen.height > 0 else {
            scale = 0
            frame = Rect(x: max(0, screen.width) / 2, y: max(0, screen.height) / 2, width: 0, height: 0)
            return
        }
        scale = min(screen.width / canvas.width, screen.height / canvas.height)
        let width = canvas.width * scale, height = canvas.height * scale
        // The fitted side equals the screen's up to rounding (1920 × (1000 / 1920) is a hair over
        // 1000): a margin of -6e-14 must place the canvas at 0, not at -1.
        func origin(_ margin: Double) -> Double { max(0, (margin / 2 + 1e-6).rounded(.down)) }
        frame = Rect(x: origin(screen.width - width), y: origin(screen.height - height), width: width, height: height)
    }
}
