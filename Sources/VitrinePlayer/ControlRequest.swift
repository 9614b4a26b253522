/// One request of the control socket, as `vitrine ctl` sends it: one line of text, a command
/// word and its argument (the rest of the line).
public enum ControlRequest: Equatable, Sendable {
    /// The player's state (playlist, scene, rates, memory).
    case status
    /// The next scene, with the transition (after the last: the first).
    case next
    /// The previous scene (before the first: the last).
    case previous
    /// The scene of this name.
    case goto(String)
    /// The playlist from its first scene.
    case restart
    /// Reads the config again, as SIGHUP does; the reply carries the errors of a refused one.
    case reload
    /// Progress in percent (0…100), as a progress input's `PROGRESS N` line.
    case progress(Double)
    /// A message, as a progress input's `MSG TEXT` line.
    case message(String)
    /// Stops the playlist's time: the frame on screen stays.
    case pause
    /// Lets the playlist's time go on from where it stopped.
    case resume
    /// Writes the frame on screen as a PNG file at this absolute path.
    case screenshot(String)

    /// The longest request line taken, newline included; a longer one ends the connection.
    public static let maximumLineLength = 4096

    /// The request a line states, or why it states none.
    public static func parse(_ line: String) -> Result<ControlRequest, ControlRequestError> {
        let text = line.hasSuffix("\r") ? String(line.dropLast()) : line
        let word = text.prefix { $0 != " " }
        let argument = String(text.dropFirst(word.count).drop { $0 == " " })
        func noArgument(_ request: ControlRequest) -> Result<ControlRequest, ControlRequestError> {
            argument.isEmpty ? .success(request) : .failure(ControlRequestError("'\(word)' takes no argument"))
        }
        switch word {
        case "status": return noArgument(.status)
        case "next": return noArgument(.next)
        case "previous": return noArgument(.previous)
        case "restart": return noArgument(.restart)
        case "reload": return noArgument(.reload)
        case "pause": return noArgument(.pause)
        case "resume": return noArgument(.resume)
        case "goto":
            guard !argument.isEmpty else { return .failure(ControlRequestError("'goto' needs a scene name")) }
            return .success(.goto(argument))
        case "progress", "message":
            // The progress input's own vocabulary and checks.
            let line = (word == "progress" ? "PROGRESS " : "MSG ") + argument
            switch ProgressLineParser.parse(line: Array(line.utf8), at: 0) {
            case .success(.progress(let fraction)): return .success(.progress(fraction * 100))
            case .success(.message(let message)): return .success(.message(message))
            case .success(.quit): return .failure(ControlRequestError("'\(word)' cannot quit"))
            case .failure(let error):
                return .failure(
                    ControlRequestError(error.message.replacing("PROGRESS", with: "progress")))
            }
        case "screenshot":
            guard argument.hasPrefix("/") else {
                return .failure(ControlRequestError("'screenshot' needs an absolute path to a PNG file"))
            }
            return .success(.screenshot(argument))
        case "": return .failure(ControlRequestError("empty request"))
        default:
            return .failure(ControlRequestError("unknown request '\(word.prefix(40))' (expected \(names))"))
        }
    }

    /// The request words, for help and errors.
    public static let names =
        "status, next, previous, goto SCENE, restart, reload, progress N, message TEXT, pause, resume, screenshot PATH"

    /// The line that states this request (without its newline).
    public var line: String {
        switch self {
        case .status: return "status"
        case .next: return "next"
        case .previous: return "previous"
        case .goto(let scene): return "goto \(scene)"
        case .restart: return "restart"
        case .reload: return "reload"
        case .progress(let percent): return "progress \(percent)"
        case .message(let text): return "message \(text)"
        case .pause: return "pause"
        case .resume: return "resume"
        case .screenshot(let path): return "screenshot \(path)"
        }
    }
}

/// Why a control line states no request.
public struct ControlRequestError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
