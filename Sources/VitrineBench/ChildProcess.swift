import Glibc
import VitrineSystem

/// A child started with posix_spawn, with the default signal mask and dispositions.
public final class ChildProcess {
    public let pid: pid_t
    private var reaped = false

    public init(_ path: String, _ arguments: [String], environment extra: [String] = [], quiet: Bool = false) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var environment: [String] = []
        var entry = environ
        while let e = entry.pointee {
            let text = String(cString: e)
            if !text.hasPrefix("NOTIFY_SOCKET=") && !text.hasPrefix("WATCHDOG_") { environment.append(text) }
            entry += 1
        }
        environment += extra
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SystemError("start", path, code: result) }
        pid = child
    }

    /// Whether the child has not exited yet (reaps it when it has).
    public var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// SIGKILL; reaps the child.
    public func kill() {
        guard !reaped else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        reaped = true
    }

    /// SIGTERM, then SIGKILL after two seconds; reaps the child.
    public func terminate() {
        guard !reaped else { return }
        Glibc.kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; return }
            usleep(10_000)
        }
        kill()
    }

    deinit { terminate() }
}
