import Glibc

/// Stream sockets on a path in the file system (AF_UNIX): the control socket's server and its
/// client, `vitrine ctl`.
public enum UnixSocket {
    /// Calls `body` with the address of `path`; throws when the path does not fit in one.
    private static func withAddress<R>(
        of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R
    ) throws -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw SystemError("use the socket path", path, code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    private static func makeSocket(nonBlocking: Bool) throws -> Int32 {
        let flags =
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return try systemCall("create a socket") { socket(AF_UNIX, flags, 0) }
    }

    /// A non-blocking socket listening at `path` with permissions `mode`. A socket file left
    /// there by a process that is gone is replaced; one that a live process answers on, or
    /// anything that is not a socket, is an error.
    public static func listen(at path: String, mode: mode_t, backlog: Int32 = 16) throws -> Int32 {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemError("listen on", path, code: EEXIST)
            }
            if let live = try? connect(to: path) {
                close(live)
                throw SystemError("listen on (another process answers there)", path, code: EADDRINUSE)
            }
            unlink(path)
        }
        let fd = try makeSocket(nonBlocking: true)
        do {
            _ = try withAddress(of: path) { address, length in
                try systemCall("bind the socket to", path) { bind(fd, address, length) }
            }
            _ = try systemCall("set the permissions of", path) { chmod(path, mode) }
            _ = try systemCall("listen on", path) { Glibc.listen(fd, backlog) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// A connection waiting on `listener`, non-blocking and closed on exec, or nil when none
    /// waits; throws when it cannot be taken (EMFILE: no descriptor left).
    public static func accept(_ listener: Int32) throws -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED { return nil }
            throw SystemError("accept a connection", code: errno)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// A blocking socket connected to the listener at `path`.
    public static func connect(to path: String) throws -> Int32 {
        let fd = try makeSocket(nonBlocking: false)
        do {
            _ = try withAddress(of: path) { address, length in
                try systemCall("connect to", path) { Glibc.connect(fd, address, length) }
            }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }
}
