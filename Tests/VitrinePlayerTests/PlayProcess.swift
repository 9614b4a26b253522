import CX11
import Foundation
import VitrineTestSupport
import XCTest

/// The real `vitrine` executable, run as a child process with its standard error collected.
final class PlayProcess {
    let process = Process()
    private let errorPipe = Pipe()
    private let lock = NSLock()
    private var errorBytes = Data()
    private var errorClosed = false

    /// The built `vitrine` next to the test bundle (the products directory of this build), or a
    /// failure that says how to build it.
    static func executable(file: StaticString = #filePath) throws -> String {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates = [testBinary.deletingLastPathComponent().appendingPathComponent("vitrine").path]
        // …/Tests/VitrinePlayerTests/ThisFile.swift → …/.build/debug/vitrine
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/vitrine").path)
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XvfbError(
                description:
                    "the vitrine executable is not built (looked at \(candidates.joined(separator: ", "))); run `swift build --product vitrine` first"
            )
        }
        return found
    }

    /// `vitrine arguments…`, started through `launcher` when one is given (a command and its
    /// arguments that run the rest of the line, such as `unshare --ipc`).
    init(
        arguments: [String], environment: [String: String], directory: String? = nil, launcher: [String] = []
    )
        throws
    {
        let vitrine = try PlayProcess.executable()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [vitrine] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: vitrine)
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        for key in [
            "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "DISPLAY", "INVOCATION_ID",
            "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XDG_RUNTIME_DIR"
        ] {
            env[key] = nil
        }
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorPipe
        try process.run()
        // A reader thread until end of file, so nothing written just before exit is missed.
        let handle = errorPipe.fileHandleForReading
        Thread.detachNewThread { [lock = self.lock, weak self] in
            while true {
                let data = handle.availableData
                lock.lock()
                if data.isEmpty { self?.errorClosed = true } else { self?.errorBytes.append(data) }
                lock.unlock()
                if data.isEmpty { return }
            }
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var standardError: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: errorBytes, as: UTF8.self)
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit status, or nil if the process is still running after `seconds`.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { return nil }
        process.waitUntilExit()
        // Everything it wrote is read once the pipe reports end of file.
        while Date() < deadline.addingTimeInterval(1) {
            lock.lock()
            let closed = errorClosed
            lock.unlock()
            if closed { break }
            usleep(5_000)
        }
        return process.terminationStatus
    }

    /// Waits until standard error contains `text`.
    func waitForError(containing text: String, seconds: Double = 3) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if standardError.contains(text) { return true }
            usleep(10_000)
        }
        return standardError.contains(text)
    }
}

/// Collects sd_notify datagrams in arrival order.
final class NotifyLog {
    let listener: SystemTests.NotifyListener
    private(set) var messages: [String] = []

    init() throws { listener = try SystemTests.NotifyListener(abstract: true) }

    /// Receives until a message satisfies `predicate` (returned), or nil after `seconds`.
    @discardableResult
    func wait(seconds: Double = 5, for predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard waitReadable(listener.fd, milliseconds: 50) else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(listener.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { continue }
            let message = String(decoding: buffer[0..<n], as: UTF8.self)
            messages.append(message)
            if predicate(message) { return message }
        }
        return nil
    }

    func wait(for exact: String, seconds: Double = 5) -> Bool { wait(seconds: seconds) { $0 == exact } != nil }

    /// The messages other than WATCHDOG=1, in order.
    var stateMessages: [String] { messages.filter { $0 != "WATCHDOG=1" } }
}

/// The test's own look at the X server: pixels, windows, the screen saver.
final class ScreenReader {
    let display: OpaquePointer
    var root: Window { XDefaultRootWindow(display) }

    init(_ name: String) throws {
        guard let display = XOpenDisplay(name) else { throw XvfbError(description: "cannot open \(name)") }
        self.display = display
    }

    deinit { XCloseDisplay(display) }

    /// The RGB of the screen at (x, y).
    func pixel(x: Int, y: Int) -> UInt32? {
        XSync(display, 0)
        guard let image = XGetImage(display, root, Int32(x), Int32(y), 1, 1, XAllPlanes(), ZPixmap) else { return nil }
        defer { vitrine_XDestroyImage(image) }
        // XGetPixel is a macro; a 32-bit ZPixmap's first pixel is the first word of its data.
        guard image.pointee.bits_per_pixel == 32, let data = image.pointee.data else { return nil }
        return UnsafeRawPointer(data).load(as: UInt32.self) & 0xFFFFFF
    }

    /// The RGB of every pixel of the `width` × `height` screen, row by row.
    func capture(width: Int, height: Int) -> [UInt32]? {
        XSync(display, 0)
        guard let image = XGetImage(display, root, 0, 0, UInt32(width), UInt32(height), XAllPlanes(), ZPixmap)
        else { return nil }
        defer { vitrine_XDestroyImage(image) }
        guard image.pointee.bits_per_pixel == 32, let data = image.pointee.data else { return nil }
        let stride = Int(image.pointee.bytes_per_line)
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                pixels.append(
                    UnsafeRawPointer(data).load(fromByteOffset: y * stride + x * 4, as: UInt32.self) & 0xFF_FFFF)
            }
        }
        return pixels
    }

    /// Waits until the pixel at (x, y) satisfies `predicate`; returns the last value seen.
    func waitForPixel(x: Int, y: Int, seconds: Double = 3, _ predicate: (UInt32) -> Bool) -> UInt32? {
        let deadline = Date().addingTimeInterval(seconds)
        var last: UInt32?
        while Date() < deadline {
            last = pixel(x: x, y: y)
            if let last, predicate(last) { return last }
            usleep(20_000)
        }
        return last
    }

    /// The top-level windows named `name`.
    func windows(named name: String) -> [Window] {
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return UnsafeBufferPointer(start: children, count: Int(count)).filter { window in
            var title: UnsafeMutablePointer<CChar>?
            guard XFetchName(display, window, &title) != 0, let title else { return false }
            defer { XFree(title) }
            return String(cString: title) == name
        }
    }

    /// The screen saver's timeout in seconds.
    var screenSaverTimeout: Int32 {
        var timeout: Int32 = 0, interval: Int32 = 0, blanking: Int32 = 0, exposures: Int32 = 0
        XGetScreenSaver(display, &timeout, &interval, &blanking, &exposures)
        return timeout
    }
}

/// Writes `text` to `path` (replacing it).
func writeFile(_ path: String, _ text: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// Runs `tool` with `arguments` to its end: its exit status and everything it printed
/// (standard output and error together). `environment` replaces the test's when given.
func runTool(
    _ tool: String, _ arguments: [String], environment: [String: String]? = nil
) throws
    -> (status: Int32, output: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
