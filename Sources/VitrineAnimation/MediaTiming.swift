import Glibc

/// What an animation shows outside its active interval (kCAFillMode…).
public enum FillMode: String, Sendable, CaseIterable {
    /// Nothing: before it starts and after it ends the animation does not affect the layer
    /// (Core Animation's `kCAFillModeRemoved`, the default).
    case removed
    /// After the end, hold the final value (while the animation stays on the layer).
    case forwards
    /// Before the start (a `beginTime` in the future), show the initial value.
    case backwards
    /// Both `forwards` and `backwards`.
    case both

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// The timing of an animation, as CAMediaTiming. Times are seconds in the parent's time space
/// (the layer's, or the enclosing group's).
public protocol MediaTiming: AnyObject {
    /// When the object begins, in its parent's time. Default 0 (for an animation added to a
    /// layer: the time it is committed).
    var beginTime: Double { get set }
    /// The length of one simple iteration, in local time. Default 0, which means 0.25 s.
    var duration: Double { get set }
    /// How fast local time runs relative to the parent's; 0 pauses. Default 1.
    var speed: Double { get set }
    /// An offset added to local time, wrapping within the active duration. Default 0.
    var timeOffset: Double { get set }
    /// How many iterations play; fractional and `.infinity` allowed. Default 0, meaning 1.
    var repeatCount: Double { get set }
    /// How long to repeat for, in local time (instead of `repeatCount`). Default 0: unused.
    var repeatDuration: Double { get set }
    /// Whether each iteration plays forward then backward. Default false.
    var autoreverses: Bool { get set }
    /// What shows outside the active interval. Default `.removed`.
    var fillMode: FillMode { get set }
}

/// Where a timed object is at a given parent time.
struct TimingSample: Equatable {
    enum Phase: Equatable { case before, active, after }
    let phase: Phase
    /// Seconds into the current simple iteration (0…duration, after reversal), or nil when
    /// the object does not apply at this time.
    let iterationTime: Double?
    /// Completed cycles before the current one (for cumulative animations).
    let iteration: Int
}

extension MediaTiming {
    /// The duration of one simple iteration: `duration`, or 0.25 s when it is 0.
    var simpleDuration: Double { duration > 0 ? duration : 0.25 }

    /// One cycle: forward, and back again when autoreversing.
    var cycleDuration: Double { simpleDuration * (autoreverses ? 2 : 1) }

    /// How long the object is active, in local time.
    var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        let count = repeatCount > 0 ? repeatCount : 1
        return cycleDuration * count
    }

    /// The object's position at parent time `t`. `removedAtEnd` says the object stops
    /// applying once it ends, whatever its fill mode (a removed-on-completion animation).
    func sample(atParentTime t: Double, removedAtEnd: Bool) -> TimingSample {
        let active = activeDuration
        let rate = abs(speed)
        let phase: TimingSample.Phase
        var elapsed = 0.0
        if t < beginTime {
            phase = .before
        } else {
            elapsed = rate == 0 ? 0 : (t - beginTime) * rate
            phase = rate != 0 && elapsed >= active ? .after : .active
        }
        var local: Double
        var atEnd: Bool
        switch phase {
        case .before:
            guard fillMode.fillsBackwards else { return TimingSample(phase: phase, iterationTime: nil, iteration: 0) }
            local = 0; atEnd = false
        case .active:
            local = elapsed; atEnd = false
        case .after:
            guard fillMode.fillsForwards, !removedAtEnd else {
                return TimingSample(phase: phase, iterationTime: nil, iteration: 0)
            }
            local = active; atEnd = true
        }
        if speed < 0 {
            // Playing backwards: the start of the active interval shows the end of the media.
            local = active - local
            atEnd = phase == .before
        }
        return position(atLocalTime: local + timeOffset, leftLimit: atEnd, phase: phase)
    }

    /// Maps local time (offset included) to the iteration and the time within it.
    /// `leftLimit` picks the end of an iteration at an exact boundary (the held final value).
    private func position(atLocalTime time: Double, leftLimit: Bool, phase: TimingSample.Phase) -> TimingSample {
        let active = activeDuration, cycle = cycleDuration, d = simpleDuration
        var p = time
        if active.isFinite && active > 0 {
            let wrapped = p - (p / active).rounded(.down) * active
            p = leftLimit && p > 0 && wrapped == 0 ? active : wrapped
        }
        guard cycle.isFinite && cycle > 0 else {
            return TimingSample(phase: phase, iterationTime: max(0, p), iteration: 0)
        }
        var iteration = (p / cycle).rounded(.down)
        var c = p - iteration * cycle
        if leftLimit && p > 0 && c == 0 { iteration -= 1; c = cycle }
        let s = autoreverses && c > d ? 2 * d - c : min(c, d)
        let count = iteration.isFinite ? Int(max(0, min(iteration, Double(Int32.max)))) : 0
        return TimingSample(phase: phase, iterationTime: max(0, s), iteration: count)
    }
}
