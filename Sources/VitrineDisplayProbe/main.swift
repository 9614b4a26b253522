// vitrine-display-probe: drives VitrineDisplay under a real X server.
//
//   VitrineDisplayProbe present [--display NAME] [--no-shm]   present frames until the server goes
//   VitrineDisplayProbe idle    [--display NAME]              one frame, then a paused link, forever
//   VitrineDisplayProbe bench   [--display NAME] [--seconds S] [--fps N]
//
// `present` prints "presenting" once the first frame is up; the display tests kill the server
// then and expect X11Presenter.connectionLostExitStatus within a second.
import Glibc
import Logging
import VitrineBench
import VitrineDisplay
import VitrineGraphics
import VitrineX11

struct Options {
    var mode = ""
    var display: String?
    var sharedMemory = true
    var seconds = 5.0
    var fps = 60

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        guard let mode = rest.popFirst() else { throw UsageError("missing mode: present, idle or bench") }
        self.mode = mode
        while let argument = rest.popFirst() {
            switch argument {
            case "--display": display = rest.popFirst()
            case "--no-shm": sharedMemory = false
            case "--seconds": seconds = Double(rest.popFirst() ?? "") ?? seconds
            case "--fps": fps = Int(rest.popFirst() ?? "") ?? fps
            default: throw UsageError("unknown argument \(argument)")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func say(_ line: String) {
    print(line)
    fflush(stdout)
}

func presentForever(_ options: Options) throws {
    let presenter = try X11Presenter(displayName: options.display, sharedMemory: options.sharedMemory)
    let loop = FrameLoop(link: try DisplayLink(clock: try SystemClock(), preferredFramesPerSecond: options.fps))
    var bitmap = Bitmap(width: presenter.size.width, height: presenter.size.height)
    loop.watch(presenter) { events in
        for case .resized(let size) in events { bitmap = Bitmap(width: size.width, height: size.height) }
    }
    let workload = PresentWorkload.movingSquare(side: max(1, min(bitmap.width, bitmap.height) / 4))
    try loop.run { frame in
        try presenter.present(bitmap, dirty: workload.draw(frame: frame.index, into: bitmap))
        if frame.index == 0 { say("presenting") }
    }
}

func idleForever(_ options: Options) throws {
    let presenter = try X11Presenter(displayName: options.display, sharedMemory: options.sharedMemory)
    let link = try DisplayLink(clock: try SystemClock(), preferredFramesPerSecond: options.fps)
    let loop = FrameLoop(link: link)
    let bitmap = Bitmap(width: presenter.size.width, height: presenter.size.height)
    bitmap.fill(0xFF20_4060)
    loop.watch(presenter) { _ in }
    try loop.run { frame in
        try presenter.present(bitmap)
        link.isPaused = true
        say("idle pid \(getpid()) after \(frame.index + 1) frame(s)")
    }
}

func bench(_ options: Options) throws {
    try DisplayBenchmarkSuite.run(
        displayName: options.display, seconds: options.seconds,
        framesPerSecond: options.fps, report: say)
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    switch options.mode {
    case "present": try presentForever(options)
    case "idle": try idleForever(options)
    case "bench": try bench(options)
    default: throw UsageError("unknown mode \(options.mode): present, idle or bench")
    }
} catch {
    let message = "VitrineDisplayProbe: \(error)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
}
