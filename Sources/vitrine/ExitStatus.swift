import ArgumentParser

/// Every command's exit statuses, from sysexits.h, one cause one code. The units rely on them:
/// 64 and 78 need an operator (systemd does not restart), 69 and 74 are worth a restart.
enum ExitStatus: Int32, CaseIterable {
    /// Stopped or finished as asked.
    case success = 0
    /// Bad arguments (EX_USAGE), such as a scene that is not in the playlist.
    case usage = 64
    /// The display cannot be opened in time, or was lost (EX_UNAVAILABLE).
    case displayUnavailable = 69
    /// An output file or directory cannot be created (EX_CANTCREAT).
    case cannotCreateOutput = 73
    /// Writing output failed part-way, e.g. a full disk (EX_IOERR).
    case outputFailed = 74
    /// The config, draw spec or playlist is invalid (EX_CONFIG); every error is printed.
    case invalidConfig = 78

    /// What the status means, as `--help` and the README list it.
    var meaning: String {
        switch self {
        case .success: return "stopped or finished"
        case .usage: return "bad arguments"
        case .displayUnavailable: return "no display (waited --wait-for-display seconds) or the display was lost"
        case .cannotCreateOutput: return "an output file or directory cannot be created"
        case .outputFailed: return "writing output failed (e.g. the disk is full)"
        case .invalidConfig:
            return "the config is invalid (every error printed as FILE:LINE:COLUMN: … › KEY: message), "
                + "or none of its scenes builds, or an image only later scenes show does not decode"
        }
    }

    /// The table for `--help`: "0 stopped or finished; 64 bad arguments; …". Every command's
    /// configuration reads it as the process starts, so it is built with a plain loop: `map` and
    /// `joined` here made the Swift runtime look up generic types on every start (1 ms of
    /// `vitrine check`'s 27.6, `perf stat -r 30`).
    static var summary: String {
        var text = "Exit status: "
        for status in allCases {
            if status != .success { text += "; " }
            text += String(status.rawValue) + " " + status.meaning
        }
        return text + "."
    }

    /// Ends the command with this status.
    var exit: ExitCode { ExitCode(rawValue) }
}
