import Glibc
import VitrineSystem

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
        // Zeroed by calloc (a fresh mapping for a large one, not cleared again) and written
        // whole by its user: a large one's pages are faulted in at once.
        guard let block = calloc(count, 4) else { fatalError("out of memory for a \(width)x\(height) bitmap") }
        if count * 4 >= Bitmap.populatedBytes { ResidentMemory.populateForWriting(block, bytes: count * 4) }
        pixels = block.bindMemory(to: UInt32.self, capacity: count)
        release = nil
    }

    /// A bitmap over `height` rows of `stride` pixels at `pixels` that someone else owns (e.g. a
    /// shared-memory segment an X server reads). The memory keeps its content; `release` runs
    /// when the bitmap goes away, so the owner can keep the memory alive until then.
    public init(
        wrapping pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int,
        release: @escaping () -> Void
    ) {
        precondition(width >= 0 && height >= 0 && stride >= width, "bitmap size must not be negative")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        self.release = release
    }

    /// Bitmaps of this many bytes and more are faulted in by one call when made.
    static let populatedBytes = 256 * 1024

    deinit {
        if let release { release() } else { free(pixels) }
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
