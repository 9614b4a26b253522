import Glibc

/// Runs several animations together in the group's time (CAAnimationGroup): each child's
/// `beginTime`, `speed` … are relative to the group's local time, so speeds multiply and the
/// group's active interval clips its children. Children apply in order; their own
/// `isRemovedOnCompletion` and delegates are not used.
open class AnimationGroup: Animation {
    /// The grouped animations. Default empty.
    public var animations: [Animation] = []

    open override func copyConfiguration(from other: Animation) {
        super.copyConfiguration(from: other)
        guard let o = other as? AnimationGroup else { return }
        animations = o.animations.map { $0.copy() }
    }

    override func apply(to layer: Layer, iterationTime time: Double, iteration: Int) {
        // The group's pacing reshapes its local time; children see seconds.
        let groupTime = timingFunction == nil ? time : progress(atIterationTime: time) * simpleDuration
        for child in animations {
            child.apply(to: layer, atParentTime: groupTime, removedAtEnd: false)
        }
    }
}
