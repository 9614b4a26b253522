import Glibc

/// Reads a whole file with plain system calls (no Foundation, whose `AffineTransform` would
/// shadow VitrineGraphics' in files that import both). Refuses files over `limit` bytes, so a
/// wrong path to a device or a huge file cannot exhaust memory.
func readFileContents(_ path: String, limit: Int = 64 << 20) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError("open", errno) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw SystemError("fstat", errno) }
    guard (st.st_mode & S_IFMT) == S_IFREG else { throw FileContentsError.notARegularFile }
    guard Int(st.st_size) <= limit else { throw FileContentsError.tooLarge(limit) }
    var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
    var filled = 0
    while filled < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        filled += n
    }
    return Array(bytes[0..<filled])
}

enum FileContentsError: Error, CustomStringConvertible {
    case notARegularFile
    case tooLarge(Int)
    var description: String {
        switch self {
        case .notARegularFile: return "not a regular file"
        case .tooLarge(let limit): return "larger than \(limit >> 20) MiB"
        }
    }
}
