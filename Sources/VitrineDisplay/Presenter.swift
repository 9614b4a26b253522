import VitrineGraphics
import VitrineSystem

/// Something a presenter tells its player between frames.
public enum PresenterEvent: Equatable, Sendable {
    /// The output is now this size: lay the scene out for it and present a whole frame.
    case resized(PixelSize)
}

/// Where finished frames go: a screen (`X11Presenter`, `WaylandPresenter`) or memory and files
/// (`HeadlessPresenter`).
///
/// The presenter owns what the output shows: a present changes only the pixels in its dirty
/// rectangles, whatever the rest of the bitmap holds. A frame smaller than the output is shown
/// centred on black (larger: its centre, cropped).
public protocol Presenter: AnyObject {
    /// The size of the output in pixels; frames of this size fill it.
    var size: PixelSize { get }
    /// The display's refresh rate in Hz, when it reports one: a display link's natural rate.
    var refreshRate: Double? { get }
    /// A descriptor that becomes readable when `handleEvents()` has work, or nil if none exists.
    var eventDescriptor: Int32? { get }
    /// Whether events are already waiting in user space, where no poll() sees them.
    var hasPendingEvents: Bool { get }
    /// Whether the output takes a frame now. A presenter paced by its display (a Wayland
    /// compositor's frame callbacks) says no from a present until the display asks for the next
    /// frame, and its `eventDescriptor` turns readable when that changes; a frame loop holds
    /// due frames meanwhile.
    var isReadyForFrame: Bool { get }
    /// Whether the output's events can wait for the next frame while frames are running:
    /// none of them paces frames (X11's completion events and exposures). A frame loop with a
    /// frame due then sleeps until it without waking for them, and looks for them when it
    /// wakes: one wake a frame instead of two when the server answers each present.
    var eventsWaitForTheNextFrame: Bool { get }

    /// Prepares the buffers for frames of `frameSize` (`present` also does this on a new size).
    func configure(frameSize: PixelSize) throws
    /// A bitmap of `size` in the output's own frame buffer, or nil when the presenter has none.
    /// Frames rendered into it are presented without a copy; call `prepareFrameBitmap()` before
    /// each frame's drawing. Any later call replaces it (the old one keeps its memory but is no
    /// longer the output's).
    func makeFrameBitmap(size: PixelSize) throws -> Bitmap?
    /// Blocks until the bitmap from `makeFrameBitmap` may be written: the output has finished
    /// reading the last frame presented from it.
    func prepareFrameBitmap()
    /// Shows the `dirty` rectangles (frame coordinates, clipped to the frame) of `frame`; an
    /// empty list shows nothing new.
    func present(_ frame: Bitmap, dirty: [IntRect]) throws
    /// Handles everything pending without blocking; returns what the player must react to.
    func handleEvents() throws -> [PresenterEvent]
    /// Blocks until the output shows everything presented so far (a screenshot taken after it
    /// sees the last frame).
    func finishPresenting() throws
    /// Powers the screen down (`false`: DPMS off on X11) or up again; returns false when this
    /// output cannot, and the caller blanks it by presenting black instead.
    func setScreenPowered(_ on: Bool) -> Bool
    /// When a frame presented now will reach the screen, where the output says so (Wayland's
    /// presentation feedback, on the monotonic clock); nil where it does not, and frames are
    /// timed by the display link's grid.
    func nextPresentationTime(after now: MonotonicInstant) -> MonotonicInstant?
}

extension Presenter {
    /// Ready at any time: the display link alone paces the frames.
    public var isReadyForFrame: Bool { true }
    /// Events wake the loop at once.
    public var eventsWaitForTheNextFrame: Bool { false }

    /// No frame buffer of its own: frames come in any bitmap and are copied.
    public func makeFrameBitmap(size: PixelSize) throws -> Bitmap? { nil }
    /// Nothing to wait for without a frame buffer of its own.
    public func prepareFrameBitmap() {}
    /// No power control: the caller presents black.
    public func setScreenPowered(_ on: Bool) -> Bool { false }
    /// No presentation times: the display link's grid times the frames.
    public func nextPresentationTime(after now: MonotonicInstant) -> MonotonicInstant? { nil }

    /// The bitmap to draw frames of `size` in: the presenter's own frame buffer when it has one
    /// (no copy per frame), else a new bitmap. A presenter that cannot make its buffer fails
    /// again, and says why, at the next present.
    public func makeDrawingBitmap(size: PixelSize) -> Bitmap {
        ((try? makeFrameBitmap(size: size)) ?? nil) ?? Bitmap(width: size.width, height: size.height)
    }

    /// Shows all of `frame`.
    public func present(_ frame: Bitmap) throws {
        try present(frame, dirty: [IntRect(x: 0, y: 0, width: frame.width, height: frame.height)])
    }
}

/// Why a presenter could not start or show a frame.
public enum PresenterError: Error, CustomStringConvertible, Equatable {
    /// XOpenDisplay failed for this display name.
    case cannotOpenDisplay(String)
    /// The screen offers no 24- or 32-bit TrueColor visual with 8-bit red, green, blue channels.
    case unsupportedVisual(String)
    /// An X11 call failed: which one, and the server's or the library's words.
    case x11(call: String, detail: String)
    /// A frame sink threw: the frame index and the sink's error.
    case sinkFailed(frame: Int, detail: String)
    /// No Wayland compositor answers on this socket.
    case cannotConnectToCompositor(String)
    /// The Wayland connection failed or a request could not be made: what failed, and why
    /// (the compositor went away, a protocol error, a missing global).
    case wayland(call: String, detail: String)

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name):
            return "cannot open X display \"\(name)\" (is the X server running, and is DISPLAY right?)"
        case .unsupportedVisual(let detail):
            return
                "unsupported X visual: \(detail); Vitrine needs 24- or 32-bit TrueColor with masks 0xff0000/0xff00/0xff"
        case .x11(let call, let detail):
            return "\(call) failed: \(detail)"
        case .sinkFailed(let frame, let detail):
            return "frame sink failed on frame \(frame): \(detail)"
        case .cannotConnectToCompositor(let name):
            return
                "cannot connect to the Wayland compositor at \"\(name)\" (is it running, and are WAYLAND_DISPLAY and XDG_RUNTIME_DIR right?)"
        case .wayland(let call, let detail):
            return "\(call) failed: \(detail)"
        }
    }
}

/// Where a frame sits on an output: centred, in output coordinates (negative when it is larger).
package func centredOrigin(frame: PixelSize, output: PixelSize) -> (x: Int, y: Int) {
    ((output.width - frame.width) / 2, (output.height - frame.height) / 2)
}

/// `rects` clipped to `bounds`, empty ones dropped.
package func clipped(_ rects: [IntRect], to bounds: IntRect) -> [IntRect] {
    var out: [IntRect] = []
    clip(rects, to: bounds, into: &out)
    return out
}

/// `clipped(_:to:)` written into `out`, whose storage is reused (a presenter keeps one array
/// for every frame).
package func clip(_ rects: [IntRect], to bounds: IntRect, into out: inout [IntRect]) {
    out.removeAll(keepingCapacity: true)
    for rect in rects {
        let r = rect.intersection(bounds)
        if !r.isEmpty { out.append(r) }
    }
}

extension Presenter {
    /// The presenter's short name, as `--backend` spells it ("x11", "headless"): its type's
    /// name without "Presenter", in lower case. For logs and the control socket's status.
    public var backendName: String {
        let type = String(describing: Swift.type(of: self))
        return (type.hasSuffix("Presenter") ? String(type.dropLast("Presenter".count)) : type).lowercased()
    }
}
