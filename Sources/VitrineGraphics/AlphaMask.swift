import Glibc

/// An 8-bit coverage mask in device space: 255 lets drawing through, 0 blocks it, values in
/// between scale its coverage. The mask covers `bounds`; everything outside reads as 0.
///
/// `GraphicsContext.clip(toMask:)` clips through one; `GraphicsContext.endMaskCapture()`
/// makes one from drawn content (layer masks).
public final class AlphaMask {
    /// The device pixels the mask stores; outside them the mask is 0.
    public private(set) var bounds: IntRect
    /// Bytes per row (equal to `bounds.width`).
    public var stride: Int { bounds.width }
    /// Row-major values of `bounds`, `stride` bytes per row.
    public let bytes: UnsafeMutablePointer<UInt8>
    /// Bytes allocated; pooled masks take any bounds up to their pool size class.
    let capacity: Int
    /// The pool frame in which the mask was last handed out (for trimming).
    var lastUse = 0

    /// A mask over `bounds`, every value `value` (default 0, blocking everything).
    public init(bounds: IntRect, value: UInt8 = 0) {
        let b = bounds.isEmpty ? IntRect(x: bounds.x, y: bounds.y, width: 0, height: 0) : bounds
        self.bounds = b
        capacity = max(1, b.area)
        bytes = AlphaMask.zeroedBytes(capacity)
        if value != 0 { bytes.update(repeating: value, count: capacity) }
    }

    /// A mask over `0..<width × 0..<height` (a whole target), every value `value`.
    public convenience init(width: Int, height: Int, value: UInt8 = 0) {
        self.init(bounds: IntRect(x: 0, y: 0, width: max(0, width), height: max(0, height)), value: value)
    }

    /// An empty mask able to take any bounds of up to `capacity` pixels (for pools).
    init(capacity: Int) {
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
        self.capacity = max(1, capacity)
        bytes = AlphaMask.zeroedBytes(self.capacity)
    }

    deinit { free(bytes) }

    /// `count` zero bytes from `calloc`: pages never written are never made resident.
    private static func zeroedBytes(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        calloc(count, 1)!.bindMemory(to: UInt8.self, capacity: count)
    }

    /// Gives a pooled mask new bounds; its values are unspecified until written.
    func reshape(to bounds: IntRect) {
        precondition(bounds.area <= capacity, "mask bounds exceed the pooled capacity")
        self.bounds = bounds.isEmpty ? IntRect(x: bounds.x, y: bounds.y, width: 0, height: 0) : bounds
    }

    /// A mask of its own with the same bounds and values (to keep a pooled mask's contents).
    func copy() -> AlphaMask {
        let out = AlphaMask(bounds: bounds)
        if !bounds.isEmpty { out.bytes.update(from: bytes, count: bounds.area) }
        return out
    }

    /// The value at device pixel (x, y): 0 outside `bounds`. Writes outside `bounds` are ignored.
    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            guard x >= bounds.x, x < bounds.maxX, y >= bounds.y, y < bounds.maxY else { return 0 }
            return bytes[(y - bounds.y) * stride + (x - bounds.x)]
        }
        set {
            guard x >= bounds.x, x < bounds.maxX, y >= bounds.y, y < bounds.maxY else { return }
            bytes[(y - bounds.y) * stride + (x - bounds.x)] = newValue
        }
    }

    /// The stored values of device row `y` (which must lie in `bounds`), starting at `bounds.x`.
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        bytes + (y - bounds.y) * stride
    }

    /// Row `y` addressed by device x: element `x` is the value at (x, y). Only indices in
    /// `bounds.x..<bounds.maxX` may be read. (The pointer itself may lie before the buffer.)
    @inline(__always)
    func deviceRow(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        bytes + ((y - bounds.y) * stride - bounds.x)
    }

    /// The sum of every value divided by 255: the covered area in pixels.
    public var coveredArea: Double {
        var total = 0
        for i in 0..<bounds.area { total += Int(bytes[i]) }
        return Double(total) / 255
    }
}
