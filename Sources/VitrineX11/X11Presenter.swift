import CX11
import Glibc
import Logging
import VitrineDisplay
import VitrineGraphics
import VitrineSystem

/// Shows frames full-screen on an X server through MIT-SHM (or `XPutImage` where shared memory
/// is unavailable), putting only the dirty rectangles of each frame.
///
/// - The window covers the screen: override-redirect when no window manager runs; with one,
///   `_NET_WM_STATE_FULLSCREEN` and no decorations. Black background, no visible cursor; the
///   screen saver and DPMS blanking are off until `close()`.
/// - Frames drawn in the bitmap `makeFrameBitmap` hands out live in a shared-memory image the
///   server reads directly: nothing is copied, and `prepareFrameBitmap` waits for the completion
///   event of the last put before the next frame is drawn. Frames in other bitmaps are copied
///   into two alternating images: one is written while the other may still be in flight.
/// - `Expose` re-puts the last frame; a change of screen size is reported as `.resized`.
/// - Losing the server (it exits, crashes or the connection breaks) ends the process with
///   `connectionLostExitStatus` and a message on standard error: Xlib offers no way to carry on
///   after an I/O error, and a kiosk is better restarted by its supervisor.
public final class X11Presenter: Presenter {
    /// The exit status after the X server goes away: 69, EX_UNAVAILABLE in sysexits.h
    /// ("a service is unavailable"), distinct from configuration (78) and usage (64) errors.
    public static let connectionLostExitStatus: Int32 = 69

    public private(set) var size: PixelSize
    public let refreshRate: Double?
    public var eventDescriptor: Int32? { display.map { XConnectionNumber($0) } }
    public var hasPendingEvents: Bool { display.map { XEventsQueued($0, QueuedAlready) > 0 } ?? false }
    /// Nothing the server sends paces frames: a present's completion event is waited for when
    /// its buffer is next drawn into, and an exposure is drawn again by the next frame.
    public var eventsWaitForTheNextFrame: Bool { true }

    /// Whether frames travel through MIT-SHM (false: `XPutImage` over the connection).
    public private(set) var usesSharedMemory: Bool
    /// Whether a window manager was found, so the window asked it for full screen.
    public let usesWindowManager: Bool
    /// The X window the frames appear in.
    public let window: UInt
    /// The display name as Xlib resolved it, e.g. ":0".
    public let displayName: String

    private var display: OpaquePointer?
    private let root: Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let colormap: Colormap
    private let gc: GC
    private let cursor: Cursor
    private let completionEventType: Int32
    private let randrEventBase: Int32?
    private let blanking: X11Screen.BlankingSettings
    /// Whether the server can power the monitor down (DPMS), for `setScreenPowered`.
    private let canPowerDown: Bool
    private let logger: Logger

    private var screenSize: PixelSize
    private var frameSize: PixelSize
    private var buffers: [X11FrameBuffer] = []
    private var nextBuffer = 0
    /// The bitmap over `buffers[0]` that `makeFrameBitmap` handed out: frames in it need no copy.
    private weak var frameBitmap: Bitmap?
    /// The dirty rectangles of the frame being presented, within it (one array for every frame).
    private var visibleDirty: [IntRect] = []
    /// The buffer holding the frame on screen: complete, and never written while it is last.
    private var lastBuffer: X11FrameBuffer?
    private var warnedAboutCompletionTimeout = false

    /// Opens `displayName` (nil: `$DISPLAY`) and covers its default screen with a black window.
    /// `sharedMemory: false` forces `XPutImage` (for comparisons). Throws when the display
    /// cannot be opened or offers no usable visual.
    public init(
        displayName: String? = nil, sharedMemory: Bool = true,
        logger: Logger = Logger(label: "vitrine.display.x11")
    ) throws {
        self.logger = logger
        X11Errors.install()
        guard let display = XOpenDisplay(displayName) else {
            throw PresenterError.cannotOpenDisplay(displayName ?? getenv("DISPLAY").map { String(cString: $0) } ?? "")
        }
        let resolvedName = String(cString: XDisplayString(display))
        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        let choice: X11Screen.VisualChoice
        do { choice = try X11Screen.chooseVisual(display: display, screen: screen) } catch {
            XCloseDisplay(display)
            throw error
        }
        X11Errors.serverName = resolvedName

        var rootAttributes = XWindowAttributes()
        XGetWindowAttributes(display, root, &rootAttributes)
        let screenSize = PixelSize(width: Int(rootAttributes.width), height: Int(rootAttributes.height))

        // Shared memory needs the extension and pixels in the Bitmap's byte order (nothing
        // swaps bytes in a shared segment).
        let shmUsable = sharedMemory && XShmQueryExtension(display) != 0 && XImageByteOrder(display) == LSBFirst
        if sharedMemory && !shmUsable {
            logger.notice("MIT-SHM is not available on \(resolvedName); frames go through XPutImage")
        }

        var rrEventBase: Int32 = 0, rrErrorBase: Int32 = 0
        let hasRandR = XRRQueryExtension(display, &rrEventBase, &rrErrorBase) != 0
        if hasRandR { XRRSelectInput(display, root, Int32(RRScreenChangeNotifyMask)) }
        XSelectInput(display, root, Int(StructureNotifyMask))

        let windowManager = X11Screen.windowManagerIsRunning(display: display, root: root)
        let colormap = XCreateColormap(display, root, choice.visual, AllocNone)
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = 0
        attributes.border_pixel = 0
        attributes.colormap = colormap
        attributes.override_redirect = windowManager ? 0 : 1
        attributes.event_mask = Int(ExposureMask | StructureNotifyMask)
        let window = XCreateWindow(
            display, root, 0, 0, UInt32(screenSize.width), UInt32(screenSize.height), 0,
            choice.depth, UInt32(InputOutput), choice.visual,
            UInt(CWBackPixel | CWBorderPixel | CWColormap | CWOverrideRedirect | CWEventMask),
            &attributes)
        XStoreName(display, window, "Vitrine")
        if windowManager { Self.requestFullScreen(display: display, window: window) }
        let cursor = Self.invisibleCursor(display: display, window: window)
        XDefineCursor(display, window, cursor)

        self.display = display
        self.displayName = resolvedName
        self.root = root
        self.visual = choice.visual
        self.depth = choice.depth
        self.colormap = colormap
        self.window = window
        self.usesWindowManager = windowManager
        self.gc = XCreateGC(display, window, 0, nil)
        self.cursor = cursor
        self.completionEventType = XShmGetEventBase(display) + vitrine_ShmCompletion()
        self.randrEventBase = hasRandR ? rrEventBase : nil
        self.refreshRate = hasRandR ? X11Screen.refreshRate(display: display, root: root) : nil
        self.usesSharedMemory = shmUsable
        self.screenSize = screenSize
        self.size = screenSize
        self.frameSize = screenSize

        XMapRaised(display, window)
        blanking = X11Screen.suspendBlanking(display: display)
        canPowerDown = X11Screen.canPowerDown(display: display)
        XSync(display, 0)
        // No frame buffers yet: the first frame makes what it needs (one drawn into directly, or
        // two to copy into), so the first picture is not kept waiting for memory it never uses.
        // Whether the server can attach our segments at all (not when the player runs in an IPC
        // namespace of its own) is asked now with a one-pixel one, so the line below is true.
        if usesSharedMemory {
            let (probe, failure) = X11FrameBuffer.shared(
                display: display, visual: choice.visual, depth: choice.depth, size: PixelSize(width: 1, height: 1))
            if let probe {
                probe.detach(display: display)
            } else {
                usesSharedMemory = false
                logger.notice(
                    "MIT-SHM unusable on \(resolvedName) (\(failure ?? "unknown")); frames go through XPutImage")
            }
        }
        logger.info(
            "presenting on \(resolvedName): \(screenSize), depth \(choice.depth), \(usesSharedMemory ? "MIT-SHM" : "XPutImage"), \(windowManager ? "window manager full screen" : "override-redirect")\(refreshRate.map { ", \($0) Hz" } ?? "")"
        )
    }

    deinit { close() }

    // MARK: - Presenting

    public func configure(frameSize: PixelSize) throws {
        guard frameSize != self.frameSize else { return }
        try makeBuffers(for: frameSize, count: 2)
    }

    public func makeFrameBitmap(size: PixelSize) throws -> Bitmap? {
        try makeBuffers(for: size, count: 1)
        let bitmap = buffers[0].makeBitmap()
        frameBitmap = bitmap
        return bitmap
    }

    public func prepareFrameBitmap() {
        if frameBitmap != nil, let buffer = buffers.first { waitUntilServerIsDone(with: buffer) }
    }

    public func present(_ frame: Bitmap, dirty: [IntRect]) throws {
        guard let display else { throw PresenterError.x11(call: "present", detail: "the presenter is closed") }
        let incoming = PixelSize(of: frame)
        if frame === frameBitmap, let buffer = buffers.first {
            // The frame is the buffer: the server reads the dirty parts from where they were drawn.
            clip(dirty, to: incoming.bounds, into: &visibleDirty)
            guard !visibleDirty.isEmpty else { return }
            put(visibleDirty, from: buffer)
            lastBuffer = buffer
            XFlush(display)
            logProtocolErrors()
            return
        }
        var rects = dirty
        if incoming != frameSize || frameBitmap != nil || buffers.count < (usesSharedMemory ? 2 : 1) {
            try makeBuffers(for: incoming, count: 2)
            rects = [incoming.bounds]
        }
        rects = clipped(rects, to: incoming.bounds)
        guard !rects.isEmpty else { return }

        let buffer = buffers[nextBuffer]
        waitUntilServerIsDone(with: buffer)
        // Bring this buffer up to what the screen shows, then apply the frame's dirty parts.
        if let onScreen = lastBuffer, onScreen !== buffer {
            for rect in clipped(buffer.stale, to: incoming.bounds) { buffer.copy(rect, from: onScreen) }
        }
        buffer.stale.removeAll()
        for rect in rects { buffer.copy(rect, from: frame) }
        for other in buffers where other !== buffer { other.markStale(rects) }

        put(rects, from: buffer)
        lastBuffer = buffer
        nextBuffer = (nextBuffer + 1) % buffers.count
        XFlush(display)
        logProtocolErrors()
    }

    public func finishPresenting() throws {
        guard let display else { throw PresenterError.x11(call: "finishPresenting", detail: "the presenter is closed") }
        XSync(display, 0)
        for buffer in buffers { waitUntilServerIsDone(with: buffer) }
        logProtocolErrors()
    }

    /// DPMS off or on, where the server drives a monitor that has it.
    public func setScreenPowered(_ on: Bool) -> Bool {
        guard let display, canPowerDown else { return false }
        X11Screen.setPowered(display: display, on)
        return true
    }

    /// Puts `rects` (frame coordinates) of `buffer` at the frame's place in the window; with
    /// shared memory the last put asks for a completion event.
    private func put(_ rects: [IntRect], from buffer: X11FrameBuffer) {
        guard let display else { return }
        let origin = centredOrigin(frame: frameSize, output: size)
        for (i, r) in rects.enumerated() {
            let x = Int32(r.x), y = Int32(r.y), w = UInt32(r.width), h = UInt32(r.height)
            if buffer.isShared {
                let last: Int32 = i == rects.count - 1 ? 1 : 0
                XShmPutImage(
                    display, window, gc, buffer.image, x, y, x + Int32(origin.x), y + Int32(origin.y), w, h, last)
            } else {
                XPutImage(display, window, gc, buffer.image, x, y, x + Int32(origin.x), y + Int32(origin.y), w, h)
            }
        }
        if buffer.isShared && !rects.isEmpty { buffer.pendingCompletions += 1 }
    }

    /// Blocks until every put from `buffer` has completed, reading only completion events
    /// (others stay queued for `handleEvents`). Waits at most a second: a live but stalled
    /// server then gets a torn frame rather than a frozen player; a dead one ends the process
    /// through the I/O error handler as soon as Xlib reads the closed socket.
    private func waitUntilServerIsDone(with buffer: X11FrameBuffer) {
        guard let display, buffer.pendingCompletions > 0 else { return }
        let giveUp = MonotonicInstant.now().advanced(byNanoseconds: 1_000_000_000)
        var event = XEvent()
        while buffer.pendingCompletions > 0 {
            if XCheckTypedEvent(display, completionEventType, &event) != 0 {
                noteCompletion(event)
                continue
            }
            if MonotonicInstant.now() >= giveUp {
                if !warnedAboutCompletionTimeout {
                    logger.warning("the X server has not finished reading a frame after 1 s; reusing its buffer anyway")
                    warnedAboutCompletionTimeout = true
                }
                buffer.pendingCompletions = 0
                break
            }
            var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            let remainingMs = max(1, giveUp.nanoseconds(since: MonotonicInstant.now()) / 1_000_000)
            _ = poll(&descriptor, 1, Int32(remainingMs))
        }
    }

    private func noteCompletion(_ event: XEvent) {
        var event = event
        let segment = withUnsafeBytes(of: &event) { $0.load(as: XShmCompletionEvent.self).shmseg }
        for buffer in buffers where buffer.segment?.pointee.shmseg == segment {
            buffer.pendingCompletions = max(0, buffer.pendingCompletions - 1)
        }
    }

    /// Replaces the buffers with `count` (1, or 2 to copy frames into alternately) for frames
    /// of `newFrameSize`, falling back to one `XPutImage` buffer (and saying so once) if the
    /// server will not attach shared memory. A frame bitmap handed out before is no longer the
    /// output's.
    private func makeBuffers(for newFrameSize: PixelSize, count: Int) throws {
        guard let display else { throw PresenterError.x11(call: "configure", detail: "the presenter is closed") }
        releaseBuffers()
        let allocation = PixelSize(width: max(1, newFrameSize.width), height: max(1, newFrameSize.height))
        if usesSharedMemory {
            var made: [X11FrameBuffer] = []
            for _ in 0..<count {
                let (buffer, failure) = X11FrameBuffer.shared(
                    display: display, visual: visual, depth: depth, size: allocation)
                guard let buffer else {
                    for b in made { b.detach(display: display) }
                    made = []
                    usesSharedMemory = false
                    logger.notice(
                        "MIT-SHM unusable on \(displayName) (\(failure ?? "unknown")); frames go through XPutImage")
                    break
                }
                made.append(buffer)
            }
            buffers = made
        }
        if !usesSharedMemory {
            buffers = [try X11FrameBuffer.plain(display: display, visual: visual, depth: depth, size: allocation)]
        }
        frameSize = newFrameSize
        nextBuffer = 0
        lastBuffer = nil
    }

    private func releaseBuffers() {
        guard let display else { return }
        for buffer in buffers {
            waitUntilServerIsDone(with: buffer)
            buffer.detach(display: display)
        }
        buffers = []
        lastBuffer = nil
        frameBitmap = nil
    }

    // MARK: - Events

    public func handleEvents() throws -> [PresenterEvent] {
        guard let display else { return [] }
        var exposed = IntRect(x: 0, y: 0, width: 0, height: 0)
        var newScreenSize: PixelSize?
        var newWindowSize: PixelSize?
        var event = XEvent()
        var requested = false
        // Events Xlib has queued already (a present's read took them in) are taken without
        // touching the connection; it is read when none are queued, as when the loop calls this
        // because it turned readable. Anything arriving meanwhile makes it readable again.
        if XEventsQueued(display, QueuedAlready) == 0 { _ = XEventsQueued(display, QueuedAfterReading) }
        while XEventsQueued(display, QueuedAlready) > 0 {
            XNextEvent(display, &event)
            let type = event.type
            if type == completionEventType {
                noteCompletion(event)
            } else if type == Expose, event.xexpose.window == window {
                let e = event.xexpose
                exposed = exposed.union(IntRect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height)))
            } else if type == ConfigureNotify {
                let e = event.xconfigure
                let reported = PixelSize(width: Int(e.width), height: Int(e.height))
                if e.window == root { newScreenSize = reported } else if e.window == window { newWindowSize = reported }
            } else if let base = randrEventBase, type == base + RRScreenChangeNotify {
                XRRUpdateConfiguration(&event)
                var attributes = XWindowAttributes()
                XGetWindowAttributes(display, root, &attributes)
                newScreenSize = PixelSize(width: Int(attributes.width), height: Int(attributes.height))
            }
        }

        var events: [PresenterEvent] = []
        if let screen = newScreenSize, screen != screenSize {
            screenSize = screen
            logger.info("screen size changed to \(screen)")
            // A window manager resizes a full-screen window itself; an override-redirect
            // window is ours to resize.
            if !usesWindowManager {
                XMoveResizeWindow(display, window, 0, 0, UInt32(max(1, screen.width)), UInt32(max(1, screen.height)))
                requested = true
                newWindowSize = screen
            }
        }
        if let windowSize = newWindowSize, windowSize != size {
            size = windowSize
            events.append(.resized(windowSize))
            exposed = size.bounds  // the frame moved to the new centre
        }
        if !exposed.isEmpty {
            represent(exposed)
            requested = true
        }
        if requested { XFlush(display) }
        logProtocolErrors()
        return events
    }

    /// Puts the part of the last frame under `area` (window coordinates) again.
    private func represent(_ area: IntRect) {
        guard let buffer = lastBuffer else { return }
        let origin = centredOrigin(frame: frameSize, output: size)
        let inFrame = IntRect(x: area.x - origin.x, y: area.y - origin.y, width: area.width, height: area.height)
            .intersection(frameSize.bounds)
        guard !inFrame.isEmpty else { return }
        put([inFrame], from: buffer)
    }

    private func logProtocolErrors() {
        for error in X11Errors.take() { logger.error("X protocol error: \(error)") }
    }

    // MARK: - Closing

    /// Restores the screen saver and DPMS settings, destroys the window and closes the
    /// connection. Called by deinit; later presents throw.
    public func close() {
        guard let display else { return }
        releaseBuffers()
        X11Screen.restoreBlanking(display: display, blanking)
        XFreeCursor(display, cursor)
        XFreeGC(display, gc)
        XDestroyWindow(display, window)
        XFreeColormap(display, colormap)
        XSync(display, 0)
        _ = X11Errors.take()
        XCloseDisplay(display)
        self.display = nil
    }

    // MARK: - Window set-up

    /// Asks the window manager for full screen without decorations (set before mapping, as EWMH
    /// allows for the initial state).
    private static func requestFullScreen(display: OpaquePointer, window: Window) {
        let state = XInternAtom(display, "_NET_WM_STATE", 0)
        var fullScreen = XInternAtom(display, "_NET_WM_STATE_FULLSCREEN", 0)
        withUnsafeBytes(of: &fullScreen) { bytes in
            _ = XChangeProperty(
                display, window, state, Atom(XA_ATOM), 32, PropModeReplace,
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        // Motif hints: flags = decorations given (1 << 1), decorations = none.
        let motif = XInternAtom(display, "_MOTIF_WM_HINTS", 0)
        var hints: [Int] = [1 << 1, 0, 0, 0, 0]
        hints.withUnsafeMutableBytes { bytes in
            _ = XChangeProperty(
                display, window, motif, motif, 32, PropModeReplace,
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 5)
        }
    }

    /// A cursor whose 1×1 mask is empty: nothing is drawn.
    private static func invisibleCursor(display: OpaquePointer, window: Window) -> Cursor {
        var bits: CChar = 0
        let pixmap = XCreateBitmapFromData(display, window, &bits, 1, 1)
        var foreground = XColor(), background = XColor()
        let cursor = XCreatePixmapCursor(display, pixmap, pixmap, &foreground, &background, 0, 0)
        XFreePixmap(display, pixmap)
        return cursor
    }
}
