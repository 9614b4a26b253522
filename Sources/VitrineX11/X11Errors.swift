import CX11
import Glibc
import VitrineDisplay

/// An X protocol error, as the server reported it.
struct X11ProtocolError: CustomStringConvertible {
    var code: UInt8
    var request: UInt8
    var minorRequest: UInt8
    var text: String

    var description: String { "\(text) (request \(request).\(minorRequest))" }
}

/// Process-wide Xlib error handling. Xlib's default handlers print and exit on any protocol
/// error; Vitrine's record protocol errors instead (the presenter checks for them where a
/// failure matters, such as the MIT-SHM attach, and logs the others), and turn the loss of the
/// server into a prompt exit with `X11Presenter.connectionLostExitStatus`.
enum X11Errors {
    /// Errors recorded since the last `take()`; Xlib calls handlers on the thread making the call.
    private static var recorded: [X11ProtocolError] = []
    private static var installed = false
    /// The display name the I/O error message names: C handlers cannot capture context.
    static var serverName = ""

    /// Installs both handlers (once per process).
    static func install() {
        guard !installed else { return }
        installed = true
        XSetErrorHandler { display, event in
            guard let event = event?.pointee else { return 0 }
            var buffer = [CChar](repeating: 0, count: 256)
            XGetErrorText(display, Int32(event.error_code), &buffer, Int32(buffer.count))
            X11Errors.recorded.append(
                X11ProtocolError(
                    code: event.error_code, request: event.request_code,
                    minorRequest: event.minor_code,
                    text: String(cString: buffer)))
            return 0
        }
        // Xlib exits the process itself if this handler returns, with status 1: leave first,
        // with a message and a status that says what happened.
        XSetIOErrorHandler { _ in
            X11Errors.exitAfterConnectionLoss()
        }
    }

    /// Writes the reason to standard error with write(2) (no buffering, no locks held by the
    /// interrupted code) and exits with `X11Presenter.connectionLostExitStatus`.
    static func exitAfterConnectionLoss() -> Never {
        let message =
            "vitrine: lost the connection to the X server \(serverName.isEmpty ? "" : "\"\(serverName)\" ")"
            + "(it closed or crashed); exiting with status \(X11Presenter.connectionLostExitStatus)\n"
        message.utf8CString.withUnsafeBufferPointer { bytes in
            _ = write(2, bytes.baseAddress, bytes.count - 1)
        }
        exit(X11Presenter.connectionLostExitStatus)
    }

    /// The protocol errors recorded since the last call, and forgets them.
    static func take() -> [X11ProtocolError] {
        defer { recorded.removeAll() }
        return recorded
    }

    /// Runs `body`, waits for the server to answer every request it made, and returns the
    /// protocol errors they caused (earlier errors are returned by the next `take()`).
    static func catching(_ display: OpaquePointer, _ body: () -> Void) -> [X11ProtocolError] {
        XSync(display, 0)
        let earlier = take()
        body()
        XSync(display, 0)
        let caught = take()
        recorded = earlier
        return caught
    }
}
