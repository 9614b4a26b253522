import Foundation

/// A 32-bit premultiplied-alpha raster. Each pixel is a `UInt32` whose value is
/// A<<24 | R<<16 | G<<8 | B, i.e. bytes B, G, R, A in memory on little-endian: the layout of an
/// X11 TrueColor ZPixmap of depth 24/32, so a frame reaches the screen without conversion.
///
/// A reference type: frames are large, and the renderer, the presenter and the damage tracker
/// share one without copying. It owns its memory, or wraps memory someone else hands out (a
/// presenter's shared-memory frame buffer) for as long as it lives.
public final class Bitmap {
    public let width: Int
    public let height: Int
    /// Pixels per row (≥ width).
    public let stride: Int
    /// The first pixel of the first row; rows follow `stride` pixels apart.
    public let pixels: UnsafeMutablePointer<UInt32>

    /// A bitmap of `width` × `height` pixels, every pixel transparent black.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "bitmap size must not be negative")
        self.width = width
        self.height = height
        self.stride = width
        let count = max(1, width * height)
        pixels = .allocate(capacity: count)
        pixels.initialize(repeating: 0, count: count)
        release = nil
    }

    /// A bitmap over `height` rows of `stride` pixels at `pixels` that someone else owns (e.g. a
    /// shared-memory segment an X server reads). The memory keeps its content; `release` runs
    /// when the bitmap goes away, so the owner can keep the memory alive until then.
    public init(wrapping pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int,
                release: @escaping () -> Void) {
        precondition(width >= 0 && height >= 0 && stride >= width, "bitmap size must not be negative")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        self.release = release
    }

    deinit {
        if let release { release() } else { pixels.deallocate() }
    }

    /// Hands wrapped memory back to its owner; nil for memory the bitmap allocated.
    private let release: (() -> Void)?

    public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// A pointer to the first pixel of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { pixels + y * stride }

    /// The premultiplied pixel at (x, y).
    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * stride + x] }
        set { pixels[y * stride + x] = newValue }
    }

    /// Sets every pixel to one premultiplied value (no blending).
    public func fill(_ pixel: UInt32) {
        for y in 0..<height { row(y).update(repeating: pixel, count: width) }
    }

    /// Sets every pixel of `rect` (clipped to the bitmap, pixel-aligned) to one premultiplied
    /// value (no blending).
    public func fill(_ pixel: UInt32, in rect: IntRect) {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        for y in r.y..<(r.y + r.height) { (row(y) + r.x).update(repeating: pixel, count: r.width) }
    }

    /// Copies `rect` of `source` (same size as this bitmap) into the same place here.
    public func copy(from source: Bitmap, in rect: IntRect) {
        precondition(source.width == width && source.height == height)
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        for y in r.y..<(r.y + r.height) {
            (row(y) + r.x).update(from: source.row(y) + r.x, count: r.width)
        }
    }
}

/// A pixel-aligned rectangle: dirty regions, clip boxes, presenter updates.
public struct IntRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The smallest pixel rectangle containing `rect` (empty for a null or empty rect).
    public init(enclosing rect: Rect) {
        guard !rect.isNull, rect.width > 0, rect.height > 0,
              rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
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
