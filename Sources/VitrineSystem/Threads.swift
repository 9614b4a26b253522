import Glibc

// The few threading pieces the libraries need, on pthreads, so that a kiosk's binary links no
// Foundation (its ICU and CoreFoundation cost several megabytes of resident memory and
// start-up time for a lock and a thread).

/// A mutual-exclusion lock: a pthread mutex.
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// A lock; a `recursive` one may be taken again by the thread that holds it (each `lock`
    /// then needs its `unlock`).
    public init(recursive: Bool = false) {
        mutex.initialize(to: pthread_mutex_t())
        guard recursive else {
            pthread_mutex_init(mutex, nil)
            return
        }
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock if no one holds it; whether it did.
    public func `try`() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable with a mutex of its own: threads sleep until a change they wait for
/// has been made and announced.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Makes `change` holding the mutex and wakes every waiting thread; what `change` returns.
    @discardableResult
    public func announce<Result>(_ change: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        let result = change()
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        return result
    }

    /// Sleeps until `isMet` (checked holding the mutex) is true.
    public func wait(until isMet: () -> Bool) {
        pthread_mutex_lock(mutex)
        while !isMet() { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}

/// A counting semaphore: a POSIX unnamed semaphore.
public final class CountingSemaphore: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    public init(value: UInt32 = 0) {
        semaphore.initialize(to: sem_t())
        sem_init(semaphore, 0, value)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    public func signal() { sem_post(semaphore) }

    /// Waits for a signal (a wait a signal handler interrupts goes on waiting).
    public func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}

/// Threads started once and left to run (detached).
public enum SystemThread {
    /// Runs `body` on a new thread named `name` (the kernel keeps 15 bytes of it, shown by `top
    /// -H` and `ps -L`), with `stackSize` bytes of stack (nil: the system's default). What
    /// `body` shares with other threads, the caller guards (a lock, a semaphore).
    public static func start(
        name: String, stackSize: Int? = nil, _ body: @escaping () -> Void
    ) throws(SystemError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize {
            let status = pthread_attr_setstacksize(&attributes, stackSize)
            guard status == 0 else {
                throw SystemError("set a stack of \(stackSize) bytes for thread", name, code: status)
            }
        }
        let context = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                let started = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
                nameThisThread(started.name)
                started.body()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError("start thread", name, code: status)
        }
    }
}

private final class ThreadBody {
    let name: String
    let body: () -> Void

    init(name: String, _ body: @escaping () -> Void) {
        self.name = name
        self.body = body
    }
}

/// Names the calling thread through /proc (pthread_setname_np and prctl are GNU or variadic,
/// which Swift's Glibc module does not offer); the kernel keeps the first 15 bytes.
private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

/// The processors this process may run on: its affinity mask, as /proc/self/status's
/// `Cpus_allowed` (hexadecimal words separated by commas) shows it; the processors online where
/// that cannot be read. At least 1.
public func availableProcessorCount() -> Int {
    let online = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    guard let status = Files.readProcFile("/proc/self/status"),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
    else { return online }
    let allowed = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, character in
        count + (character.hexDigitValue?.nonzeroBitCount ?? 0)
    }
    return allowed > 0 ? allowed : online
}
