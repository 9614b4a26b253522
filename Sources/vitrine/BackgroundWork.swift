import VitrineSystem

/// One piece of work run on a thread of its own while the caller does another, its result
/// collected once with `wait()`. Start-up uses it to load the playlist while the display opens.
final class BackgroundWork<Value>: @unchecked Sendable {
    private let done = CountingSemaphore()
    /// Written by the worker before it signals `done`, read by `wait()` after: never both at once.
    private var result: Result<Value, any Error>?

    init(_ work: @escaping @Sendable () throws -> Value) {
        do {
            // The loader parses TOML and decodes images: the main thread's 8 MiB of stack.
            try SystemThread.start(name: "vitrine-load", stackSize: 8 << 20) { [self] in
                result = Result { try work() }
                done.signal()
            }
        } catch {
            // No thread to be had: the work is done now, before the display opens.
            result = Result { try work() }
            done.signal()
        }
    }

    /// Waits for the work to finish; its value or its error. Call once.
    func wait() -> Result<Value, any Error> {
        done.wait()
        return result!
    }
}
