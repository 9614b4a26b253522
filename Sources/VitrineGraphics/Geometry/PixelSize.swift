/// A size in whole pixels: a screen, a window, a frame.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// The size of `bitmap`.
    public init(of bitmap: Bitmap) { self.init(width: bitmap.width, height: bitmap.height) }

    /// The rectangle at the origin with this size.
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    public var description: String { "\(width)x\(height)" }
}
