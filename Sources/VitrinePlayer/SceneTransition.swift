import VitrineAnimation
import VitrineConfig
import VitrineGraphics

/// The animations of one transition between two scene holders, in the holders' time (the
/// engine's): `fade` dissolves the incoming scene in over the outgoing one, `push` slides the
/// incoming scene in from the right as it pushes the outgoing one out to the left. The outgoing
/// scene's own animations keep running underneath; the player removes it when the transition
/// ends. Both use ease-in-ease-out pacing.
struct SceneTransition {
    /// The key the transition's animations are added under (one per holder).
    static let animationKey = "vitrine.transition"

    var style: Transition
    var duration: Double
    var beginTime: Double

    /// Adds the animations to the holders, which are at rest in a viewport `width` pixels wide.
    func apply(incoming: Layer, outgoing: Layer, width: Double) {
        switch style {
        case .none:
            return
        case .fade:
            incoming.add(animation("opacity", from: 0.0, to: 1.0), forKey: SceneTransition.animationKey)
        case .push:
            let rest = incoming.position
            incoming.add(
                animation("position", from: Point(x: rest.x + width, y: rest.y), to: rest),
                forKey: SceneTransition.animationKey)
            let out = outgoing.position
            outgoing.add(
                animation("position", from: out, to: Point(x: out.x - width, y: out.y)),
                forKey: SceneTransition.animationKey)
        }
    }

    private func animation(_ keyPath: String, from: any Interpolatable, to: any Interpolatable) -> BasicAnimation {
        let a = BasicAnimation(keyPath: keyPath)
        a.fromValue = from
        a.toValue = to
        a.beginTime = beginTime
        a.duration = duration
        a.timingFunction = .easeInEaseOut
        return a
    }
}
