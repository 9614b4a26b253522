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
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height),
                                    XAllPlanes(), ZPixmap) else {
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

    /// The format-32 values of `property` on `window` (empty when it is not set).
    func property(_ window: Window, _ property: String) -> [UInt] {
        var type: Atom = 0, format: Int32 = 0, items: UInt = 0, remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, atom(property), 0, 64, 0, Atom(AnyPropertyType), &type, &format,
                                 &items, &remaining, &data) == Success, let data else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self), count: Int(items)))
    }
}
