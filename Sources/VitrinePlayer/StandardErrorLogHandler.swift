import Glibc
import Logging
import VitrineConfig
import VitrineSystem

/// A swift-log handler writing one line per message to standard error, without timestamps:
/// under systemd the journal adds them. When standard error is the journal (`JOURNAL_STREAM`
/// names it) each line starts with the syslog priority as `<N>`, which journald turns into the
/// entry's priority; on a terminal it starts with `vitrine: LEVEL:`.
public struct StandardErrorLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let toJournal: Bool

    /// A handler for `label` at `level`; `environment` tells whether stderr is the journal.
    public init(
        label: String, level: Logger.Level = .info,
        environment: [String: String] = StandardErrorLogHandler.processEnvironment
    ) {
        self.label = label
        logLevel = level
        toJournal = StandardErrorLogHandler.standardErrorIsJournal(environment["JOURNAL_STREAM"])
    }

    /// Routes every logger of the process to standard error at `level`.
    public static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, level: level) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let line = StandardErrorLogHandler.format(
            level: event.level, message: event.message.description,
            metadata: merged, journal: toJournal)
        StandardErrorLogHandler.write(line)
    }

    /// One log line: `<3>message key=value` for the journal, `vitrine: error: message key=value`
    /// elsewhere. Newlines inside the message become separate lines with the same prefix, so a
    /// multi-line error stays one entry per line in the journal.
    static func format(level: Logger.Level, message: String, metadata: Logger.Metadata, journal: Bool) -> String {
        let prefix = journal ? "<\(syslogPriority(level))>" : "vitrine: \(level): "
        let suffix =
            metadata.isEmpty
            ? ""
            : " "
                + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: " ")
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.enumerated().map { i, line in prefix + line + (i == lines.count - 1 ? suffix : "") }
            .joined(separator: "\n") + "\n"
    }

    /// The syslog priority of a swift-log level (sd-daemon.h's SD_* values).
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// Whether `JOURNAL_STREAM` ("DEVICE:INODE") names the file standard error is.
    static func standardErrorIsJournal(_ value: String?) -> Bool {
        guard let parts = value?.split(separator: ":"), parts.count == 2,
            let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
    }

    /// The process environment, as name → value.
    public static var processEnvironment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }

    /// One write(2) per line batch: lines from one message are not interleaved with others.
    private static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            // A closed or full stderr loses the line; logging must never stop the player.
            guard
                let n = try? systemCall(
                    "write to standard error", nil,
                    {
                        bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
                    }), n > 0
            else { break }
            offset += n
        }
    }
}
