import CWayland
import CWaylandProtocols
import Glibc
import VitrineDisplay
import VitrineGraphics
import VitrineSystem

/// One wl_shm buffer: an XRGB8888 picture in a sealed memfd of its own, mapped here for copies
/// and shared with the compositor through a `wl_buffer`.
///
/// The pixel layout is the Bitmap's (0xXXRRGGBB words, little-endian), so frames drawn into it
/// reach the screen as they are.
final class WaylandFrameBuffer {
    let size: PixelSize
    let proxy: OpaquePointer
    /// The memfd, kept open so a drawing window can map it (`DrawingWindow.show`).
    let descriptor: Int32
    let byteCount: Int
    /// Whether the compositor holds it (attached and committed, no `wl_buffer.release` yet):
    /// nothing may write into it or commit it then.
    var isHeld = false
    /// Rectangles presented from other buffers since this one was last shown: out of date here
    /// until copied over from the buffer on screen.
    var stale: [IntRect] = []

    /// Where its pages are mapped here: a range of its own, or a drawing window's while it
    /// shows this buffer.
    fileprivate(set) var pixels: UnsafeMutablePointer<UInt32>
    /// The window whose range holds its pages now, if any.
    fileprivate(set) weak var window: DrawingWindow?

    /// A black buffer of `size` from `shm`, its release reported to `listener` with `data`.
    init(
        shm: OpaquePointer, size: PixelSize, listener: UnsafePointer<wl_buffer_listener>,
        data: UnsafeMutableRawPointer
    ) throws {
        let stride = size.width * 4
        let bytes = max(4, stride * size.height)
        let fd = vitrine_memfd_create("vitrine-frame", vitrine_memfd_cloexec_sealing())
        guard fd >= 0 else { throw SystemError("create a frame buffer (memfd_create)") }
        guard ftruncate(fd, off_t(bytes)) == 0 else {
            let error = SystemError("size a \(bytes)-byte frame buffer (ftruncate)")
            close(fd)
            throw error
        }
        // The compositor maps the same file: sealed, it can never shrink under that mapping.
        _ = vitrine_seal_against_shrinking(fd)
        guard let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), address != MAP_FAILED
        else {
            let error = SystemError("map a \(bytes)-byte frame buffer (mmap)")
            close(fd)
            throw error
        }
        guard let pool = wl_shm_create_pool(shm, fd, Int32(bytes)),
            let buffer = wl_shm_pool_create_buffer(
                pool, 0, Int32(size.width), Int32(size.height), Int32(stride), WL_SHM_FORMAT_XRGB8888.rawValue)
        else {
            munmap(address, bytes)
            close(fd)
            throw PresenterError.wayland(call: "wl_shm_pool_create_buffer", detail: "no buffer for a \(size) frame")
        }
        // The buffer keeps the pool's memory: the pool itself is no longer needed.
        wl_shm_pool_destroy(pool)
        wl_buffer_add_listener(buffer, listener, data)
        self.size = size
        self.proxy = buffer
        self.descriptor = fd
        self.byteCount = bytes
        self.pixels = address.bindMemory(to: UInt32.self, capacity: bytes / 4)
        pixels.update(repeating: 0xFF00_0000, count: size.width * size.height)
    }

    /// Destroys the wl_buffer and unmaps and closes the memory (a drawing window still showing
    /// it keeps its pages until it moves on).
    func destroy() {
        wl_buffer_destroy(proxy)
        if let window {
            window.forget(self)
        } else {
            munmap(pixels, byteCount)
        }
        close(descriptor)
    }

    /// Maps the memory at a new range of its own (after a window it was in went away).
    fileprivate func mapAgain() {
        guard let address = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            address != MAP_FAILED
        else { fatalError("cannot map a frame buffer again: \(SystemError("mmap"))") }
        pixels = address.bindMemory(to: UInt32.self, capacity: byteCount / 4)
        window = nil
    }

    /// Copies `rect` (inside both) from `other`, a buffer of the same size.
    func copy(_ rect: IntRect, from other: WaylandFrameBuffer) {
        for y in rect.y..<rect.maxY {
            (pixels + y * size.width + rect.x).update(from: other.pixels + y * size.width + rect.x, count: rect.width)
        }
    }

    /// Copies `rect` (inside both) from `frame`, a bitmap of the same size.
    func copy(_ rect: IntRect, from frame: Bitmap) {
        for y in rect.y..<rect.maxY {
            (pixels + y * size.width + rect.x).update(from: frame.row(y) + rect.x, count: rect.width)
        }
    }

    /// Records `rects` as out of date here; many small ones merge into their bounding box.
    func markStale(_ rects: [IntRect]) {
        stale.append(contentsOf: rects)
        if stale.count > 32 { stale = [stale.reduce(IntRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }] }
    }
}

/// A fixed range of addresses that shows one frame buffer at a time: the frame bitmap wraps
/// it, and before each frame the pages of the buffer the frame goes to are moved there. So
/// frames are drawn in place into whichever buffer the compositor has released, while the
/// bitmap, and everything the renderer keeps about it, stays the same.
///
/// The pages move with their page-table entries (`mremap`), so a frame faults nothing in; the
/// buffer leaving the window takes a range of its own. Where the kernel cannot move shared
/// pages that way (before Linux 5.13), the window maps the new buffer afresh instead and the
/// pages the renderer touches fault in again.
final class DrawingWindow {
    let size: PixelSize
    private let address: UnsafeMutableRawPointer
    private let byteCount: Int
    /// The buffer whose pages are here now.
    private(set) weak var buffer: WaylandFrameBuffer?
    /// Whether pages are moved (false once the kernel refused: mapped afresh from then on).
    private var movesPages: Bool
    /// Whether `buffer`'s pages live here (moved in), so they must move out before the window
    /// shows another buffer or goes.
    private var holdsBufferPages = false

    /// Reserves addresses for frames of `size`, mapped to nothing yet. `movesPages: false`
    /// maps each buffer afresh, as on kernels that cannot move shared pages.
    init(size: PixelSize, movesPages: Bool = true) throws {
        self.movesPages = movesPages
        byteCount = max(4, size.width * size.height * 4)
        guard let address = mmap(nil, byteCount, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            address != MAP_FAILED
        else { throw SystemError("reserve \(byteCount) bytes for a frame (mmap)") }
        self.size = size
        self.address = address
    }

    deinit {
        // The buffer shown keeps its memory: it goes back to a mapping of its own. (Its weak
        // reference to this window already reads nil here, hence the window's own flag.)
        if let buffer, holdsBufferPages { buffer.mapAgain() }
        munmap(address, byteCount)
    }

    /// A destroyed buffer's pages stay here (the file with them) until the window moves on.
    fileprivate func forget(_ buffer: WaylandFrameBuffer) {
        guard self.buffer === buffer else { return }
        self.buffer = nil
        holdsBufferPages = false
    }

    /// Shows `buffer` (of this window's size) here, in place of the buffer shown before.
    func show(_ buffer: WaylandFrameBuffer) throws {
        guard buffer !== self.buffer else { return }
        if movesPages, (try? move(buffer)) != nil { return }
        if let shown = self.buffer, holdsBufferPages { shown.mapAgain() }
        holdsBufferPages = false
        movesPages = false
        let mapped = mmap(address, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, buffer.descriptor, 0)
        guard mapped == address else { throw SystemError("map a frame buffer for drawing (mmap MAP_FIXED)") }
        self.buffer = buffer
    }

    /// Moves the shown buffer's pages out to a range of their own (the window stays mapped, so
    /// no other mapping can take its place), then `buffer`'s pages in.
    private func move(_ buffer: WaylandFrameBuffer) throws {
        if let shown = self.buffer, holdsBufferPages {
            guard let spare = mmap(nil, byteCount, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), spare != MAP_FAILED
            else { throw SystemError("reserve \(byteCount) bytes for a frame buffer (mmap)") }
            guard vitrine_move_mapping(address, byteCount, spare, 1) == 0 else {
                let error = SystemError("move a frame buffer's pages (mremap MREMAP_DONTUNMAP)")
                munmap(spare, byteCount)
                throw error
            }
            shown.pixels = spare.bindMemory(to: UInt32.self, capacity: byteCount / 4)
            shown.window = nil
            holdsBufferPages = false
        }
        guard vitrine_move_mapping(buffer.pixels, byteCount, address, 0) == 0 else {
            throw SystemError("move a frame buffer's pages (mremap)")
        }
        buffer.pixels = address.bindMemory(to: UInt32.self, capacity: byteCount / 4)
        buffer.window = self
        self.buffer = buffer
        holdsBufferPages = true
    }

    /// A bitmap over the window, keeping it alive while the bitmap lives.
    func makeBitmap() -> Bitmap {
        Bitmap(
            wrapping: address.bindMemory(to: UInt32.self, capacity: byteCount / 4), width: size.width,
            height: size.height, stride: size.width
        ) { [self] in withExtendedLifetime(self) {} }
    }
}
