import CLinux
import Glibc
import VitrineConfig
import VitrineSystem

/// One command of the live-progress vocabulary, psplash's: `PROGRESS <0-100>`, `MSG <text>`, `QUIT`.
public enum ProgressCommand: Equatable, Sendable {
    /// Progress as a fraction 0…1 (the line gives percent).
    case progress(Double)
    case message(String)
    case quit
}

/// A line of progress input that is not a command: where it starts in the stream and why.
public struct ProgressInputError: Error, Equatable, CustomStringConvertible {
    /// Byte offset of the offending text from the start of the stream.
    public let offset: Int
    public let message: String
    public var description: String { "byte \(offset): \(message)" }
}

/// Splits a byte stream into lines and parses them. Keeps at most `maxLineLength` bytes of an
/// unfinished line, so a writer that never sends a newline cannot make the player grow.
public struct ProgressLineParser {
    public static let maxLineLength = 4096
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var consumed = 0
    private var discarding = false

    public init() {}

    /// Feeds bytes; returns each complete line's command or error, in order.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Result<ProgressCommand, ProgressInputError>]
    where Bytes.Element == UInt8 {
        var results: [Result<ProgressCommand, ProgressInputError>] = []
        for byte in bytes {
            defer { consumed += 1 }
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    results.append(ProgressLineParser.parse(line: pending, at: pendingStart))
                }
                pending.removeAll(keepingCapacity: true)
                pendingStart = consumed + 1
                continue
            }
            if discarding { continue }
            if pending.count == ProgressLineParser.maxLineLength {
                results.append(
                    .failure(
                        ProgressInputError(
                            offset: pendingStart,
                            message: "line longer than \(ProgressLineParser.maxLineLength) bytes, ignored")))
                pending.removeAll(keepingCapacity: true)
                discarding = true
                continue
            }
            pending.append(byte)
        }
        return results
    }

    /// Parses one line (without its newline) that starts at byte `offset` of the stream.
    public static func parse(line raw: [UInt8], at offset: Int) -> Result<ProgressCommand, ProgressInputError> {
        var line = raw
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(ProgressInputError(offset: offset, message: "line is not valid UTF-8"))
        }
        let leading = text.prefix { $0 == " " || $0 == "\t" }.utf8.count
        let body = text.dropFirst(leading)
        let word = body.prefix { $0 != " " && $0 != "\t" }
        let argument = body.dropFirst(word.count).drop { $0 == " " || $0 == "\t" }
        let argumentOffset = offset + leading + (body.utf8.count - argument.utf8.count)
        switch word {
        case "PROGRESS":
            let value = argument.trimmingTrailingSpace
            guard let percent = Double(value), percent.isFinite else {
                return .failure(
                    ProgressInputError(
                        offset: argumentOffset,
                        message: "PROGRESS needs a number from 0 to 100, found '\(value.prefix(40))'"))
            }
            guard (0...100).contains(percent) else {
                return .failure(
                    ProgressInputError(
                        offset: argumentOffset, message: "PROGRESS \(value) is outside 0…100"))
            }
            return .success(.progress(percent / 100))
        case "MSG":
            return .success(.message(String(argument)))
        case "QUIT":
            return .success(.quit)
        case "":
            return .failure(ProgressInputError(offset: offset, message: "empty line"))
        default:
            return .failure(
                ProgressInputError(
                    offset: offset + leading,
                    message: "unknown command '\(word.prefix(40))' (expected PROGRESS, MSG or QUIT)"))
        }
    }
}

private extension Substring {
    var trimmingTrailingSpace: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s.removeLast() }
        return s
    }
}

/// Reads a progress source without blocking: the run loop polls `fileDescriptor` and calls
/// `read()` when it is readable.
///
/// A FIFO is created when missing (mode 0620) and opened read-write, so writers may close and
/// reopen it at will without the reader ever seeing end-of-file. Its directory is watched too:
/// a FIFO deleted while open (writers could no longer reach the reader) is made again. A file
/// is watched with inotify and re-read whole on every change; its last PROGRESS and MSG lines
/// are the state.
public final class ProgressSource {
    public let spec: ProgressSourceSpec
    /// The descriptor to poll for readability (a FIFO made again gets a new one).
    public private(set) var fileDescriptor: Int32
    /// For a FIFO: an inotify descriptor that turns readable when an entry of its directory is
    /// deleted, moved or created; then call `checkFIFO()`.
    public private(set) var directoryWatch: Int32?
    private var parser = ProgressLineParser()
    private let watchedPath: String?
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// What `checkFIFO()` found at the FIFO's path.
    public enum FIFOState: Equatable, Sendable {
        /// The FIFO being read is still there.
        case unchanged
        /// It had been deleted or replaced by another FIFO: a FIFO is there again and open
        /// (`fileDescriptor` changed).
        case reopened
        /// Something else took its path (e.g. `echo … > path` made a regular file after the
        /// FIFO was deleted): lines written there cannot be read as they come.
        case replaced(by: String)
    }

    public init(_ spec: ProgressSourceSpec) throws {
        self.spec = spec
        switch spec {
        case .fifo(let path):
            fileDescriptor = try ProgressSource.openFIFO(path)
            watchedPath = nil
            let watch = try systemCall("start watching files (inotify_init1)") {
                inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            }
            let mask = UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
            guard inotify_add_watch(watch, ProgressSource.directory(of: path), mask) >= 0 else {
                let code = errno
                close(watch)
                close(fileDescriptor)
                throw SystemError("watch the directory", ProgressSource.directory(of: path), code: code)
            }
            directoryWatch = watch
        case .file(let path):
            let fd = try systemCall("start watching files (inotify_init1)") {
                inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            }
            // Watch the directory: writers often replace the file (write + rename).
            let directory = ProgressSource.directory(of: path)
            let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_MODIFY)
            guard inotify_add_watch(fd, directory, mask) >= 0 else {
                let code = errno
                close(fd)
                throw SystemError("watch the directory", directory, code: code)
            }
            fileDescriptor = fd
            watchedPath = path
        }
    }

    deinit {
        close(fileDescriptor)
        if let directoryWatch { close(directoryWatch) }
    }

    /// After `directoryWatch` turned readable: whether the path still names the FIFO being read.
    /// A FIFO deleted is made again and opened; a FIFO put in its place is opened.
    public func checkFIFO() throws -> FIFOState {
        guard case .fifo(let path) = spec, let directoryWatch else { return .unchanged }
        while Glibc.read(directoryWatch, &buffer, buffer.count) > 0 {}
        var open = stat(), there = stat()
        fstat(fileDescriptor, &open)
        if stat(path, &there) == 0 {
            if there.st_dev == open.st_dev && there.st_ino == open.st_ino { return .unchanged }
            guard FileKind(mode: there.st_mode) == .fifo else {
                return .replaced(by: FileKind(mode: there.st_mode).description)
            }
        }
        let reopened = try ProgressSource.openFIFO(path)
        close(fileDescriptor)
        fileDescriptor = reopened
        return .reopened
    }

    /// Opens the FIFO at `path`, making it (mode 0620, whatever the umask) when missing.
    private static func openFIFO(_ path: String) throws -> Int32 {
        var st = stat()
        if stat(path, &st) != 0 {
            guard errno == ENOENT else { throw SystemError("stat", path) }
            let old = umask(0)
            let made = mkfifo(path, 0o620)
            umask(old)
            guard made == 0 || errno == EEXIST else { throw SystemError("create the FIFO", path) }
        } else if (st.st_mode & S_IFMT) != S_IFIFO {
            throw ProgressSourceError.notAFIFO(path)
        }
        return try systemCall("open", path) { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
    }

    /// The directory holding `path` ("." for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The commands (and malformed lines) available now; never blocks.
    public func read() -> [Result<ProgressCommand, ProgressInputError>] {
        if let path = watchedPath {
            // Drain the inotify events, then take the file's current state.
            while Glibc.read(fileDescriptor, &buffer, buffer.count) > 0 {}
            return ProgressSource.readState(of: path)
        }
        var results: [Result<ProgressCommand, ProgressInputError>] = []
        while true {
            let n = Glibc.read(fileDescriptor, &buffer, buffer.count)
            if n <= 0 { break }
            results += parser.feed(buffer[0..<n])
        }
        return results
    }

    /// The state a progress file holds: its last PROGRESS and last MSG, and QUIT if present.
    /// Reads at most the last 64 KiB.
    static func readState(of path: String) -> [Result<ProgressCommand, ProgressInputError>] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        let limit = 65536
        var st = stat()
        fstat(fd, &st)
        let start = max(0, Int(st.st_size) - limit)
        lseek(fd, off_t(start), SEEK_SET)
        var data = [UInt8](repeating: 0, count: limit)
        let n = Glibc.read(fd, &data, limit)
        guard n > 0 else { return [] }
        var parser = ProgressLineParser()
        var lines = parser.feed(data[0..<n])
        if data[n - 1] != UInt8(ascii: "\n") { lines += parser.feed([UInt8(ascii: "\n")]) }
        var progress: Result<ProgressCommand, ProgressInputError>?
        var message: Result<ProgressCommand, ProgressInputError>?
        var quit = false
        var errors: [Result<ProgressCommand, ProgressInputError>] = []
        for line in lines {
            switch line {
            case .success(.progress): progress = line
            case .success(.message): message = line
            case .success(.quit): quit = true
            case .failure: errors.append(line)
            }
        }
        return errors + [progress, message].compactMap { $0 } + (quit ? [.success(.quit)] : [])
    }
}

public enum ProgressSourceError: Error, CustomStringConvertible {
    case notAFIFO(String)
    public var description: String {
        switch self {
        case .notAFIFO(let path): return "\(path) exists and is not a FIFO"
        }
    }
}

/// Lets through at most `burst` messages per `interval` seconds and counts the rest, so bad
/// input cannot flood the journal.
public struct RateLimiter {
    public let burst: Int
    public let interval: Double
    private var windowStart = -Double.infinity
    private var sentInWindow = 0
    /// Messages dropped since the last one let through.
    public private(set) var suppressed = 0

    public init(burst: Int = 5, interval: Double = 10) { self.burst = burst; self.interval = interval }

    /// True when a message at time `now` may be logged; the caller should mention `suppressed`
    /// and then call `resetSuppressed()`.
    public mutating func allow(at now: Double) -> Bool {
        if now - windowStart >= interval { windowStart = now; sentInWindow = 0 }
        guard sentInWindow < burst else { suppressed += 1; return false }
        sentInWindow += 1
        return true
    }

    public mutating func resetSuppressed() { suppressed = 0 }
}
