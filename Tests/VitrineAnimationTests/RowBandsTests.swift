import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// Large pixel loops (a frame's clear, a full-screen layer's background, a group's composite)
/// run on bands of rows shared among threads; a frame is the same, bit for bit, whatever the
/// number of threads.
final class RowBandsTests: XCTestCase {
    override func tearDown() {
        RowBands.threadCount = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// A 1920 × 1080 frame: a full-screen background, a half-transparent group over most of it
    /// (shapes, text and an image inside), and an animated shape, rendered whole and then
    /// through damage, with 1, 2 and 3 threads.
    private func frames(threads: Int) -> [Bitmap] {
        RowBands.threadCount = threads
        let scene = RenderScene(width: 1920, height: 1080, background: .black)
        let backdrop = Layer()
        backdrop.frame = Rect(x: 0, y: 0, width: 1920, height: 1080)
        backdrop.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.15)
        let group = Layer()
        group.frame = Rect(x: 60, y: 40, width: 1800, height: 1000)
        group.opacity = 0.55
        group.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.2, alpha: 0.8)
        let disc = ShapeLayer()
        disc.frame = Rect(x: 300, y: 200, width: 600, height: 600)
        var circle = Path()
        circle.addEllipse(in: Rect(x: 0, y: 0, width: 600, height: 600))
        disc.path = circle
        disc.fillColor = Color(red: 0.2, green: 0.5, blue: 1, alpha: 0.9)
        let label = TextLayer()
        label.frame = Rect(x: 1000, y: 400, width: 700, height: 120)
        label.string = "Bands of rows"
        label.fontSize = 80
        let photo = Layer()
        photo.frame = Rect(x: 1000, y: 600, width: 500, height: 300)
        photo.contents = solidImage(Color(red: 0.3, green: 0.9, blue: 0.4, alpha: 0.7), width: 50, height: 30)
        for child in [disc, label, photo] { group.addSublayer(child) }
        backdrop.addSublayer(group)
        scene.root.addSublayer(backdrop)
        var shots: [Bitmap] = []
        func shoot() { shots.append(snapshot(scene.bitmap)) }
        scene.frame(at: 0)
        shoot()
        group.add(linearAnimation("opacity", from: 0.2, to: 0.9, duration: 1), forKey: "fade")
        for t in [0.25, 0.5] {
            scene.frame(at: t)
            shoot()
        }
        return shots
    }

    func testFramesAreBitIdenticalWhateverTheNumberOfThreads() {
        let before = RowBands.parallelLoopCount
        let one = frames(threads: 1)
        XCTAssertEqual(RowBands.parallelLoopCount, before, "one thread: nothing in parallel")
        for threads in [2, 3] {
            let shared = frames(threads: threads)
            for (i, (a, b)) in zip(one, shared).enumerated() {
                XCTAssertEqual(maximumChannelDifference(a, b), 0, "frame \(i) with \(threads) threads")
            }
        }
        XCTAssertGreaterThan(RowBands.parallelLoopCount, before, "the frames' large loops ran on bands")
    }
}
