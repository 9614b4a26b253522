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
}
