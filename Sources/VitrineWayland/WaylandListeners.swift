import CWayland
import CWaylandProtocols

// The listeners libwayland calls back, one static table per interface (libwayland keeps the
// pointer, so each lives for the whole process). `data` is always the presenter, unretained;
// the presenter removes every proxy before it goes.

private func presenter(_ data: UnsafeMutableRawPointer?) -> WaylandPresenter {
    Unmanaged<WaylandPresenter>.fromOpaque(data!).takeUnretainedValue()
}

private func table<Listener>(_ listener: Listener) -> UnsafePointer<Listener> {
    let storage = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    storage.initialize(to: listener)
    return UnsafePointer(storage)
}

enum WaylandListeners {
    static let registry = table(
        wl_registry_listener(
            global: { data, _, name, interface, version in
                presenter(data).registryAnnounced(name: name, interface: String(cString: interface!), version: version)
            },
            global_remove: { data, _, name in presenter(data).registryRemoved(name: name) }))

    static let wmBase = table(
        xdg_wm_base_listener(ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))

    static let xdgSurface = table(
        xdg_surface_listener(configure: { data, _, serial in presenter(data).surfaceConfigured(serial: serial) }))

    static let toplevel: UnsafePointer<xdg_toplevel_listener> = {
        var listener = xdg_toplevel_listener()
        listener.configure = { data, _, width, height, _ in
            presenter(data).toplevelConfigured(width: Int(width), height: Int(height))
        }
        listener.close = { data, _ in presenter(data).closeRequested() }
        listener.configure_bounds = { _, _, _, _ in }
        listener.wm_capabilities = { _, _, _ in }
        return table(listener)
    }()

    static let output: UnsafePointer<wl_output_listener> = {
        var listener = wl_output_listener()
        listener.geometry = { data, _, _, _, _, _, _, _, _, transform in
            presenter(data).outputTransformed(transform)
        }
        listener.mode = { data, _, flags, width, height, refresh in
            guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
            presenter(data).outputMode(width: Int(width), height: Int(height), millihertz: Int(refresh))
        }
        listener.done = { _, _ in }
        listener.scale = { data, _, factor in presenter(data).outputScaled(Int(factor)) }
        listener.name = { _, _, _ in }
        listener.description = { _, _, _ in }
        return table(listener)
    }()

    static let seat: UnsafePointer<wl_seat_listener> = {
        var listener = wl_seat_listener()
        listener.capabilities = { data, _, capabilities in presenter(data).seatCapabilities(capabilities) }
        listener.name = { _, _, _ in }
        return table(listener)
    }()

    /// Bound at version 1: enter, leave, motion, button and axis are all it sends.
    static let pointer: UnsafePointer<wl_pointer_listener> = {
        var listener = wl_pointer_listener()
        listener.enter = { _, pointer, serial, _, _, _ in
            // No surface: the cursor is hidden while it is over the kiosk.
            wl_pointer_set_cursor(pointer, serial, nil, 0, 0)
        }
        listener.leave = { _, _, _, _ in }
        listener.motion = { _, _, _, _, _ in }
        listener.button = { _, _, _, _, _, _ in }
        listener.axis = { _, _, _, _, _ in }
        return table(listener)
    }()

    static let buffer = table(wl_buffer_listener(release: { data, buffer in presenter(data).bufferReleased(buffer!) }))

    static let frameCallback = table(
        wl_callback_listener(done: { data, callback, milliseconds in
            presenter(data).frameDone(callback!, milliseconds: milliseconds)
        }))

    static let presentation = table(
        wp_presentation_listener(clock_id: { data, _, clock in presenter(data).presentationClock(clock) }))

    static let feedback = table(
        wp_presentation_feedback_listener(
            sync_output: { _, _, _ in },
            presented: { data, feedback, secondsHigh, secondsLow, nanoseconds, refresh, _, _, _ in
                let seconds = UInt64(secondsHigh) << 32 | UInt64(secondsLow)
                presenter(data).feedbackPresented(
                    feedback!, nanoseconds: Int64(seconds) * 1_000_000_000 + Int64(nanoseconds),
                    refreshNanoseconds: Int(refresh))
            },
            discarded: { data, feedback in presenter(data).feedbackDiscarded(feedback!) }))
}
