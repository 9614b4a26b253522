import CX11
import Foundation
import XCTest
import VitrineTestSupport

/// The test's own connection to a server, to look at what the presenter did.
final class XClient {
    let display: OpaquePointer
    var root: Window { XDefaultRootWindow(display) }

    init(_ name: String) throws {
        guard let display = XOpenDisplay(name) else { throw XvfbError(description: "cannot open \(name)") }
        self.display = display
    }

    deinit { XCloseDisplay(display) }

    /// The RGB of every pixel of `rect` of the root window (what the screen shows), row by row.
    func screenshot(x: Int = 0, y: Int = 0, width: Int, height: Int) throws -> [UInt32] {
        guard
            let image = XGetImage(
                display, root, Int32(x), Int32(y), UInt32(width), UInt32(height),
                XAllPlanes(), ZPixmap)
        else {
            throw XvfbError(description: "XGetImage failed")
        }
        defer { vitrine_XDestroyImage(image) }
        XCTAssertEqual(image.pointee.bits_per_pixel, 32)
        XCTAssertEqual(image.pointee.byte_order, LSBFirst)
        let stride = Int(image.pointee.bytes_per_line) / 4
        let pixels = UnsafeRawPointer(image.pointee.data!).assumingMemoryBound(to: UInt32.self)
        var result: [UInt32] = []
        result.reserveCapacity(width * height)
        for row in 0..<height {
            for column in 0..<width { result.append(pixels[row * stride + column] & 0x00FF_FFFF) }
        }
        return result
    }

    /// The root window's current size.
    var screenSize: (width: Int, height: Int) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, root, &attributes)
        return (Int(attributes.width), Int(attributes.height))
    }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// The ARGB pixels of the cursor the server shows now (XFixesGetCursorImage), or nil when
    /// the server has no XFixes. libXfixes is looked up at run time so that nothing Vitrine
    /// ships links it.
    func cursorImage() throws -> [UInt32]? {
        // Never closed: the extension leaves hooks in the Display that run when it closes.
        guard let library = dlopen("libXfixes.so.3", RTLD_NOW) else {
            throw XvfbError(description: "libXfixes.so.3 is not installed (apt-get install libxfixes3)")
        }
        typealias QueryExtension =
            @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
        typealias QueryVersion =
            @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
        typealias GetCursorImage = @convention(c) (OpaquePointer) -> UnsafeMutableRawPointer?
        guard let query = dlsym(library, "XFixesQueryExtension"), let version = dlsym(library, "XFixesQueryVersion"),
            let get = dlsym(library, "XFixesGetCursorImage")
        else {
            throw XvfbError(description: "libXfixes lacks XFixesGetCursorImage")
        }
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard unsafeBitCast(query, to: QueryExtension.self)(display, &eventBase, &errorBase) != 0 else { return nil }
        var major: Int32 = 6, minor: Int32 = 0  // the client must announce its version first
        _ = unsafeBitCast(version, to: QueryVersion.self)(display, &major, &minor)
        guard let image = unsafeBitCast(get, to: GetCursorImage.self)(display) else { return nil }
        defer { XFree(image) }
        // XFixesCursorImage: short x, y; unsigned short width, height, xhot, yhot; unsigned long
        // cursor_serial; unsigned long *pixels (one ARGB pixel per unsigned long); …
        let width = Int(image.load(fromByteOffset: 4, as: UInt16.self))
        let height = Int(image.load(fromByteOffset: 6, as: UInt16.self))
        guard let pixels = image.load(fromByteOffset: 24, as: UnsafePointer<UInt>?.self) else { return [] }
        return (0..<width * height).map { UInt32(truncatingIfNeeded: pixels[$0]) }
    }

    /// The format-32 values of `property` on `window` (empty when it is not set).
    func property(_ window: Window, _ property: String) -> [UInt] {
        var type: Atom = 0, format: Int32 = 0, items: UInt = 0, remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                display, window, atom(property), 0, 64, 0, Atom(AnyPropertyType), &type, &format,
                &items, &remaining, &data) == Success, let data
        else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return Array(
            UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self), count: Int(items)))
    }
}
