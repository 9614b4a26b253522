/// What a display link hands to each frame callback, as CADisplayLink does.
public struct DisplayFrame: Equatable, Sendable {
    /// The deadline this frame answers, in seconds on the link's clock: when the previous frame
    /// was meant to be on screen.
    public var timestamp: Double
    /// When this frame is meant to be on screen (`timestamp + duration`): render for this time.
    public var targetTimestamp: Double
    /// The interval between deadlines, in seconds.
    public var duration: Double
    /// How many deadlines passed without a frame just before this one.
    public var missedDeadlines: Int
    /// When the link actually woke for this frame: `wakeTime - timestamp` is the wake latency.
    public var wakeTime: Double
    /// The number of frames the link delivered before this one.
    public var index: Int
}
