import VitrineGraphics

/// A layer that draws its sublayers `instanceCount` times (CAReplicatorLayer): instance i is
/// moved by `instanceTransform` applied i times about the layer's centre, runs its time
/// `i × instanceDelay` behind the first (so one animation on one sublayer becomes a wave through
/// the copies: a spinner, equaliser bars), and is tinted by `instanceColor` plus i times the
/// colour offsets. The copies are drawn only; the model has the sublayers once.
open class ReplicatorLayer: Layer {
    /// How many copies of the sublayers are drawn, the original included; 0 draws none.
    /// Defaults to 1. Not animatable.
    @LayerProperty public var instanceCount: Int = 1
    /// Applied to instance k − 1 to make instance k, about the layer's centre. Defaults to
    /// identity. Animatable. Instances stay in the layer's plane: a transform in space is
    /// applied by its affine part (no perspective between copies).
    @Animatable public var instanceTransform: Transform3D = .identity
    /// Seconds each instance's time runs behind the previous one's. Defaults to 0. Animatable.
    @Animatable public var instanceDelay: Double = 0
    /// Multiplies the colours of the first instance. Defaults to opaque white (no change).
    /// Animatable.
    @Animatable public var instanceColor: Color? = .white
    /// Added to the instance colour's red for each later instance. Defaults to 0. Animatable.
    @Animatable public var instanceRedOffset: Double = 0
    /// Added to the instance colour's green for each later instance. Defaults to 0. Animatable.
    @Animatable public var instanceGreenOffset: Double = 0
    /// Added to the instance colour's blue for each later instance. Defaults to 0. Animatable.
    @Animatable public var instanceBlueOffset: Double = 0
    /// Added to the instance colour's alpha for each later instance. Defaults to 0. Animatable.
    @Animatable public var instanceAlphaOffset: Double = 0

    /// The most instances drawn, whatever `instanceCount` says (the config refuses more).
    public static let maximumInstanceCount = 10_000

    /// Presentation copies only: the sublayers of instances 1, 2 … evaluated at their own
    /// (delayed) times; empty when every instance shows the first one's sublayers.
    var delayedInstances: [[Layer]] = []
    /// Model layers only: the animation samples the delayed instances were last evaluated at.
    var instanceSamples: [TimingSample?] = []

    /// `instanceCount` as drawn: 0…`maximumInstanceCount`.
    public var drawnInstanceCount: Int { min(max(instanceCount, 0), ReplicatorLayer.maximumInstanceCount) }

    /// Whether instances need sublayers of their own (their times differ).
    var delaysInstances: Bool { instanceDelay != 0 && instanceDelay.isFinite && drawnInstanceCount > 1 }

    /// The transform placing instance `i` in the layer's coordinates (instanceTransform applied
    /// i times about the centre), given instance i − 1's.
    func instanceTransform(after previous: Transform2D) -> Transform2D {
        let c = Point(x: bounds.midX, y: bounds.midY)
        return previous.concatenating(Transform2D(translationX: -c.x, y: -c.y)).concatenating(instanceTransform.affine)
            .concatenating(Transform2D(translationX: c.x, y: c.y))
    }

    /// The tint of instance `i`: the instance colour plus i times the offsets, each channel
    /// within 0…1.
    func instanceTint(_ i: Int) -> Color {
        let base = instanceColor ?? .white
        let k = Double(i)
        @inline(__always) func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        return Color(
            red: unit(base.red + k * instanceRedOffset), green: unit(base.green + k * instanceGreenOffset),
            blue: unit(base.blue + k * instanceBlueOffset), alpha: unit(base.alpha + k * instanceAlphaOffset))
    }

    /// The sublayers instance `i` shows.
    func sublayers(ofInstance i: Int) -> [Layer] {
        i == 0 || delayedInstances.count < i ? sublayerStorage : delayedInstances[i - 1]
    }

    /// Every instance's sublayers, where they are drawn.
    open override func visualExtent() -> Rect {
        var extent = bounds.standardized
        var place = Transform2D.identity
        for i in 0..<drawnInstanceCount {
            if i > 0 { place = instanceTransform(after: place) }
            for child in sublayers(ofInstance: i) {
                extent = extent.union(place.apply(to: Engine.extentInSuperlayer(of: child)))
            }
        }
        return extent
    }
}
