import Logging
import VitrineDisplay
import VitrineGraphics
import VitrineWayland
import VitrineX11

/// Everything `vitrine bench --pacing` measures on a real X server: the display link's pacing
/// under the X11 presenter (a moving square and whole-frame updates), then the cost of one
/// present for whole frames and small dirty rectangles, with MIT-SHM and with XPutImage.
public enum DisplayBenchmarkSuite {
    /// Runs the suite on `displayName` (nil: `$DISPLAY`), handing each report line to `report`.
    public static func run(
        displayName: String?, seconds: Double, framesPerSecond: Int,
        report: (String) -> Void
    ) throws {
        var logger = Logger(label: "vitrine.bench")
        logger.logLevel = .warning
        do {
            let presenter = try X11Presenter(displayName: displayName, logger: logger)
            defer { presenter.close() }
            report(
                "display \(presenter.displayName) \(presenter.size), refresh rate "
                    + (presenter.refreshRate.map { "\($0) Hz" } ?? "not reported"))
            for workload in [PresentWorkload.movingSquare(side: 200), .fullFrame] {
                report(
                    try PacingBenchmark.run(
                        presenter: presenter, seconds: seconds,
                        framesPerSecond: framesPerSecond, workload: workload
                    ).description)
            }
        }
        for sharedMemory in [true, false] {
            let presenter = try X11Presenter(displayName: displayName, sharedMemory: sharedMemory, logger: logger)
            defer { presenter.close() }
            for workload in [PresentWorkload.fullFrame, .movingSquare(side: 64), .movingSquare(side: 200)] {
                let result = try PresentCostBenchmark.run(presenter: presenter, frames: 300, workload: workload)
                report("\(presenter.usesSharedMemory ? "MIT-SHM  " : "XPutImage") \(result)")
            }
        }
    }

    /// The same under a Wayland compositor (`socketName` nil: `$WAYLAND_DISPLAY`): pacing,
    /// which follows the compositor's frame callbacks, then the cost of one present through
    /// wl_shm buffers.
    public static func runWayland(
        socketName: String?, seconds: Double, framesPerSecond: Int,
        report: (String) -> Void
    ) throws {
        var logger = Logger(label: "vitrine.bench")
        logger.logLevel = .warning
        let presenter = try WaylandPresenter(socketName: socketName, logger: logger)
        defer { presenter.close() }
        report(
            "Wayland \(presenter.socketName) \(presenter.size), scale \(presenter.scale), refresh rate "
                + (presenter.refreshRate.map { "\($0) Hz" } ?? "not reported")
                + (presenter.offersPresentationFeedback ? ", presentation feedback offered" : ""))
        for workload in [PresentWorkload.movingSquare(side: 200), .fullFrame] {
            let callbacks = presenter.frameCallbacksDone, presented = presenter.framesPresented
            report(
                try PacingBenchmark.run(
                    presenter: presenter, seconds: seconds,
                    framesPerSecond: framesPerSecond, workload: workload
                ).description)
            report(
                "  compositor:          \(presenter.frameCallbacksDone - callbacks) frame callbacks, \(presenter.framesPresented - presented) presentations by feedback"
                    + (presenter.presentationIntervals.isEmpty
                        ? ""
                        : "; presentation interval (ms): \(SampleStatistics(presenter.presentationIntervals.map { $0 * 1000 }))")
            )
        }
        for workload in [PresentWorkload.fullFrame, .movingSquare(side: 64), .movingSquare(side: 200)] {
            let result = try PresentCostBenchmark.run(presenter: presenter, frames: 300, workload: workload)
            report("wl_shm    \(result)")
        }
    }
}
