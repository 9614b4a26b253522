import VitrineDisplay
import VitrineSystem
import XCTest

/// Timers share the loop's single wait with the link's deadlines, on the link's clock.
final class FrameLoopTimerTests: XCTestCase {
    private let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    func testAPausedLinkSleepsUntilTheTimerAndNotBeyond() throws {
        let clock = VirtualClock(start: start)
        let link = try DisplayLink(clock: clock, preferredFramesPerSecond: 10)
        let loop = FrameLoop(link: link)
        var frameTimes: [Double] = []
        var fired: [Double] = []
        loop.schedule(at: start.advanced(byNanoseconds: 2_500_000_000)) {
            fired.append(clock.now().seconds)
            link.isPaused = false
        }
        try loop.run { frame in
            frameTimes.append(frame.timestamp)
            if frameTimes.count == 1 { link.isPaused = true }
            if frameTimes.count == 3 { loop.stop() }
        }
        // Frame 0 at 1.0 s pauses the link; the timer wakes it at 3.5 s; the next deadlines on
        // the 10 fps grid are 3.6 s and 3.7 s.
        XCTAssertEqual(fired, [3.5])
        XCTAssertEqual(frameTimes, [1.0, 3.6, 3.7].map { MonotonicInstant(seconds: $0).seconds })
        // One wait for the timer (no frame deadline while paused), then one per frame.
        XCTAssertEqual(clock.waits.first?.deadline, start.advanced(byNanoseconds: 2_500_000_000))
    }

    func testTimersRunInDeadlineOrderAndCancelledOnesNever() throws {
        let clock = VirtualClock(start: start)
        let link = try DisplayLink(clock: clock)
        link.isPaused = true
        let loop = FrameLoop(link: link)
        var order: [String] = []
        loop.schedule(at: start.advanced(byNanoseconds: 300)) {
            order.append("c"); loop.stop()
        }
        let cancelled = loop.schedule(at: start.advanced(byNanoseconds: 200)) { order.append("x") }
        loop.schedule(at: start.advanced(byNanoseconds: 100)) { order.append("a") }
        loop.schedule(at: start.advanced(byNanoseconds: 100)) { order.append("b") }
        loop.cancel(cancelled)
        try loop.run { _ in XCTFail("a paused link delivered a frame") }
        XCTAssertEqual(order, ["a", "b", "c"])
    }

    func testARepeatingTimerKeepsTimeWhileFramesRun() throws {
        let clock = VirtualClock(start: start)
        let link = try DisplayLink(clock: clock, preferredFramesPerSecond: 60)
        let loop = FrameLoop(link: link)
        var ticks: [Int64] = []
        func every(_ ns: Int64) {
            loop.schedule(at: clock.now().advanced(byNanoseconds: ns)) {
                ticks.append(clock.now().nanoseconds(since: self.start))
                every(ns)
            }
        }
        every(250_000_000)
        var frames = 0
        try loop.run { _ in
            frames += 1
            if frames == 61 { loop.stop() }  // one second of frames: 0 … 60
        }
        XCTAssertEqual(ticks, [250_000_000, 500_000_000, 750_000_000, 1_000_000_000])
    }
}
