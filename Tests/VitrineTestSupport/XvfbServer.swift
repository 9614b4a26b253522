import CX11
import Foundation
import VitrineBench
import XCTest

/// A private Xvfb for one test (the benchmarks' launcher, `Xvfb`): skips the test when no
/// Xvfb is installed; killed and reaped on `stop()` or when it goes.
public final class XvfbServer {
    private let server: Xvfb
    public var number: Int { server.number }
    public var name: String { server.name }
    public var pid: pid_t { server.pid }

    /// Starts `Xvfb :N -screen 0 WxHxDEPTH -nolisten tcp -noreset` plus `arguments` on a free
    /// number, or on `number` only (e.g. one a client was already told to use).
    public init(
        width: Int = 320, height: Int = 240, depth: Int = 24, arguments: [String] = [],
        number: Int? = nil
    ) throws {
        do {
            server = try Xvfb(width: width, height: height, depth: depth, arguments: arguments, number: number)
        } catch Xvfb.Failure.notInstalled {
            throw XCTSkip("Xvfb is not installed (apt-get install xvfb)")
        }
    }

    /// A display number no server uses now (none is started on it).
    public static func unusedDisplayNumber() -> Int { Xvfb.unusedDisplayNumber() }

    /// Kills the server (SIGKILL: no goodbye to clients) and reaps it.
    public func kill() { server.kill() }

    /// Stops the server the polite way and reaps it.
    public func stop() { server.stop() }
}

public struct XvfbError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Resizes the screen of the server `display` is connected to as a monitor change would: the
/// CRTC goes dark, then the screen takes the new size (Xvfb can shrink below its start size,
/// not grow past it).
public func resizeXvfbScreen(_ display: OpaquePointer, width: Int, height: Int) throws {
    let root = XDefaultRootWindow(display)
    guard let resources = XRRGetScreenResourcesCurrent(display, root) else {
        throw XvfbError(description: "no RandR resources")
    }
    defer { XRRFreeScreenResources(resources) }
    for crtc in UnsafeBufferPointer(start: resources.pointee.crtcs, count: Int(resources.pointee.ncrtc)) {
        XRRSetCrtcConfig(display, resources, crtc, Time(CurrentTime), 0, 0, 0, UInt16(RR_Rotate_0), nil, 0)
    }
    XRRSetScreenSize(display, root, Int32(width), Int32(height), Int32(width / 4), Int32(height / 4))
    XSync(display, 0)
}
