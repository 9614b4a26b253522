import Glibc
import VitrineSystem

/// Facts about a process from /proc: peak memory, CPU time, the executable.
public enum ProcessMemory {
    /// VmHWM (peak resident set) in KiB.
    public static func peakResidentKiB(pid: pid_t) -> Int? {
        guard let status = readText("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Nanoseconds every thread of `pid` has spent on a CPU (the first field of each task's
    /// schedstat), finer than the clock ticks of /proc/PID/stat.
    public static func cpuNanoseconds(pid: pid_t) -> UInt64? {
        guard let directory = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(directory) }
        var total: UInt64 = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true,
                let text = readText("/proc/\(pid)/task/\(name)/schedstat"),
                let first = text.split(separator: " ").first, let value = UInt64(first)
            else { continue }
            total += value
        }
        return total
    }

    /// This executable's path (for running itself as the player).
    public static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0
            ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }

    public static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
