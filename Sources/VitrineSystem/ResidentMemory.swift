import Glibc

/// This process's resident memory, as the kernel counts it.
public enum ResidentMemory {
    /// Bytes resident now (`/proc/self/statm`'s second field, in pages), nil where unreadable.
    public static func currentBytes() -> Int? {
        guard let statm = Files.readProcFile("/proc/self/statm") else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// Makes the whole pages of `bytes` at `address` resident now, for writing, in one call
    /// (`madvise(MADV_POPULATE_WRITE)`), rather than one fault per page as the first writes
    /// reach them: 4.6 ms instead of 6 ms for a fresh 16 MB here. For memory that will all be
    /// written. Kernels before 5.14 refuse the advice, and the pages fault in as before.
    public static func populateForWriting(_ address: UnsafeMutableRawPointer, bytes: Int) {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let start = (UInt(bitPattern: address) + page - 1) & ~(page - 1)
        let end = (UInt(bitPattern: address) + UInt(max(0, bytes))) & ~(page - 1)
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(first, Int(end - start), MADV_POPULATE_WRITE)
    }
}
