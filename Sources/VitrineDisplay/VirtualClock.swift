import Glibc
import VitrineSystem

/// A clock that only moves when told: waits jump straight to their deadline, running scheduled
/// actions on the way, so display link tests run instantly and deterministically (SwiftNIO's
/// embedded event loop does the same). Descriptors are real and checked without blocking.
public final class VirtualClock: MonotonicClock {
    /// One call to `wait`: what it waited for and when it returned.
    public struct Wait: Equatable, CustomStringConvertible {
        /// The deadline passed in; nil for "until a descriptor is ready".
        public var deadline: MonotonicInstant?
        /// The virtual time at which the wait returned.
        public var returnedAt: MonotonicInstant
        /// How many descriptors were ready when it returned.
        public var readyDescriptors: Int

        /// A record of a wait for `deadline` that returned at `returnedAt` with `readyDescriptors`.
        public init(deadline: MonotonicInstant?, returnedAt: MonotonicInstant, readyDescriptors: Int) {
            self.deadline = deadline
            self.returnedAt = returnedAt
            self.readyDescriptors = readyDescriptors
        }

        public var description: String {
            "wait(until: \(deadline.map { "\($0)" } ?? "nil")) -> \(readyDescriptors) at \(returnedAt)"
        }
    }

    private var current: MonotonicInstant
    private var scheduled: [(at: MonotonicInstant, order: Int, action: () -> Void)] = []
    private var scheduledCount = 0

    /// Every wait so far, in order: a paused link must show a single wait with a nil deadline.
    public private(set) var waits: [Wait] = []

    /// A clock reading `start`.
    public init(start: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000_000_000)) { current = start }

    public func now() -> MonotonicInstant { current }

    /// Moves time forward by `nanoseconds` (e.g. to stand for work done in a frame callback).
    /// Scheduled actions that fall due are not run until the next wait.
    public func advance(byNanoseconds nanoseconds: Int64) {
        precondition(nanoseconds >= 0, "virtual time only moves forward")
        current = current.advanced(byNanoseconds: nanoseconds)
    }

    /// Runs `action` when a wait reaches virtual time `instant` (actions at the same instant run
    /// in the order they were scheduled).
    public func schedule(at instant: MonotonicInstant, _ action: @escaping () -> Void) {
        scheduled.append((instant, scheduledCount, action))
        scheduledCount += 1
    }

    public func wait(until deadline: MonotonicInstant?, descriptors: inout [pollfd]) throws -> Int {
        while true {
            let ready = try Self.pollWithoutBlocking(&descriptors)
            if ready > 0 { return record(deadline, ready) }

            if let next = scheduled.indices.min(by: {
                (scheduled[$0].at, scheduled[$0].order) < (scheduled[$1].at, scheduled[$1].order)
            }),
                deadline.map({ scheduled[next].at <= $0 }) ?? true
            {
                let item = scheduled.remove(at: next)
                current = max(current, item.at)
                item.action()
                continue
            }
            guard let deadline else { throw WaitWouldBlockForever() }
            current = max(current, deadline)
            return record(deadline, 0)
        }
    }

    private func record(_ deadline: MonotonicInstant?, _ ready: Int) -> Int {
        waits.append(Wait(deadline: deadline, returnedAt: current, readyDescriptors: ready))
        return ready
    }

    private static func pollWithoutBlocking(_ descriptors: inout [pollfd]) throws -> Int {
        if descriptors.isEmpty { return 0 }
        let result = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }
        if result < 0 { throw SystemError("wait (poll)") }
        return Int(result)
    }
}
