import Glibc

/// Standard error as a `print` target.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        fputs(string, stderr)
    }
}

/// Prints an error to stderr as users read it: `FILE:LINE:COLUMN: … › KEY: message` lines.
func printError(_ error: Error) {
    var standardError = StandardError()
    print(error, to: &standardError)
}

/// Prints a message to stderr as a line of its own.
func printError(_ message: String) {
    var standardError = StandardError()
    print(message, to: &standardError)
}
