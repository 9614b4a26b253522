import Foundation
import VitrineGraphics

/// Nanoseconds of CPU time this thread has used (robust on a shared machine: time spent
/// descheduled does not count).
public func threadCPUTime() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Median and minimum milliseconds per frame (wall clock, or thread CPU time).
public func time(
    _ scene: DrawingScene, _ ctx: GraphicsContext, frames: Int, warmup: Int, cpuTime: Bool = false
) -> (Double, Double) {
    for _ in 0..<warmup { render(scene, into: ctx) }
    var samples: [Double] = []
    samples.reserveCapacity(frames)  // timed frames allocate nothing of the bench's own
    let now = cpuTime ? threadCPUTime : { DispatchTime.now().uptimeNanoseconds }
    for _ in 0..<frames {
        let t0 = now()
        render(scene, into: ctx)
        samples.append(Double(now() - t0) / 1e6)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0])
}
