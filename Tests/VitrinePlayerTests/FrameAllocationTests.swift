import CAllocationCounter
import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// Heap allocations per frame once warm, counted by the test binary's own malloc
/// (`Tests/CAllocationCounter`): a kiosk playing for months should not ask the allocator for
/// anything frame after frame.
final class FrameAllocationTests: XCTestCase {
    override func setUpWithError() throws {
        guard allocation_counter_is_active() else { throw XCTSkip("allocations are not counted under a sanitizer") }
    }

    /// A tree whose frames take every shared path of the engine and renderer: copies of
    /// animated layers made over (nested, masked, in a faded group, a replicator's delayed
    /// instances), damage merged and drawn in bands, a trimmed stroke, rounded backgrounds, a
    /// group composited on several threads. Once warm, a frame allocates nothing, on any
    /// thread, at 1080p and at 4K.
    func testTheEngineAndRendererAllocateNothingPerFrameOnceWarm() {
        for (width, height) in [(1920, 1080), (3840, 2160)] {
            let root = Layer()
            root.anchorPoint = .zero
            root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
            let group = Layer()
            // Across the screen, so its composite in each band is large enough to be shared.
            group.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
            group.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
            group.cornerRadius = 24
            let card = Layer()
            card.frame = Rect(x: 50, y: 50, width: 300, height: 200)
            card.backgroundColor = Color(red: 0.9, green: 0.5, blue: 0.1)
            card.cornerRadius = 16
            let ring = ShapeLayer()
            ring.frame = Rect(x: 500, y: 100, width: 400, height: 400)
            var circle = Path()
            circle.addEllipse(in: Rect(x: 20, y: 20, width: 360, height: 360))
            ring.path = circle
            ring.fillColor = nil
            ring.strokeColor = Color(red: 0.2, green: 0.8, blue: 1)
            ring.lineWidth = 16
            let dots = ReplicatorLayer()
            dots.frame = Rect(x: 100, y: 500, width: 600, height: 100)
            dots.instanceCount = 8
            dots.instanceDelay = 0.1
            dots.instanceTransform = Transform3D(translationX: 70, y: 0, z: 0)
            let dot = Layer()
            dot.frame = Rect(x: 0, y: 0, width: 50, height: 50)
            dot.backgroundColor = Color(red: 1, green: 1, blue: 1)
            dot.cornerRadius = 25
            dots.addSublayer(dot)
            let masked = Layer()
            masked.frame = Rect(x: 900, y: 500, width: 200, height: 200)
            masked.backgroundColor = Color(red: 0.5, green: 1, blue: 0.5)
            let hole = Layer()
            hole.frame = Rect(x: 20, y: 20, width: 160, height: 160)
            hole.backgroundColor = Color(red: 0, green: 0, blue: 0)
            hole.cornerRadius = 80
            masked.mask = hole
            for layer in [card, ring, dots, masked] { group.addSublayer(layer) }
            root.addSublayer(group)

            func looping(_ keyPath: String, from: any Interpolatable, to: any Interpolatable) -> BasicAnimation {
                let a = BasicAnimation(keyPath: keyPath)
                a.fromValue = from
                a.toValue = to
                a.duration = 1
                a.autoreverses = true
                a.repeatCount = .infinity
                return a
            }
            card.add(looping("position", from: Point(x: 200, y: 150), to: Point(x: 400, y: 300)), forKey: "move")
            group.add(looping("opacity", from: 0.6, to: 1.0), forKey: "fade")
            ring.add(looping("strokeEnd", from: 0.1, to: 0.9), forKey: "trim")
            dot.add(looping("opacity", from: 0.2, to: 1.0), forKey: "pulse")
            hole.add(looping("position.x", from: 80.0, to: 120.0), forKey: "slide")

            let engine = Engine(root: root)
            let frames = FrameRenderer(
                engine: engine, size: (width, height), background: Color(red: 0, green: 0, blue: 0))
            var t = 0.0
            for _ in 0..<90 {
                frames.renderFrame(at: t)
                t += 1.0 / 60
            }
            var perFrame: [UInt64] = []
            perFrame.reserveCapacity(120)
            var repainted = 0
            let parallelLoops = RowBands.parallelLoopCount
            for _ in 0..<120 {
                let before = allocation_counter_process()
                let result = frames.renderFrame(at: t)
                perFrame.append(allocation_counter_process() - before)
                repainted += result.pixelsRedrawn
                t += 1.0 / 60
            }
            XCTAssertGreaterThan(repainted, 120 * 10_000, "\(width)x\(height): frames repaint")
            if RowBands.threadCount > 1 {
                XCTAssertGreaterThan(
                    RowBands.parallelLoopCount, parallelLoops, "the faded group is composited on several threads")
            }
            XCTAssertEqual(
                perFrame.filter { $0 != 0 }.count, 0, "\(width)x\(height): allocations per frame \(perFrame)")
        }
    }

    /// The default playlist played through once to warm, then again frame by frame at 30 fps
    /// through `PlayerFrames` (the player's one way to make a frame) at 1080p: the median number
    /// of allocations per frame of every scene (frames that start a scene excluded) is 0. The
    /// frames that still allocate are counted and printed: a scene's first frames and its
    /// fade, a model value rebuilt by a scene's own code as it opens (pie), text changed
    /// (message), and a turning layer's plane drawn again at a finer or coarser resolution
    /// (flip).
    func testDefaultPlaylistAllocatesNothingPerFrameInMostFramesOfEveryScene() throws {
        let scenes: Set<String> = [
            "arrow", "pie", "progress", "model-sync", "fill-modes", "stroke", "wave", "drop-mask", "sine", "morphs",
            "sector", "ring", "flip", "spinner", "confetti", "sprites", "message"
        ]
        let playlist = try PlaylistLoader.load(file: ConfigPaths.defaultConfig)
        let player = Player(playlist: playlist, screenSize: Size(1920, 1080))
        let frames = PlayerFrames(player: player, bitmap: Bitmap(width: 1920, height: 1080))
        var t = 1000.0
        var scene = ""
        var perScene: [(name: String, counts: [UInt64])] = []
        var loops = 0
        while loops < 2 {
            let before = allocation_counter_thread()
            let (events, _) = try frames.makeFrame(at: t)
            let made = allocation_counter_thread() - before
            for case .sceneStarted(let index, let name) in events {
                if index == 0, !scene.isEmpty { loops += 1 }
                scene = name
                if loops == 1 { perScene.append((name, [])) }
            }
            if loops == 1, events.isEmpty { perScene[perScene.count - 1].counts.append(made) }
            t += 1.0 / 30
        }
        XCTAssertEqual(Set(perScene.map(\.name)), scenes)
        for (name, counts) in perScene {
            let median = counts.sorted()[counts.count / 2]
            let allocating = counts.filter { $0 != 0 }.count
            print(
                "allocations per frame, \(name): median \(median), most \(counts.max() ?? 0),"
                    + " \(allocating) of \(counts.count) frames allocating")
            XCTAssertEqual(median, 0, "\(name): median allocations per frame")
        }
    }
}
