import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// A scene that leaves the stage is freed with everything it built, however early it is cut
/// short: a kiosk skipped and reloaded for months must not keep one tree per skip.
final class SceneLifetimeTests: XCTestCase {
    /// A scene and every layer of its tree when it was seen (a layer may hold its parent only
    /// weakly, so a freed root says nothing about its sublayers).
    private final class Watched {
        final class WeakLayer {
            weak var layer: Layer?
            init(_ layer: Layer) { self.layer = layer }
        }
        let name: String
        weak var instance: SceneInstance?
        var layers: [WeakLayer] = []
        init(_ instance: SceneInstance) {
            name = instance.definition.name
            self.instance = instance
            collect(instance.root)
        }
        private func collect(_ layer: Layer) {
            layers.append(WeakLayer(layer))
            if let mask = layer.mask { collect(mask) }
            for sublayer in layer.sublayers { collect(sublayer) }
        }
        /// The kinds of the layers still alive, "scene" for the instance itself.
        var alive: [String] {
            (instance == nil ? [] : ["scene"]) + layers.compactMap { $0.layer.map { "\(type(of: $0))" } }
        }
    }

    /// Every scene of the default playlist, skipped 0.3 s after it starts (in the middle of
    /// its animations and of the transition that brought it), and the last one replaced by a
    /// reload: none of their trees outlives them.
    func testEverySceneIsFreedWhenSkippedOrReplacedMidAnimation() throws {
        try checkScenesAreFreed(playingEach: 0.3)
    }

    /// The same when each scene is started and skipped within one frame (two skips, or a skip
    /// and a reload, arriving together): its animations were added but never ran a frame.
    func testEverySceneIsFreedWhenSkippedBeforeItsFirstFrame() throws {
        try checkScenesAreFreed(playingEach: 0)
    }

    private func checkScenesAreFreed(playingEach seconds: Double) throws {
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        let size = Size(192, 108)
        let player = Player(playlist: playlist, screenSize: size)
        let frames = FrameRenderer(
            engine: player.engine, size: (Int(size.width), Int(size.height)), background: playlist.settings.background)
        var t = 0.0
        func play(for seconds: Double) throws {
            let end = t + seconds
            while t < end {
                try player.frameWillRender(at: t)
                frames.renderFrame(at: t)
                t += 1.0 / 30
            }
        }
        var watched: [Watched] = []
        try play(for: 0.1)
        for index in playlist.scenes.indices {
            if seconds > 0 {
                try play(for: seconds)
            } else {
                // The request before starts this scene in the same frame as this one ends it.
                try player.frameWillRender(at: t)
            }
            let scene = try XCTUnwrap(player.currentScene)
            watched.append(Watched(scene))
            if index == playlist.scenes.count - 1 {
                player.requestReplace(with: try PlaylistLoader.load(file: ConfigPaths.defaultConfig))
            } else {
                player.requestNextScene()
            }
        }
        XCTAssertEqual(watched.map(\.name), playlist.scenes.map(\.name))
        try play(for: 2)
        let kept = watched.filter { !$0.alive.isEmpty }.map { "\($0.name): \(Set($0.alive).sorted())" }
        XCTAssertEqual(kept, [], "scenes whose trees outlived them")
    }
}
