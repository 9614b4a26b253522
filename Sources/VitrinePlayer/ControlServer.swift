import Glibc
import Logging
import VitrineDisplay
import VitrineSystem

/// The control socket's connections, on the frame loop: one request line in, one reply line
/// out, in order. What a client can cost is bounded, so a misbehaving one never disturbs the
/// frames: at most `maximumClients` at once (more are told so and closed), a request line of
/// at most `ControlRequest.maximumLineLength` bytes, `requestTimeout` seconds to send it, and
/// replies that must fit the socket's buffer at once (a client that does not read is closed).
final class ControlServer {
    /// A connection, for replying to it.
    struct ClientID: Hashable { fileprivate let value: Int }

    static let maximumClients = 8

    /// The socket's path.
    let path: String

    private struct Client {
        let descriptor: Int32
        var watch: FrameLoop.SourceID
        var received: [UInt8] = []
        /// A request was handed on and its reply has not been sent yet.
        var awaitingReply = false
        var timeout: FrameLoop.TimerID?
    }

    /// Seconds a client has to send a whole request line (after connecting, or after a reply).
    let requestTimeout: Double
    private let listener: Int32
    private let loop: FrameLoop
    private let logger: Logger
    private var listenerWatch: FrameLoop.SourceID?
    private var clients: [ClientID: Client] = [:]
    private var nextClient = 0
    private let onRequest: (ClientID, Result<ControlRequest, ControlRequestError>) -> Void

    /// Listens at `path` (mode 0660: the service's user and group) and hands each request line
    /// to `onRequest`, which must answer it with `reply` (at once or later).
    init(
        path: String, loop: FrameLoop, logger: Logger, requestTimeout: Double = 10,
        onRequest: @escaping (ClientID, Result<ControlRequest, ControlRequestError>) -> Void
    ) throws {
        listener = try UnixSocket.listen(at: path, mode: 0o660)
        self.requestTimeout = requestTimeout
        self.path = path
        self.loop = loop
        self.logger = logger
        self.onRequest = onRequest
        listenerWatch = loop.watch(listener) { [unowned self] in self.acceptClients() }
    }

    deinit {
        for id in Array(clients.keys) { disconnect(id) }
        if let listenerWatch { loop.unwatch(listenerWatch) }
        close(listener)
        unlink(path)
    }

    /// Sends `reply` (one line of JSON) to a client whose request is waiting; then its next
    /// request, if it sent one, is read. A client that has gone is forgotten.
    func reply(_ id: ClientID, _ reply: [String: Any]) {
        guard var client = clients[id] else { return }
        var bytes = Array(ControlServer.encode(reply).utf8)
        bytes.append(UInt8(ascii: "\n"))
        let sent = bytes.withUnsafeBytes {
            send(client.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        guard sent == bytes.count else { return disconnect(id) }
        client.awaitingReply = false
        clients[id] = client
        armTimeout(id)
        takeRequest(from: id)
    }

    /// A reply as one line of JSON, keys sorted.
    static func encode(_ reply: [String: Any]) -> String {
        guard let line = try? JSON.encode(reply) else {
            return #"{"error":"the reply could not be encoded","ok":false}"#
        }
        return line
    }

    // MARK: - Connections

    private func acceptClients() {
        while true {
            let fd: Int32
            do {
                guard let accepted = try UnixSocket.accept(listener) else { return }
                fd = accepted
            } catch {
                // Out of descriptors: the pending connection would keep the listener readable.
                return pauseAccepting(error)
            }
            guard clients.count < ControlServer.maximumClients else {
                let busy = ControlServer.encode([
                    "ok": false, "error": "busy: \(ControlServer.maximumClients) clients are connected already"
                ])
                _ = (busy + "\n").withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(fd)
                continue
            }
            let id = ClientID(value: nextClient)
            nextClient += 1
            let watch = loop.watch(fd) { [unowned self] in self.read(from: id) }
            clients[id] = Client(descriptor: fd, watch: watch)
            armTimeout(id)
        }
    }

    /// A connection could not be taken (no descriptor left): it would keep the listener
    /// readable and the loop spinning, so the listener rests for a second.
    private func pauseAccepting(_ error: Error) {
        guard let watch = listenerWatch else { return }
        logger.warning("control socket: \(error); not accepting connections for 1 s")
        loop.unwatch(watch)
        listenerWatch = nil
        loop.schedule(at: loop.link.clock.now().advanced(byNanoseconds: 1_000_000_000)) { [weak self] in
            guard let self, self.listenerWatch == nil else { return }
            self.listenerWatch = self.loop.watch(self.listener) { [unowned self] in self.acceptClients() }
        }
    }

    private func read(from id: ClientID) {
        guard var client = clients[id] else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else { return disconnect(id) }
        client.received.append(contentsOf: chunk[..<count])
        clients[id] = client
        // A line longer than the limit (or a flood behind a request in progress) ends it.
        let unfinished = client.received.lastIndex(of: UInt8(ascii: "\n")).map { client.received.count - $0 - 1 }
        if (unfinished ?? client.received.count) >= ControlRequest.maximumLineLength
            || client.received.count > 4 * ControlRequest.maximumLineLength
        {
            let error = "request longer than \(ControlRequest.maximumLineLength - 1) bytes"
            _ = (ControlServer.encode(["ok": false, "error": error]) + "\n").withCString {
                send(client.descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            return disconnect(id)
        }
        takeRequest(from: id)
    }

    /// Hands on the client's first complete line, unless a request of its own still waits.
    private func takeRequest(from id: ClientID) {
        guard var client = clients[id], !client.awaitingReply,
            let newline = client.received.firstIndex(of: UInt8(ascii: "\n"))
        else { return }
        let line = Array(client.received[..<newline])
        client.received.removeSubrange(...newline)
        client.awaitingReply = true
        if let timer = client.timeout { loop.cancel(timer) }
        client.timeout = nil
        clients[id] = client
        guard let text = String(validating: line, as: UTF8.self) else {
            return reply(id, ["ok": false, "error": "request is not valid UTF-8"])
        }
        onRequest(id, ControlRequest.parse(text))
    }

    /// Closes the client if no whole request arrives within `requestTimeout`.
    private func armTimeout(_ id: ClientID) {
        guard var client = clients[id] else { return }
        if let timer = client.timeout { loop.cancel(timer) }
        let deadline = loop.link.clock.now().advanced(byNanoseconds: Int64(requestTimeout * 1e9))
        client.timeout = loop.schedule(at: deadline) { [weak self] in
            guard let self, let client = self.clients[id], !client.awaitingReply else { return }
            self.disconnect(id)
        }
        clients[id] = client
    }

    private func disconnect(_ id: ClientID) {
        guard let client = clients.removeValue(forKey: id) else { return }
        loop.unwatch(client.watch)
        if let timer = client.timeout { loop.cancel(timer) }
        close(client.descriptor)
    }
}
