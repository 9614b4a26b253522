import VitrineDisplay
import VitrineGraphics

/// What presenting costs when frames come as fast as the presenter takes them.
public struct PresentCostReport: Sendable, CustomStringConvertible {
    /// What each frame changed.
    public var workload: PresentWorkload
    /// Frames presented.
    public var frames: Int
    /// Time inside `present` per frame, in milliseconds (drawing the frame excluded).
    public var presentCall: SampleStatistics
    /// Wall time per frame over the whole run until the output showed the last frame, drawing
    /// excluded, in milliseconds: this includes the server's work (waiting for it to finish
    /// reading a buffer, or for room in the socket), so it is the sustainable cost.
    public var wallTimePerFrame: Double

    public var description: String {
        "present \(workload), \(frames) frames: call (ms) \(presentCall); sustained \(format(wallTimePerFrame)) ms/frame"
    }
}

/// Measures the cost of `present` itself, unpaced.
public enum PresentCostBenchmark {
    /// Presents `frames` frames of `workload` back to back through `presenter`.
    public static func run(
        presenter: Presenter, frames: Int = 300,
        workload: PresentWorkload
    ) throws -> PresentCostReport {
        let clock = try SystemClock()
        let bitmap = Bitmap(width: presenter.size.width, height: presenter.size.height)
        try presenter.present(bitmap)
        var calls: [Double] = []
        calls.reserveCapacity(frames)
        var drawing: Int64 = 0
        let start = clock.now()
        for index in 1...max(1, frames) {
            let drawStart = clock.now()
            let dirty = workload.draw(frame: index, into: bitmap)
            let before = clock.now()
            drawing += before.nanoseconds(since: drawStart)
            try presenter.present(bitmap, dirty: dirty)
            calls.append(Double(clock.now().nanoseconds(since: before)) / 1e6)
        }
        try presenter.finishPresenting()
        let elapsed = Double(clock.now().nanoseconds(since: start) - drawing) / 1e6
        return PresentCostReport(
            workload: workload, frames: calls.count, presentCall: SampleStatistics(calls),
            wallTimePerFrame: elapsed / Double(calls.count))
    }
}
