import CLinux
import Glibc
import VitrineSystem
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// sd_notify and signals against the real kernel objects: a datagram socket, a signalfd.
final class SystemTests: XCTestCase {
    /// A bound datagram socket standing in for systemd's notify socket.
    final class NotifyListener {
        let fd: Int32
        let name: String

        init(abstract: Bool) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let unique = "vitrine-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            name = abstract ? "@" + unique : "/tmp/" + unique
            var bytes = Array(name.utf8)
            if abstract { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else { throw SystemError("bind the notify socket") }
        }

        deinit {
            close(fd)
            if !name.hasPrefix("@") { unlink(name) }
        }

        func receive() -> String? {
            guard waitReadable(fd, milliseconds: 1000) else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }
    }

    func testNotifyReachesPathAndAbstractSockets() throws {
        for abstract in [false, true] {
            let listener = try NotifyListener(abstract: abstract)
            let notifier = try XCTUnwrap(SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.name]))
            notifier.ready()
            XCTAssertEqual(listener.receive(), "READY=1")
            notifier.status("playing 'arrow'")
            XCTAssertEqual(listener.receive(), "STATUS=playing 'arrow'")
            notifier.reloading()
            let reloading = try XCTUnwrap(listener.receive())
            XCTAssertTrue(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="), reloading)
            notifier.watchdog()
            XCTAssertEqual(listener.receive(), "WATCHDOG=1")
            notifier.stopping()
            XCTAssertEqual(listener.receive(), "STOPPING=1")
        }
    }

    func testNoNotifySocketMeansNoNotifier() {
        XCTAssertNil(SystemdNotifier(environment: [:]))
        XCTAssertNil(SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]))
    }

    func testWatchdogIntervalIsHalfTheTimeout() throws {
        let listener = try NotifyListener(abstract: true)
        let mine = SystemdNotifier(environment: [
            "NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "10000000",
            "WATCHDOG_PID": "\(getpid())"
        ])
        XCTAssertEqual(mine?.watchdogInterval, 5)
        let other = SystemdNotifier(environment: [
            "NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "10000000",
            "WATCHDOG_PID": "1"
        ])
        XCTAssertNil(other?.watchdogInterval)
    }

    func testSignalsArriveThroughTheDescriptor() throws {
        let source = try SignalSource()
        // Directed at this thread, which blocks them, so signalfd (not a default action) gets them.
        for s in [SIGUSR1, SIGHUP, SIGUSR2, SIGTERM] { pthread_kill(pthread_self(), s) }
        XCTAssertTrue(waitReadable(source.fileDescriptor))
        // Standard signals are delivered lowest number first: HUP(1), USR1(10), USR2(12), TERM(15).
        XCTAssertEqual(source.drain(), [.reload, .nextScene, .restartPlaylist, .terminate])
        XCTAssertEqual(source.drain(), [])
    }

    func testReleasingTheSourceRestoresTheSignalMask() throws {
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &before)
        do {
            let source = try SignalSource()
            var during = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &during)
            XCTAssertEqual(sigismember(&during, SIGTERM), 1)
            _ = source
        }
        var after = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &after)
        XCTAssertEqual(sigismember(&after, SIGTERM), sigismember(&before, SIGTERM))
        XCTAssertEqual(sigismember(&after, SIGHUP), sigismember(&before, SIGHUP))
    }
}
