import VitrineConfig
import VitrineGraphics

/// Where a design canvas goes on a screen, by the playlist's `fit`: scaled uniformly to fit and
/// centred with the rest left to the background (`contain`: letterbox bars above and below, or
/// pillarbox bars at the sides), scaled uniformly to cover the screen and centred with the
/// overflow cut off (`cover`), or scaled on each axis to the screen (`stretch`).
public struct Letterbox: Equatable, Sendable {
    /// The factor from canvas units to screen pixels, horizontally.
    public var scaleX: Double
    /// The factor from canvas units to screen pixels, vertically.
    public var scaleY: Double
    /// The canvas's rectangle on the screen, in pixels (origin rounded to whole pixels so the
    /// canvas edges fall on pixel boundaries when the scaled size is whole); with `cover` it
    /// reaches past the screen on two sides.
    public var frame: Rect

    /// The uniform factor from canvas units to screen pixels (`contain` and `cover`).
    public var scale: Double { scaleX }

    /// `canvas` placed on `screen` as `fit` says. An empty canvas or screen gives scale 0 and
    /// an empty frame at the screen's centre.
    public init(canvas: Size, screen: Size, fit: CanvasFit = .contain) {
        guard canvas.width > 0, canvas.height > 0, screen.width > 0, screen.height > 0 else {
            scaleX = 0
            scaleY = 0
            frame = Rect(x: max(0, screen.width) / 2, y: max(0, screen.height) / 2, width: 0, height: 0)
            return
        }
        let toWidth = screen.width / canvas.width, toHeight = screen.height / canvas.height
        switch fit {
        case .contain: (scaleX, scaleY) = (min(toWidth, toHeight), min(toWidth, toHeight))
        case .cover: (scaleX, scaleY) = (max(toWidth, toHeight), max(toWidth, toHeight))
        case .stretch: (scaleX, scaleY) = (toWidth, toHeight)
        }
        let width = canvas.width * scaleX, height = canvas.height * scaleY
        // The fitted side equals the screen's up to rounding (1920 × (1000 / 1920) is a hair over
        // 1000): a margin of -6e-14 must place the canvas at 0, not at -1.
        func origin(_ margin: Double) -> Double {
            abs(margin) < 1e-6 ? 0 : (margin / 2 + 1e-6).rounded(.down)
        }
        frame = Rect(x: origin(screen.width - width), y: origin(screen.height - height), width: width, height: height)
    }
}
