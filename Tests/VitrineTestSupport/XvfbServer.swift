import CX11
import Foundation
import XCTest

/// A private Xvfb for one test: a free display number, waited for until its socket exists,
/// killed and reaped on `stop()`.
public final class XvfbServer {
    public let number: Int
    public let process: Process
    public var name: String { ":\(number)" }
    public var pid: pid_t { process.processIdentifier }

    /// Starts `Xvfb :N -screen 0 WxHxDEPTH -nolisten tcp -noreset` plus `arguments`; skips the
    /// test when no Xvfb binary is installed.
    ///
    /// `number` asks for that display number only (e.g. one a client was already told to use).
    public init(width: Int = 320, height: Int = 240, depth: Int = 24, arguments: [String] = [],
                number requested: Int? = nil) throws {
        guard let binary = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb", "/opt/X11/bin/Xvfb"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("Xvfb is not installed (apt-get install xvfb)")
        }
        // Numbers are tried from a per-process start, so parallel test runs rarely collide;
        // a server that loses the race for its lock file exits, and the next number is tried.
        let start = requested ?? XvfbServer.firstCandidate
        for number in start..<(start + (requested == nil ? 40 : 1)) {
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

    private static var firstCandidate: Int { 200 + Int(getpid() % 500) }

    /// A display number no server uses now (none is started on it).
    public static func unusedDisplayNumber() -> Int {
        let start = firstCandidate + 40
        return (start..<(start + 100)).first { number in
            !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
                && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
        } ?? start
    }

    /// Kills the server (SIGKILL: no goodbye to clients) and reaps it.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }

    /// Stops the server the polite way and reaps it; kills it if it has not gone within two
    /// seconds (e.g. when it inherited a mask that blocks SIGTERM).
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill() } else { process.waitUntilExit() }
    }

    deinit { stop() }
}

public struct XvfbError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Resizes the screen of the server `display` is connected to as a monitor change would: the
/// CRTC goes dark, then the screen takes the new size (Xvfb can shrink below its start size,
/// not grow past it).
public func resizeXvfbScreen(_ display: OpaquePointer, width: Int, height: Int) throws {
    let root = XDefaultRootWindow(display)
    guard let resources = XRRGetScreenResourcesCurrent(display, root) else {
        throw XvfbError(description: "no RandR resources")
    }
    defer { XRRFreeScreenResources(resources) }
    for crtc in UnsafeBufferPointer(start: resources.pointee.crtcs, count: Int(resources.pointee.ncrtc)) {
        XRRSetCrtcConfig(display, resources, crtc, Time(CurrentTime), 0, 0, 0, UInt16(RR_Rotate_0), nil, 0)
    }
    XRRSetScreenSize(display, root, Int32(width), Int32(height), Int32(width / 4), Int32(height / 4))
    XSync(display, 0)
}
