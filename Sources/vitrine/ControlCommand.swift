import ArgumentParser
import Glibc
import VitrinePlayer
import VitrineSystem

struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Control a playing `vitrine play` through its control socket.",
        discussion: """
            Requests: \(ControlRequest.names). One request, one reply: `status` prints the \
            player's state (--json: the reply as one line of JSON); `reload` answers with the \
            config's errors when it is refused (the old playlist plays on); `progress N` and \
            `message TEXT` go to every progress input of the playlist; `pause` stops the \
            playlist's time and `resume` lets it go on; `screenshot PATH` writes the frame on \
            screen as a PNG (written by the player, so PATH must be writable by its user).
            Exit status: 0 done; 64 a request the player refused (an unknown scene, no scene \
            reading progress, bad arguments); 69 no player answers on the socket, or it is busy; \
            73 the screenshot could not be written; 78 the reloaded config is invalid (every \
            error printed).
            """)

    @Option(
        help:
            "The player's socket (default: $VITRINE_CONTROL, else $RUNTIME_DIRECTORY/control, else /run/vitrine/control)."
    )
    var socket: String?

    @Flag(help: "Print the reply as it came: one line of JSON.")
    var json = false

    @Argument(help: "The request and its argument, e.g. `status`, `goto welcome`, `message Updating…`.")
    var request: [String]

    /// How long a reply may take: a reload builds the whole playlist first.
    static let replyTimeout = 60

    func validate() throws {
        guard !request.isEmpty else { throw ValidationError("a request is needed: \(ControlRequest.names)") }
        if case .failure(let error) = ControlRequest.parse(line) { throw ValidationError("\(error)") }
    }

    /// The request line; a relative screenshot path made absolute here, where it was meant.
    private var line: String {
        var words = request
        if words.first == "screenshot", words.count > 1, !words[1].hasPrefix("/") {
            words[1] = Files.currentDirectory() + "/" + words[1]
        }
        return words.joined(separator: " ")
    }

    func run() throws {
        let path = socket ?? ControlSocketPath.clientDefault(StandardErrorLogHandler.processEnvironment)
        let replyLine: String
        do {
            replyLine = try ControlCommand.exchange(line, at: path)
        } catch {
            printError("no player answers at \(path): \(error)")
            throw ExitStatus.displayUnavailable.exit
        }
        guard let reply = (try? JSON.decode(replyLine)) as? [String: Any] else {
            printError("the player at \(path) sent a reply that is not JSON: \(replyLine.prefix(200))")
            throw ExitStatus.displayUnavailable.exit
        }
        if json { print(replyLine) }
        guard reply["ok"] as? Bool == true else {
            let message = reply["error"] as? String ?? "refused"
            let errors = reply["errors"] as? [String] ?? []
            if !json {
                printError(message)
                for error in errors { printError(error) }
            }
            if message.hasPrefix("busy") { throw ExitStatus.displayUnavailable.exit }
            if !errors.isEmpty { throw ExitStatus.invalidConfig.exit }
            if request.first == "screenshot" { throw ExitStatus.cannotCreateOutput.exit }
            throw ExitStatus.usage.exit
        }
        if !json { print(ControlCommand.describe(reply, for: request.first ?? "")) }
    }

    /// Sends one request line and reads the one-line reply.
    static func exchange(_ line: String, at path: String) throws -> String {
        let fd = try UnixSocket.connect(to: path)
        defer { close(fd) }
        var timeout = timeval(tv_sec: ControlCommand.replyTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes = Array((line + "\n").utf8)
        var sent = 0
        // A player that turns the connection away (busy) has replied and closed: the reply is
        // still there to read, so a failed send is reported only if none is.
        var sendError: SystemError?
        while sent < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                sendError = SystemError("send the request to", path)
                break
            }
            sent += n
        }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(UInt8(ascii: "\n")) {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw SystemError("wait \(ControlCommand.replyTimeout) s for the reply from", path, code: ETIMEDOUT)
            }
            guard n > 0 else {
                throw sendError ?? SystemError("read the reply from", path, code: n == 0 ? ECONNRESET : errno)
            }
            reply.append(contentsOf: chunk[..<n])
        }
        return String(decoding: reply[..<reply.firstIndex(of: UInt8(ascii: "\n"))!], as: UTF8.self)
    }

    /// One of `status`'s `lateFrames` in words: "'ring' in a transition at 41.2 s: 1
    /// deadline(s) missed; the frame before waited 0.0 ms for the display, drew in 15.46 ms,
    /// presented in 1.58 ms".
    static func describe(lateFrame late: [String: Any]) -> String {
        func number(_ value: Any?) -> String { value.map { "\($0)" } ?? "?" }
        var text = "'\(number(late["scene"]))'"
        if late["inTransition"] as? Bool == true { text += " in a transition" }
        text += " at \(number(late["uptime"])) s: \(number(late["missedDeadlines"])) deadline(s) missed"
        if let before = late["frameBefore"] as? [String: Any] {
            text +=
                "; the frame before waited \(number(before["waitingMs"])) ms for the display, drew in \(number(before["drawingMs"])) ms, presented in \(number(before["presentingMs"])) ms"
        }
        return text
    }

    /// A reply in words.
    static func describe(_ reply: [String: Any], for request: String) -> String {
        switch request {
        case "status":
            func number(_ key: String) -> String {
                guard let value = reply[key] else { return "?" }
                return "\(value)"
            }
            var lines = ["playlist   \(number("playlist")) (generation \(number("generation")))"]
            lines.append("state      \(number("state")), screen \(number("screen"))")
            if let scene = reply["scene"] {
                lines.append(
                    "scene      '\(scene)' (\(number("sceneIndex"))/\(number("sceneCount"))), \(number("sceneTime")) s in"
                )
            }
            lines.append(
                "frames     \(number("framesPerSecond")) in the last second (preferred \(number("preferredFramesPerSecond"))); "
                    + "\(number("framesPresented")) presented, \(number("framesSkipped")) deadlines missed")
            if let late = (reply["lateFrames"] as? [Any])?.last as? [String: Any] {
                lines.append("late frame \(ControlCommand.describe(lateFrame: late))")
            }
            lines.append("presenter  \(number("presenter")), \(number("screenSize"))")
            lines.append("uptime     \(number("uptime")) s")
            if let bytes = reply["residentBytes"] as? Int {
                lines.append("memory     \(String(cFormat: "%.1f", Double(bytes) / 1_048_576)) MiB resident")
            }
            return lines.joined(separator: "\n")
        case "reload":
            return "reloaded (generation \(reply["generation"].map { "\($0)" } ?? "?"))"
        case "screenshot":
            return "wrote \(reply["path"].map { "\($0)" } ?? "the screenshot")"
        default:
            return "ok"
        }
    }
}
