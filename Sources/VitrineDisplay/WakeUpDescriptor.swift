import CLinux
import Glibc
import VitrineSystem

/// A descriptor that a `FrameLoop` watches and any thread can make readable (an eventfd): how
/// work finished on another thread, or a signal handler, wakes the loop's thread.
public final class WakeUpDescriptor: @unchecked Sendable {
    public let fileDescriptor: Int32

    public init() throws {
        fileDescriptor = try systemCall("create a wake-up descriptor (eventfd)") {
            eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        }
    }

    deinit { close(fileDescriptor) }

    /// Makes the descriptor readable: one write(2), from any thread, safe in a signal handler.
    public func post() {
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes it unreadable again (on the loop's thread, once it turned readable).
    public func drain() {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, MemoryLayout<UInt64>.size)
    }
}
