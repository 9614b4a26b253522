/// A pixel-aligned rectangle: dirty regions, clip boxes, presenter updates.
public struct IntRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The smallest pixel rectangle containing `rect` (empty for a null or empty rect).
    public init(enclosing rect: Rect) {
        guard !rect.isNull, rect.width > 0, rect.height > 0,
            rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite
        else {
            self.init(x: 0, y: 0, width: 0, height: 0); return
        }
        let limit = Double(Int32.max / 2)
        let x0 = Int(max(-limit, min(limit, rect.minX.rounded(.down))))
        let y0 = Int(max(-limit, min(limit, rect.minY.rounded(.down))))
        let x1 = Int(max(-limit, min(limit, rect.maxX.rounded(.up))))
        let y1 = Int(max(-limit, min(limit, rect.maxY.rounded(.up))))
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { isEmpty ? 0 : width * height }
    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
    public var description: String { "\(x),\(y) \(width)x\(height)" }

    /// Whether every pixel of `o` is one of this rectangle's (an empty `o` always is).
    public func contains(_ o: IntRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }

    /// Grown by `d` pixels on every side (shrunk for a negative `d`).
    public func outset(by d: Int) -> IntRect {
        IntRect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }

    public func intersection(_ o: IntRect) -> IntRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        if x1 <= x0 || y1 <= y0 { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return IntRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    public func intersects(_ o: IntRect) -> Bool { !intersection(o).isEmpty }
}
