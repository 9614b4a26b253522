import VitrineGraphics

/// A transition a layer plays when the scene changes what it shows (CATransition): its
/// `contents`, `string` or `isHidden`. The old look leaves and the new one arrives: `fade`
/// dissolves one into the other; `push` slides the new in from the `subtype` side as it pushes
/// the old out; `moveIn` slides the new in over the old; `reveal` slides the old out, uncovering
/// the new. The sliding kinds are clipped to the layer's bounds (a message box's text slides
/// within the box). Paced ease-in-ease-out.
public struct LayerTransition: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable { case fade, push, moveIn, reveal }
    public enum Side: String, Sendable, CaseIterable { case fromLeft, fromRight, fromTop, fromBottom }

    public var kind: Kind
    public var subtype: Side
    /// Seconds; 0 or less means Core Animation's 0.25.
    public var duration: Double

    public init(kind: Kind, subtype: Side = .fromRight, duration: Double = 0.25) {
        self.kind = kind
        self.subtype = subtype
        self.duration = duration
    }

    /// The properties whose change plays the transition.
    public static let triggerKeys: Set<String> = ["contents", "string", "isHidden"]

    /// The key of the animation that plays a layer's transition (`Layer.animation(forKey:)`).
    public static let animationKey = "transition"
}

/// Where a running transition stands, on the presentation copy of its layer.
struct TransitionState {
    let transition: LayerTransition
    /// The layer as it was shown when the change was made (a presentation copy).
    let old: Layer
    /// 0 → 1, paced.
    let progress: Double
}

/// The animation that plays a layer's transition: it carries the old look and puts the
/// progress on each presentation copy of its layer.
final class TransitionAnimation: Animation {
    var transition = LayerTransition(kind: .fade)
    var old: Layer?

    override func copyConfiguration(from other: Animation) {
        super.copyConfiguration(from: other)
        if let other = other as? TransitionAnimation {
            transition = other.transition
            old = other.old
        }
    }

    override func apply(to layer: Layer, iterationTime time: Double, iteration: Int) {
        guard let old else { return }
        layer.transitionState = TransitionState(
            transition: transition, old: old, progress: min(max(progress(atIterationTime: time), 0), 1))
    }
}

extension Layer {
    /// Starts the layer's transition from what it showed in the last frame (a layer never
    /// shown has nothing to leave and changes at once).
    func startTransition(_ transition: LayerTransition) {
        guard let shown = lastPresentation else { return }
        let animation = TransitionAnimation()
        animation.transition = transition
        // A transition begun during another leaves the other's look as it was, without the
        // chain of looks before it (which would otherwise grow with every quick change).
        let old = shown.transitionState == nil ? shown : Engine.detachedCopy(of: shown)
        old.isLeavingLook = true
        animation.old = old
        animation.duration = transition.duration > 0 && transition.duration.isFinite ? transition.duration : 0.25
        animation.timingFunction = .easeInEaseOut
        add(animation, forKey: LayerTransition.animationKey)
    }
}
