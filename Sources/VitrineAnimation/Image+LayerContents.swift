import VitrineGraphics

/// Images are what layers show as `contents`: `layer.contents = image`.
extension Image: LayerContents {
    /// The image's size in pixels.
    public var contentsSize: Size { size }
}
