import VitrineGraphics

/// A presenter without a display: it keeps an in-memory screen updated exactly as an X11 window
/// would be (only dirty rectangles copied), and either keeps a snapshot of every frame (tests)
/// or hands each updated screen to a sink (e.g. one writing numbered PNG files).
public final class HeadlessPresenter: Presenter {
    /// Receives the screen after each present, and the frame's index (0, 1, 2 …).
    public typealias FrameSink = (_ screen: Bitmap, _ frameIndex: Int) throws -> Void

    public private(set) var size: PixelSize
    public let refreshRate: Double?
    public var eventDescriptor: Int32? { nil }
    public var hasPendingEvents: Bool { !pendingEvents.isEmpty }

    /// What the output shows now.
    public private(set) var screen: Bitmap
    /// A copy of the screen after each present, when created with `keepsFrames`.
    public private(set) var frames: [Bitmap] = []
    /// The dirty rectangles of each present (clipped to the frame), when created with `keepsFrames`.
    public private(set) var dirtyRects: [[IntRect]] = []
    /// How many frames were presented.
    public private(set) var presentCount = 0

    private let keepsFrames: Bool
    private let sink: FrameSink?
    private var frameSize: PixelSize
    private var pendingEvents: [PresenterEvent] = []

    /// An in-memory output of `size`; `keepsFrames` keeps a copy of every frame in `frames`.
    public init(size: PixelSize, refreshRate: Double? = nil, keepsFrames: Bool = true) {
        self.size = size
        self.refreshRate = refreshRate
        self.keepsFrames = keepsFrames
        sink = nil
        frameSize = size
        screen = Bitmap(width: size.width, height: size.height)
        screen.fill(Self.black)
    }

    /// An output of `size` that hands the screen to `sink` after every present.
    public init(size: PixelSize, refreshRate: Double? = nil, sink: @escaping FrameSink) {
        self.size = size
        self.refreshRate = refreshRate
        keepsFrames = false
        self.sink = sink
        frameSize = size
        screen = Bitmap(width: size.width, height: size.height)
        screen.fill(Self.black)
    }

    /// Acts as if the output changed size: the screen turns black at `newSize` and the next
    /// `handleEvents()` reports `.resized(newSize)`.
    public func simulateResize(to newSize: PixelSize) {
        guard newSize != size else { return }
        size = newSize
        screen = Bitmap(width: newSize.width, height: newSize.height)
        screen.fill(Self.black)
        pendingEvents.append(.resized(newSize))
    }

    public func configure(frameSize: PixelSize) throws { self.frameSize = frameSize }

    public func present(_ frame: Bitmap, dirty: [IntRect]) throws {
        let incoming = PixelSize(of: frame)
        var rects = dirty
        if incoming != frameSize {
            frameSize = incoming
            rects = [incoming.bounds]
        }
        rects = clipped(rects, to: incoming.bounds)

        let origin = centredOrigin(frame: incoming, output: size)
        for rect in rects { copy(rect, of: frame, to: origin) }

        let index = presentCount
        presentCount += 1
        if keepsFrames {
            let snapshot = Bitmap(width: size.width, height: size.height)
            snapshot.copy(from: screen, in: size.bounds)
            frames.append(snapshot)
            dirtyRects.append(rects)
        }
        if let sink {
            do { try sink(screen, index) } catch {
                throw PresenterError.sinkFailed(frame: index, detail: "\(error)")
            }
        }
    }

    /// Nothing to wait for: the screen is updated during `present`.
    public func finishPresenting() throws {}

    public func handleEvents() throws -> [PresenterEvent] {
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    /// Copies `rect` of `frame` to the screen with the frame's origin at `origin`, clipped.
    private func copy(_ rect: IntRect, of frame: Bitmap, to origin: (x: Int, y: Int)) {
        let target = IntRect(x: rect.x + origin.x, y: rect.y + origin.y, width: rect.width, height: rect.height)
            .intersection(size.bounds)
        guard !target.isEmpty else { return }
        for y in target.y..<target.maxY {
            let source = frame.row(y - origin.y) + (target.x - origin.x)
            (screen.row(y) + target.x).update(from: source, count: target.width)
        }
    }

    static let black: UInt32 = 0xFF00_0000
}
