import VitrineDisplay
import VitrineGraphics

/// How steadily a display link delivers frames to a presenter.
public struct PacingReport: Sendable, CustomStringConvertible {
    /// The rate asked for.
    public var framesPerSecond: Int
    /// What each frame changed.
    public var workload: PresentWorkload
    /// Frames delivered.
    public var frames: Int
    /// Time between successive wakes, in milliseconds.
    public var interval: SampleStatistics
    /// How late each wake came after its deadline, in milliseconds.
    public var wakeLatency: SampleStatistics
    /// Time spent in `present` per frame, in milliseconds.
    public var presentCost: SampleStatistics
    /// Deadlines skipped because a frame or a wake came late.
    public var missedFrames: Int

    public var description: String {
        """
        pacing at \(framesPerSecond) fps, \(workload), \(frames) frames:
          frame interval (ms): \(interval)
          wake latency (ms):   \(wakeLatency)
          present cost (ms):   \(presentCost)
          missed frames:       \(missedFrames)
        """
    }
}

/// Runs a display link against a presenter for a while and measures the frame pacing.
public enum PacingBenchmark {
    /// Presents `workload` frames through `presenter` at `framesPerSecond` for `seconds`, on a
    /// real monotonic clock, and reports intervals, wake latency, present cost and misses.
    public static func run(
        presenter: Presenter, seconds: Double, framesPerSecond: Int = 60,
        workload: PresentWorkload = .movingSquare(side: 200)
    ) throws -> PacingReport {
        let clock = try SystemClock()
        let link = try DisplayLink(clock: clock, preferredFramesPerSecond: framesPerSecond)
        let loop = FrameLoop(link: link)
        var bitmap = Bitmap(width: presenter.size.width, height: presenter.size.height)
        loop.watch(presenter) { events in
            for case .resized(let size) in events { bitmap = Bitmap(width: size.width, height: size.height) }
        }

        let frameCount = max(2, Int(seconds * Double(link.preferredFramesPerSecond)))
        var wakes: [Double] = [], latencies: [Double] = [], costs: [Double] = []
        wakes.reserveCapacity(frameCount); latencies.reserveCapacity(frameCount); costs.reserveCapacity(frameCount)
        try loop.run { frame in
            wakes.append(frame.wakeTime)
            latencies.append((frame.wakeTime - frame.timestamp) * 1000)
            let dirty = workload.draw(frame: frame.index, into: bitmap)
            let before = clock.now()
            try presenter.present(bitmap, dirty: frame.index == 0 ? [PixelSize(of: bitmap).bounds] : dirty)
            costs.append(Double(clock.now().nanoseconds(since: before)) / 1e6)
            if wakes.count >= frameCount { loop.stop() }
        }
        let intervals = zip(wakes.dropFirst(), wakes).map { ($0 - $1) * 1000 }
        return PacingReport(
            framesPerSecond: link.preferredFramesPerSecond, workload: workload, frames: wakes.count,
            interval: SampleStatistics(intervals), wakeLatency: SampleStatistics(latencies),
            presentCost: SampleStatistics(costs), missedFrames: link.missedFrameCount)
    }
}
