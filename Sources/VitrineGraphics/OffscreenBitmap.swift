import Glibc
import VitrineSystem

/// Premultiplied pixels covering a device-space rectangle (`bounds`), for a transparency layer
/// or a mask capture: only the pixels an offscreen level can touch (its clip box), not the
/// whole target.
///
/// The storage is allocated once for a capacity (a pool size class) and reshaped to any bounds
/// that fit. It is zeroed lazily by the system (`calloc`), so capacity no bounds reach does not
/// become resident; while pooled, every pixel of the capacity is transparent. The pixels bounds
/// reach for the first time are made resident for writing at once (`populated`): a level's
/// pixels are read before they are written (blending onto them, a composite consuming them),
/// and a page first read then written costs two faults and, while band threads run, an
/// interrupt to every core to flush the first mapping (a fade's first frame at 4K spent a
/// quarter of its time so).
final class OffscreenBitmap {
    /// The device pixels stored; rows are `bounds.width` pixels apart.
    private(set) var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// The storage, `capacity` pixels.
    let pixels: UnsafeMutablePointer<UInt32>
    /// Pixels allocated.
    let capacity: Int
    /// The pool frame in which the bitmap was last handed out (for trimming).
    var lastUse = 0
    /// How many pixels from the start of the storage some bounds reached (and were populated).
    private var populated = 0

    /// Transparent storage for bounds of up to `capacity` pixels.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        pixels = calloc(self.capacity, MemoryLayout<UInt32>.stride)!
            .bindMemory(to: UInt32.self, capacity: self.capacity)
    }

    deinit { free(pixels) }

    /// Gives the bitmap new bounds; it must be transparent (as pooled bitmaps are).
    func reshape(to bounds: IntRect) {
        precondition(bounds.area <= capacity, "offscreen bounds exceed the pooled capacity")
        self.bounds = bounds.isEmpty ? IntRect(x: bounds.x, y: bounds.y, width: 0, height: 0) : bounds
        let used = self.bounds.area
        if used > populated {
            let bytes = (used - populated) * MemoryLayout<UInt32>.stride
            ResidentMemory.populateForWriting(UnsafeMutableRawPointer(pixels + populated), bytes: bytes)
            populated = used
        }
    }

    /// Where drawing into this bitmap goes.
    var drawTarget: DrawTarget { DrawTarget(pixels: pixels, bounds: bounds, stride: bounds.width) }
}

/// Pixels drawing can go to, addressed in device coordinates: a whole bitmap, or an
/// offscreen bitmap that covers part of the device.
struct DrawTarget {
    /// The pixel at `bounds`' top-left corner.
    let pixels: UnsafeMutablePointer<UInt32>
    /// The device pixels stored.
    let bounds: IntRect
    /// Pixels per row.
    let stride: Int

    /// Row `y` addressed by device x: element `x` is the pixel at (x, y). Only `y` and `x` in
    /// `bounds` may be used. (The pointer itself may lie before the storage.)
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        pixels + ((y - bounds.y) * stride - bounds.x)
    }
}

extension DrawTarget {
    /// All of `bitmap`.
    init(_ bitmap: Bitmap) {
        self.init(
            pixels: bitmap.pixels, bounds: IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height),
            stride: bitmap.stride)
    }
}
