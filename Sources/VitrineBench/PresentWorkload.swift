import VitrineDisplay
import VitrineGraphics

/// What a benchmark changes in each frame, as a player typically would.
public enum PresentWorkload: Equatable, Sendable, CustomStringConvertible {
    /// Every pixel changes: the whole frame is dirty.
    case fullFrame
    /// A square of this side moves across the frame: old and new places are dirty.
    case movingSquare(side: Int)

    public var description: String {
        switch self {
        case .fullFrame: return "full frame"
        case .movingSquare(let side): return "moving \(side)x\(side) square"
        }
    }

    /// Draws frame `index` into `bitmap` and returns its dirty rectangles.
    public func draw(frame index: Int, into bitmap: Bitmap) -> [IntRect] {
        let colour: UInt32 = 0xFF00_0000 | UInt32(truncatingIfNeeded: index &* 0x0010_2040) & 0x00FF_FFFF
        switch self {
        case .fullFrame:
            bitmap.fill(colour)
            return [IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)]
        case .movingSquare(let side):
            let old = square(side, frame: index - 1, in: bitmap), new = square(side, frame: index, in: bitmap)
            bitmap.fill(0xFF00_0000, in: old)
            bitmap.fill(colour, in: new)
            return old.intersects(new) ? [old.union(new)] : [old, new]
        }
    }

    private func square(_ side: Int, frame: Int, in bitmap: Bitmap) -> IntRect {
        let travel = max(1, bitmap.width - side)
        let step = max(0, frame) * 8 % (2 * travel)
        let x = step < travel ? step : 2 * travel - step
        return IntRect(x: x, y: max(0, (bitmap.height - side) / 2), width: side, height: side)
    }
}
