import VitrineAnimation
import VitrineConfig
import VitrineDisplay
import VitrineSystem

/// Loads and builds a playlist on a thread of its own, so a reload (parsing, decoding images,
/// loading fonts, building every scene) never delays a frame: the frame loop watches
/// `fileDescriptor` and takes the result with `takeResult()` between two frames.
public final class PlaylistBuilder {
    /// Turns readable when a build has finished.
    var fileDescriptor: Int32 { finishedNotice.fileDescriptor }
    private let finishedNotice: WakeUpDescriptor
    /// Whether a build has been started and its result not yet taken.
    private(set) var isBuilding = false

    private let lock = Lock()
    private var finished: Result<Playlist, Error>?

    init() throws {
        finishedNotice = try WakeUpDescriptor()
    }

    /// The playlist `load` reads, with every scene built once (valid text is not enough: its
    /// images must decode and its fonts load before the playing one is given up). What
    /// `vitrine check` accepts and a reload takes are the same by being this.
    public static func build(
        _ file: String, with load: (String) throws -> Playlist = { try PlaylistLoader.load(file: $0) }
    ) throws -> Playlist {
        let playlist = try load(file)
        for scene in playlist.scenes { _ = try SceneInstance(scene, playlist: playlist) }
        return playlist
    }

    /// Starts building `file` on a new thread. One build at a time: call again after
    /// `takeResult()`.
    func start(_ file: String, with load: @escaping (String) throws -> Playlist) {
        precondition(!isBuilding, "one build at a time")
        isBuilding = true
        let finish = { [self] (result: Result<Playlist, Error>) in
            lock.withLock { finished = result }
            finishedNotice.post()
        }
        do {
            // The loader parses TOML and decodes images: the main thread's 8 MiB of stack.
            try SystemThread.start(name: "vitrine-reload", stackSize: 8 << 20) {
                finish(Result { try PlaylistBuilder.build(file, with: load) })
            }
        } catch {
            finish(.failure(error))
        }
    }

    /// The result of the build, once `fileDescriptor` turned readable; nil while it runs.
    func takeResult() -> Result<Playlist, Error>? {
        finishedNotice.drain()
        lock.lock()
        defer { lock.unlock() }
        guard let result = finished else { return nil }
        finished = nil
        isBuilding = false
        return result
    }
}
