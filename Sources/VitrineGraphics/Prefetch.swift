import CMemory

/// Cache prefetch of destination pixels a few rows ahead of the sweep. A shape's rows lie a
/// whole bitmap row apart, so each row's first pixel is a cache miss the hardware prefetcher
/// does not foresee; with short per-row work (small shapes), those misses would otherwise be
/// taken one after another.
enum Prefetch {
    /// How many rows ahead of the one being swept to prefetch.
    static let rowsAhead = 3

    /// Prefetches, for writing, the cache lines of `count` (≥ 1) pixels from `start`.
    @inline(__always)
    static func pixels(_ start: UnsafeMutablePointer<UInt32>, count: Int) {
        let lineBytes = 64
        var address = UInt(bitPattern: start) & ~UInt(lineBytes - 1)
        let last = UInt(bitPattern: start + (count &- 1))
        repeat {
            vitrine_prefetch_for_write(UnsafeRawPointer(bitPattern: address))
            address &+= UInt(lineBytes)
        } while address <= last
    }

    /// Prefetches, for writing, the one or two cache lines of the eight pixels from `start`
    /// (a group of the sweep): two hints, no loop.
    @inline(__always)
    static func eightPixels(_ start: UnsafeMutablePointer<UInt32>) {
        vitrine_prefetch_for_write(start)
        vitrine_prefetch_for_write(start + 7)
    }
}
