import VitrineAnimation
import VitrineConfig
import VitrineGraphics

/// The animations of one transition between two scene holders, in the holders' time (the
/// engine's): `fade` dissolves the outgoing scene into the incoming one, `push` slides the
/// incoming scene in from the right as it pushes the outgoing one out to the left. The outgoing
/// scene's own animations keep running underneath; the player removes it when the transition
/// ends. Both use ease-in-ease-out pacing.
struct SceneTransition {
    /// The key the transition's animations are added under (one per holder).
    static let animationKey = "vitrine.transition"

    var style: Transition
    var duration: Double
    var beginTime: Double

    /// Adds the animations to the holders, which are at rest in a viewport `width` pixels wide
    /// over the player's `background`.
    func apply(incoming: Layer, outgoing: Layer, width: Double, background: Color) {
        switch style {
        case .none:
            return
        case .fade:
            // The incoming scene fades in with the background under it, so it hides the outgoing
            // one as much as it shows itself: old × (1 − p) + new × p, with no scene's drawing
            // left at full strength until it is taken away (`end(incoming:)` takes it back).
            incoming.backgroundColor = background
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

    /// Ends the transition for the incoming holder, at rest: its animations and the background
    /// a fade gave it go (the stage's shows through it again).
    static func end(incoming: Layer) {
        incoming.removeAnimation(forKey: SceneTransition.animationKey)
        incoming.backgroundColor = nil
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
