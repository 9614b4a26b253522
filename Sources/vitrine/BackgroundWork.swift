import Foundation

/// One piece of work run on a thread of its own while the caller does another, its result
/// collected once with `wait()`. Start-up uses it to load the playlist while the display opens.
final class BackgroundWork<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written by the worker before it signals `done`, read by `wait()` after: never both at once.
    private var result: Result<Value, any Error>?

    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            result = Result { try work() }
            done.signal()
        }
        // The loader parses TOML and decodes images: more than the default 512 KiB of stack is
        // what the main thread has too.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the work to finish; its value or its error. Call once.
    func wait() -> Result<Value, any Error> {
        done.wait()
        return result!
    }
}
