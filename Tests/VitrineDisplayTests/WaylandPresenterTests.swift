import Foundation
import Glibc
import Logging
import VitrineDisplay
import VitrineGraphics
import VitrineSystem
import VitrineTestSupport
import VitrineWayland
import XCTest

/// The Wayland presenter itself, under real headless compositors: frames drawn in place into
/// alternating buffers, each brought up to date before it is drawn into.
final class WaylandPresenterTests: XCTestCase {
    private var quiet: Logger {
        var logger = Logger(label: "vitrine.display.test")
        logger.logLevel = .critical
        return logger
    }

    private func connect(to compositor: WaylandCompositor) throws -> WaylandPresenter {
        try WaylandPresenter(socketName: compositor.runtimeDirectory + "/" + compositor.socketName, logger: quiet)
    }

    /// Handles events until the presenter takes a frame (the compositor's frame callback).
    private func waitUntilReady(_ presenter: WaylandPresenter) throws {
        let deadline = Date().addingTimeInterval(2)
        while !presenter.isReadyForFrame {
            guard Date() < deadline else { throw WaylandCompositorError(description: "no frame callback in 2 s") }
            var descriptor = pollfd(fd: presenter.eventDescriptor!, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            _ = try presenter.handleEvents()
        }
    }

    /// A player's way of drawing: only small damaged squares each frame. Before every frame
    /// the frame bitmap, whichever buffer it now shows, must hold exactly the frame before.
    private func checkDrawingInPlaceKeepsTheBitmapWhole(
        under compositor: WaylandCompositor, movingPages: Bool = true
    ) throws {
        let presenter = try connect(to: compositor)
        defer { presenter.close() }
        presenter.movesPagesBetweenBuffers = movingPages
        let size = presenter.size
        let screen = Bitmap(width: size.width, height: size.height)
        // The first bitmap goes before the second is made, as when the player lays out again.
        do {
            let bitmap = try XCTUnwrap(try presenter.makeFrameBitmap(size: size))
            presenter.prepareFrameBitmap()
            bitmap.fill(0xFF20_3040)
            screen.fill(0xFF20_3040)
            try presenter.present(bitmap)
            for frame in 1...30 {
                try waitUntilReady(presenter)
                presenter.prepareFrameBitmap()
                var mismatches = 0
                for y in 0..<size.height where memcmp(bitmap.row(y), screen.row(y), size.width * 4) != 0 {
                    mismatches += 1
                }
                XCTAssertEqual(mismatches, 0, "frame \(frame): rows of the frame bitmap differ from the last frame")
                let square = IntRect(
                    x: (frame * 17) % (size.width - 20), y: (frame * 11) % (size.height - 20), width: 20, height: 20)
                let colour: UInt32 = 0xFF00_0000 | UInt32(frame * 8) << 16 | 0x80
                bitmap.fill(colour, in: square)
                screen.fill(colour, in: square)
                try presenter.present(bitmap, dirty: [square])
            }
            XCTAssertGreaterThan(presenter.drawingBufferChanges, 10, "the compositor held buffers: frames alternated")
        }

        // A new frame bitmap (as a resize makes) while the compositor holds a buffer the old
        // one showed: the held buffer goes only when released, and nothing it owned is the new
        // window's.
        let second = try XCTUnwrap(try presenter.makeFrameBitmap(size: size))
        presenter.prepareFrameBitmap()
        second.fill(0xFF40_3020)
        screen.fill(0xFF40_3020)
        try presenter.present(second)
        for frame in 1...10 {
            try waitUntilReady(presenter)
            presenter.prepareFrameBitmap()
            var mismatches = 0
            for y in 0..<size.height where memcmp(second.row(y), screen.row(y), size.width * 4) != 0 { mismatches += 1 }
            XCTAssertEqual(mismatches, 0, "after a new bitmap, frame \(frame): rows differ from the last frame")
            let square = IntRect(x: frame * 9, y: frame * 7, width: 16, height: 16)
            second.fill(0xFF00_FF00, in: square)
            screen.fill(0xFF00_FF00, in: square)
            try presenter.present(second, dirty: [square])
        }
        try presenter.finishPresenting()
        usleep(100_000)
        _ = try presenter.handleEvents()
        XCTAssertEqual(presenter.heldBufferCommitsRefused, 0)
        XCTAssertLessThanOrEqual(presenter.bufferCount, 4)
    }

    /// A compositor gone before the first frame: the frame is committed into a broken pipe, and
    /// the next events handled report the end (this once hung: after a failed flush the read
    /// was cancelled, and libwayland was then asked to read anyway, waiting forever for the
    /// reader the cancel had removed).
    func testACompositorGoneBeforeTheFirstFrameIsReportedNotWaitedFor() throws {
        var weston: WaylandCompositor? = try WaylandCompositor.weston(width: 320, height: 240)
        let presenter = try connect(to: try XCTUnwrap(weston))
        defer { presenter.close() }
        weston = nil
        let bitmap = try XCTUnwrap(try presenter.makeFrameBitmap(size: presenter.size))
        presenter.prepareFrameBitmap()
        bitmap.fill(0xFF00_8000)
        var failure: Error?
        do {
            try presenter.present(bitmap)
            let deadline = Date().addingTimeInterval(2)
            while failure == nil, Date() < deadline {
                var descriptor = pollfd(fd: presenter.eventDescriptor!, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 20)
                _ = try presenter.handleEvents()
            }
        } catch {
            failure = error
        }
        guard case .wayland(_, let detail)? = failure as? PresenterError else {
            return XCTFail("expected the compositor's end, got \(String(describing: failure))")
        }
        XCTAssertTrue(detail.contains("went away"), detail)
    }

    /// Under weston, which sends real presentation feedback, a frame is timed for when it will
    /// reach the screen: once feedback has come, the time predicted before a commit is the
    /// one the compositor then reports (within 2 ms), frame after frame.
    func testFramesAreTimedByPresentationFeedbackUnderWeston() throws {
        let weston = try WaylandCompositor.weston(width: 320, height: 240)
        let presenter = try connect(to: weston)
        defer { presenter.close() }
        XCTAssertNil(presenter.nextPresentationTime(after: MonotonicInstant.now()), "no feedback yet")
        let bitmap = try XCTUnwrap(try presenter.makeFrameBitmap(size: presenter.size))
        var compared = 0, close = 0
        for frame in 0..<40 {
            try waitUntilReady(presenter)
            presenter.prepareFrameBitmap()
            let predicted = presenter.nextPresentationTime(after: MonotonicInstant.now())
            let presented = presenter.framesPresented
            let square = IntRect(x: (frame * 13) % 280, y: 100, width: 30, height: 30)
            bitmap.fill(0xFF00_0000 | UInt32(frame * 6) << 8, in: square)
            try presenter.present(bitmap, dirty: [square])
            // This frame's feedback.
            let deadline = Date().addingTimeInterval(1)
            while presenter.framesPresented == presented, Date() < deadline {
                var descriptor = pollfd(fd: presenter.eventDescriptor!, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 20)
                _ = try presenter.handleEvents()
            }
            guard frame >= 5, let predicted, let time = presenter.lastPresentationTime,
                let actual = presenter.monotonicInstant(ofPresentationTime: time)
            else { continue }
            compared += 1
            if abs(actual.nanoseconds(since: predicted)) <= 2_000_000 { close += 1 }
        }
        XCTAssertGreaterThanOrEqual(compared, 30, "\(presenter.framesPresented) frames presented")
        XCTAssertGreaterThanOrEqual(close, compared * 8 / 10, "\(close) of \(compared) predictions within 2 ms")
        withExtendedLifetime(weston) {}
    }

    func testDrawingInPlaceUnderWestonKeepsTheBitmapWhole() throws {
        try checkDrawingInPlaceKeepsTheBitmapWhole(under: try WaylandCompositor.weston(width: 320, height: 240))
    }

    /// Where the kernel cannot move shared pages, each buffer is mapped into the window afresh.
    func testDrawingInPlaceByRemappingKeepsTheBitmapWhole() throws {
        try checkDrawingInPlaceKeepsTheBitmapWhole(
            under: try WaylandCompositor.weston(width: 320, height: 240), movingPages: false)
    }

    func testDrawingInPlaceUnderSwayKeepsTheBitmapWhole() throws {
        try checkDrawingInPlaceKeepsTheBitmapWhole(under: try WaylandCompositor.sway(width: 320, height: 240))
    }

    /// The toplevel takes the output's size (sway configures 0x0 first), a frame callback
    /// gates the next frame, and a still presenter commits nothing.
    func testSizePacingAndStillness() throws {
        let sway = try WaylandCompositor.sway(width: 640, height: 480)
        let presenter = try connect(to: sway)
        defer { presenter.close() }
        XCTAssertEqual(presenter.size, PixelSize(width: 640, height: 480))
        XCTAssertEqual(presenter.refreshRate ?? 0, 60, accuracy: 0.5)
        let bitmap = try XCTUnwrap(try presenter.makeFrameBitmap(size: presenter.size))
        presenter.prepareFrameBitmap()
        XCTAssertTrue(presenter.isReadyForFrame)
        try presenter.present(bitmap)
        XCTAssertFalse(presenter.isReadyForFrame, "after a commit, frames wait for the frame callback")
        try waitUntilReady(presenter)
        let committed = presenter.framesCommitted
        try presenter.present(bitmap, dirty: [])
        usleep(100_000)
        _ = try presenter.handleEvents()
        XCTAssertEqual(presenter.framesCommitted, committed, "a frame without damage commits nothing")
        XCTAssertTrue(presenter.isReadyForFrame)
    }

    func testNoCompositorThrowsCannotConnect() throws {
        XCTAssertThrowsError(try WaylandPresenter(socketName: "/nonexistent/wayland-vitrine", logger: quiet)) { error in
            XCTAssertEqual(error as? PresenterError, .cannotConnectToCompositor("/nonexistent/wayland-vitrine"))
        }
    }

    /// A protocol error ends the connection: every later call throws, naming the interface.
    func testAProtocolErrorIsReportedWithItsCause() throws {
        let sway = try WaylandCompositor.sway(width: 320, height: 240)
        let presenter = try connect(to: sway)
        defer { presenter.close() }
        presenter.makeInvalidRequest()
        var thrown: PresenterError?
        do { try presenter.finishPresenting() } catch let error as PresenterError { thrown = error }
        guard case .wayland(_, let detail) = try XCTUnwrap(thrown) else {
            return XCTFail("\(String(describing: thrown))")
        }
        XCTAssertTrue(detail.contains("protocol error") && detail.contains("wl_shm"), detail)
        XCTAssertThrowsError(try presenter.handleEvents()) { XCTAssertEqual($0 as? PresenterError, thrown) }
    }
}
