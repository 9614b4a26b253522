import Glibc
import VitrineSystem

/// A private Xvfb on a free display number, for the benchmarks and the tests (which wrap it):
/// started, waited for until its socket exists, killed and reaped on `stop()` or when it goes.
public final class Xvfb {
    /// Why no server runs.
    public enum Failure: Error, CustomStringConvertible {
        /// No Xvfb binary is installed.
        case notInstalled
        /// Xvfb exited or never made its socket on the numbers tried.
        case couldNotStart(numbers: Range<Int>)

        public var description: String {
            switch self {
            case .notInstalled: return "Xvfb is not installed (apt-get install xvfb)"
            case .couldNotStart(let numbers): return "no Xvfb could start on displays \(numbers)"
            }
        }
    }

    /// The display number.
    public let number: Int
    /// The display name, ":N".
    public var name: String { ":\(number)" }
    /// The server's process id.
    public var pid: pid_t { process.pid }

    private let process: ChildProcess

    /// Starts `Xvfb :N -screen 0 WxHxDEPTH -nolisten tcp -noreset` plus `arguments` on the first
    /// free number from a per-process start (parallel runs rarely collide; a server that loses
    /// the race for its lock file exits, and the next number is tried), or on `number` only.
    public init(width: Int, height: Int, depth: Int = 24, arguments: [String] = [], number requested: Int? = nil) throws
    {
        let installed: [String] = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
        guard let binary = installed.first(where: { access($0, X_OK) == 0 }) else {
            throw Failure.notInstalled
        }
        let numbers = requested.map { $0..<($0 + 1) } ?? Xvfb.firstCandidate..<(Xvfb.firstCandidate + 40)
        for number in numbers where !Xvfb.isTaken(number) {
            let process = try ChildProcess(
                binary,
                [
                    ":\(number)", "-screen", "0", "\(width)x\(height)x\(depth)",
                    "-nolisten", "tcp", "-noreset"
                ] + arguments, quiet: true)
            let deadline = MonotonicInstant.now().advanced(byNanoseconds: 10_000_000_000)
            while process.isRunning && !Xvfb.socketExists(number) && MonotonicInstant.now() < deadline { usleep(5_000) }
            if process.isRunning && Xvfb.socketExists(number) {
                self.number = number
                self.process = process
                return
            }
            process.terminate()
        }
        throw Failure.couldNotStart(numbers: numbers)
    }

    /// A display number no server uses now.
    public static func unusedDisplayNumber() -> Int {
        let start = firstCandidate + 40
        return (start..<(start + 100)).first { !isTaken($0) } ?? start
    }

    /// Kills the server (SIGKILL: no goodbye to clients), reaps it and removes what it leaves.
    public func kill() {
        process.kill()
        unlink("/tmp/.X\(number)-lock")
        unlink("/tmp/.X11-unix/X\(number)")
    }

    /// Stops the server the polite way (SIGTERM, SIGKILL after two seconds) and reaps it.
    public func stop() { process.terminate() }

    deinit { stop() }

    private static var firstCandidate: Int { 200 + Int(getpid() % 500) }

    private static func socketExists(_ number: Int) -> Bool { access("/tmp/.X11-unix/X\(number)", F_OK) == 0 }

    private static func isTaken(_ number: Int) -> Bool {
        access("/tmp/.X\(number)-lock", F_OK) == 0 || socketExists(number)
    }
}
