import CLinux
import Glibc
import VitrineConfig
import VitrineSystem

/// The sd_notify protocol, spoken directly: one datagram per state change to the socket named by
/// `$NOTIFY_SOCKET` (a path, or an abstract name when it starts with `@`). Without that variable
/// (not started by systemd) every call does nothing.
public final class SystemdNotifier {
    private let socketFD: Int32
    private var address: sockaddr_un
    private let addressLength: socklen_t
    /// How often systemd expects `WATCHDOG=1` (half of WatchdogSec is the usual pace), or nil
    /// when the watchdog is off or meant for another process.
    public let watchdogInterval: Double?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from the environment; nil when
    /// there is no notify socket or it cannot be used.
    public init?(environment: [String: String]) {
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity, bytes.first == 0 || bytes.first == UInt8(ascii: "/") else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            if !abstract { raw[bytes.count] = 0 }
        }
        // An abstract name's length is exact (no terminating NUL); a path includes its NUL.
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        addressLength = socklen_t(offset + bytes.count + (abstract ? 0 : 1))
        address = addr
        socketFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { return nil }

        var interval: Double? = nil
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            let forUs = environment["WATCHDOG_PID"].flatMap(Int32.init).map { $0 == getpid() } ?? true
            if forUs { interval = usec / 1_000_000 / 2 }
        }
        watchdogInterval = interval
    }

    deinit { close(socketFD) }

    /// Sends one message such as "READY=1" or "STATUS=playing 'arrow'"; returns false when the
    /// datagram could not be sent (systemd is then not listening; the player plays on). Never
    /// waits: a notify socket whose reader has stopped (a stalled manager, a full queue) drops
    /// the message rather than stalling the frame loop; each kind is sent again soon anyway.
    @discardableResult
    public func notify(_ message: String) -> Bool {
        var bytes = Array(message.utf8)
        return withUnsafePointer(to: &address) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeMutableBytes { buf in
                    sendto(
                        socketFD, buf.baseAddress, buf.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), sa, addressLength)
                        == buf.count
                }
            }
        }
    }

    public func ready() { notify("READY=1") }
    public func status(_ text: String) { notify("STATUS=" + text) }
    public func watchdog() { notify("WATCHDOG=1") }
    public func stopping() { notify("STOPPING=1") }

    /// Announces a reload; systemd needs the monotonic time to match it with `READY=1` after.
    public func reloading() {
        notify("RELOADING=1\nMONOTONIC_USEC=\(MonotonicInstant.now().nanoseconds / 1000)")
    }
}
