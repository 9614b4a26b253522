import VitrineAnimation
import VitrineGraphics

/// Decoded images are what a config's `contents` key loads into a layer.
extension Image: LayerContents {
    /// The image's size in pixels.
    public var contentsSize: Size { size }
}
