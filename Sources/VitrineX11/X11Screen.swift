import CX11
import Glibc
import VitrineDisplay

/// Facts about an X screen and the settings the presenter borrows from it, kept out of the
/// presenter itself.
enum X11Screen {
    /// A visual the presenter can draw Bitmaps into without converting pixels.
    struct VisualChoice {
        var visual: UnsafeMutablePointer<Visual>
        var depth: Int32
        var isDefault: Bool
    }

    /// The default visual if it is a 24- or 32-bit TrueColor visual with 8-bit channels at
    /// 0xff0000/0xff00/0xff and 32-bit pixels, else the first other visual of the screen that is
    /// (24-bit preferred: a 32-bit visual may be blended by a compositor).
    static func chooseVisual(display: OpaquePointer, screen: Int32) throws -> VisualChoice {
        let defaultVisual = XDefaultVisual(display, screen)
        var template = XVisualInfo()
        template.screen = screen
        var count: Int32 = 0
        guard let infos = XGetVisualInfo(display, Int(VisualScreenMask), &template, &count) else {
            throw PresenterError.unsupportedVisual("the screen lists no visuals")
        }
        defer { XFree(infos) }
        let fourBytePixels = depthsWithFourBytePixels(display)

        let candidates = UnsafeBufferPointer(start: infos, count: Int(count)).filter { info in
            info.`class` == TrueColor && (info.depth == 24 || info.depth == 32)
                && info.red_mask == 0xff0000 && info.green_mask == 0xff00 && info.blue_mask == 0xff
                && fourBytePixels.contains(info.depth)
        }
        if let info = candidates.first(where: { $0.visual == defaultVisual }) {
            return VisualChoice(visual: info.visual, depth: info.depth, isDefault: true)
        }
        if let info = candidates.first(where: { $0.depth == 24 }) ?? candidates.first {
            return VisualChoice(visual: info.visual, depth: info.depth, isDefault: false)
        }
        let depth = XDefaultDepth(display, screen)
        let v = defaultVisual?.pointee
        throw PresenterError.unsupportedVisual(
            "the default visual has depth \(depth), class \(v.map { className(Int32($0.`class`)) } ?? "?"), masks "
                + "0x\(String(v?.red_mask ?? 0, radix: 16))/0x\(String(v?.green_mask ?? 0, radix: 16))/0x\(String(v?.blue_mask ?? 0, radix: 16)), "
                + "and no other visual qualifies")
    }

    private static func depthsWithFourBytePixels(_ display: OpaquePointer) -> Set<Int32> {
        var count: Int32 = 0
        guard let formats = XListPixmapFormats(display, &count) else { return [] }
        defer { XFree(formats) }
        return Set(
            UnsafeBufferPointer(start: formats, count: Int(count)).filter { $0.bits_per_pixel == 32 }.map(\.depth))
    }

    private static func className(_ c: Int32) -> String {
        switch c {
        case StaticGray: return "StaticGray"
        case GrayScale: return "GrayScale"
        case StaticColor: return "StaticColor"
        case PseudoColor: return "PseudoColor"
        case TrueColor: return "TrueColor"
        case DirectColor: return "DirectColor"
        default: return "\(c)"
        }
    }

    /// Whether an EWMH window manager runs: the root's _NET_SUPPORTING_WM_CHECK names a window
    /// whose own property names itself (a stale root property outlives a crashed manager).
    static func windowManagerIsRunning(display: OpaquePointer, root: Window) -> Bool {
        let check = XInternAtom(display, "_NET_SUPPORTING_WM_CHECK", 1)
        guard check != 0, let child = windowProperty(display, root, check) else { return false }
        var echoed: Window?
        let errors = X11Errors.catching(display) { echoed = windowProperty(display, child, check) }
        return errors.isEmpty && echoed == child
    }

    private static func windowProperty(_ display: OpaquePointer, _ window: Window, _ property: Atom) -> Window? {
        var type: Atom = 0, format: Int32 = 0, items: UInt = 0, remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                display, window, property, 0, 1, 0, Atom(XA_WINDOW), &type, &format,
                &items, &remaining, &data) == Success, let data
        else { return nil }
        defer { XFree(data) }
        guard type == Atom(XA_WINDOW), format == 32, items == 1 else { return nil }
        // Format-32 properties come back as C longs.
        return UnsafeRawPointer(data).load(as: Window.self)
    }

    /// The refresh rate of the primary output (else the first lit one) from RandR 1.2 mode
    /// timings, or nil when the server gives none (Xvfb's modes have no dot clock).
    static func refreshRate(display: OpaquePointer, root: Window) -> Double? {
        var major: Int32 = 0, minor: Int32 = 0
        guard XRRQueryVersion(display, &major, &minor) != 0, major > 1 || (major == 1 && minor >= 2),
            let resources = XRRGetScreenResourcesCurrent(display, root)
        else { return nil }
        defer { XRRFreeScreenResources(resources) }
        let res = resources.pointee

        var crtcs: [RRCrtc] = []
        let primary = XRRGetOutputPrimary(display, root)
        if primary != 0, let output = XRRGetOutputInfo(display, resources, primary) {
            if output.pointee.crtc != 0 { crtcs.append(output.pointee.crtc) }
            XRRFreeOutputInfo(output)
        }
        crtcs += UnsafeBufferPointer(start: res.crtcs, count: Int(res.ncrtc))
        for crtc in crtcs {
            guard let info = XRRGetCrtcInfo(display, resources, crtc) else { continue }
            let modeID = info.pointee.mode
            XRRFreeCrtcInfo(info)
            guard modeID != 0 else { continue }
            for mode in UnsafeBufferPointer(start: res.modes, count: Int(res.nmode)) where mode.id == modeID {
                guard mode.dotClock > 0, mode.hTotal > 0, mode.vTotal > 0 else { return nil }
                var rate = Double(mode.dotClock) / (Double(mode.hTotal) * Double(mode.vTotal))
                if mode.modeFlags & UInt(RR_DoubleScan) != 0 { rate /= 2 }
                if mode.modeFlags & UInt(RR_Interlace) != 0 { rate *= 2 }
                return rate
            }
        }
        return nil
    }

    /// The screen saver and DPMS settings found at start, to put back on exit.
    struct BlankingSettings {
        var timeout: Int32 = 0, interval: Int32 = 0, preferBlanking: Int32 = 0, allowExposures: Int32 = 0
        var dpmsWasEnabled = false
    }

    /// Turns the screen saver and DPMS power saving off (and the screen on), returning what to
    /// restore.
    static func suspendBlanking(display: OpaquePointer) -> BlankingSettings {
        var saved = BlankingSettings()
        XGetScreenSaver(display, &saved.timeout, &saved.interval, &saved.preferBlanking, &saved.allowExposures)
        XSetScreenSaver(display, 0, saved.interval, saved.preferBlanking, saved.allowExposures)
        XForceScreenSaver(display, ScreenSaverReset)

        var eventBase: Int32 = 0, errorBase: Int32 = 0
        if DPMSQueryExtension(display, &eventBase, &errorBase) != 0, DPMSCapable(display) != 0 {
            var level: CARD16 = 0, enabled: BOOL = 0
            if DPMSInfo(display, &level, &enabled) != 0, enabled != 0 {
                saved.dpmsWasEnabled = true
                DPMSForceLevel(display, CARD16(DPMSModeOn))
                DPMSDisable(display)
            }
        }
        return saved
    }

    /// Whether the server drives a monitor DPMS can power down (Xvfb, for one, cannot).
    static func canPowerDown(display: OpaquePointer) -> Bool {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        return DPMSQueryExtension(display, &eventBase, &errorBase) != 0 && DPMSCapable(display) != 0
    }

    /// Powers the monitor down or up through DPMS. Forcing a level needs DPMS enabled; while
    /// playing it stays disabled, so the server never blanks the screen on its own.
    static func setPowered(display: OpaquePointer, _ on: Bool) {
        if on {
            DPMSForceLevel(display, CARD16(DPMSModeOn))
            DPMSDisable(display)
        } else {
            DPMSEnable(display)
            DPMSForceLevel(display, CARD16(DPMSModeOff))
        }
        XFlush(display)
    }

    /// Puts back what `suspendBlanking` changed.
    static func restoreBlanking(display: OpaquePointer, _ saved: BlankingSettings) {
        XSetScreenSaver(display, saved.timeout, saved.interval, saved.preferBlanking, saved.allowExposures)
        if saved.dpmsWasEnabled { DPMSEnable(display) }
    }
}
