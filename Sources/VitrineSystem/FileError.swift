/// Why a file could not be read or written, in words that name the file and the problem.
public enum FileError: Error, Equatable, CustomStringConvertible {
    /// A system call failed (missing, permission, disk full …).
    case system(SystemError)
    /// The path exists but is not a regular file (a directory, a FIFO, a device …).
    case notARegularFile(path: String, kind: FileKind)
    /// The path exists but is not a directory.
    case notADirectory(path: String, kind: FileKind)
    /// The file is larger than the reader accepts.
    case tooLarge(path: String, size: Int, limit: Int)

    /// The file concerned.
    public var path: String {
        switch self {
        case .system(let error): return error.subject ?? ""
        case .notARegularFile(let path, _), .notADirectory(let path, _), .tooLarge(let path, _, _): return path
        }
    }

    /// What is wrong, without the path: "cannot open: permission denied", "is a directory, not
    /// a regular file" ….
    public var reason: String {
        switch self {
        case .system(let error): return "cannot \(error.operation): \(error.reason)"
        case .notARegularFile(_, let kind): return "is \(kind.description), not a regular file"
        case .notADirectory(_, let kind): return "is \(kind.description), not a directory"
        case .tooLarge(_, let size, let limit):
            return "is \(FileError.size(size)), larger than the \(FileError.size(limit)) accepted"
        }
    }

    /// `PATH: REASON`.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }

    private static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
