import VitrineSystem

/// What a display link hands to each frame callback, as CADisplayLink does. Its times are
/// instants of the link's clock; the `…Timestamp` properties give them in seconds, the unit of
/// the engine's media time.
public struct DisplayFrame: Equatable, Sendable {
    /// The deadline this frame answers: when the previous frame was meant to be on screen.
    public var deadline: MonotonicInstant
    /// When this frame is meant to be on screen (the next deadline): render for this time.
    public var targetTime: MonotonicInstant
    /// The interval between deadlines, in seconds.
    public var duration: Double
    /// How many deadlines passed without a frame just before this one.
    public var missedDeadlines: Int
    /// When the link actually woke for this frame: `wokeAt - deadline` is the wake latency.
    public var wokeAt: MonotonicInstant
    /// The number of frames the link delivered before this one.
    public var index: Int

    /// `deadline` in seconds (CADisplayLink's `timestamp`).
    public var timestamp: Double { deadline.seconds }
    /// `targetTime` in seconds (CADisplayLink's `targetTimestamp`).
    public var targetTimestamp: Double { targetTime.seconds }
    /// `wokeAt` in seconds.
    public var wakeTime: Double { wokeAt.seconds }
}
