import Glibc
import VitrineGraphics

/// The CPU cost of a run of frames, from per-frame samples of the calling thread's CPU time
/// (time spent descheduled on a busy machine does not count).
public struct FrameCost: Sendable, Equatable {
    /// How many frames were measured.
    public let frameCount: Int
    /// Median milliseconds per frame.
    public let median: Double
    /// 99th-percentile milliseconds per frame (the nearest rank).
    public let percentile99: Double
    /// Mean milliseconds per frame.
    public let mean: Double

    /// The summary of per-frame costs in nanoseconds (all zero when there are none).
    public init(nanoseconds samples: [UInt64]) {
        frameCount = samples.count
        guard !samples.isEmpty else { median = 0; percentile99 = 0; mean = 0; return }
        let sorted = samples.sorted()
        func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }
        median =
            sorted.count % 2 == 1
            ? ms(sorted[sorted.count / 2])
            : (ms(sorted[sorted.count / 2 - 1]) + ms(sorted[sorted.count / 2])) / 2
        let rank = Int((0.99 * Double(sorted.count)).rounded(.up)) - 1
        percentile99 = ms(sorted[min(max(rank, 0), sorted.count - 1)])
        mean = ms(sorted.reduce(0, +)) / Double(sorted.count)
    }

    /// Nanoseconds of CPU time the calling thread has used.
    public static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// Runs `frame` for `warmUp + count` frame times `start + i / fps` and measures the last
    /// `count` runs in thread CPU time.
    public static func measure(
        count: Int, fps: Double = 60, start: Double = 0, warmUp: Int = 10,
        _ frame: (Double) -> Void
    ) -> FrameCost {
        let n = max(0, count), w = max(0, warmUp)
        let step = fps > 0 && fps.isFinite ? 1 / fps : 1.0 / 60
        var samples: [UInt64] = []
        samples.reserveCapacity(n)
        for i in 0..<(w + n) {
            let t = start + Double(i) * step
            let before = threadCPUNanoseconds()
            frame(t)
            if i >= w { samples.append(threadCPUNanoseconds() &- before) }
        }
        return FrameCost(nanoseconds: samples)
    }
}
