import Foundation
import Glibc
import VitrineBench
import XCTest

/// A private headless Wayland compositor for one test: sway or cage (wlroots, pixman, run as
/// `nobody` since they refuse root) or weston (headless backend, pixman, desktop-shell, as
/// root), each with a runtime directory of its own. Skips the test when the compositor is not
/// installed; killed and its directory removed on `kill()` or when it goes.
public final class WaylandCompositor {
    public enum Kind: String { case sway, cage, weston }

    public let kind: Kind
    /// The compositor's `XDG_RUNTIME_DIR` (0700, owned by the user it runs as).
    public let runtimeDirectory: String
    /// The socket's name in `runtimeDirectory`, e.g. "wayland-1" (sway picks its own).
    public let socketName: String
    public var pid: pid_t { process.pid }
    /// What a client needs to connect: `XDG_RUNTIME_DIR` and `WAYLAND_DISPLAY`.
    public var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName]
    }

    private let process: ChildProcess

    /// Headless sway with one output of `width`x`height` at `refresh` Hz.
    public static func sway(width: Int = 1920, height: Int = 1080, refresh: Int = 60) throws -> WaylandCompositor {
        try WaylandCompositor(
            kind: .sway, binary: "/usr/bin/sway", config: "output HEADLESS-1 mode \(width)x\(height)@\(refresh)Hz\n")
    }

    /// Headless cage (1280x720) running `command` as its child with `environment` added, as a
    /// kiosk does. The child runs as `nobody` too.
    public static func cage(
        running command: [String], environment: [String: String] = [:]
    ) throws
        -> WaylandCompositor
    {
        try WaylandCompositor(kind: .cage, binary: "/usr/bin/cage", arguments: ["--"] + command, extra: environment)
    }

    /// Headless weston (pixman, desktop-shell) of `width`x`height`, with the screenshooter, its
    /// socket `wayland-vitrine` in `runtimeDirectory` (made now; default: a new temporary one).
    public static func weston(
        width: Int = 1920, height: Int = 1080, runtimeDirectory: String? = nil
    ) throws
        -> WaylandCompositor
    {
        try WaylandCompositor(
            kind: .weston, binary: "/usr/bin/weston", directory: runtimeDirectory,
            arguments: [
                "--backend=headless-backend.so", "--use-pixman", "--shell=desktop-shell.so", "--idle-time=0",
                "--debug", "--width=\(width)", "--height=\(height)", "--socket=wayland-vitrine"
            ])
    }

    private init(
        kind: Kind, binary: String, directory: String? = nil, config: String? = nil, arguments: [String] = [],
        extra: [String: String] = [:]
    ) throws {
        guard access(binary, X_OK) == 0 else {
            throw XCTSkip("\(kind.rawValue) is not installed (apt-get install \(kind.rawValue))")
        }
        if kind == .cage, access("/usr/bin/Xwayland", X_OK) != 0 {
            throw XCTSkip("cage needs Xwayland (apt-get install xwayland)")
        }
        self.kind = kind
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory.path + "/vitrine-wl-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        chmod(directory, 0o700)
        let asNobody = kind != .weston
        if asNobody { chown(directory, 65534, 65534) }
        runtimeDirectory = directory

        var command = [binary]
        if let config {
            let path = directory + "/config"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            if asNobody { chown(path, 65534, 65534) }
            command += ["-c", path]
        }
        command += arguments
        if asNobody { command = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + command }
        var environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR": directory, "HOME": directory,
            "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"
        ]
        environment.merge(extra) { _, new in new }
        process = try ChildProcess(
            "/usr/bin/env", ["-i"] + environment.sorted { $0.key < $1.key }.map { "\($0)=\($1)" } + command,
            quiet: true)

        // The socket appears when the compositor is ready; sway names its own (wayland-1 …).
        let deadline = Date().addingTimeInterval(10)
        var found: String?
        while found == nil, process.isRunning, Date() < deadline {
            found =
                (try? FileManager.default.contentsOfDirectory(atPath: directory))?
                .filter { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }.sorted().first
            if found == nil { usleep(10_000) }
        }
        guard let found, process.isRunning else {
            process.kill()
            try? FileManager.default.removeItem(atPath: directory)
            throw WaylandCompositorError(description: "\(kind.rawValue) did not start (no socket within 10 s)")
        }
        socketName = found
        // The socket file appears at bind(); wait until the compositor accepts connections.
        while !Self.accepts(directory + "/" + found), Date() < deadline { usleep(10_000) }
        if kind == .sway {
            // The IPC socket comes a moment after the Wayland one.
            while swaySocket == nil, Date() < deadline { usleep(10_000) }
        }
    }

    deinit { kill() }

    /// Whether a Unix stream socket at `path` accepts a connection now.
    private static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Kills the compositor (SIGKILL: cage aborts on SIGTERM), reaps it, removes its directory.
    public func kill() {
        guard process.isRunning || FileManager.default.fileExists(atPath: runtimeDirectory) else { return }
        process.kill()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    private var swaySocket: String? {
        (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory))?
            .first { $0.hasPrefix("sway-ipc.") }.map { runtimeDirectory + "/" + $0 }
    }

    /// Runs `swaymsg ARGUMENTS` against this sway; throws when it fails.
    public func swaymsg(_ arguments: String...) throws {
        guard kind == .sway, let socket = swaySocket else {
            throw WaylandCompositorError(description: "swaymsg needs a running sway")
        }
        try run("/usr/bin/swaymsg", ["-s", socket] + arguments)
    }

    /// The output as it is on screen now, as a PNG at `path`: `grim` (wlroots' screencopy) for
    /// sway and cage, `weston-screenshooter` for weston. `cursor` asks grim to draw the cursor.
    public func screenshot(to path: String, cursor: Bool = false) throws {
        switch kind {
        case .sway, .cage:
            guard access("/usr/bin/grim", X_OK) == 0 else {
                throw XCTSkip("grim is not installed (apt-get install grim)")
            }
            try run("/usr/bin/grim", (cursor ? ["-c"] : []) + [path], environment: environment)
        case .weston:
            let directory = runtimeDirectory + "/shots-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try run("/usr/bin/weston-screenshooter", [], environment: environment, directory: directory)
            guard
                let shot = try FileManager.default.contentsOfDirectory(atPath: directory).first(where: {
                    $0.hasSuffix(".png")
                })
            else { throw WaylandCompositorError(description: "weston-screenshooter wrote no picture") }
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: directory + "/" + shot, toPath: path)
        }
    }

    private func run(
        _ executable: String, _ arguments: [String], environment extra: [String: String] = [:], directory: String? = nil
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { _, new in new }
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw WaylandCompositorError(
                description:
                    "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))"
            )
        }
    }
}

public struct WaylandCompositorError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// A pointer a test moves over a wlroots compositor: `wayvnc` (a VNC server that injects input
/// through the wlr virtual-pointer protocol) driven by a minimal RFB client. Skips the test
/// when wayvnc is not installed.
public final class VirtualPointer {
    private let server: ChildProcess
    private let connection: Int32

    public init(on compositor: WaylandCompositor) throws {
        guard access("/usr/bin/wayvnc", X_OK) == 0 else {
            throw XCTSkip("wayvnc is not installed (apt-get install wayvnc)")
        }
        let port = 20_000 + Int(getpid() % 20_000) + Int.random(in: 0..<5_000)
        // HOME: wayvnc looks for a config there (none: no authentication, all it needs).
        let environment = compositor.environment.merging(["PATH": "/usr/bin:/bin", "HOME": compositor.runtimeDirectory])
        {
            $1
        }
        server = try ChildProcess(
            "/usr/bin/env",
            ["-i"] + environment.sorted { $0.key < $1.key }.map { "\($0)=\($1)" } + [
                "/usr/bin/wayvnc", "127.0.0.1", String(port)
            ], quiet: true)
        let deadline = Date().addingTimeInterval(5)
        var fd: Int32 = -1
        while fd < 0, server.isRunning, Date() < deadline {
            fd = Self.connect(port: port)
            if fd < 0 { usleep(20_000) }
        }
        guard fd >= 0 else {
            server.kill()
            throw WaylandCompositorError(description: "wayvnc did not listen on port \(port)")
        }
        connection = fd
        do { try handshake() } catch {
            close(fd)
            server.kill()
            throw error
        }
    }

    deinit {
        close(connection)
        server.kill()
    }

    /// Moves the pointer to (`x`, `y`) on the output, no button pressed (an RFB PointerEvent).
    public func move(x: Int, y: Int) throws {
        let message: [UInt8] = [5, 0, UInt8(x >> 8), UInt8(x & 0xFF), UInt8(y >> 8), UInt8(y & 0xFF)]
        try send(message)
    }

    /// RFB 3.8 without authentication, up to the server's init message.
    private func handshake() throws {
        _ = try receive(12)  // "RFB 003.008\n"
        try send(Array("RFB 003.008\n".utf8))
        let count = Int(try receive(1)[0])
        let types = try receive(count)
        guard types.contains(1) else { throw WaylandCompositorError(description: "wayvnc asks for authentication") }
        try send([1])  // security type None
        guard try receive(4) == [0, 0, 0, 0] else { throw WaylandCompositorError(description: "RFB security failed") }
        try send([1])  // ClientInit: shared
        let header = try receive(24)
        let nameLength = Int(header[20]) << 24 | Int(header[21]) << 16 | Int(header[22]) << 8 | Int(header[23])
        _ = try receive(nameLength)
    }

    private func send(_ bytes: [UInt8]) throws {
        guard Glibc.send(connection, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw WaylandCompositorError(description: "cannot write to wayvnc")
        }
    }

    private func receive(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 5_000) == 1 else {
                throw WaylandCompositorError(description: "wayvnc is silent")
            }
            let n = bytes.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + got, count - got, 0) }
            guard n > 0 else { throw WaylandCompositorError(description: "wayvnc closed the connection") }
            got += n
        }
        return bytes
    }

    private static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if !connected { close(fd) }
        return connected ? fd : -1
    }
}
