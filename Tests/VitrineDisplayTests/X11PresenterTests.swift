import CX11
import Foundation
import Logging
import VitrineDisplay
import VitrineGraphics
import VitrineX11
import VitrineTestSupport
import XCTest

final class X11PresenterTests: XCTestCase {
    private var quiet: Logger {
        var logger = Logger(label: "vitrine.display.test")
        logger.logLevel = .critical
        return logger
    }

    // MARK: - Frames on screen

    func testFullFrameThroughSharedMemoryIsOnScreenExactly() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XCTAssertTrue(presenter.usesSharedMemory)
        XCTAssertEqual(presenter.size, PixelSize(width: 320, height: 240))
        try assertFullFrameShown(presenter, client)
    }

    func testFullFrameThroughXPutImageOnServerWithoutSharedMemory() throws {
        let server = try XvfbServer(width: 320, height: 240, arguments: ["-extension", "MIT-SHM"])
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XCTAssertFalse(presenter.usesSharedMemory, "the server has no MIT-SHM: XPutImage expected")
        try assertFullFrameShown(presenter, client)
    }

    private func assertFullFrameShown(
        _ presenter: X11Presenter, _ client: XClient,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let frame = Frames.pattern(width: 320, height: 240, seed: 1)
        try presenter.present(frame)
        try presenter.finishPresenting()
        let shot = try client.screenshot(width: 320, height: 240)
        assertPixelsEqual(shot, Frames.rgb(frame), width: 320, "screen vs pattern", file: file, line: line)

        let headless = HeadlessPresenter(size: presenter.size)
        try headless.present(frame)
        assertPixelsEqual(
            shot, Frames.rgb(headless.screen), width: 320, "screen vs headless render", file: file, line: line)
    }

    func testDirtyRectanglesChangeOnlyTheirPixelsThroughSharedMemory() throws {
        let server = try XvfbServer(width: 160, height: 120)
        try assertDirtyUpdates(server, sharedMemory: true)
    }

    func testDirtyRectanglesChangeOnlyTheirPixelsThroughXPutImage() throws {
        let server = try XvfbServer(width: 160, height: 120)
        try assertDirtyUpdates(server, sharedMemory: false)
    }

    func testFramesDrawnInThePresentersOwnBitmapThroughSharedMemory() throws {
        let server = try XvfbServer(width: 160, height: 120)
        try assertDirtyUpdates(server, sharedMemory: true, inPresentersBitmap: true)
    }

    func testFramesDrawnInThePresentersOwnBitmapThroughXPutImage() throws {
        let server = try XvfbServer(width: 160, height: 120)
        try assertDirtyUpdates(server, sharedMemory: false, inPresentersBitmap: true)
    }

    /// Each step repaints the whole bitmap but declares only some rectangles dirty: the screen
    /// must change exactly there. Several steps alternate the two shared buffers, or reuse the
    /// one the presenter's own bitmap lives in (`inPresentersBitmap`).
    private func assertDirtyUpdates(
        _ server: XvfbServer, sharedMemory: Bool, inPresentersBitmap: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, sharedMemory: sharedMemory, logger: quiet)
        defer { presenter.close() }
        XCTAssertEqual(presenter.usesSharedMemory, sharedMemory, file: file, line: line)
        let headless = HeadlessPresenter(size: presenter.size)
        let (width, height) = (160, 120)

        let frame: Bitmap
        if inPresentersBitmap {
            frame = try XCTUnwrap(
                try presenter.makeFrameBitmap(size: PixelSize(width: width, height: height)),
                file: file, line: line)
            XCTAssertEqual(PixelSize(of: frame), PixelSize(width: width, height: height), file: file, line: line)
            presenter.prepareFrameBitmap()
            Frames.fill(frame, seed: 1)
        } else {
            frame = Frames.pattern(width: width, height: height, seed: 1)
        }
        var expected = Frames.rgb(frame)
        try presenter.present(frame)
        try headless.present(frame)

        let steps: [(seed: UInt32, dirty: [IntRect])] = [
            (2, [IntRect(x: 10, y: 10, width: 30, height: 20)]),
            (3, [IntRect(x: 30, y: 15, width: 40, height: 40), IntRect(x: 100, y: 90, width: 60, height: 30)]),
            (4, [IntRect(x: 0, y: 100, width: 25, height: 20)]),
            (5, [IntRect(x: 150, y: -5, width: 30, height: 12)])  // partly outside: clipped
        ]
        for step in steps {
            presenter.prepareFrameBitmap()
            Frames.fill(frame, seed: step.seed)
            try presenter.present(frame, dirty: step.dirty)
            try headless.present(frame, dirty: step.dirty)
            for rect in step.dirty {
                let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
                for y in r.y..<r.maxY {
                    for x in r.x..<r.maxX {
                        expected[y * width + x] = Frames.pixel(x: x, y: y, seed: step.seed) & 0x00FF_FFFF
                    }
                }
            }
            try presenter.finishPresenting()
            let shot = try client.screenshot(width: width, height: height)
            assertPixelsEqual(shot, expected, width: width, "after step \(step.seed)", file: file, line: line)
            assertPixelsEqual(
                Frames.rgb(headless.screen), expected, width: width, "headless after step \(step.seed)",
                file: file, line: line)
        }
    }

    /// A shared-memory frame buffer's pages are made when it is, before anything is drawn in
    /// it: the player makes its first one while the playlist loads, so the first frame does
    /// not wait for them one fault at a time.
    func testASharedFrameBitmapIsResidentBeforeAnythingIsDrawnInIt() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XCTAssertTrue(presenter.usesSharedMemory)
        let bitmap = try XCTUnwrap(try presenter.makeFrameBitmap(size: PixelSize(width: 320, height: 240)))
        let bytes = bitmap.stride * bitmap.height * 4
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (bytes + page - 1) / page)
        XCTAssertEqual(mincore(UnsafeMutableRawPointer(bitmap.pixels), bytes, &resident), 0)
        XCTAssertEqual(resident.filter { $0 & 1 == 0 }.count, 0, "of \(resident.count) pages")
    }

    /// A frame bitmap outlives its buffer's turn as the output: replacing it, presenting an
    /// ordinary bitmap and closing the presenter leave its memory usable, and the screen shows
    /// what was presented last.
    func testFrameBitmapStaysValidAfterItIsReplacedAndThePresenterCloses() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        let size = PixelSize(width: 160, height: 120)
        let first = try XCTUnwrap(try presenter.makeFrameBitmap(size: size))
        Frames.fill(first, seed: 3)
        try presenter.present(first)
        let second = try XCTUnwrap(try presenter.makeFrameBitmap(size: size))
        XCTAssertFalse(first === second)
        Frames.fill(first, seed: 4)  // no longer the output's: drawing in it must not show
        let ordinary = Frames.pattern(width: 160, height: 120, seed: 5)
        try presenter.present(ordinary)
        try presenter.finishPresenting()
        assertPixelsEqual(
            try client.screenshot(width: 160, height: 120), Frames.rgb(ordinary), width: 160,
            "after presenting an ordinary bitmap")
        presenter.close()
        Frames.fill(second, seed: 6)
        XCTAssertEqual(second[159, 119], Frames.pixel(x: 159, y: 119, seed: 6))
        XCTAssertEqual(first[0, 0], Frames.pixel(x: 0, y: 0, seed: 4))
    }

    func testSmallerFrameIsCentredOnBlack() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        let frame = Frames.pattern(width: 60, height: 40, seed: 7)
        try presenter.present(frame)
        try presenter.finishPresenting()
        let shot = try client.screenshot(width: 160, height: 120)
        var expected = [UInt32](repeating: 0, count: 160 * 120)
        for y in 0..<40 { for x in 0..<60 { expected[(y + 40) * 160 + x + 50] = frame[x, y] & 0x00FF_FFFF } }
        assertPixelsEqual(shot, expected, width: 160, "frame at (50, 40)")

        let headless = HeadlessPresenter(size: presenter.size)
        try headless.present(frame)
        assertPixelsEqual(shot, Frames.rgb(headless.screen), width: 160, "screen vs headless")
    }

    // MARK: - Events

    func testExposedPartsAreRepresented() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        // A full frame, then a partial update: the buffer presented last has only the update
        // from this frame, so re-presenting it checks that both buffers track the screen.
        let frame = Frames.pattern(width: 160, height: 120, seed: 3)
        try presenter.present(frame)
        let update = IntRect(x: 60, y: 40, width: 70, height: 30)
        Frames.fill(frame, seed: 4)
        try presenter.present(frame, dirty: [update])
        try presenter.finishPresenting()
        var expected = [UInt32]()
        for y in 0..<120 {
            for x in 0..<160 {
                let inside = x >= update.x && x < update.maxX && y >= update.y && y < update.maxY
                expected.append(Frames.pixel(x: x, y: y, seed: inside ? 4 : 3) & 0x00FF_FFFF)
            }
        }
        assertPixelsEqual(try client.screenshot(width: 160, height: 120), expected, width: 160, "before Expose")

        // A window over ours, then gone: the server paints our background there and sends Expose.
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = 0xFFFFFF
        let cover = XCreateWindow(
            client.display, client.root, 20, 30, 80, 50, 0, XDefaultDepth(client.display, 0),
            UInt32(InputOutput), XDefaultVisual(client.display, 0),
            UInt(CWOverrideRedirect | CWBackPixel), &attributes)
        XMapRaised(client.display, cover)
        XSync(client.display, 0)
        XDestroyWindow(client.display, cover)
        XSync(client.display, 0)

        try waitForEvents(presenter, until: Date().addingTimeInterval(2)) { _ in
            try presenter.finishPresenting()
            return try client.screenshot(width: 160, height: 120) == expected
        }
        assertPixelsEqual(try client.screenshot(width: 160, height: 120), expected, width: 160, "after Expose")
    }

    func testScreenResizeIsReportedAndNewFramesFillIt() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        try presenter.present(Frames.pattern(width: 320, height: 240, seed: 1))
        try presenter.finishPresenting()

        try client.resizeScreen(width: 200, height: 150)
        XCTAssertEqual(client.screenSize.width, 200, "the server did not resize")

        var reported: [PresenterEvent] = []
        try waitForEvents(presenter, until: Date().addingTimeInterval(3)) { events in
            reported += events
            return reported.contains(.resized(PixelSize(width: 200, height: 150)))
        }
        XCTAssertEqual(reported, [.resized(PixelSize(width: 200, height: 150))])
        XCTAssertEqual(presenter.size, PixelSize(width: 200, height: 150))

        let frame = Frames.pattern(width: 200, height: 150, seed: 9)
        try presenter.present(frame)
        try presenter.finishPresenting()
        assertPixelsEqual(try client.screenshot(width: 200, height: 150), Frames.rgb(frame), width: 200, "after resize")
    }

    /// A frame loop presenting every frame sleeps once a frame: each present's completion event,
    /// which the server sends between frames, waits for the next one instead of waking the loop
    /// (two wakes a frame before). What the server sends meanwhile is still handled by the next
    /// frame: a screen resized while frames run is reported within a few of them.
    func testALoopPresentingEveryFrameWakesOnceAFrameAndStillHearsTheServer() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XCTAssertTrue(presenter.eventsWaitForTheNextFrame)
        let loop = FrameLoop(link: try DisplayLink(clock: try SystemClock(), preferredFramesPerSecond: 60))
        var frames = 0
        var resizedAt: Int?
        var resizedTo: [PresenterEvent] = []
        loop.watch(presenter) { events in
            resizedTo += events
            if resizedAt == nil, !events.isEmpty { resizedAt = frames }
        }
        let frame = Frames.pattern(width: 320, height: 240, seed: 1)
        let resizeAfter = 40
        var wakesBeforeResize = 0
        try loop.run { _ in
            frames += 1
            Frames.fill(frame, seed: UInt32(frames))
            try presenter.present(frame, dirty: [IntRect(x: 0, y: 0, width: 32, height: 32)])
            if frames == resizeAfter {
                wakesBeforeResize = loop.wakeUps
                try client.resizeScreen(width: 200, height: 150)
            }
            if frames == resizeAfter + 30 || (resizedAt.map { frames > $0 + 2 } ?? false) { loop.stop() }
        }
        // The first frame is due at once; each of the next 39 took one wait (or none, late).
        XCTAssertLessThanOrEqual(wakesBeforeResize, resizeAfter - 1, "wakes in \(resizeAfter) frames")
        XCTAssertEqual(resizedTo, [.resized(PixelSize(width: 200, height: 150))])
        let late = try XCTUnwrap(resizedAt, "the resize was not reported") - resizeAfter
        XCTAssertLessThanOrEqual(late, 5, "frames after the resize before it was reported")
    }

    /// Polls the presenter's descriptor and handles its events until `done` says so or time runs out.
    private func waitForEvents(
        _ presenter: X11Presenter, until deadline: Date,
        _ done: ([PresenterEvent]) throws -> Bool
    ) throws {
        while Date() < deadline {
            var descriptor = pollfd(fd: presenter.eventDescriptor!, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 50)
            if try done(try presenter.handleEvents()) { return }
        }
    }

    // MARK: - Window, cursor, blanking

    func testWithoutWindowManagerTheWindowIsOverrideRedirectAndCoversTheScreen() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XCTAssertFalse(presenter.usesWindowManager)
        var attributes = XWindowAttributes()
        XGetWindowAttributes(client.display, Window(presenter.window), &attributes)
        XCTAssertEqual(attributes.override_redirect, 1)
        XCTAssertEqual(attributes.map_state, IsViewable)
        XCTAssertEqual([attributes.x, attributes.y, attributes.width, attributes.height], [0, 0, 160, 120])
        XCTAssertEqual(client.property(Window(presenter.window), "_NET_WM_STATE"), [])
    }

    /// The cursor over the player's window shows nothing: XFixes hands out the image of the
    /// cursor the server displays, every pixel of which must be transparent (the root window's
    /// default cursor, before the player starts, is not).
    func testTheCursorIsInvisibleOverTheWindow() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        let before = try XCTUnwrap(try client.cursorImage())
        XCTAssertTrue(before.contains { $0 >> 24 != 0 }, "the root window's cursor is visible")
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XSync(client.display, 0)
        let over = try XCTUnwrap(try client.cursorImage())
        XCTAssertFalse(over.isEmpty)
        XCTAssertTrue(over.allSatisfy { $0 >> 24 == 0 }, "a pixel of the cursor over the window is not transparent")
    }

    func testWithWindowManagerTheWindowAsksForFullScreenWithoutDecorations() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        // Stand in for a window manager: a check window naming itself, named by the root (EWMH).
        var check = XCreateSimpleWindow(client.display, client.root, 0, 0, 1, 1, 0, 0, 0)
        let checkAtom = client.atom("_NET_SUPPORTING_WM_CHECK")
        for target in [client.root, check] {
            withUnsafeBytes(of: &check) { bytes in
                _ = XChangeProperty(
                    client.display, target, checkAtom, Atom(XA_WINDOW), 32, PropModeReplace,
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
            }
        }
        XSync(client.display, 0)

        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XCTAssertTrue(presenter.usesWindowManager)
        var attributes = XWindowAttributes()
        XGetWindowAttributes(client.display, Window(presenter.window), &attributes)
        XCTAssertEqual(attributes.override_redirect, 0)
        XCTAssertEqual(
            client.property(Window(presenter.window), "_NET_WM_STATE"),
            [UInt(client.atom("_NET_WM_STATE_FULLSCREEN"))])
        // Motif hints: flags = decorations (2), decorations = 0.
        XCTAssertEqual(client.property(Window(presenter.window), "_MOTIF_WM_HINTS"), [2, 0, 0, 0, 0])
    }

    func testStaleWindowManagerCheckIsIgnored() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        var gone = XCreateSimpleWindow(client.display, client.root, 0, 0, 1, 1, 0, 0, 0)
        withUnsafeBytes(of: &gone) { bytes in
            _ = XChangeProperty(
                client.display, client.root, client.atom("_NET_SUPPORTING_WM_CHECK"), Atom(XA_WINDOW), 32,
                PropModeReplace, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        XDestroyWindow(client.display, gone)
        XSync(client.display, 0)
        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        defer { presenter.close() }
        XCTAssertFalse(presenter.usesWindowManager)
    }

    func testScreenSaverIsSuspendedWhilePresentingAndRestoredAfter() throws {
        let server = try XvfbServer(width: 160, height: 120)
        let client = try XClient(server.name)
        XSetScreenSaver(client.display, 321, 45, DontPreferBlanking, AllowExposures)
        XSync(client.display, 0)

        let presenter = try X11Presenter(displayName: server.name, logger: quiet)
        XCTAssertEqual(screenSaver(client), [0, 45, DontPreferBlanking, AllowExposures])
        presenter.close()
        XCTAssertEqual(screenSaver(client), [321, 45, DontPreferBlanking, AllowExposures])
    }

    private func screenSaver(_ client: XClient) -> [Int32] {
        var timeout: Int32 = -1, interval: Int32 = -1, blanking: Int32 = -1, exposures: Int32 = -1
        XGetScreenSaver(client.display, &timeout, &interval, &blanking, &exposures)
        return [timeout, interval, blanking, exposures]
    }

    // MARK: - Failures

    func testScreenWithoutA24Or32BitTrueColorVisualIsRejectedWithAClearError() throws {
        // Without Composite, a 16-bit Xvfb offers no 32-bit (ARGB) visual either.
        let server = try XvfbServer(width: 160, height: 120, depth: 16, arguments: ["-extension", "Composite"])
        XCTAssertThrowsError(try X11Presenter(displayName: server.name, logger: quiet)) { error in
            guard case PresenterError.unsupportedVisual(let detail) = error else {
                return XCTFail("expected unsupportedVisual, got \(error)")
            }
            XCTAssertTrue(detail.contains("depth 16") && detail.contains("0xf800/0x7e0/0x1f"), detail)
        }
    }

    func testMissingDisplayIsAClearError() throws {
        XCTAssertThrowsError(try X11Presenter(displayName: ":4093", logger: quiet)) { error in
            XCTAssertEqual(error as? PresenterError, .cannotOpenDisplay(":4093"))
        }
    }

    func testServerLossEndsTheProcessWithItsStatusWithinASecond() throws {
        let probe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("VitrineDisplayProbe")
        guard FileManager.default.isExecutableFile(atPath: probe.path) else {
            return XCTFail("\(probe.path) is missing: build it with `swift build --product VitrineDisplayProbe`")
        }
        let server = try XvfbServer(width: 160, height: 120)
        let process = Process()
        process.executableURL = probe
        process.arguments = ["present", "--display", server.name]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Wait for the first frame, then pull the server away.
        var descriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 10_000), 1, "the probe never said it was presenting")
        let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        XCTAssertTrue(said.contains("presenting"), said)

        let killed = Date()
        server.kill()
        while process.isRunning && Date().timeIntervalSince(killed) < 3 { usleep(2_000) }
        let elapsed = Date().timeIntervalSince(killed)
        XCTAssertFalse(process.isRunning, "the probe outlived its X server by 3 s")
        process.waitUntilExit()
        XCTAssertLessThan(elapsed, 1.0)
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, X11Presenter.connectionLostExitStatus)
        XCTAssertEqual(X11Presenter.connectionLostExitStatus, 69)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(message.contains("lost the connection to the X server \"\(server.name)\""), message)
        XCTAssertTrue(message.contains("exiting with status 69"), message)
    }
}

extension XClient {
    /// Resizes the screen as a monitor change would (see `resizeXvfbScreen`).
    func resizeScreen(width: Int, height: Int) throws {
        try resizeXvfbScreen(display, width: width, height: height)
    }
}
