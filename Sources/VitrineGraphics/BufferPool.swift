/// Offscreen buffers a context reuses from frame to frame: bitmaps for transparency layers
/// and mask captures, masks for clips. A buffer is free again as soon as nothing but the pool
/// refers to it (checked with `isKnownUniquelyReferenced`), so a mask handed out to a caller
/// or held by a saved graphics state is never reused underneath it.
final class BufferPool {
    /// Buffers kept beyond this many are simply released when dropped.
    private static let limit = 8

    private var bitmaps: [Bitmap] = []
    private var masks: [AlphaMask] = []
    private let width: Int
    private let height: Int

    /// A pool for a target of `width × height` pixels.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A transparent bitmap the size of the target. Callers keep it transparent: whatever
    /// they draw, they clear again before dropping it.
    func bitmap() -> Bitmap {
        for i in bitmaps.indices where isKnownUniquelyReferenced(&bitmaps[i]) {
            return bitmaps[i]
        }
        let b = Bitmap(width: width, height: height)
        if bitmaps.count < BufferPool.limit { bitmaps.append(b) }
        return b
    }

    /// A mask with the given bounds (within the target) and unspecified values.
    func mask(bounds: IntRect) -> AlphaMask {
        for i in masks.indices where isKnownUniquelyReferenced(&masks[i]) {
            masks[i].reshape(to: bounds)
            return masks[i]
        }
        let m = AlphaMask(capacity: max(width * height, bounds.area))
        m.reshape(to: bounds)
        if masks.count < BufferPool.limit { masks.append(m) }
        return m
    }
}
