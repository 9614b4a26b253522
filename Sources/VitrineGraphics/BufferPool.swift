/// Offscreen buffers a context reuses from frame to frame: bitmaps for transparency layers
/// and mask captures, masks for clips. Each is sized to the device bounds asked for, rounded
/// up to a size class (at most a quarter more), so memory follows the area drawn offscreen
/// rather than the target's size, and the same draw next frame finds its buffer again.
///
/// A buffer is free again as soon as nothing but the pool refers to it (checked with
/// `isKnownUniquelyReferenced`), so a mask handed out to a caller or held by a saved graphics
/// state is never reused underneath it. Buffers not handed out during the last `idleFrames`
/// frames (counted by `endFrame()`) are released, except the largest of each kind: a player's
/// transitions need a canvas-sized transparency layer again and again, and mapping 8 MB anew
/// for each made resident memory swing with every scene change instead of staying level.
final class BufferPool {
    /// Buffers of each kind kept at most; beyond that, the least recently used free one is
    /// replaced, or the new one is simply released when dropped.
    static let limit = 8
    /// Frames a buffer may go unused before `endFrame()` releases it.
    static let idleFrames = 60
    /// The smallest size class, in pixels (one 64 × 64 tile).
    static let minimumClass = 4096

    private var bitmaps: [OffscreenBitmap] = []
    private var masks: [AlphaMask] = []
    private var frame = 0

    /// An empty pool.
    init() {}

    /// A transparent bitmap over `bounds` (device pixels). Callers keep it transparent:
    /// whatever they draw, they clear again before dropping it.
    func bitmap(bounds: IntRect) -> OffscreenBitmap {
        take(bounds: bounds, from: &bitmaps, making: OffscreenBitmap.init(capacity:))
    }

    /// A mask with the given bounds and unspecified values.
    func mask(bounds: IntRect) -> AlphaMask {
        take(bounds: bounds, from: &masks, making: AlphaMask.init(capacity:))
    }

    /// The smallest free buffer of `buffers` that holds `bounds`, or a new one of its size
    /// class (kept for later), reshaped to `bounds`.
    private func take<Buffer: PooledBuffer>(
        bounds: IntRect, from buffers: inout [Buffer],
        making make: (Int) -> Buffer
    ) -> Buffer {
        let area = bounds.area
        var best = -1
        for i in buffers.indices where buffers[i].capacity >= area && isKnownUniquelyReferenced(&buffers[i]) {
            if best < 0 || buffers[i].capacity < buffers[best].capacity { best = i }
        }
        let buffer: Buffer
        if best >= 0 {
            buffer = buffers[best]
        } else {
            buffer = make(BufferPool.sizeClass(for: area))
            keep(buffer, in: &buffers)
        }
        buffer.lastUse = frame
        buffer.reshape(to: bounds)
        return buffer
    }

    /// Ends a frame: releases the buffers not handed out in the last `idleFrames` frames.
    func endFrame() {
        frame &+= 1
        let oldest = frame &- BufferPool.idleFrames
        BufferPool.releaseIdle(&bitmaps, unusedSince: oldest)
        BufferPool.releaseIdle(&masks, unusedSince: oldest)
    }

    /// Releases the buffers the last frame did not hand out, but the largest of each kind
    /// (before a still frame, when nothing draws until something changes).
    func releaseUnused() {
        BufferPool.releaseIdle(&bitmaps, unusedSince: frame &- 1)
        BufferPool.releaseIdle(&masks, unusedSince: frame &- 1)
    }

    /// Drops the buffers last handed out before frame `oldest`, but keeps the largest buffer.
    private static func releaseIdle<Buffer: PooledBuffer>(_ buffers: inout [Buffer], unusedSince oldest: Int) {
        guard buffers.contains(where: { $0.lastUse < oldest }) else { return }
        let largest = buffers.indices.max { buffers[$0].capacity < buffers[$1].capacity }.map { buffers[$0] }
        buffers.removeAll { $0.lastUse < oldest && $0 !== largest }
    }

    /// Bytes of the buffers the pool keeps (pixels and mask values).
    var retainedBytes: Int {
        bitmaps.reduce(0) { $0 + $1.capacity * MemoryLayout<UInt32>.stride } + masks.reduce(0) { $0 + $1.capacity }
    }

    /// The capacity for `area` pixels: `minimumClass`, or `area` rounded up to a multiple of
    /// an eighth of the power of two at or below it (4, 5, 6 or 7 eighths of the next one).
    static func sizeClass(for area: Int) -> Int {
        guard area > minimumClass else { return minimumClass }
        let bits = Int.bitWidth - (area - 1).leadingZeroBitCount
        let step = 1 << (bits - 3)
        return (area + step - 1) / step * step
    }

    /// Adds a new buffer to `buffers`, replacing the least recently used free one when full.
    private func keep<Buffer: PooledBuffer>(_ buffer: Buffer, in buffers: inout [Buffer]) {
        if buffers.count < BufferPool.limit {
            buffers.append(buffer)
            return
        }
        var oldest = -1
        for i in buffers.indices where isKnownUniquelyReferenced(&buffers[i]) {
            if oldest < 0 || buffers[i].lastUse < buffers[oldest].lastUse { oldest = i }
        }
        if oldest >= 0 { buffers[oldest] = buffer }
    }
}

/// A buffer `BufferPool` hands out and trims.
protocol PooledBuffer: AnyObject {
    /// Pixels the storage holds.
    var capacity: Int { get }
    /// The pool frame in which the buffer was last handed out.
    var lastUse: Int { get set }
    /// Takes new bounds of at most `capacity` pixels.
    func reshape(to bounds: IntRect)
}

extension OffscreenBitmap: PooledBuffer {}
extension AlphaMask: PooledBuffer {}
