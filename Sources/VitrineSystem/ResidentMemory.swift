import Glibc

/// This process's resident memory, as the kernel counts it.
public enum ResidentMemory {
    /// Bytes resident now (`/proc/self/statm`'s second field, in pages), nil where unreadable.
    /// (A /proc file reports no size, so it is read as far as it goes, not as `Files` reads.)
    public static func currentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
