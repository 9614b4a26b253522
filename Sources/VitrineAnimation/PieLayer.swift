import Glibc
import VitrineGraphics

/// One slice of seed 001's pie: a shape layer whose `sliceAngle` (the angle where it ends) is
/// a custom animatable property; its path is rebuilt from presentation values every frame.
open class SliceLayer: ShapeLayer {
    /// The angle, radians clockwise from +x, at which the slice ends. Defaults to 0. Animatable
    /// (no implicit animation of its own: the pie's delegate supplies it).
    @Animatable public var sliceAngle: Double = 0

    /// A slice with the seed's look: the given fill, a light grey 0.5-wide outline.
    public static func make(fillColor: Color) -> SliceLayer {
        let slice = SliceLayer()
        slice.fillColor = fillColor
        slice.strokeColor = Color(red: 0.8, green: 0.8, blue: 0.8)
        slice.lineWidth = 0.5
        return slice
    }

    /// A closed sector: the centre, then an arc clockwise on screen from `startAngle` to `endAngle`.
    public static func slicePath(center: Point, radius: Double, startAngle: Double, endAngle: Double) -> Path {
        var path = Path()
        path.move(to: center)
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: true)
        path.closeSubpath()
        return path
    }
}

/// Seed 001's animated pie: slices grow from a sliver at the top to their shares, eased in
/// and out over one second, each starting where the previous one currently ends.
///
/// The pie is every slice's delegate: changing `sliceAngle` asks it for an action, and it
/// answers with a basic animation from `initialAngle` (fromValue only; the model holds the
/// target). It is also the animations' delegate, counting running animations. Each frame,
/// `updateSlices()` (installed with `attach(to:)`) reads the slices' presentation angles and
/// rebuilds their paths and label positions with actions disabled.
open class PieLayer: Layer, LayerDelegate, AnimationDelegate {
    /// The angle every slice grows from: the top of the circle.
    public static let initialAngle = -Double.pi / 2
    /// The layer holding the slices. (Lazy, so presentation copies, which never use it, do not
    /// make one.)
    public private(set) lazy var sliceContainer = Layer()
    /// The layer holding the percentage labels.
    public private(set) lazy var labelContainer = Layer()
    /// Duration of the growth animation, seconds.
    public var animationDuration = 1.0
    /// The animations that have started and not yet stopped (as the seed's `_animations`).
    public private(set) var runningAnimations: [Animation] = []
    private var needsUpdate = false

    public required init() {
        super.init()
        addSublayer(sliceContainer)
        addSublayer(labelContainer)
    }

    public required init(layer: Layer) {
        super.init(layer: layer)
    }

    /// The slices, in order.
    public var slices: [SliceLayer] { sliceContainer.sublayers.compactMap { $0 as? SliceLayer } }

    /// The pie's centre and radius: the middle of the bounds, the largest circle inside them.
    public var center: Point { bounds.center }
    public var radius: Double { min(bounds.width, bounds.height) / 2 }

    /// Shows `values` as shares of the pie, one slice per value, coloured in turn from
    /// `colors`. Each slice's model `sliceAngle` becomes its end angle; the delegate's action
    /// animates it from the top.
    public func setValues(_ values: [Double], colors: [Color]) {
        let shares = PieLayer.shares(of: values)
        var sliceLayers = slices
        var labels = labelContainer.sublayers
        while sliceLayers.count > shares.count {
            sliceLayers.removeLast().removeFromSuperlayer()
            labels.popLast()?.removeFromSuperlayer()
        }
        while sliceLayers.count < shares.count {
            let slice = SliceLayer.make(fillColor: colors.isEmpty ? .black : colors[sliceLayers.count % colors.count])
            slice.sliceAngle = PieLayer.initialAngle
            slice.delegate = self
            sliceContainer.addSublayer(slice)
            sliceLayers.append(slice)
            let label = TextLayer()
            label.fontSize = 14
            label.alignmentMode = .center
            label.bounds = Rect(x: 0, y: 0, width: 60, height: 20)
            labelContainer.addSublayer(label)
            labels.append(label)
        }
        var end = PieLayer.initialAngle
        for (i, slice) in sliceLayers.enumerated() {
            end += 2 * .pi * shares[i]
            if i < labels.count, let label = labels[i] as? TextLayer {
                label.string = "\(Int((100 * shares[i]).rounded()))%"
            }
            let wasRendered = slice.hasBeenCommitted
            slice.sliceAngle = end
            // A slice created just now is not rendered yet, so setting its angle ran no action:
            // run the delegate's action for it explicitly.
            if !wasRendered {
                action(for: slice, forKey: "sliceAngle")?.run(forKey: "sliceAngle", object: slice, arguments: nil)
            }
        }
        needsUpdate = true
    }

    /// Each value's fraction of the whole, 0…1: values that are not positive finite numbers
    /// count as 0, and all are 0 when none is positive. Scaled by the largest value first, so
    /// values near `Double.greatestFiniteMagnitude` do not overflow their sum.
    public static func shares(of values: [Double]) -> [Double] {
        let clean = values.map { $0.isFinite && $0 > 0 ? $0 : 0 }
        guard let largest = clean.max(), largest > 0 else { return clean.map { _ in 0 } }
        let scaled = clean.map { $0 / largest }
        let total = scaled.reduce(0, +)
        return scaled.map { $0 / total }
    }

    /// The growth animation for `sliceAngle`; nil (keep searching) for other keys.
    public func action(for layer: Layer, forKey key: String) -> Action? {
        guard key == "sliceAngle" else { return nil }
        let animation = BasicAnimation(keyPath: "sliceAngle")
        animation.fromValue = PieLayer.initialAngle
        animation.delegate = self
        animation.duration = animationDuration
        animation.timingFunction = .easeInEaseOut
        return animation
    }

    public func animationDidStart(_ animation: Animation) {
        runningAnimations.append(animation)
    }

    public func animationDidStop(_ animation: Animation, finished: Bool) {
        runningAnimations.removeAll { $0 === animation }
    }

    /// Whether the per-frame update has work to do (an animation runs or values changed).
    public var needsFrameUpdates: Bool { needsUpdate || !runningAnimations.isEmpty }

    /// Rebuilds every slice path and label position from the slices' presentation angles
    /// (model angles before the first frame), with actions disabled.
    public func updateSlices() {
        let current = slices
        let labels = labelContainer.sublayers
        let previousDisable = Transaction.disableActions()
        Transaction.setDisableActions(true)
        var start = PieLayer.initialAngle
        for (i, slice) in current.enumerated() {
            let end = slice.presentation()?.sliceAngle ?? slice.sliceAngle
            slice.path = SliceLayer.slicePath(center: center, radius: radius, startAngle: start, endAngle: end)
            if i < labels.count {
                let mid = (start + end) / 2
                labels[i].position = Point(x: center.x + 0.7 * radius * cos(mid), y: center.y + 0.7 * radius * sin(mid))
            }
            start = end
        }
        Transaction.setDisableActions(previousDisable)
        needsUpdate = false
    }

    /// Installs the per-frame update on `engine` (the seed's display link, idle when nothing
    /// animates). Returns the observer token.
    @discardableResult
    public func attach(to engine: Engine) -> Int {
        engine.addFrameObserver { [weak self] _ in
            guard let self, self.needsFrameUpdates else { return }
            self.updateSlices()
        }
    }
}
