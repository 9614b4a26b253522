import Glibc

/// Whole-file reads and writes with plain system calls, every failure a `FileError` that names
/// the file.
public enum Files {
    /// The contents of the regular file at `path`, refused over `limit` bytes, so a wrong path
    /// to a device or a huge file cannot exhaust memory. Opened without blocking, so a FIFO
    /// named by mistake is reported, not waited on.
    public static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd: Int32
        do { fd = try systemCall("open", path) { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) } } catch let
            error as SystemError
        { throw FileError.system(error) }
        defer { close(fd) }
        var info = stat()
        do { try systemCall("stat", path) { fstat(fd, &info) } } catch let error as SystemError {
            throw FileError.system(error)
        }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regularFile else { throw FileError.notARegularFile(path: path, kind: kind) }
        let size = Int(info.st_size)
        guard size <= limit else { throw FileError.tooLarge(path: path, size: size, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        // A file may change size under us: read what is there, up to the size seen.
        while filled < size {
            let n: Int
            do {
                n = try systemCall("read", path) {
                    bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, size - filled) }
                }
            } catch let error as SystemError { throw FileError.system(error) }
            if n == 0 { break }
            filled += n
        }
        if filled < size { bytes.removeLast(size - filled) }
        return bytes
    }

    /// A descriptor open for writing on `path`, created with mode 0644 or truncated; the
    /// caller closes it.
    public static func create(_ path: String) throws -> Int32 {
        do {
            return try systemCall("create", path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        } catch let error as SystemError {
            throw FileError.system(error)
        }
    }

    /// Writes `bytes` to `path` (`create`d): the whole of it, or an error naming the file (a
    /// full disk is "no space left on device").
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        let fd = try create(path)
        defer { close(fd) }
        do {
            var written = 0
            while written < bytes.count {
                written += try systemCall("write", path) {
                    Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
                }
            }
        } catch let error as SystemError {
            throw FileError.system(error)
        }
    }

    /// `mkdir -p`: creates `path` and the directories above it that are missing (mode 0755).
    public static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) == 0 || errno == EEXIST { continue }
            throw FileError.system(SystemError("create the directory", String(prefix.dropLast())))
        }
        var info = stat()
        if stat(path, &info) == 0, FileKind(mode: info.st_mode) != .directory {
            throw FileError.notADirectory(path: path, kind: FileKind(mode: info.st_mode))
        }
    }

    /// The working directory ("/" where it cannot be read: it was removed, or its path is
    /// longer than PATH_MAX).
    public static func currentDirectory() -> String {
        guard let path = getcwd(nil, 0) else { return "/" }
        defer { free(path) }
        return String(cString: path)
    }

    /// Where temporary files go: `TMPDIR`, else /tmp (no trailing slash).
    public static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        let path = String(cString: value)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The text of a /proc file, read as far as it goes (a /proc file reports no size, so
    /// `read(_:limit:)` cannot take it), at most `limit` bytes; nil where it cannot be opened.
    public static func readProcFile(_ path: String, limit: Int = 64 << 10) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes.prefix(limit), as: UTF8.self)
    }
}
