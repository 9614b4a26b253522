import Glibc
import VitrineSystem

/// One thread, one poll(): file descriptors (the X connection, a signalfd, a progress FIFO …)
/// and the display link's deadlines wait together, so nothing busy-waits and a paused link
/// with quiet descriptors sleeps until the kernel has something to say.
///
/// Timers (`schedule(at:)`) share the same wait: a paused link with a timer set sleeps until
/// the timer, on the link's clock, so a virtual clock drives them as it drives frames.
///
/// Each pass: sources with input already buffered in user space run first (Xlib reads events
/// ahead of the socket); then, unless a frame is due, the loop waits for the next deadline (the
/// link's or a timer's) or a descriptor; ready sources run, then due timers; then the due frame,
/// if any, is delivered. A due frame that a watched presenter is not ready for
/// (`Presenter.isReadyForFrame`) waits: the loop sleeps on descriptors and timers only until the
/// presenter's descriptor wakes it.
public final class FrameLoop {
    /// Identifies a watched source, for `unwatch`.
    public struct SourceID: Hashable { fileprivate let value: Int }
    /// Identifies a scheduled timer, for `cancel`.
    public struct TimerID: Hashable { fileprivate let value: Int }

    private struct Timer {
        var id: TimerID
        var deadline: MonotonicInstant
        var handler: () throws -> Void
    }

    private struct Source {
        var id: SourceID
        var descriptor: Int32
        var hasBufferedInput: (() -> Bool)?
        /// Frames wait while this says no (a presenter not ready for one).
        var holdsFrames: (() -> Bool)?
        /// Whether its input can wait for a frame that is due: the loop then sleeps until the
        /// frame without waking for it, and looks at it when it wakes.
        var waitsForFrames = false
        var handler: () throws -> Void
    }

    /// The link whose deadlines the loop keeps.
    public let link: DisplayLink
    /// How many times the loop came back from waiting: a paused, quiet loop does not add to it.
    public private(set) var wakeUps = 0

    private var sources: [Source] = []
    private var nextSourceID = 0
    private var timers: [Timer] = []
    private var nextTimerID = 0
    private var stopRequested = false
    private var pollSet: [pollfd] = []

    /// A loop driving `link` (and waiting through the link's clock).
    public init(link: DisplayLink) { self.link = link }

    /// Calls `handler` on the loop's thread whenever `descriptor` is readable (or hung up, or in
    /// error: the handler must read, and close or unwatch a dead descriptor, or it is called
    /// again at once). `hasBufferedInput` reports input already read into user space that no
    /// poll() would see. A negative descriptor watches only `hasBufferedInput`.
    @discardableResult
    public func watch(
        _ descriptor: Int32, hasBufferedInput: (() -> Bool)? = nil,
        _ handler: @escaping () throws -> Void
    ) -> SourceID {
        let id = SourceID(value: nextSourceID)
        nextSourceID += 1
        sources.append(Source(id: id, descriptor: descriptor, hasBufferedInput: hasBufferedInput, handler: handler))
        return id
    }

    /// Watches a presenter's events: `handler` gets them whenever there are any. A due frame
    /// waits until the presenter is ready for it (`Presenter.isReadyForFrame`): meanwhile the
    /// loop sleeps on its descriptors, and the presenter's own descriptor wakes it.
    @discardableResult
    public func watch(_ presenter: Presenter, _ handler: @escaping ([PresenterEvent]) throws -> Void) -> SourceID {
        let id = watch(presenter.eventDescriptor ?? -1, hasBufferedInput: { presenter.hasPendingEvents }) {
            let events = try presenter.handleEvents()
            if !events.isEmpty { try handler(events) }
        }
        if let index = sources.firstIndex(where: { $0.id == id }) {
            sources[index].holdsFrames = { !presenter.isReadyForFrame }
            sources[index].waitsForFrames = presenter.eventsWaitForTheNextFrame
        }
        return id
    }

    /// Whether a watched presenter holds frames back now.
    private var framesAreHeld: Bool { sources.contains { $0.holdsFrames?() == true } }

    /// Stops watching a source.
    public func unwatch(_ id: SourceID) { sources.removeAll { $0.id == id } }

    /// Calls `handler` once on the loop's thread when the link's clock reaches `deadline` (at
    /// once, on the next pass, if it already has). Timers with the same deadline run in the
    /// order they were scheduled.
    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ handler: @escaping () throws -> Void) -> TimerID {
        let id = TimerID(value: nextTimerID)
        nextTimerID += 1
        timers.append(Timer(id: id, deadline: deadline, handler: handler))
        return id
    }

    /// Cancels a timer that has not run yet (a timer that ran or was cancelled is ignored).
    public func cancel(_ id: TimerID) { timers.removeAll { $0.id == id } }

    /// The earliest deadline of the scheduled timers.
    private var nextTimerDeadline: MonotonicInstant? { timers.lazy.map(\.deadline).min() }

    /// Runs every timer due at `now`, earliest first; a timer a handler schedules for a time
    /// already past runs on the next pass.
    private func runDueTimers(at now: MonotonicInstant) throws {
        let due = timers.filter { $0.deadline <= now }.sorted {
            ($0.deadline, $0.id.value) < ($1.deadline, $1.id.value)
        }
        guard !due.isEmpty else { return }
        let ids = Set(due.map(\.id))
        timers.removeAll { ids.contains($0.id) }
        for timer in due {
            try timer.handler()
            if stopRequested { return }
        }
    }

    /// Makes `run` return after the current pass. Call it on the loop's thread (from a handler or
    /// the frame callback); other threads stop the loop through a descriptor it watches.
    public func stop() { stopRequested = true }

    /// Runs until `stop()` or until a handler or `onFrame` throws (the error is rethrown). The
    /// link's deadline 0 is the moment `run` starts, unless the link was started already.
    public func run(_ onFrame: (DisplayFrame) throws -> Void) throws {
        stopRequested = false
        if !link.isStarted { link.start(at: link.clock.now()) }

        while !stopRequested {
            for source in sources where source.hasBufferedInput?() == true {
                try source.handler()
                if stopRequested { return }
            }

            var now = link.clock.now()
            try runDueTimers(at: now)
            if stopRequested { return }
            // A held frame keeps its deadline; the loop waits for the presenter (or a timer).
            let frameDeadline = framesAreHeld ? nil : link.nextDeadline
            if frameDeadline.map({ now < $0 }) ?? true {
                // The earlier of the two (no array: this runs every frame).
                var deadline = nextTimerDeadline
                if let frame = frameDeadline { deadline = deadline.map { min(frame, $0) } ?? frame }
                try waitForInput(until: deadline, frameIsDue: frameDeadline != nil)
                if stopRequested { return }
                now = link.clock.now()
                try runDueTimers(at: now)
                if stopRequested { return }
            }

            if !framesAreHeld, let frame = link.frame(at: now) {
                try onFrame(frame)
                link.frameDidEnd(at: link.clock.now())
            }
        }
    }

    /// Waits for `deadline` or a watched descriptor. With `frameIsDue`, the descriptors of
    /// sources whose input waits for frames are left out of the wait, and every descriptor is
    /// polled, without blocking, once it ends.
    private func waitForInput(until deadline: MonotonicInstant?, frameIsDue: Bool) throws {
        // Sources that a handler adds or removes take effect on the next pass.
        let watched = sources
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(pollfd(fd: link.wakeDescriptor, events: Int16(POLLIN), revents: 0))
        var leftOut = false
        for source in watched {
            // A negative descriptor is not polled: it keeps the source's place in the set.
            let deferred = frameIsDue && source.waitsForFrames && source.descriptor >= 0
            leftOut = leftOut || deferred
            pollSet.append(pollfd(fd: deferred ? -1 : source.descriptor, events: Int16(POLLIN), revents: 0))
        }

        var ready = try link.clock.wait(until: deadline, descriptors: &pollSet)
        wakeUps += 1
        if leftOut {
            // All of them again, the left-out ones in, without waiting: what was ready still is
            // (nothing has read it), and a zero timeout queues no waits. Interrupted, it finds
            // nothing, and the next pass looks again.
            for (i, source) in watched.enumerated() { pollSet[i + 1].fd = source.descriptor }
            ready = max(0, Int(pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }))
        }
        guard ready > 0 else { return }

        if pollSet[0].revents != 0 { link.acknowledgeWake() }
        for (i, source) in watched.enumerated() where pollSet[i + 1].revents != 0 {
            try source.handler()
            if stopRequested { return }
        }
    }
}
