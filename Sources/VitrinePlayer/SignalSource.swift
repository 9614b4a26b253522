import CLinux
import Glibc
import VitrineConfig
import VitrineSystem

/// The signals the player acts on, as Vitrine's operators use them.
public enum PlayerSignal: Sendable, Equatable {
    /// SIGHUP: re-read the config; switch to it if valid, keep playing otherwise.
    case reload
    /// SIGUSR1: next scene.
    case nextScene
    /// SIGUSR2: restart the playlist from its first scene.
    case restartPlaylist
    /// SIGTERM / SIGINT: finish the frame and exit cleanly.
    case terminate
}

/// Receives signals through a `signalfd`: the signals are blocked for every thread and arrive
/// as readable data on a descriptor the run loop polls, so no work ever runs inside a handler.
public final class SignalSource {
    public let fileDescriptor: Int32
    private static let handled: [Int32] = [SIGHUP, SIGUSR1, SIGUSR2, SIGTERM, SIGINT]
    /// The calling thread's mask before the source blocked its signals.
    private var previousMask = sigset_t()

    /// Blocks the player's signals in the calling thread (call it before starting other threads,
    /// which inherit the mask) and opens the descriptor. Releasing the source restores the
    /// thread's previous mask: child processes started afterwards (and the thread itself) get
    /// the signals' ordinary behaviour back.
    public init() throws {
        var set = sigset_t()
        sigemptyset(&set)
        for s in SignalSource.handled { sigaddset(&set, s) }
        let blocked = pthread_sigmask(SIG_BLOCK, &set, &previousMask)
        guard blocked == 0 else { throw SystemError("block signals (pthread_sigmask)", code: blocked) }
        // SIGPIPE would kill the process when a FIFO reader or the notify socket goes away.
        signal(SIGPIPE, SIG_IGN)
        let fd = signalfd(-1, &set, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError("open a signalfd") }
        fileDescriptor = fd
    }

    deinit {
        close(fileDescriptor)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// Every signal that arrived since the last call, oldest first.
    public func drain() -> [PlayerSignal] {
        var result: [PlayerSignal] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while read(fileDescriptor, &info, size) == size {
            switch Int32(info.ssi_signo) {
            case SIGHUP: result.append(.reload)
            case SIGUSR1: result.append(.nextScene)
            case SIGUSR2: result.append(.restartPlaylist)
            case SIGTERM, SIGINT: result.append(.terminate)
            default: break
            }
        }
        return result
    }
}
