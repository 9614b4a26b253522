import CWayland
import CWaylandProtocols
import Glibc
import Logging
import VitrineDisplay
import VitrineGraphics
import VitrineSystem

/// Shows frames full screen under a Wayland compositor (cage, sway, weston, Ubuntu Frame): one
/// xdg-shell toplevel, `app_id` "vitrine", fed XRGB8888 wl_shm buffers.
///
/// - Size: the size the compositor configures, times the output's integer scale (declared
///   with `set_buffer_scale`, so pixels stay native). wlroots compositors configure 0x0 until a
///   buffer is attached: one is attached at once at the output's mode size, and the next
///   configure is followed. A new size is reported as `.resized`.
/// - Buffers: at least two memfds, each reused only after the compositor's `wl_buffer.release`.
///   The bitmap `makeFrameBitmap` hands out is a `DrawingWindow` that `prepareFrameBitmap` maps
///   onto a released buffer, so frames are drawn in place; what the other buffers showed since
///   it was last on screen is copied over first (only those rectangles). Each commit carries
///   the frame's damage (`damage_buffer`) and an opaque region.
/// - Pacing: after a commit the presenter is not ready for a frame (`isReadyForFrame`) until
///   the compositor's frame callback; `wp_presentation` feedback, where delivered, gives the
///   refresh interval and presentation times (at most four outstanding, never waited for: sway
///   headless never answers). Nothing is committed for a frame without damage.
/// - Kiosk: an idle inhibitor while the surface lives (when offered), no cursor over the
///   surface, no decorations asked for, pings answered.
/// - Faults: the compositor going away or a protocol error makes the next call throw a
///   `PresenterError.wayland` naming the cause; the player then exits 69.
public final class WaylandPresenter: Presenter {
    /// The exit status after the compositor goes away: 69, as for a lost X server.
    public static let connectionLostExitStatus: Int32 = 69
    /// Buffers never exceed this many: a compositor holding all of them is waited for.
    static let maximumBufferCount = 4
    /// Presentation feedback requests allowed to wait for an answer at once.
    static let maximumOutstandingFeedback = 4

    public private(set) var size = PixelSize(width: 0, height: 0)
    /// The output mode's refresh rate, replaced by the one presentation feedback reports.
    public private(set) var refreshRate: Double?
    public var eventDescriptor: Int32? { display.map { wl_display_get_fd($0) } }
    public var hasPendingEvents: Bool { !pendingEvents.isEmpty }
    public var isReadyForFrame: Bool { frameCallback == nil }

    /// The socket as asked for (nil: `$WAYLAND_DISPLAY`, else "wayland-0").
    public let socketName: String
    /// The output's integer scale: buffer pixels per surface unit.
    public private(set) var scale = 1
    /// Frames committed to the compositor.
    public private(set) var framesCommitted = 0
    /// Commits presentation feedback says reached the screen, and those it says never did.
    public private(set) var framesPresented = 0
    public private(set) var framesDiscarded = 0
    /// The compositor's frame callbacks answered.
    public private(set) var frameCallbacksDone = 0
    /// Intervals between successive presentations (feedback), in seconds, most recent last.
    public private(set) var presentationIntervals: [Double] = []
    /// Intervals between successive frame callbacks, in seconds, most recent last.
    public private(set) var frameCallbackIntervals: [Double] = []
    /// wl_buffers alive now, including those waiting for a release before they go.
    public var bufferCount: Int { buffers.count + retiredBuffers.count }
    /// Whether the compositor offered `wp_presentation` and `zwp_idle_inhibit_manager_v1`.
    public var offersPresentationFeedback: Bool { presentation != nil }
    public var inhibitsIdle: Bool { idleInhibitor != nil }

    private let logger: Logger
    private var display: OpaquePointer?
    private var registry: OpaquePointer?
    private var compositor: OpaquePointer?
    private var compositorVersion: UInt32 = 0
    private var shm: OpaquePointer?
    private var wmBase: OpaquePointer?
    private var output: OpaquePointer?
    private var outputGlobal: UInt32?
    private var seat: OpaquePointer?
    private var pointer: OpaquePointer?
    private var presentation: OpaquePointer?
    private var idleInhibitManager: OpaquePointer?
    private var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var idleInhibitor: OpaquePointer?

    private var outputModeSize: PixelSize?
    private var outputRotated = false
    private var outputScale = 1
    /// The surface size of the last toplevel configure (0x0: the compositor leaves it to us).
    private var configuredLogicalSize = PixelSize(width: 0, height: 0)
    private var hasBeenConfigured = false
    private var isStarted = false
    private var sentBufferScale = 1
    private var opaqueRegionSize: PixelSize?

    private var frameSize = PixelSize(width: 0, height: 0)
    private var buffers: [WaylandFrameBuffer] = []
    /// Buffers of an old size still held by the compositor: destroyed when it lets go.
    private var retiredBuffers: [WaylandFrameBuffer] = []
    /// The buffer committed last: what the screen shows.
    private var front: WaylandFrameBuffer?
    private var window: DrawingWindow?
    private weak var frameBitmap: Bitmap?

    private var frameCallback: OpaquePointer?
    private var lastFrameCallbackTime: UInt32?
    private var outstandingFeedback: Set<OpaquePointer> = []
    /// When the last frame feedback answered reached the screen (nanoseconds on the
    /// presentation clock).
    public private(set) var lastPresentationTime: Int64?
    /// The last intervals between presentations (a ring of 16), a scratch copy to sort, and
    /// their median: the refresh interval frames are timed by.
    private var recentIntervals: [Int64] = []
    private var nextInterval = 0
    private var sortedIntervals: [Int64] = []
    private var refreshInterval: Int64?
    /// The clock presentation feedback is timed on (wp_presentation.clock_id).
    private var presentationClock = clockid_t(CLOCK_MONOTONIC)
    private var pendingEvents: [PresenterEvent] = []
    /// The connection's fatal error, thrown again by every later call.
    private var failure: PresenterError?
    /// An error from `prepareFrameBitmap` (which cannot throw), thrown by the next present.
    private var deferredError: Error?
    private var warnedAboutHeldBuffers = false

    private var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Connects to `socketName` (nil: `$WAYLAND_DISPLAY`, else "wayland-0", in
    /// `$XDG_RUNTIME_DIR`), makes a full-screen toplevel and shows it black. Throws when no
    /// compositor answers there or it lacks wl_compositor, wl_shm or xdg_wm_base.
    public init(socketName: String? = nil, logger: Logger = Logger(label: "vitrine.display.wayland")) throws {
        self.logger = logger
        WaylandLog.install(logger: logger)
        let name =
            socketName ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        self.socketName = name
        guard let display = wl_display_connect(socketName) else {
            throw PresenterError.cannotConnectToCompositor(name)
        }
        self.display = display
        do { try start() } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func start() throws {
        guard let display else { return }
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, WaylandListeners.registry, selfPointer)
        // The globals, then what binding them sent (output mode and scale, seat capabilities).
        try roundtrip("wl_display_roundtrip")
        try roundtrip("wl_display_roundtrip")
        guard let compositor, shm != nil, let wmBase else {
            let missing = [("wl_compositor", compositor), ("wl_shm", shm), ("xdg_wm_base", wmBase)]
                .filter { $0.1 == nil }.map(\.0)
            throw PresenterError.wayland(
                call: "wl_registry", detail: "the compositor offers no \(missing.joined(separator: ", "))")
        }
        xdg_wm_base_add_listener(wmBase, WaylandListeners.wmBase, selfPointer)
        surface = wl_compositor_create_surface(compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, WaylandListeners.xdgSurface, selfPointer)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, WaylandListeners.toplevel, selfPointer)
        xdg_toplevel_set_app_id(toplevel, "vitrine")
        xdg_toplevel_set_title(toplevel, "Vitrine")
        xdg_toplevel_set_fullscreen(toplevel, output)
        if let idleInhibitManager {
            idleInhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(idleInhibitManager, surface)
        }
        wl_surface_commit(surface)
        try dispatch(until: { self.hasBeenConfigured }, timeout: 5, waitingFor: "the first xdg_surface.configure")

        // wlroots configures 0x0 and the real size only once a buffer is attached: attach one
        // at the output's size now and follow the configure that answers it.
        let askedForSize = configuredLogicalSize.hasArea
        let initial =
            askedForSize ? scaled(configuredLogicalSize) : outputPixelSize ?? PixelSize(width: 1920, height: 1080)
        size = initial
        try makeBuffers(for: initial)
        try commit(buffers[0], damage: [initial.bounds], requestingFrame: false)
        if !askedForSize {
            _ = try? dispatch(until: { self.configuredLogicalSize.hasArea }, timeout: 1, waitingFor: "a configure")
        }
        pendingEvents = []
        isStarted = true
        let rate = refreshRate.map { String(cFormat: ", %.2f Hz", $0) } ?? ""
        logger.info(
            "presenting on Wayland \(socketName): \(size), scale \(scale)\(rate), \(presentation != nil ? "presentation feedback" : "frame callbacks only"), \(idleInhibitor != nil ? "idle inhibited" : "no idle inhibitor offered")"
        )
    }

    /// The output's mode in buffer pixels, turned as the output is.
    private var outputPixelSize: PixelSize? {
        guard let mode = outputModeSize, mode.hasArea else { return nil }
        return outputRotated ? PixelSize(width: mode.height, height: mode.width) : mode
    }

    private var bufferScale: Int { max(1, outputScale) }

    private func scaled(_ logical: PixelSize) -> PixelSize {
        PixelSize(width: logical.width * bufferScale, height: logical.height * bufferScale)
    }

    // MARK: - Presenting

    public func configure(frameSize: PixelSize) throws {
        try throwIfFailed()
        guard frameSize != self.frameSize else { return }
        try makeBuffers(for: frameSize)
    }

    public func makeFrameBitmap(size: PixelSize) throws -> Bitmap? {
        try throwIfFailed()
        try makeBuffers(for: size)
        let window = try DrawingWindow(size: size, movesPages: movesPagesBetweenBuffers)
        try window.show(buffers[0])
        self.window = window
        let bitmap = window.makeBitmap()
        frameBitmap = bitmap
        return bitmap
    }

    public func prepareFrameBitmap() {
        guard let window, frameBitmap != nil else { return }
        do {
            let buffer = try releasedBuffer(preferring: window.buffer)
            if buffer !== window.buffer { drawingBufferChanges += 1 }
            bringUpToDate(buffer)
            try window.show(buffer)
        } catch {
            deferredError = error
        }
    }

    public func present(_ frame: Bitmap, dirty: [IntRect]) throws {
        try throwIfFailed()
        if let error = deferredError {
            deferredError = nil
            throw error
        }
        let incoming = PixelSize(of: frame)
        var rects = clipped(dirty, to: incoming.bounds)
        guard !rects.isEmpty else { return }
        if frame === frameBitmap, let shown = window?.buffer, buffers.contains(where: { $0 === shown }) {
            // Drawn in place.
            try commit(shown, damage: rects, requestingFrame: true)
            return
        }
        if incoming != frameSize || frameBitmap != nil {
            try makeBuffers(for: incoming)
            rects = [incoming.bounds]
        }
        let buffer = try releasedBuffer(preferring: nil)
        bringUpToDate(buffer)
        for rect in rects { buffer.copy(rect, from: frame) }
        try commit(buffer, damage: rects, requestingFrame: true)
    }

    public func finishPresenting() throws {
        try throwIfFailed()
        try roundtrip("wl_display_roundtrip")
        // Tied to frames the compositor takes: one that stops answering frame callbacks for
        // ten seconds is treated as gone.
        try dispatch(until: { self.frameCallback == nil }, timeout: 10, waitingFor: "a frame callback")
    }

    /// Attaches `buffer` with `damage` (buffer pixels) and commits it, asking for a frame
    /// callback (and presentation feedback, if few are outstanding) when `requestingFrame`.
    private func commit(_ buffer: WaylandFrameBuffer, damage: [IntRect], requestingFrame: Bool) throws {
        guard let surface else { return }
        // Never happens by construction (buffers are chosen among the released ones); counted
        // so tests can see it.
        guard !buffer.isHeld else {
            heldBufferCommitsRefused += 1
            logger.error("a frame was drawn into a buffer the compositor still holds; not committed")
            return
        }
        if bufferScale != sentBufferScale {
            wl_surface_set_buffer_scale(surface, Int32(bufferScale))
            sentBufferScale = bufferScale
        }
        if opaqueRegionSize != buffer.size, let compositor {
            let region = wl_compositor_create_region(compositor)
            wl_region_add(region, 0, 0, Int32(buffer.size.width / bufferScale), Int32(buffer.size.height / bufferScale))
            wl_surface_set_opaque_region(surface, region)
            wl_region_destroy(region)
            opaqueRegionSize = buffer.size
        }
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        for rect in damage {
            if compositorVersion >= 4 {
                wl_surface_damage_buffer(
                    surface, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
            } else {
                // Surface coordinates, rounded outwards.
                let s = bufferScale
                wl_surface_damage(
                    surface, Int32(rect.x / s), Int32(rect.y / s), Int32((rect.maxX + s - 1) / s - rect.x / s),
                    Int32((rect.maxY + s - 1) / s - rect.y / s))
            }
        }
        if requestingFrame {
            frameCallback = wl_surface_frame(surface)
            wl_callback_add_listener(frameCallback, WaylandListeners.frameCallback, selfPointer)
            if let presentation, outstandingFeedback.count < Self.maximumOutstandingFeedback,
                let feedback = wp_presentation_feedback(presentation, surface)
            {
                wp_presentation_feedback_add_listener(feedback, WaylandListeners.feedback, selfPointer)
                outstandingFeedback.insert(feedback)
            }
        }
        wl_surface_commit(surface)
        buffer.isHeld = true
        for other in buffers where other !== buffer { other.markStale(damage) }
        front = buffer
        framesCommitted += 1
        try flush()
    }

    /// Whether frame bitmaps move buffers' pages in (true) or map each buffer afresh, as where
    /// the kernel cannot move shared pages (for tests of that path).
    package var movesPagesBetweenBuffers = true
    /// Frames drawn into another buffer than the frame before (the previous one was held).
    public private(set) var drawingBufferChanges = 0
    /// Commits refused because their buffer was still held (stays 0).
    public private(set) var heldBufferCommitsRefused = 0

    /// A buffer the compositor has released: `preferred` if it is, else another, a new one
    /// while fewer than `maximumBufferCount` exist, else the first released after waiting (at
    /// most a second; then, said once, the one committed longest ago).
    private func releasedBuffer(preferring preferred: WaylandFrameBuffer?) throws -> WaylandFrameBuffer {
        if let preferred, !preferred.isHeld, buffers.contains(where: { $0 === preferred }) { return preferred }
        if let free = buffers.first(where: { !$0.isHeld }) { return free }
        if buffers.count < Self.maximumBufferCount {
            let buffer = try makeBuffer(size: frameSize)
            if front != nil { buffer.stale = [frameSize.bounds] }
            buffers.append(buffer)
            return buffer
        }
        let released = try? dispatch(
            until: { self.buffers.contains { !$0.isHeld } }, timeout: 1, waitingFor: "a wl_buffer.release")
        if released == nil, !warnedAboutHeldBuffers {
            warnedAboutHeldBuffers = true
            logger.warning(
                "the compositor holds all \(buffers.count) frame buffers after 1 s; waiting for it frame by frame")
        }
        try throwIfFailed()
        if let free = buffers.first(where: { !$0.isHeld }) { return free }
        throw PresenterError.wayland(
            call: "wl_buffer.release", detail: "the compositor held every frame buffer for over a second")
    }

    /// Copies into `buffer` what other buffers presented since it was last on screen.
    private func bringUpToDate(_ buffer: WaylandFrameBuffer) {
        defer { buffer.stale.removeAll() }
        guard let front, front !== buffer, front.size == buffer.size else { return }
        for rect in clipped(buffer.stale, to: buffer.size.bounds) { buffer.copy(rect, from: front) }
    }

    /// Replaces the buffers with two fresh black ones for frames of `newFrameSize`; held ones
    /// go when the compositor releases them.
    private func makeBuffers(for newFrameSize: PixelSize) throws {
        retireBuffers()
        let allocation = PixelSize(width: max(1, newFrameSize.width), height: max(1, newFrameSize.height))
        buffers = [try makeBuffer(size: allocation), try makeBuffer(size: allocation)]
        frameSize = allocation
        window = nil
        frameBitmap = nil
    }

    private func makeBuffer(size: PixelSize) throws -> WaylandFrameBuffer {
        guard let shm else { throw PresenterError.wayland(call: "wl_shm", detail: "the presenter is closed") }
        return try WaylandFrameBuffer(shm: shm, size: size, listener: WaylandListeners.buffer, data: selfPointer)
    }

    private func retireBuffers() {
        for buffer in buffers {
            if buffer.isHeld { retiredBuffers.append(buffer) } else { buffer.destroy() }
        }
        buffers = []
        front = nil
    }

    // MARK: - Events

    public func handleEvents() throws -> [PresenterEvent] {
        try throwIfFailed()
        try readEvents(waitingUpTo: 0)
        try flush()
        let events = pendingEvents
        pendingEvents = []
        return events
    }

    func registryAnnounced(name: UInt32, interface: String, version: UInt32) {
        func bind(_ wanted: UnsafePointer<wl_interface>, _ highest: UInt32) -> OpaquePointer? {
            wl_registry_bind(registry, name, wanted, min(version, highest)).map(OpaquePointer.init)
        }
        switch interface {
        case "wl_compositor" where compositor == nil:
            compositor = bind(vitrine_wl_compositor_interface(), 4)
            compositorVersion = min(version, 4)
        case "wl_shm" where shm == nil:
            shm = bind(vitrine_wl_shm_interface(), 1)
        case "xdg_wm_base" where wmBase == nil:
            wmBase = bind(vitrine_xdg_wm_base_interface(), 2)
        case "wl_output" where output == nil:
            // A kiosk shows one output: the first announced.
            output = bind(vitrine_wl_output_interface(), 2)
            outputGlobal = name
            wl_output_add_listener(output, WaylandListeners.output, selfPointer)
        case "wl_seat" where seat == nil:
            seat = bind(vitrine_wl_seat_interface(), 1)
            wl_seat_add_listener(seat, WaylandListeners.seat, selfPointer)
        case "wp_presentation" where presentation == nil:
            presentation = bind(vitrine_wp_presentation_interface(), 1)
            wp_presentation_add_listener(presentation, WaylandListeners.presentation, selfPointer)
        case "zwp_idle_inhibit_manager_v1" where idleInhibitManager == nil:
            idleInhibitManager = bind(vitrine_zwp_idle_inhibit_manager_v1_interface(), 1)
        default:
            break
        }
    }

    func registryRemoved(name: UInt32) {
        guard name == outputGlobal, let output else { return }
        // The next output announced is bound in its place (its mode and scale then count).
        logger.notice("the output went away; the compositor will configure the surface again")
        wl_output_destroy(output)
        self.output = nil
        outputGlobal = nil
    }

    func toplevelConfigured(width: Int, height: Int) {
        configuredLogicalSize = PixelSize(width: max(0, width), height: max(0, height))
    }

    func surfaceConfigured(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        hasBeenConfigured = true
        updateSize()
    }

    /// Follows the configured size and the output scale; a new size is reported once started.
    private func updateSize() {
        guard configuredLogicalSize.hasArea else { return }
        let newSize = scaled(configuredLogicalSize)
        guard newSize != size else { return }
        size = newSize
        if isStarted {
            logger.info("the compositor configured \(configuredLogicalSize) at scale \(bufferScale): \(newSize)")
            pendingEvents.removeAll()
            pendingEvents.append(.resized(newSize))
        }
    }

    func closeRequested() {
        logger.notice("the compositor asked the kiosk window to close; it stays (stop the service to end it)")
    }

    func outputTransformed(_ transform: Int32) {
        // Odd transforms (90, 270 and their flips) turn the mode's width and height.
        outputRotated = transform % 2 == 1
    }

    func outputMode(width: Int, height: Int, millihertz: Int) {
        outputModeSize = PixelSize(width: width, height: height)
        if millihertz > 0, !(presentation != nil && lastPresentationTime != nil) {
            refreshRate = Double(millihertz) / 1000
        }
    }

    func outputScaled(_ factor: Int) {
        outputScale = max(1, factor)
        updateSize()
    }

    func seatCapabilities(_ capabilities: UInt32) {
        let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        if hasPointer, pointer == nil, let seat {
            pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(pointer, WaylandListeners.pointer, selfPointer)
        } else if !hasPointer, let pointer {
            wl_pointer_destroy(pointer)
            self.pointer = nil
        }
    }

    func bufferReleased(_ proxy: OpaquePointer) {
        if let buffer = buffers.first(where: { $0.proxy == proxy }) {
            buffer.isHeld = false
        } else if let index = retiredBuffers.firstIndex(where: { $0.proxy == proxy }) {
            retiredBuffers.remove(at: index).destroy()
        }
    }

    func frameDone(_ callback: OpaquePointer, milliseconds: UInt32) {
        wl_callback_destroy(callback)
        guard callback == frameCallback else { return }
        frameCallback = nil
        frameCallbacksDone += 1
        if let last = lastFrameCallbackTime {
            Self.record(Double(milliseconds &- last) / 1000, in: &frameCallbackIntervals)
        }
        lastFrameCallbackTime = milliseconds
    }

    func presentationClock(_ clock: UInt32) {
        presentationClock = clockid_t(clock)
    }

    func feedbackPresented(_ feedback: OpaquePointer, nanoseconds: Int64, refreshNanoseconds: Int) {
        wp_presentation_feedback_destroy(feedback)
        outstandingFeedback.remove(feedback)
        framesPresented += 1
        if let last = lastPresentationTime, nanoseconds > last {
            Self.record(Double(nanoseconds - last) / 1e9, in: &presentationIntervals)
            noteRefreshInterval(nanoseconds - last)
        }
        lastPresentationTime = nanoseconds
        if refreshNanoseconds > 0 {
            let rate = 1e9 / Double(refreshNanoseconds)
            if refreshRate.map({ abs($0 - rate) > 0.01 }) ?? true {
                logger.debug("presentation feedback: refresh \(String(cFormat: "%.3f", rate)) Hz")
                refreshRate = rate
            }
        }
    }

    /// A time of presentation feedback on the monotonic clock. weston times feedback by
    /// CLOCK_MONOTONIC_RAW, which runs beside CLOCK_MONOTONIC at a slowly changing offset (NTP's
    /// slewing): read now, the offset converts it. Nil for any other clock.
    public func monotonicInstant(ofPresentationTime nanoseconds: Int64) -> MonotonicInstant? {
        switch presentationClock {
        case clockid_t(CLOCK_MONOTONIC):
            return MonotonicInstant(nanoseconds: nanoseconds)
        case clockid_t(CLOCK_MONOTONIC_RAW):
            var raw = Glibc.timespec()
            clock_gettime(CLOCK_MONOTONIC_RAW, &raw)
            let offset = MonotonicInstant.now().nanoseconds - (Int64(raw.tv_sec) * 1_000_000_000 + Int64(raw.tv_nsec))
            return MonotonicInstant(nanoseconds: nanoseconds + offset)
        default:
            return nil
        }
    }

    /// When a frame committed now reaches the screen: the last presentation time moved on by
    /// whole refresh intervals (the median of the last 16 measured, idle gaps left out) to the
    /// first one after `now`. Nil until feedback has come on a monotonic clock (sway's headless
    /// output never sends any).
    public func nextPresentationTime(after now: MonotonicInstant) -> MonotonicInstant? {
        guard let time = lastPresentationTime, let interval = refreshInterval,
            let last = monotonicInstant(ofPresentationTime: time)?.nanoseconds
        else { return nil }
        var next = last + interval
        if next <= now.nanoseconds { next += ((now.nanoseconds - next) / interval + 1) * interval }
        return MonotonicInstant(nanoseconds: next)
    }

    /// Keeps the median of the last 16 intervals between presentations (gaps of 0.1 s or more,
    /// a still scene's, left out) in `refreshInterval`, in buffers reused frame after frame.
    private func noteRefreshInterval(_ nanoseconds: Int64) {
        guard nanoseconds < 100_000_000 else { return }
        if recentIntervals.count < 16 {
            recentIntervals.append(nanoseconds)
        } else {
            recentIntervals[nextInterval] = nanoseconds
        }
        nextInterval = (nextInterval + 1) % 16
        sortedIntervals.removeAll(keepingCapacity: true)
        sortedIntervals.append(contentsOf: recentIntervals)
        sortedIntervals.sort()
        refreshInterval = sortedIntervals[sortedIntervals.count / 2]
    }

    func feedbackDiscarded(_ feedback: OpaquePointer) {
        wp_presentation_feedback_destroy(feedback)
        outstandingFeedback.remove(feedback)
        framesDiscarded += 1
    }

    /// Keeps the last 1024 samples.
    private static func record(_ sample: Double, in samples: inout [Double]) {
        if samples.count >= 1024 { samples.removeFirst(samples.count - 1023) }
        samples.append(sample)
    }

    /// Makes a request every compositor refuses (a wl_shm pool of size 0): the connection ends
    /// with a protocol error, as a compositor's refusal would end it (for fault tests).
    package func makeInvalidRequest() {
        guard let shm else { return }
        let fd = vitrine_memfd_create("vitrine-invalid", vitrine_memfd_cloexec_sealing())
        if let pool = wl_shm_create_pool(shm, fd, 0) { wl_shm_pool_destroy(pool) }
        Glibc.close(fd)
        _ = display.map { wl_display_flush($0) }
    }

    // MARK: - The connection

    /// Reads what the socket has (waiting up to `timeout` seconds for something, 0: not at all)
    /// and dispatches every event queued.
    private func readEvents(waitingUpTo timeout: Double) throws {
        guard let display else { throw PresenterError.wayland(call: "wl_display", detail: "the presenter is closed") }
        while wl_display_prepare_read(display) != 0 {
            try check(wl_display_dispatch_pending(display), "wl_display_dispatch_pending")
        }
        // Requests first: the answer waited for may need them. A broken pipe is read on, as
        // libwayland does: the compositor's last words (a protocol error) may be in the socket,
        // and the read then reports the end. After any other failure the read is cancelled
        // and nothing is read: reading after a cancel would wait for a reader that never comes.
        if wl_display_flush(display) < 0, errno != EAGAIN, errno != EPIPE {
            let code = errno
            wl_display_cancel_read(display)
            try check(-1, "wl_display_flush")
            let failure = PresenterError.wayland(call: "wl_display_flush", detail: String(cString: strerror(code)))
            self.failure = failure
            throw failure
        }
        if timeout > 0 {
            var descriptor = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(max(1, timeout * 1000)))
        }
        try check(wl_display_read_events(display), "wl_display_read_events")
        try check(wl_display_dispatch_pending(display), "wl_display_dispatch_pending")
    }

    /// Reads and dispatches events until `condition` holds; throws after `timeout` seconds.
    @discardableResult
    private func dispatch(until condition: () -> Bool, timeout: Double, waitingFor what: String) throws -> Bool {
        let giveUp = MonotonicInstant.now().advanced(byNanoseconds: Int64(timeout * 1e9))
        while !condition() {
            let left = Double(giveUp.nanoseconds(since: MonotonicInstant.now())) / 1e9
            guard left > 0 else {
                throw PresenterError.wayland(
                    call: "waiting for \(what)", detail: "the compositor sent none in \(Int(timeout)) s")
            }
            try readEvents(waitingUpTo: left)
        }
        return true
    }

    private func roundtrip(_ call: String) throws {
        guard let display else { throw PresenterError.wayland(call: call, detail: "the presenter is closed") }
        try check(wl_display_roundtrip(display), call)
    }

    private func flush() throws {
        guard let display else { return }
        // EAGAIN: the socket is full; the rest goes with the next flush.
        if wl_display_flush(display) < 0, errno != EAGAIN { try check(-1, "wl_display_flush") }
    }

    private func throwIfFailed() throws {
        if let failure { throw failure }
        guard display != nil else { throw PresenterError.wayland(call: "present", detail: "the presenter is closed") }
    }

    /// Turns a failed libwayland call into the connection's error, naming the cause.
    private func check(_ result: Int32, _ call: String) throws {
        guard result < 0, let display else { return }
        let code = wl_display_get_error(display)
        guard code != 0 else { return }
        let detail: String
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let error = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "an object"
            detail = "protocol error \(error) on \(name)@\(id)"
        } else {
            detail = "the Wayland compositor went away (\(String(cString: strerror(code))))"
        }
        let failure = PresenterError.wayland(call: call, detail: detail)
        self.failure = failure
        throw failure
    }

    // MARK: - Closing

    /// Destroys the surface and buffers and disconnects; logs what pacing was seen. Called by
    /// deinit; later presents throw.
    public func close() {
        guard let display else { return }
        if framesCommitted > 0 {
            func median(_ samples: [Double]) -> String {
                samples.isEmpty ? "none" : String(cFormat: "%.2f ms", samples.sorted()[samples.count / 2] * 1000)
            }
            logger.debug(
                "committed \(framesCommitted) frames; \(frameCallbacksDone) frame callbacks (median interval \(median(frameCallbackIntervals))), \(framesPresented) presented (median interval \(median(presentationIntervals))) and \(framesDiscarded) discarded by feedback; \(drawingBufferChanges) changes of drawing buffer, \(buffers.count) buffers"
            )
        }
        // On a dead connection the requests go nowhere; the proxies and memory are freed all the same.
        for feedback in outstandingFeedback { wp_presentation_feedback_destroy(feedback) }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        for buffer in buffers + retiredBuffers { buffer.destroy() }
        if let idleInhibitor { zwp_idle_inhibitor_v1_destroy(idleInhibitor) }
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        if let pointer { wl_pointer_destroy(pointer) }
        _ = wl_display_flush(display)
        outstandingFeedback = []
        frameCallback = nil
        buffers = []
        retiredBuffers = []
        front = nil
        window = nil
        wl_display_disconnect(display)
        self.display = nil
    }
}

extension PixelSize {
    /// Whether both sides are positive (a configure of 0x0 leaves the size to the client).
    fileprivate var hasArea: Bool { width > 0 && height > 0 }
}
