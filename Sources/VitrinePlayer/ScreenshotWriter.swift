import VitrineDisplay
import VitrineGraphics
import VitrineSystem

/// Writes the screenshots `vitrine ctl screenshot PATH` asks for on a thread of its own:
/// encoded as PNG on the frame loop, a screenshot took 50–60 ms at 1920x1080 and 120–190 ms at
/// 3840x2160, and the frames stopped meanwhile (five of them missed 10 and 44 deadlines). The
/// loop hands over a copy of the frame on screen with the requests, watches `fileDescriptor`,
/// and answers each request when its file is written. One copy at a time: requests that arrive
/// meanwhile wait for the next copy (of a later frame), so whatever clients ask, it holds at
/// most one frame.
final class ScreenshotWriter<Client> {
    /// A request: who asked, and the file to write.
    struct Request {
        let client: Client
        let path: String
    }

    /// Turns readable when a copy's files have been written.
    var fileDescriptor: Int32 { finishedNotice.fileDescriptor }
    private let finishedNotice: WakeUpDescriptor
    /// Requests waiting for the next copy.
    private var waiting: [Request] = []
    /// Whether a copy is being written (its results not yet taken).
    private(set) var isWriting = false

    private let lock = Lock()
    /// Signalled once for each copy written, and waited on once for each copy taken.
    private let written = CountingSemaphore()
    private var finished: [(Request, Error?)]?

    init() throws {
        finishedNotice = try WakeUpDescriptor()
    }

    /// Asks for `path` to be written with the frame `frame` holds now or a later one: at once
    /// from a copy of it when no copy is being written, else from the copy taken when that one
    /// is done (`takeFinished(frame:)`).
    func request(_ path: String, from client: Client, frame: Bitmap) {
        waiting.append(Request(client: client, path: path))
        if !isWriting { startWriting(frame) }
    }

    /// The requests of the copy written, each with its error (nil: written), once
    /// `fileDescriptor` turned readable; nil while it is being written. Requests that waited
    /// meanwhile start on a copy of `frame` (nil: they wait on).
    func takeFinished(frame: Bitmap?) -> [(Request, Error?)]? {
        finishedNotice.drain()
        let done: [(Request, Error?)]? = lock.withLock {
            defer { finished = nil }
            return finished
        }
        guard let done else { return nil }
        written.wait()
        isWriting = false
        if let frame, !waiting.isEmpty { startWriting(frame) }
        return done
    }

    /// Takes the requests waiting for the next copy, which will not be made.
    func dropWaiting() -> [Request] {
        defer { waiting = [] }
        return waiting
    }

    /// Waits until the copy being written (if any) is written: a stopping player leaves no
    /// file half written. Its results stay to be taken.
    func waitUntilWritten() {
        guard isWriting else { return }
        written.wait()
        written.signal()
    }

    private func startWriting(_ frame: Bitmap) {
        let copy = Bitmap(width: frame.width, height: frame.height)
        copy.copy(from: frame, in: IntRect(x: 0, y: 0, width: frame.width, height: frame.height))
        let requests = waiting
        waiting = []
        isWriting = true
        let write = { [self] in
            var results: [(Request, Error?)] = []
            copy.unpremultiplyInPlace()  // the copy is written and dropped: no second copy
            for request in requests {
                do {
                    try copy.writeUnpremultipliedPNG(to: request.path, fast: true)
                    results.append((request, nil))
                } catch {
                    results.append((request, error))
                }
            }
            lock.withLock { finished = results }
            written.signal()
            finishedNotice.post()
        }
        do {
            try SystemThread.start(name: "vitrine-screenshot", write)
        } catch {
            // No thread to be had: written now, on the loop.
            write()
        }
    }
}
