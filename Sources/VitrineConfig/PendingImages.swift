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
    private let state = Condition()
    // Under `state`'s lock.
    private var isStarted = false
    private var errors: TOMLFieldErrors?
    private var whenTried: (@Sendable () -> Void)?

    init(_ decodings: [DeferredDecoding]) {
        self.decodings = decodings
        scenes = decodings.reduce(into: []) { $0.formUnion($1.scenes) }
    }

    /// Starts decoding, on a thread of its own (on the caller's when none can be had), unless
    /// started already. `whenTried` (replacing one given before) runs once every image was
    /// tried, on the thread that tried them, or at once when they were.
    public func startDecoding(whenTried action: (@Sendable () -> Void)? = nil) {
        let (starts, tried) = state.withLock {
            defer { isStarted = true }
            if let action, errors == nil { whenTried = action }
            return (!isStarted, errors != nil)
        }
        if tried { action?() }
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
        let action = state.announce {
            self.errors = errors
            decodings = []
            defer { whenTried = nil }
            return whenTried
        }
        action?()
    }

    /// Nil until every image was tried; then the errors of those that did not decode, each at
    /// a key naming its file (none when all decoded).
    public var outcome: TOMLFieldErrors? { state.withLock { errors } }

    /// Returns at once when the scene at `index` shows no image still to decode; else starts
    /// decoding if it has not started, waits until every image was tried, and throws their
    /// errors if any did not decode.
    public func waitForImages(ofScene index: Int) throws {
        guard scenes.contains(index) else { return }
        startDecoding()
        state.wait { errors != nil }
        if let errors = outcome, !errors.isEmpty { throw errors }
    }
}
