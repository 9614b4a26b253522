import VitrineGraphics

/// A path whose storage a layer's drawing reuses from frame to frame (an arrow or a sector
/// built anew each time it is drawn allocates nothing once warm): one per thread, valid until
/// the next drawing on that thread takes it.
final class ScratchPath {
    var path = Path()

    static var ofThisThread: ScratchPath { perThread.value }
    private static let perThread = ThreadLocal { ScratchPath() }
}
