import Glibc

/// Writes to file descriptor 2 (no Foundation: its AffineTransform would shadow VitrineGraphics').
enum FileHandleStandardError {
    static func write(_ string: String) {
        var bytes = Array(string.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
    }
}
