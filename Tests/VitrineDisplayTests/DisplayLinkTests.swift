import Foundation
import Glibc
import VitrineDisplay
import VitrineSystem
import XCTest

final class DisplayLinkTests: XCTestCase {
    private let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    /// Deadline n of a 60 fps grid starting at `start`, computed from its definition.
    private func deadline(_ n: Int64, fps: Int64 = 60, from origin: MonotonicInstant? = nil) -> Double {
        MonotonicInstant(nanoseconds: (origin ?? start).nanoseconds + n * 1_000_000_000 / fps).seconds
    }

    /// Runs a loop on a virtual clock until `frames` frames were delivered.
    private func run(
        frames: Int, fps: Int = 60, clock: VirtualClock,
        configure: (DisplayLink, FrameLoop) throws -> Void = { _, _ in },
        _ body: (DisplayFrame, DisplayLink) throws -> Void
    ) throws -> (DisplayLink, FrameLoop, [DisplayFrame]) {
        let link = try DisplayLink(clock: clock, preferredFramesPerSecond: fps)
        let loop = FrameLoop(link: link)
        try configure(link, loop)
        var delivered: [DisplayFrame] = []
        try loop.run { frame in
            delivered.append(frame)
            try body(frame, link)
            if delivered.count == frames { loop.stop() }
        }
        return (link, loop, delivered)
    }

    func testFramesLandOnAnExactGridThatNeverDrifts() throws {
        let clock = VirtualClock(start: start)
        let (link, _, frames) = try run(frames: 601, clock: clock) { _, _ in }
        for (n, frame) in frames.enumerated() {
            XCTAssertEqual(frame.timestamp, deadline(Int64(n)), "frame \(n)")
            XCTAssertEqual(frame.targetTimestamp, deadline(Int64(n + 1)), "frame \(n)")
            XCTAssertEqual(frame.duration, 1.0 / 60)
            XCTAssertEqual(frame.index, n)
            XCTAssertEqual(frame.missedDeadlines, 0)
        }
        // Ten seconds of frames end exactly ten seconds later: no accumulated rounding.
        XCTAssertEqual(frames[600].timestamp, 11.0)
        XCTAssertEqual(link.missedFrameCount, 0)
        // Every wait asked for the next deadline, none for less.
        XCTAssertEqual(clock.waits.count, 600)
        XCTAssertEqual(clock.waits.map { $0.deadline?.seconds }, (1...600).map { deadline(Int64($0)) })
    }

    func testALateFrameSkipsTheDeadlinesItOverranInsteadOfBursting() throws {
        let clock = VirtualClock(start: start)
        let (link, _, frames) = try run(frames: 6, clock: clock) { frame, _ in
            if frame.index == 3 { clock.advance(byNanoseconds: 20_000_000) }  // 20 ms > one period
        }
        // Frame 3 answered deadline 3 and ran past deadline 4: the next frame answers deadline 5.
        XCTAssertEqual(frames.map(\.timestamp), [0, 1, 2, 3, 5, 6].map { deadline($0) })
        XCTAssertEqual(frames.map(\.missedDeadlines), [0, 0, 0, 0, 1, 0])
        XCTAssertEqual(link.missedFrameCount, 1)
    }

    /// A wait that is not a frame's work (the first frame being put on screen) passes the
    /// deadlines it overran without counting them: the next frame answers the first deadline
    /// after it, reporting nothing missed; a frame late after that counts as before.
    func testDeadlinesPassedOverAreNotMissed() throws {
        let clock = VirtualClock(start: start)
        var passed: [Int] = []
        let (link, _, frames) = try run(frames: 6, clock: clock) { frame, link in
            if frame.index == 0 {
                clock.advance(byNanoseconds: 40_000_000)  // 40 ms: past deadlines 1 and 2
                passed.append(link.passDeadlinesWithoutMissing())
                passed.append(link.passDeadlinesWithoutMissing())
            }
            if frame.index == 3 { clock.advance(byNanoseconds: 20_000_000) }
        }
        XCTAssertEqual(passed, [2, 0])
        XCTAssertEqual(frames.map(\.timestamp), [0, 3, 4, 5, 7, 8].map { deadline($0) })
        XCTAssertEqual(frames.map(\.missedDeadlines), [0, 0, 0, 0, 1, 0])
        XCTAssertEqual(link.missedFrameCount, 1)
    }

    func testAlwaysSlowFramesRunAtHalfRateOnTheGrid() throws {
        let clock = VirtualClock(start: start)
        let (link, _, frames) = try run(frames: 10, clock: clock) { _, _ in
            clock.advance(byNanoseconds: 20_000_000)
        }
        XCTAssertEqual(frames.map(\.timestamp), (0..<10).map { deadline(Int64($0) * 2) })
        // Each frame overran one deadline (the last one too), reported with the frame after it.
        XCTAssertEqual(frames.map(\.missedDeadlines), [0] + Array(repeating: 1, count: 9))
        XCTAssertEqual(link.missedFrameCount, 10)
    }

    func testALateWakeAnswersTheLatestDeadlineAndCountsTheOthers() throws {
        let clock = VirtualClock(start: start)
        // The wake for deadline 2 comes 40 ms late (a descheduled thread): deadlines 2 and 3
        // passed, deadline 4 (66.7 ms) is the latest one before the wake (73.3 ms).
        clock.schedule(at: MonotonicInstant(seconds: deadline(2))) { clock.advance(byNanoseconds: 40_000_000) }
        let (link, _, frames) = try run(frames: 4, clock: clock) { _, _ in }
        XCTAssertEqual(frames.map(\.timestamp), [0, 1, 4, 5].map { deadline($0) })
        XCTAssertEqual(frames[2].missedDeadlines, 2)
        XCTAssertEqual(
            frames[2].wakeTime, MonotonicInstant(seconds: deadline(2)).advanced(byNanoseconds: 40_000_000).seconds)
        XCTAssertEqual(link.missedFrameCount, 2)
    }

    func testAPausedLinkWaitsWithoutADeadlineUntilResumed() throws {
        let clock = VirtualClock(start: start)
        let resumeAt = start.advanced(byNanoseconds: 5_001_000_000)
        var link: DisplayLink!
        clock.schedule(at: resumeAt) { link.resume() }
        let (_, loop, frames) = try run(frames: 5, clock: clock, configure: { l, _ in link = l }) { frame, link in
            if frame.index == 2 { link.isPaused = true }
        }
        // One wait with no deadline covered the whole pause, and it ended at the resume.
        let pauseWaits = clock.waits.filter { $0.deadline == nil }
        XCTAssertEqual(pauseWaits, [VirtualClock.Wait(deadline: nil, returnedAt: resumeAt, readyDescriptors: 1)])
        // Frames 0–2, then the first deadline on the same grid after the resume (index 301).
        XCTAssertEqual(frames.map(\.timestamp), [0, 1, 2, 301, 302].map { deadline($0) })
        XCTAssertEqual(link.missedFrameCount, 0, "paused time is not missed frames")
        XCTAssertEqual(loop.wakeUps, 2 + 1 + 2, "two frame waits, one pause wait, two more frame waits")
    }

    func testDescriptorsWakeAPausedLoopAndNothingElseDoes() throws {
        let clock = VirtualClock(start: start)
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        for second in [1, 3] {
            clock.schedule(at: start.advanced(byNanoseconds: Int64(second) * 1_000_000_000)) {
                var byte: UInt8 = 1
                _ = write(fds[1], &byte, 1)
            }
        }
        let link = try DisplayLink(clock: clock)
        link.isPaused = true
        let loop = FrameLoop(link: link)
        var handled: [Double] = []
        loop.watch(fds[0]) {
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
            handled.append(clock.now().seconds)
            if handled.count == 2 { loop.stop() }
        }
        try loop.run { _ in XCTFail("a paused link delivered a frame") }
        XCTAssertEqual(handled, [2.0, 4.0])
        XCTAssertEqual(clock.waits.map(\.deadline), [nil, nil])
        XCTAssertEqual(loop.wakeUps, 2)
    }

    func testAPausedLinkWithNothingToWaitForIsAnErrorNotAHang() throws {
        let clock = VirtualClock(start: start)
        let link = try DisplayLink(clock: clock)
        link.isPaused = true
        // The virtual clock sees the link's wake descriptor, which nothing will ever write.
        XCTAssertThrowsError(try FrameLoop(link: link).run { _ in }) { error in
            XCTAssertTrue(error is WaitWouldBlockForever, "\(error)")
        }
    }

    func testChangingTheRateStartsTheNewGridAtTheLastDeadline() throws {
        let clock = VirtualClock(start: start)
        let (_, _, frames) = try run(frames: 6, clock: clock) { frame, link in
            if frame.index == 2 { link.preferredFramesPerSecond = 30 }
        }
        let third = MonotonicInstant(seconds: deadline(2))
        XCTAssertEqual(
            frames.map(\.timestamp),
            [deadline(0), deadline(1), deadline(2)] + (1...3).map { deadline($0, fps: 30, from: third) })
        XCTAssertEqual(frames[4].duration, 1.0 / 30)
    }

    func testAnErrorFromTheFrameCallbackEndsTheLoop() throws {
        struct Boom: Error {}
        let clock = VirtualClock(start: start)
        let loop = FrameLoop(link: try DisplayLink(clock: clock))
        var calls = 0
        XCTAssertThrowsError(
            try loop.run { _ in
                calls += 1; if calls == 3 { throw Boom() }
            }
        ) { error in
            XCTAssertTrue(error is Boom)
        }
        XCTAssertEqual(calls, 3)
    }

    // MARK: - The real clock

    func testRealClockNeverWakesBeforeADeadlineAndKeepsTheGrid() throws {
        let clock = try SystemClock()
        let link = try DisplayLink(clock: clock, preferredFramesPerSecond: 100)
        let loop = FrameLoop(link: link)
        var frames: [DisplayFrame] = []
        try loop.run { frame in
            frames.append(frame)
            if frames.count == 20 { loop.stop() }
        }
        let origin = frames[0].timestamp
        for frame in frames {
            XCTAssertGreaterThanOrEqual(frame.wakeTime, frame.timestamp, "woke before the deadline")
            // On the 10 ms grid (or a whole number of periods later when the machine was busy).
            let periods = (frame.timestamp - origin) / 0.01
            XCTAssertEqual(periods, periods.rounded(), accuracy: 1e-6)
        }
        let span = frames.last!.timestamp - origin
        XCTAssertEqual(span, 0.19 + Double(link.missedFrameCount) * 0.01, accuracy: 1e-6)
    }

    func testResumeFromAnotherThreadWakesAPausedRealLoopOnce() throws {
        let link = try DisplayLink(clock: try SystemClock())
        link.isPaused = true
        let loop = FrameLoop(link: link)
        let before = link.clock.now()
        Thread.detachNewThread {
            usleep(100_000)
            link.resume()
        }
        var woke: MonotonicInstant?
        try loop.run { _ in
            woke = link.clock.now(); loop.stop()
        }
        let waited = Double(woke!.nanoseconds(since: before)) / 1e9
        XCTAssertGreaterThanOrEqual(waited, 0.1)
        XCTAssertLessThan(waited, 1.0)
        // One wake for the resume, one for the first deadline after it: nothing while paused.
        XCTAssertEqual(loop.wakeUps, 2)
    }

    func testSleepingWithoutDescriptorsReachesTheAbsoluteDeadline() throws {
        let clock = try SystemClock()
        let deadline = clock.now().advanced(byNanoseconds: 20_000_000)
        var none: [pollfd] = []
        XCTAssertEqual(try clock.wait(until: deadline, descriptors: &none), 0)
        XCTAssertGreaterThanOrEqual(clock.now(), deadline)
        XCTAssertThrowsError(try clock.wait(until: nil, descriptors: &none))
    }
}
