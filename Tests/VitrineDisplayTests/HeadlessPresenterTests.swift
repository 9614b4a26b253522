import VitrineDisplay
import VitrineGraphics
import XCTest

final class HeadlessPresenterTests: XCTestCase {
    func testKeepsASnapshotOfTheScreenAfterEveryPresent() throws {
        let presenter = HeadlessPresenter(size: PixelSize(width: 4, height: 3))
        let frame = Bitmap(width: 4, height: 3)
        frame.fill(0xFF11_2233)
        try presenter.present(frame)
        frame.fill(0xFF44_5566)
        try presenter.present(frame, dirty: [IntRect(x: 1, y: 1, width: 2, height: 1)])

        XCTAssertEqual(presenter.presentCount, 2)
        XCTAssertEqual(presenter.frames.count, 2)
        XCTAssertEqual((0..<12).map { presenter.frames[0][$0 % 4, $0 / 4] }, Array(repeating: 0xFF11_2233, count: 12))
        let second = (0..<12).map { presenter.frames[1][$0 % 4, $0 / 4] }
        let inside: Set = [5, 6]
        XCTAssertEqual(second, (0..<12).map { inside.contains($0) ? 0xFF44_5566 : 0xFF11_2233 })
        XCTAssertEqual(
            presenter.dirtyRects,
            [[IntRect(x: 0, y: 0, width: 4, height: 3)], [IntRect(x: 1, y: 1, width: 2, height: 1)]])
    }

    func testHandsEachScreenToItsSinkWithTheFrameIndex() throws {
        var seen: [(Int, UInt32)] = []
        let presenter = HeadlessPresenter(size: PixelSize(width: 2, height: 2)) { screen, index in
            seen.append((index, screen[1, 1]))
        }
        let frame = Bitmap(width: 2, height: 2)
        for value: UInt32 in [0xFF00_0001, 0xFF00_0002, 0xFF00_0003] {
            frame.fill(value)
            try presenter.present(frame)
        }
        XCTAssertEqual(seen.map(\.0), [0, 1, 2])
        XCTAssertEqual(seen.map(\.1), [0xFF00_0001, 0xFF00_0002, 0xFF00_0003])
        XCTAssertTrue(presenter.frames.isEmpty)
    }

    func testASinkFailureNamesTheFrame() throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }
        let presenter = HeadlessPresenter(size: PixelSize(width: 2, height: 2)) { _, index in
            if index == 1 { throw DiskFull() }
        }
        let frame = Bitmap(width: 2, height: 2)
        try presenter.present(frame)
        XCTAssertThrowsError(try presenter.present(frame)) { error in
            XCTAssertEqual(error as? PresenterError, .sinkFailed(frame: 1, detail: "disk full"))
        }
    }

    func testSimulatedResizeIsReportedOnceThroughTheFrameLoop() throws {
        let presenter = HeadlessPresenter(size: PixelSize(width: 8, height: 8))
        let clock = VirtualClock()
        let loop = FrameLoop(link: try DisplayLink(clock: clock))
        var events: [(PresenterEvent, Int)] = []
        var frameIndex = 0
        loop.watch(presenter) { reported in events += reported.map { ($0, frameIndex) } }
        try loop.run { frame in
            frameIndex = frame.index
            if frame.index == 3 { presenter.simulateResize(to: PixelSize(width: 5, height: 4)) }
            if frame.index == 6 { loop.stop() }
        }
        XCTAssertEqual(events.map(\.0), [.resized(PixelSize(width: 5, height: 4))])
        XCTAssertEqual(events.first?.1, 3, "handled before the next frame")
        XCTAssertEqual(presenter.size, PixelSize(width: 5, height: 4))
        XCTAssertFalse(presenter.hasPendingEvents)
    }

    func testAFrameLargerThanTheOutputShowsItsCentre() throws {
        let presenter = HeadlessPresenter(size: PixelSize(width: 2, height: 2))
        let frame = Bitmap(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { frame[x, y] = 0xFF00_0000 | UInt32(y * 4 + x) } }
        try presenter.present(frame)
        XCTAssertEqual(
            [presenter.screen[0, 0], presenter.screen[1, 0], presenter.screen[0, 1], presenter.screen[1, 1]],
            [0xFF00_0005, 0xFF00_0006, 0xFF00_0009, 0xFF00_000A])
    }
}
