import CLinux
import Glibc
import VitrineSystem

/// The time source of a display link and the way its loop blocks: real (`SystemClock`) or
/// driven by a test (`VirtualClock`).
public protocol MonotonicClock: AnyObject {
    /// The current time.
    func now() -> MonotonicInstant

    /// Blocks until `deadline` has passed or one of `descriptors` reports an event, filling in
    /// their `revents`; a nil deadline waits for the descriptors alone. Returns how many
    /// descriptors have events (0 when the deadline woke it). May return early (a signal):
    /// callers re-check the time.
    func wait(until deadline: MonotonicInstant?, descriptors: inout [pollfd]) throws -> Int
}

/// Thrown by a wait that could never end: no deadline and nothing to watch.
public struct WaitWouldBlockForever: Error, CustomStringConvertible {
    public var description: String { "waiting with no deadline and no file descriptor would block forever" }
}

/// CLOCK_MONOTONIC. Deadlines are absolute: alone, a wait is `clock_nanosleep(TIMER_ABSTIME)`;
/// alongside file descriptors, a timerfd armed with `TFD_TIMER_ABSTIME` joins the same poll(),
/// so a late wake never shifts the deadlines that follow.
public final class SystemClock: MonotonicClock {
    private let timer: Int32
    private var pollSet: [pollfd] = []

    /// A clock with its own timerfd (closed on deinit).
    public init() throws {
        timer = try systemCall("create a timer (timerfd_create)") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }
    }

    deinit { close(timer) }

    public func now() -> MonotonicInstant { MonotonicInstant.now() }

    public func wait(until deadline: MonotonicInstant?, descriptors: inout [pollfd]) throws -> Int {
        if descriptors.isEmpty {
            guard let deadline else { throw WaitWouldBlockForever() }
            var ts = Self.timespecValue(deadline)
            let result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
            guard result == 0 || result == EINTR else { throw SystemError("sleep (clock_nanosleep)", code: result) }
            return 0
        }

        // The caller's descriptors, then the timer when there is a deadline.
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(contentsOf: descriptors)
        if let deadline {
            var spec = itimerspec()
            spec.it_value = Self.timespecValue(deadline)
            // A zero it_value disarms a timerfd: a deadline at the origin is one nanosecond late.
            if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
            try systemCall("arm the timer (timerfd_settime)") {
                timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
            }
            pollSet.append(pollfd(fd: timer, events: Int16(POLLIN), revents: 0))
        }

        let result = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
        if result < 0 {
            if errno == EINTR { return 0 }
            throw SystemError("wait (poll)")
        }
        var ready = 0
        for i in descriptors.indices {
            descriptors[i].revents = pollSet[i].revents
            if pollSet[i].revents != 0 { ready += 1 }
        }
        // An expired timer is not read: arming it again (every wait with a deadline does) clears
        // its expirations, and a wait without one leaves it out.
        return ready
    }

    private static func timespecValue(_ instant: MonotonicInstant) -> Glibc.timespec {
        MonotonicInstant(nanoseconds: max(0, instant.nanoseconds)).timespec
    }
}
