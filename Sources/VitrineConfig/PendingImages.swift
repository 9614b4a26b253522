import VitrineSystem
import VitrineTOML

/// The images a load read and checked but left to decode (`PlaylistLoader.ImageDecoding
/// .firstScene`): those only scenes after the first show. A player starts decoding them once
/// its first frame is on screen, on a thread of their own, and waits for them before it builds
/// a scene that shows one; an image that does not decode is a config error as at load, at the
/// key that names it.
public final class PendingImages: @unchecked Sendable {
    /// Let go once decoded: they hold the files' bytes, and their errors the config's tree.
    private var decodings: [DeferredDecoding]
    /// The scenes (by index) that show an image still to decode.
    private let scenes: Set<Int>
    private let lock = Lock()
    private let done = CountingSemaphore()
    // Under `lock`.
    private var isStarted = false
    private var isFinished = false
    private var errors = TOMLFieldErrors()

    init(_ decodings: [DeferredDecoding]) {
        self.decodings = decodings
        scenes = decodings.reduce(into: []) { $0.formUnion($1.scenes) }
    }

    /// Starts decoding, on a thread of its own (on the caller's when none can be had); does
    /// nothing when started already.
    public func startDecoding() {
        let starts = lock.withLock {
            defer { isStarted = true }
            return !isStarted
        }
        guard starts else { return }
        do {
            try SystemThread.start(name: "vitrine-images") { [self] in decodeAll() }
        } catch {
            decodeAll()
        }
    }

    private func decodeAll() {
        var errors = TOMLFieldErrors()
        for decoding in decodings { errors.append(contentsOf: TOMLFieldErrors(decoding.decode())) }
        lock.withLock {
            self.errors = errors
            decodings = []
            isFinished = true
        }
        done.signal()
    }

    /// Whether every image was tried.
    public var isDone: Bool { lock.withLock { isFinished } }

    /// The errors of the images that did not decode, each at a key naming its file: nil until
    /// every image was tried, and when all decoded.
    public var failure: TOMLFieldErrors? {
        lock.withLock { isFinished && !errors.isEmpty ? errors : nil }
    }

    /// Returns at once when the scene at `index` shows no image still to decode; else starts
    /// decoding if it has not started, waits until every image was tried, and throws their
    /// errors if any did not decode.
    public func waitForImages(ofScene index: Int) throws {
        guard scenes.contains(index) else { return }
        startDecoding()
        if !isDone {
            done.wait()
            done.signal()  // for the next waiter
        }
        if let failure { throw failure }
    }
}
