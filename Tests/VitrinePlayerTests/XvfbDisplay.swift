import Foundation
import XCTest

/// A private Xvfb for one test: the first free display number from a per-process start, ready
/// once its socket exists; stopped politely, then killed (a server that inherited a blocked
/// SIGTERM would otherwise outlive the test).
final class XvfbDisplay {
    let number: Int
    private let process: Process
    var name: String { ":\(number)" }
    var pid: pid_t { process.processIdentifier }

    /// Starts `Xvfb :N -screen 0 WxHx24`; skips the test when Xvfb is not installed.
    init(width: Int, height: Int) throws {
        guard let binary = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("Xvfb is not installed (apt-get install xvfb)")
        }
        let start = 700 + Int(getpid() % 200)
        for number in start..<(start + 40) {
            let socket = "/tmp/.X11-unix/X\(number)"
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"),
                  !FileManager.default.fileExists(atPath: socket) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = [":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
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

    deinit {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }
}

struct XvfbError: Error, CustomStringConvertible { var description: String }
