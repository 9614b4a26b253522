import Glibc

/// A system call that failed: what was being done, to what, and errno. The one error type for
/// every call into the kernel, so each message says the same thing the same way.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// What was attempted, as a verb phrase: "open", "write", "create the directory" ….
    public let operation: String
    /// The file or object it was done to, when there is one.
    public let subject: String?
    /// The errno value.
    public let code: Int32

    public init(_ operation: String, _ subject: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.subject = subject
        self.code = code
    }

    /// errno in plain words: "no such file or directory", "permission denied" ….
    public var reason: String { SystemError.describe(code) }

    /// `SUBJECT: cannot OPERATION: REASON`.
    public var description: String {
        (subject.map { "\($0): " } ?? "") + "cannot \(operation): \(reason)"
    }

    /// strerror's text, lower-cased at its start (it is read mid-sentence).
    public static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }
}

/// Runs `call` until it is not interrupted by a signal; a result of -1 throws the errno as a
/// `SystemError` naming `operation` and `subject`.
@discardableResult
public func systemCall<Result: BinaryInteger>(
    _ operation: String, _ subject: String? = nil,
    _ call: () -> Result
) throws -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(operation, subject, code: code)
    }
}
