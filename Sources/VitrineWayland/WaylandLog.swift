import CWayland
import Glibc
import Logging

/// libwayland's own messages ("error in client communication", a missing XDG_RUNTIME_DIR …)
/// go to the log as single lines instead of straight to standard error.
enum WaylandLog {
    private static var logger: Logger?

    static func install(logger: Logger) {
        guard self.logger == nil else { return }
        self.logger = logger
        wl_log_set_handler_client { format, arguments in
            guard let format, let arguments else { return }
            var text = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&text, text.count, format, arguments)
            let line = String(cString: text).trimmingCharacters(in: .newlines)
            WaylandLog.logger?.warning("libwayland: \(line)")
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return String(s)
    }
}

extension Set where Element == Character {
    fileprivate static var newlines: Set<Character> { ["\n", "\r"] }
}
