import CX11
import Foundation
import XCTest

/// A private Xvfb for one test: a free display number, waited for until its socket exists,
/// killed and reaped on `stop()`.
final class XvfbServer {
    let number: Int
    let process: Process
    var name: String { ":\(number)" }

    /// Starts `Xvfb :N -screen 0 WxHxDEPTH -nolisten tcp -noreset` plus `arguments`; skips the
    /// test when no Xvfb binary is installed.
    init(width: Int = 320, height: Int = 240, depth: Int = 24, arguments: [String] = []) throws {
        guard let binary = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb", "/opt/X11/bin/Xvfb"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("Xvfb is not installed (apt-get install xvfb)")
        }
        // Numbers are tried from a per-process start, so parallel test runs rarely collide;
        // a server that loses the race for its lock file exits, and the next number is tried.
        let start = 200 + Int(getpid() % 500)
        for number in start..<(start + 40) {
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"),
                  !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = [":\(number)", "-screen", "0", "\(width)x\(height)x\(depth)", "-nolisten", "tcp", "-noreset"]
                + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let socket = "/tmp/.X11-unix/X\(number)"
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && !FileManager.default.fileExists(atPath: socket) && Date() < deadline {
                usleep(5_000)
            }
            if process.isRunning && FileManager.default.fileExists(atPath: socket) {
                self.number = number
                self.process = process
                return
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        throw XvfbError(description: "no Xvfb could start on displays \(start)..<\(start + 40)")
    }

    /// Kills the server (SIGKILL: no goodbye to clients) and reaps it.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }

    /// Stops the server the polite way and reaps it; kills it if it has not gone within two
    /// seconds (e.g. when it inherited a mask that blocks SIGTERM).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill() } else { process.waitUntilExit() }
    }

    deinit { stop() }
}

struct XvfbError: Error, CustomStringConvertible { var description: String }

/// The test's own connection to a server, to look at what the presenter did.
final class XClient {
    let display: OpaquePointer
    var root: Window { XDefaultRootWindow(display) }

    init(_ name: String) throws {
        guard let display = XOpenDisplay(name) else { throw XvfbError(description: "cannot open \(name)") }
        self.display = display
    }

    deinit { XCloseDisplay(display) }

    /// The RGB of every pixel of `rect` of the root window (what the screen shows), row by row.
    func screenshot(x: Int = 0, y: Int = 0, width: Int, height: Int) throws -> [UInt32] {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height),
                                    XAllPlanes(), ZPixmap) else {
            throw XvfbError(description: "XGetImage failed")
        }
        defer { vitrine_XDestroyImage(image) }
        XCTAssertEqual(image.pointee.bits_per_pixel, 32)
        XCTAssertEqual(image.pointee.byte_order, LSBFirst)
        let stride = Int(image.pointee.bytes_per_line) / 4
        let pixels = UnsafeRawPointer(image.pointee.data!).assumingMemoryBound(to: UInt32.self)
        var result: [UInt32] = []
        result.reserveCapacity(width * height)
        for row in 0..<height {
            for column in 0..<width { result.append(pixels[row * stride + column] & 0x00FF_FFFF) }
        }
        return result
    }

    /// The root window's current size.
    var screenSize: (width: Int, height: Int) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, root, &attributes)
        return (Int(attributes.width), Int(attributes.height))
    }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// The format-32 values of `property` on `window` (empty when it is not set).
    func property(_ window: Window, _ property: String) -> [UInt] {
        var type: Atom = 0, format: Int32 = 0, items: UInt = 0, remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, atom(property), 0, 64, 0, Atom(AnyPropertyType), &type, &format,
                                 &items, &remaining, &data) == Success, let data else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self), count: Int(items)))
    }
}
