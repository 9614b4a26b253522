import CX11
import Glibc
import VitrineDisplay
import VitrineGraphics
import VitrineSystem

/// A client-side image the X server reads frames from: a MIT-SHM segment the server maps (no
/// copy through the socket), or plain memory that `XPutImage` sends through the socket.
///
/// The pixel layout is the Bitmap's (32 bits, B,G,R,A bytes), so a frame is copied row by row.
final class X11FrameBuffer {
    let size: PixelSize
    let image: UnsafeMutablePointer<XImage>
    /// The shared-memory segment, for a MIT-SHM buffer.
    let segment: UnsafeMutablePointer<XShmSegmentInfo>?
    /// `XShmPutImage` calls whose completion event has not arrived: the server may still read.
    var pendingCompletions = 0
    /// Rectangles presented from the other buffer since this one was last written: they are
    /// out of date here and are copied from the buffer on screen before this one is shown
    /// again, so both always hold exactly what the screen shows.
    var stale: [IntRect] = []

    private let pixels: UnsafeMutablePointer<UInt32>
    private let stridePixels: Int

    private init(size: PixelSize, image: UnsafeMutablePointer<XImage>, segment: UnsafeMutablePointer<XShmSegmentInfo>?)
    {
        self.size = size
        self.image = image
        self.segment = segment
        pixels = UnsafeMutableRawPointer(image.pointee.data).bindMemory(
            to: UInt32.self, capacity: Int(image.pointee.bytes_per_line) * size.height / 4)
        stridePixels = Int(image.pointee.bytes_per_line) / 4
    }

    var isShared: Bool { segment != nil }

    /// A MIT-SHM buffer: XShmCreateImage, shmget, shmat, XShmAttach, then IPC_RMID at once so
    /// the segment disappears with the last process using it, however this one ends. Returns
    /// nil (after logging nothing) when the server refuses the attach, e.g. over the network.
    static func shared(
        display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32,
        size: PixelSize
    ) -> (buffer: X11FrameBuffer?, failure: String?) {
        let segment = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        guard
            let image = XShmCreateImage(
                display, visual, UInt32(depth), ZPixmap, nil, segment,
                UInt32(size.width), UInt32(size.height))
        else {
            segment.deallocate()
            return (nil, "XShmCreateImage returned no image")
        }
        guard image.pointee.bits_per_pixel == 32 else {
            vitrine_XDestroyImage(image); segment.deallocate()
            return (nil, "the server's images have \(image.pointee.bits_per_pixel) bits per pixel")
        }
        let bytes = Int(image.pointee.bytes_per_line) * size.height
        let id = shmget(IPC_PRIVATE, max(bytes, 4), IPC_CREAT | 0o600)
        guard id >= 0 else {
            let failure = SystemError("create a \(bytes)-byte shared-memory segment (shmget)")
            vitrine_XDestroyImage(image); segment.deallocate()
            return (nil, failure.description)
        }
        let address = shmat(id, nil, 0)
        guard let address, vitrine_shmat_failed(address) == 0 else {
            let failure = SystemError("attach the shared-memory segment (shmat)")
            shmctl(id, IPC_RMID, nil)
            vitrine_XDestroyImage(image); segment.deallocate()
            return (nil, failure.description)
        }
        segment.pointee.shmid = id
        segment.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        segment.pointee.readOnly = 0
        image.pointee.data = address.assumingMemoryBound(to: CChar.self)

        var attached: Int32 = 0
        let errors = X11Errors.catching(display) { attached = XShmAttach(display, segment) }
        shmctl(id, IPC_RMID, nil)
        guard attached != 0, errors.isEmpty else {
            shmdt(address)
            image.pointee.data = nil
            vitrine_XDestroyImage(image); segment.deallocate()
            return (nil, "XShmAttach failed: \(errors.first.map { "\($0)" } ?? "refused")")
        }
        // A new segment is zero-filled by the kernel: black where the top byte is ignored, and
        // the server only ever reads it after a whole frame was put into it (the first frame,
        // and the first after new buffers, are whole). Its pages are made now in one call
        // rather than one fault at a time as that frame writes them (2,025 faults at 1080p):
        // the player makes its first buffer while its playlist loads, so the first frame does
        // not wait for them. Kernels before 5.14 refuse the advice and fault them as before.
        ResidentMemory.populateForWriting(address, bytes: bytes)
        return (X11FrameBuffer(size: size, image: image, segment: segment), nil)
    }

    /// A plain buffer for `XPutImage`. Its byte order is declared least-significant first, the
    /// Bitmap's; Xlib swaps bytes on the way if the server wants the other order.
    static func plain(
        display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32,
        size: PixelSize
    ) throws -> X11FrameBuffer {
        let bytesPerLine = size.width * 4
        guard let data = malloc(max(bytesPerLine * size.height, 4)) else {
            throw PresenterError.x11(call: "malloc", detail: "no memory for a \(size) frame buffer")
        }
        guard
            let image = XCreateImage(
                display, visual, UInt32(depth), ZPixmap, 0,
                data.assumingMemoryBound(to: CChar.self),
                UInt32(size.width), UInt32(size.height), 32, Int32(bytesPerLine))
        else {
            free(data)
            throw PresenterError.x11(call: "XCreateImage", detail: "no image for a \(size) frame")
        }
        guard image.pointee.bits_per_pixel == 32 else {
            vitrine_XDestroyImage(image)
            throw PresenterError.unsupportedVisual(
                "depth \(depth) images have \(image.pointee.bits_per_pixel) bits per pixel, not 32")
        }
        image.pointee.byte_order = LSBFirst
        let buffer = X11FrameBuffer(size: size, image: image, segment: nil)
        buffer.clear()
        return buffer
    }

    /// Ends the server's use of the buffer: it detaches a shared segment (call only once the
    /// server has finished reading, i.e. with no pending completion). The memory itself goes
    /// with the last reference to the buffer, which a frame bitmap over it may hold.
    func detach(display: OpaquePointer) {
        guard let segment, !isDetached else { return }
        XShmDetach(display, segment)
        XSync(display, 0)
        isDetached = true
    }

    private var isDetached = false

    deinit {
        if let segment {
            shmdt(segment.pointee.shmaddr)
            image.pointee.data = nil
            vitrine_XDestroyImage(image)
            segment.deallocate()
        } else {
            vitrine_XDestroyImage(image)
        }
    }

    /// A bitmap over this buffer's pixels, keeping the buffer alive while it lives.
    func makeBitmap() -> Bitmap {
        Bitmap(wrapping: pixels, width: size.width, height: size.height, stride: stridePixels) { [self] in
            withExtendedLifetime(self) {}
        }
    }

    /// Copies `rect` (already clipped to both) from `frame` into the same place here.
    func copy(_ rect: IntRect, from frame: Bitmap) {
        for y in rect.y..<rect.maxY {
            (pixels + y * stridePixels + rect.x).update(from: frame.row(y) + rect.x, count: rect.width)
        }
    }

    /// Copies `rect` (already clipped to both) from `other`, a buffer of the same size.
    func copy(_ rect: IntRect, from other: X11FrameBuffer) {
        for y in rect.y..<rect.maxY {
            (pixels + y * stridePixels + rect.x).update(
                from: other.pixels + y * other.stridePixels + rect.x, count: rect.width)
        }
    }

    /// Paints every pixel opaque black.
    private func clear() {
        for y in 0..<size.height {
            (pixels + y * stridePixels).update(repeating: 0xFF00_0000, count: size.width)
        }
    }

    /// Records `rects` as out of date here; many small ones merge into their bounding box.
    func markStale(_ rects: [IntRect]) {
        stale.append(contentsOf: rects)
        if stale.count > 32 { stale = [stale.reduce(IntRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }] }
    }
}
