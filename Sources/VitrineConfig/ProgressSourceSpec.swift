/// Where progress comes from: a FIFO that update scripts write lines into (psplash style), or
/// a state file rewritten by some other program.
public enum ProgressSourceSpec: Hashable, Sendable {
    case fifo(String)
    case file(String)

    /// Parses `fifo:/path` or `file:/path`.
    public init?(_ text: String) {
        if text.hasPrefix("fifo:"), text.count > 5 {
            self = .fifo(String(text.dropFirst(5)))
        } else if text.hasPrefix("file:"), text.count > 5 {
            self = .file(String(text.dropFirst(5)))
        } else {
            return nil
        }
    }
}
