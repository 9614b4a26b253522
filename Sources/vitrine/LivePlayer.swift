import Glibc
import VitrineBench
import VitrineSystem

/// The real player measured from outside, as a kiosk runs it: `vitrine play ARGUMENTS` as a
/// child process with a notify socket, from its READY=1 for some seconds — its CPU share (all
/// threads, /proc/PID/task/*/schedstat) over wall time and its peak RSS (VmHWM).
enum LivePlayer {
    struct Measurement<Sample> {
        var cpuShare: Double
        var peakRSSKiB: Int
        /// What `sample` read at the start and at the end.
        var before: Sample
        var after: Sample
    }

    /// Plays for `seconds` from READY=1, calling `sample` at both ends; nil (with a message
    /// naming `label`) when the player does not become ready or its figures cannot be read.
    static func measure<Sample>(
        _ arguments: [String], seconds: Double, label: String, sample: () -> Sample
    ) throws -> Measurement<Sample>? {
        let notify = try NotifySocket()
        let child = try ChildProcess(
            ProcessMemory.executablePath(), ["play"] + arguments, environment: ["NOTIFY_SOCKET=" + notify.name])
        defer { child.terminate() }
        guard notify.waitFor("READY=1", seconds: 20) else {
            printError("\(label): the player did not report READY=1")
            return nil
        }
        let before = sample()
        let cpuBefore = ProcessMemory.cpuNanoseconds(pid: child.pid)
        let wallBefore = MonotonicInstant.now().seconds
        var wake = MonotonicInstant.now().advanced(byNanoseconds: Int64(seconds * 1e9)).timespec
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) == EINTR {}
        let cpuAfter = ProcessMemory.cpuNanoseconds(pid: child.pid)
        let wall = MonotonicInstant.now().seconds - wallBefore
        let after = sample()
        guard let cpuBefore, let cpuAfter, let peak = ProcessMemory.peakResidentKiB(pid: child.pid) else { return nil }
        return Measurement(
            cpuShare: Double(cpuAfter - cpuBefore) / 1e9 / wall, peakRSSKiB: peak, before: before, after: after)
    }
}
