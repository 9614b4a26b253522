import ArgumentParser
import VitrineBench
import VitrineDisplay

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the renderer, the display path and the player.",
        discussion: """
            vitrine bench --pacing            display link pacing and present cost on $DISPLAY
            vitrine bench --pacing --backend wayland   the same under the Wayland compositor at $WAYLAND_DISPLAY
            vitrine bench graphics …          the renderer (peers-bench.py's external-renderer protocol)
            vitrine bench player [CONFIG]     each scene's frame cost, pixels redrawn, CPU share and RSS
            vitrine bench summary [CONFIG]    the playlist at 1080p and 4K, a still scene and the first frame, in one table
            """,
        subcommands: [GraphicsBenchCommand.self, PlayerBenchCommand.self, SummaryBenchCommand.self])

    @Flag(
        help:
            "Run the display link under the X11 presenter and report frame intervals, missed frames and present cost (MIT-SHM and XPutImage)."
    )
    var pacing = false

    enum Backend: String, ExpressibleByArgument { case x11, wayland }

    @Option(help: "x11 (default) or wayland: the display stack --pacing measures.")
    var backend: Backend = .x11

    @Option(help: "X display for --pacing (default: $DISPLAY), or the Wayland socket (default: $WAYLAND_DISPLAY).")
    var display: String?

    @Option(help: "Seconds of pacing per workload.")
    var seconds: Double = 5

    @Option(help: "Frames per second for --pacing.")
    var fps: Int = 60

    // ArgumentParser validates every command on the way to a subcommand, so "no benchmark
    // chosen" is checked in run(), which only runs without one.
    func validate() throws {
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be from 0 to 3600") }
        guard (1...1000).contains(fps) else { throw ValidationError("--fps must be from 1 to 1000") }
    }

    func run() throws {
        guard pacing else { throw ValidationError("choose a benchmark: --pacing, or a subcommand (see --help)") }
        switch backend {
        case .x11:
            try DisplayBenchmarkSuite.run(displayName: display, seconds: seconds, framesPerSecond: fps) { print($0) }
        case .wayland:
            try DisplayBenchmarkSuite.runWayland(socketName: display, seconds: seconds, framesPerSecond: fps) {
                print($0)
            }
        }
    }
}
