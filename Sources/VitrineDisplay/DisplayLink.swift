import Glibc
import VitrineSystem

/// Paces frames on an absolute grid of deadlines: deadline n = anchor + n / fps on a monotonic
/// clock, so the rate never drifts. A frame that runs late does not cause a burst: the deadlines
/// it overran are skipped and counted, and the next frame waits for the next deadline ahead.
/// While paused the link has no deadline at all, so its loop sleeps until something wakes it.
///
/// A `FrameLoop` drives a link; custom loops can too, through `start(at:)`, `nextDeadline`,
/// `frame(at:)`, `frameDidEnd(at:)` and `wakeDescriptor`. Everything except `resume()` belongs
/// to the loop's thread.
public final class DisplayLink {
    /// Where the link reads the time.
    public let clock: MonotonicClock

    /// Frames per second the link paces at (default 60; set it from `Presenter.refreshRate` when
    /// the display reports one). Clamped to 1...1000. Changing it starts the new grid at the
    /// last deadline, so no frame is missed or doubled.
    public var preferredFramesPerSecond: Int {
        didSet {
            preferredFramesPerSecond = min(1000, max(1, preferredFramesPerSecond))
            guard preferredFramesPerSecond != oldValue, isStarted else { return }
            anchor = deadline(lastIndex, framesPerSecond: oldValue)
            lastIndex = 0
            nextIndex = index(atOrBefore: clock.now()) + 1
        }
    }

    /// Whether the link is paused (default false): a paused link has no deadline, its loop waits
    /// only for descriptors, and a static scene costs no CPU. Unpausing resumes on the grid at
    /// the next deadline after now; the paused time does not count as missed frames.
    public var isPaused = false {
        didSet {
            guard isPaused != oldValue, !isPaused, isStarted else { return }
            nextIndex = index(atOrBefore: clock.now()) + 1
            skippedAfterLastFrame = 0
        }
    }

    /// The deadline of the last frame delivered, in seconds (0 before the first).
    public private(set) var timestamp: Double = 0
    /// When the last frame delivered was meant to be on screen, in seconds (0 before the first).
    public private(set) var targetTimestamp: Double = 0
    /// The interval between deadlines at the current rate, in seconds.
    public var duration: Double { 1 / Double(preferredFramesPerSecond) }

    /// Frames delivered since the link was created.
    public private(set) var frameCount = 0
    /// Deadlines skipped because a frame or a wake came late, since the link was created.
    public private(set) var missedFrameCount = 0

    /// A descriptor that becomes readable after `resume()`: a loop must include it in its poll
    /// and call `acknowledgeWake()` when it is.
    public var wakeDescriptor: Int32 { wakeUp.fileDescriptor }
    private let wakeUp: WakeUpDescriptor

    /// Whether `start(at:)` has placed the grid.
    public private(set) var isStarted = false
    /// Deadlines are `anchor + n * 1e9 / fps`, computed exactly; the anchor moves forward in
    /// whole seconds so n stays small.
    private var anchor = MonotonicInstant(nanoseconds: 0)
    private var lastIndex = -1
    private var nextIndex = 0
    /// Deadlines the last frame's work overran, reported with the next frame.
    private var skippedAfterLastFrame = 0

    /// A link reading `clock`, pacing at `preferredFramesPerSecond`.
    public init(clock: MonotonicClock, preferredFramesPerSecond: Int = 60) throws {
        self.clock = clock
        self.preferredFramesPerSecond = min(1000, max(1, preferredFramesPerSecond))
        wakeUp = try WakeUpDescriptor()
    }

    /// Unpauses the link from any thread: one write(2) to `wakeDescriptor`, safe in a signal
    /// handler; the loop's thread then clears `isPaused`. On the loop's thread, setting
    /// `isPaused = false` does the same without the wake-up.
    public func resume() { wakeUp.post() }

    /// Called by the loop when `wakeDescriptor` is readable: drains it and unpauses.
    public func acknowledgeWake() {
        wakeUp.drain()
        isPaused = false
    }

    /// Puts deadline 0 at `instant`: the first frame is due at once.
    public func start(at instant: MonotonicInstant) {
        isStarted = true
        anchor = instant
        lastIndex = -1
        nextIndex = 0
        skippedAfterLastFrame = 0
    }

    /// When the next frame is due, or nil while paused or before `start(at:)`.
    public var nextDeadline: MonotonicInstant? {
        guard isStarted, !isPaused else { return nil }
        return deadline(nextIndex)
    }

    /// The frame due at `now`, or nil if none is (paused, or the next deadline is ahead). When
    /// the wake came so late that later deadlines have passed too, the frame answers the latest
    /// of them and the ones before it count as missed.
    public func frame(at now: MonotonicInstant) -> DisplayFrame? {
        guard let due = nextDeadline, now >= due else { return nil }
        let n = index(atOrBefore: now)
        let missed = n - nextIndex + skippedAfterLastFrame
        missedFrameCount += n - nextIndex
        skippedAfterLastFrame = 0
        lastIndex = n
        nextIndex = n + 1
        let frame = DisplayFrame(
            deadline: deadline(n), targetTime: deadline(n + 1), duration: duration,
            missedDeadlines: missed, wokeAt: now, index: frameCount)
        timestamp = frame.timestamp
        targetTimestamp = frame.targetTimestamp
        frameCount += 1
        rebaseAnchor()
        return frame
    }

    /// Called when a frame's work is done: deadlines that passed during it are skipped and
    /// counted, so the next frame waits for the first deadline at or after `now`.
    public func frameDidEnd(at now: MonotonicInstant) {
        let firstAhead = index(atOrBefore: now.advanced(byNanoseconds: -1)) + 1
        if firstAhead > nextIndex {
            missedFrameCount += firstAhead - nextIndex
            skippedAfterLastFrame += firstAhead - nextIndex
            nextIndex = firstAhead
        }
    }

    /// Moves on to the first deadline after now without counting the deadlines passed since the
    /// last frame as missed, for a wait that was not a frame's work (the first frame of what
    /// plays being put on screen before its clock starts); how many deadlines it passed over.
    public func passDeadlinesWithoutMissing() -> Int {
        guard isStarted else { return 0 }
        let firstAhead = index(atOrBefore: clock.now()) + 1
        let passed = max(0, firstAhead - nextIndex)
        nextIndex += passed
        return passed
    }

    // MARK: - The grid

    private func deadline(_ n: Int, framesPerSecond: Int? = nil) -> MonotonicInstant {
        let fps = Int64(framesPerSecond ?? preferredFramesPerSecond)
        return anchor.advanced(byNanoseconds: Int64(n) * 1_000_000_000 / fps)
    }

    /// The largest n with deadline(n) <= instant (-1 when instant is before the anchor).
    private func index(atOrBefore instant: MonotonicInstant) -> Int {
        let elapsed = instant.nanoseconds(since: anchor)
        if elapsed < 0 { return -1 }
        let fps = Int64(preferredFramesPerSecond)
        // Split into whole seconds and the rest so the product cannot overflow.
        let seconds = elapsed / 1_000_000_000, rest = elapsed % 1_000_000_000
        var n = seconds * fps + rest * fps / 1_000_000_000
        // deadline(n) rounds down, so n from the division may be one short.
        while deadline(Int(n + 1)) <= instant { n += 1 }
        return Int(n)
    }

    /// Moves the anchor forward by the whole seconds already delivered, keeping every deadline.
    private func rebaseAnchor() {
        let fps = preferredFramesPerSecond
        let seconds = lastIndex / fps
        guard seconds > 0 else { return }
        anchor = anchor.advanced(byNanoseconds: Int64(seconds) * 1_000_000_000)
        lastIndex -= seconds * fps
        nextIndex -= seconds * fps
    }
}
