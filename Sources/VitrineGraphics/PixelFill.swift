import CMemory
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stores one 32-bit value into a run of pixels at memory speed. A plain Swift loop compiles
/// to 16-byte stores at the baseline instruction set and runs at about half the speed of the C
/// library's `memset`/`wmemset`, which pick the widest stores (or `rep stos`) the CPU has at
/// run time. Short runs stay inline: a call costs more than it saves below a few cache lines.
enum PixelFill {
    /// Runs shorter than this are stored inline.
    static let libraryThreshold = 64

    /// Sets `count` pixels from `p` to `value`.
    @inline(__always)
    static func fill(_ p: UnsafeMutablePointer<UInt32>, _ value: UInt32, count: Int) {
        if count < libraryThreshold {
            p.update(repeating: value, count: count)
        } else {
            fillLong(p, value, count: count)
        }
    }

    /// `fill` for runs worth a library call: `memset` when all four bytes agree (white,
    /// transparent), else `wmemset`, whose unit is 32 bits wide on Linux and Darwin.
    static func fillLong(_ p: UnsafeMutablePointer<UInt32>, _ value: UInt32, count: Int) {
        let byte = value & 0xFF
        if value == byte &* 0x0101_0101 {
            memset(p, Int32(byte), count &* 4)
            return
        }
        p.withMemoryRebound(to: wchar_t.self, capacity: count) {
            _ = wmemset($0, wchar_t(truncatingIfNeeded: value), count)
        }
    }
}
