import VitrineGraphics
import VitrineSystem

/// Median and minimum milliseconds per frame (wall clock, or thread CPU time).
public func time(
    _ scene: DrawingScene, _ ctx: GraphicsContext, frames: Int, warmup: Int, cpuTime: Bool = false
) -> (Double, Double) {
    for _ in 0..<warmup { render(scene, into: ctx) }
    var samples: [Double] = []
    samples.reserveCapacity(frames)  // timed frames allocate nothing of the bench's own
    let now = cpuTime ? FrameCost.threadCPUNanoseconds : { UInt64(MonotonicInstant.now().nanoseconds) }
    for _ in 0..<frames {
        let t0 = now()
        render(scene, into: ctx)
        samples.append(Double(now() - t0) / 1e6)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0])
}
