import Glibc
import VitrineSystem

/// A datagram socket standing in for systemd's notify socket (abstract name).
public final class NotifySocket {
    public let fd: Int32
    public let name: String

    public init() throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        name = "@vitrine-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        bytes[0] = 0
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard fd >= 0, bound == 0 else { throw SystemError("bind a notify socket", name) }
    }

    deinit { close(fd) }

    /// Shrinks the receive queue to the least the kernel allows (a few datagrams), so that a
    /// test can stop reading and see what the sender does when it is full.
    public func shrinkQueue() {
        var size: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Waits up to `seconds` for a datagram equal to `message`.
    public func waitFor(_ message: String, seconds: Double) -> Bool {
        let end = MonotonicInstant.now().advanced(byNanoseconds: Int64(seconds * 1e9))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while MonotonicInstant.now() < end {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) == 1 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0, String(decoding: buffer[0..<n], as: UTF8.self) == message { return true }
        }
        return false
    }
}
