import Glibc

/// What a path names, from `stat`'s mode bits: the words an error uses for "not a file".
public enum FileKind: Sendable {
    case regularFile, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, unknown

    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }

    /// "a directory", "a FIFO (named pipe)" ….
    public var description: String {
        switch self {
        case .regularFile: return "a regular file"
        case .directory: return "a directory"
        case .fifo: return "a FIFO (named pipe)"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        case .unknown: return "not a regular file"
        }
    }
}
