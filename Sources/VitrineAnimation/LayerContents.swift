import VitrineGraphics

/// An image a layer shows as its `contents`. VitrineGraphics' image type conforms where the
/// renderer is built; the layer model only needs the image's size to place it.
public protocol LayerContents: AnyObject {
    /// The image's size in pixels.
    var contentsSize: Size { get }
}

/// How a layer's contents image is placed in its bounds (kCAGravity…). Screen coordinates:
/// `top` is the edge with the smallest y.
public enum ContentsGravity: String, Sendable, CaseIterable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    /// Stretched to fill the bounds.
    case resize
    /// Scaled to fit inside the bounds, keeping its aspect ratio, centred.
    case resizeAspect
    /// Scaled to cover the bounds, keeping its aspect ratio, centred (overflow is cut by
    /// `masksToBounds`).
    case resizeAspectFill

    /// The rectangle, in the layer's coordinates, that an image of `size` occupies in `bounds`.
    public func rect(forContentsOf size: Size, in bounds: Rect) -> Rect {
        let b = bounds.standardized
        let w = abs(size.width), h = abs(size.height)
        func placed(_ cw: Double, _ ch: Double, horizontal: Double, vertical: Double) -> Rect {
            Rect(
                x: b.minX + (b.width - cw) * horizontal, y: b.minY + (b.height - ch) * vertical,
                width: cw, height: ch)
        }
        switch self {
        case .resize: return b
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return Rect(origin: b.center, size: .zero) }
            let sx = b.width / w, sy = b.height / h
            let s = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
            return placed(w * s, h * s, horizontal: 0.5, vertical: 0.5)
        case .center: return placed(w, h, horizontal: 0.5, vertical: 0.5)
        case .top: return placed(w, h, horizontal: 0.5, vertical: 0)
        case .bottom: return placed(w, h, horizontal: 0.5, vertical: 1)
        case .left: return placed(w, h, horizontal: 0, vertical: 0.5)
        case .right: return placed(w, h, horizontal: 1, vertical: 0.5)
        case .topLeft: return placed(w, h, horizontal: 0, vertical: 0)
        case .topRight: return placed(w, h, horizontal: 1, vertical: 0)
        case .bottomLeft: return placed(w, h, horizontal: 0, vertical: 1)
        case .bottomRight: return placed(w, h, horizontal: 1, vertical: 1)
        }
    }
}
