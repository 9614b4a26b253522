import VitrineGraphics

/// How the design canvas sits on an output: scaled to fit while keeping its aspect ratio,
/// centred, the rest (the letterbox bars) left to the player's background.
public struct CanvasFit: Equatable {
    /// The scale from canvas units to output pixels.
    public let scale: Double
    /// Where the canvas lands on the output, in output pixels.
    public let placement: Rect

    /// The fit of `canvas` into an output of `width × height` pixels.
    public init(canvas: Size, width: Int, height: Int) {
        let w = Double(max(0, width)), h = Double(max(0, height))
        let s = canvas.width > 0 && canvas.height > 0 ? min(w / canvas.width, h / canvas.height) : 0
        scale = s
        placement = Rect(x: (w - canvas.width * s) / 2, y: (h - canvas.height * s) / 2,
                         width: canvas.width * s, height: canvas.height * s)
    }

    /// Canvas coordinates to output pixels: scale, then move to the placement.
    public var transform: AffineTransform {
        AffineTransform(scaleX: scale, y: scale)
            .concatenating(AffineTransform(translationX: placement.minX, y: placement.minY))
    }
}
