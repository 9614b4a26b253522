import Glibc

/// Hears an animation start and stop (CAAnimationDelegate). Both methods default to nothing.
public protocol AnimationDelegate: AnyObject {
    /// The animation's active interval has begun.
    func animationDidStart(_ animation: Animation)
    /// The animation ended (`finished` true) or was removed before its end (`finished` false).
    func animationDidStop(_ animation: Animation, finished: Bool)
}

extension AnimationDelegate {
    public func animationDidStart(_ animation: Animation) {}
    public func animationDidStop(_ animation: Animation, finished: Bool) {}
}

/// The base of every animation (CAAnimation): media timing, pacing, delegate and removal.
/// Adding an animation to a layer adds a copy, so changing it afterwards has no effect; the
/// delegate hears about that copy.
open class Animation: Action, MediaTiming {
    /// When the animation begins, in the layer's time; 0 means the time it is committed. Default 0.
    public var beginTime: Double = 0
    /// One simple iteration in seconds. Default 0, meaning 0.25 s.
    public var duration: Double = 0
    /// Rate relative to the layer's time; 0 pauses. Default 1.
    public var speed: Double = 1
    /// Offset into the animation's local time, wrapping within the active duration. Default 0.
    public var timeOffset: Double = 0
    /// Number of iterations, fractional or `.infinity`. Default 0 (one).
    public var repeatCount: Double = 0
    /// Seconds to repeat for, instead of a count. Default 0 (unused).
    public var repeatDuration: Double = 0
    /// Play each iteration forward then backward. Default false.
    public var autoreverses = false
    /// What shows outside the active interval. Default `.removed`.
    public var fillMode: FillMode = .removed
    /// The pacing of each iteration; nil means linear. Default nil.
    public var timingFunction: TimingFunction?
    /// Remove the animation from its layer when it ends. Default true.
    public var isRemovedOnCompletion = true
    /// Hears start and stop. Held strongly, as Core Animation does. Default nil.
    public var delegate: AnimationDelegate?

    /// State of an added copy: commit, start/stop notifications, transaction completions.
    let runtime = AnimationRuntime()

    /// A new animation with default timing.
    public required init() {}

    /// An independent copy with the same configuration (no runtime state).
    open func copy() -> Animation {
        let c = type(of: self).init()
        c.copyConfiguration(from: self)
        return c
    }

    /// Copies every configurable property of `other`; subclasses add theirs and call super.
    open func copyConfiguration(from other: Animation) {
        beginTime = other.beginTime; duration = other.duration; speed = other.speed
        timeOffset = other.timeOffset; repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration; autoreverses = other.autoreverses
        fillMode = other.fillMode; timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion; delegate = other.delegate
    }

    /// As an action: adds the animation to `layer` under `key`.
    public func run(forKey key: String, object layer: Layer, arguments: [String: Any]?) {
        if let property = self as? PropertyAnimation, property.keyPath == nil {
            let c = property.copy() as! PropertyAnimation
            c.keyPath = key
            layer.add(c, forKey: key)
        } else {
            layer.add(self, forKey: key)
        }
    }

    /// The paced fraction (0…1, possibly beyond for overshooting curves) at `time` seconds
    /// into an iteration.
    func progress(atIterationTime time: Double) -> Double {
        let linear = time / simpleDuration
        return timingFunction?.value(at: linear) ?? min(max(linear, 0), 1)
    }

    /// Applies the animation to a presentation copy at `time` in the layer's (or group's) time.
    func apply(to layer: Layer, atParentTime time: Double, removedAtEnd: Bool) {
        apply(to: layer, sample: sample(atParentTime: time, removedAtEnd: removedAtEnd))
    }

    /// Applies the animation to a presentation copy where `sample` places it.
    func apply(to layer: Layer, sample s: TimingSample) {
        guard let t = s.iterationTime else { return }
        apply(to: layer, iterationTime: t, iteration: s.iteration)
    }

    /// Writes the animated value(s) for `time` seconds into iteration `iteration`. The base
    /// animation animates nothing.
    func apply(to layer: Layer, iterationTime time: Double, iteration: Int) {}
}

/// Bookkeeping of an animation once added to a layer.
final class AnimationRuntime {
    /// The engine has seen it (its begin time is resolved and it is evaluated).
    var isCommitted = false
    /// The scene time at which it was added, when the layer's tree had an engine.
    var addedAt: Double?
    var didStart = false
    var didStop = false
    /// Where the animation stood when its layer's current presentation copy was made (the
    /// engine reuses the copy while every sample stays the same).
    var presentedSample: TimingSample?
    /// The value shown before it was added, for a basic animation with no values.
    var capturedValue: (any Interpolatable)?
    /// Transactions waiting for this animation before running their completion blocks.
    var completionGroups: [TransactionCompletion] = []

    /// Tells the waiting transactions the animation is over (once).
    func releaseCompletionGroups() {
        let groups = completionGroups
        completionGroups = []
        for g in groups { g.animationEnded() }
    }
}
