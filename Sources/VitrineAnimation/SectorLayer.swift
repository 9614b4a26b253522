import Glibc
import VitrineGraphics

/// The growing pie sector of seed 004: `progress` 0 → 1 sweeps a filled sector of the circle
/// inscribed in the bounds, clockwise on screen from `startAngle`. Animate `progress` with a
/// basic animation; only `progress` (and the other custom properties) trigger a redraw.
///
/// (The seed calls CGContext.addArc with clockwise: true in a flipped context, which would
/// sweep the complement; this layer sweeps 2π·progress clockwise on screen as described.)
open class SectorLayer: Layer {
    /// How much of the circle is covered, 0…1. Defaults to 0. Animatable.
    @Animatable public var progress: Double = 0
    /// Where the sector starts, radians clockwise from +x. Defaults to 0. Animatable.
    @Animatable public var startAngle: Double = 0
    /// The sector's fill. Defaults to orange. Animatable.
    @Animatable public var fillColor: Color = Color(red: 1, green: 0.5, blue: 0)

    open override class func needsDisplay(forKey key: String) -> Bool {
        customPropertyKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    /// The sector centred in `bounds` with radius half the width: move to the centre, arc
    /// 2π·progress clockwise, close. Empty when progress ≤ 0; a full disc from progress ≥ 1.
    public static func sectorPath(in bounds: Rect, startAngle: Double, progress: Double) -> Path {
        var path = Path()
        sectorPath(in: bounds, startAngle: startAngle, progress: progress, into: &path)
        return path
    }

    /// `sectorPath(in:startAngle:progress:)` written into `path`, whose storage is reused.
    static func sectorPath(in bounds: Rect, startAngle: Double, progress: Double, into path: inout Path) {
        path.removeAll(keepingCapacity: true)
        let p = progress.isFinite ? min(max(progress, 0), 1) : 0
        guard p > 0 else { return }
        let center = bounds.center, radius = bounds.width / 2
        path.move(to: center)
        path.addArc(
            center: center, radius: radius, startAngle: startAngle,
            endAngle: startAngle + 2 * .pi * p, clockwise: true, splitAnchor: startAngle)
        path.closeSubpath()
    }

    /// This layer's sector for its current properties.
    public var sectorPath: Path { SectorLayer.sectorPath(in: bounds, startAngle: startAngle, progress: progress) }

    /// Fills the sector.
    open override func draw(in ctx: GraphicsContext) {
        let scratch = ScratchPath.ofThisThread
        SectorLayer.sectorPath(in: bounds, startAngle: startAngle, progress: progress, into: &scratch.path)
        ctx.fill(scratch.path, color: fillColor)
    }

    /// When only the progress changed, the two sectors share the cubics of their arcs up to the
    /// last split before the smaller one's end: they differ within the wedge from there to the
    /// larger one's end.
    open override func changedDrawingArea(since previous: Layer, changedKeys: [String]) -> Rect? {
        guard changedKeys == ["progress"], let previous = previous as? SectorLayer else { return nil }
        func sweep(_ progress: Double) -> Double {
            2 * .pi * (progress.isFinite ? min(max(progress, 0), 1) : 0)
        }
        let a = sweep(progress), b = sweep(previous.progress)
        // A pixel of margin covers the anti-aliased edge.
        return Rect.boundingAnnularSector(
            center: bounds.center, innerRadius: 0, outerRadius: bounds.width / 2,
            from: Path.lastSplit(from: startAngle, distance: min(a, b)),
            to: startAngle + max(a, b))?
            .insetBy(dx: -1, dy: -1)
    }
}
