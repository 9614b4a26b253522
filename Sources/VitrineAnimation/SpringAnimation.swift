import Glibc

/// A basic animation paced by a damped spring (CASpringAnimation): the value travels from the
/// start to the end value as a mass on a spring released with `initialVelocity`, in closed form
/// for the under-, critically and over-damped cases. The timing function is not used; time is
/// the seconds into the iteration, so set `duration` to `settlingDuration` to see it come to rest.
open class SpringAnimation: BasicAnimation {
    /// The mass on the spring. Must be > 0. Default 1.
    public var mass = 1.0
    /// The spring constant. Must be > 0. Default 100.
    public var stiffness = 100.0
    /// The friction coefficient. Must be ≥ 0. Default 10.
    public var damping = 10.0
    /// The speed at release, in units of the whole distance per second (1 covers the distance
    /// in one second). Default 0.
    public var initialVelocity = 0.0

    /// The displacement (as a fraction of the distance) below which the spring counts as settled.
    public static let settlingThreshold = 0.001

    open override func copyConfiguration(from other: Animation) {
        super.copyConfiguration(from: other)
        guard let o = other as? SpringAnimation else { return }
        mass = o.mass; stiffness = o.stiffness; damping = o.damping; initialVelocity = o.initialVelocity
    }

    /// The spring's motion for the current parameters.
    public var solution: SpringSolution {
        SpringSolution(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
    }

    /// The time after which the spring stays within `settlingThreshold` of the end value.
    public var settlingDuration: Double { solution.settlingTime(threshold: SpringAnimation.settlingThreshold) }

    override func progress(atIterationTime time: Double) -> Double { solution.fraction(at: time) }
}

/// The closed-form solution of m·x″ + c·x′ + k·x = 0 for a spring released at fraction 0 with
/// velocity v₀ toward its rest position at fraction 1. Invalid parameters (non-positive mass or
/// stiffness, negative damping) are clamped to the nearest valid ones.
public struct SpringSolution: Sendable, Equatable {
    /// The natural angular frequency √(k/m).
    public let omega: Double
    /// The damping ratio c / (2√(km)): < 1 under-damped, 1 critical, > 1 over-damped.
    public let zeta: Double
    /// The initial velocity in fractions of the distance per second.
    public let initialVelocity: Double

    public init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
        let m = mass.isFinite && mass > 0 ? mass : 1e-6
        let k = stiffness.isFinite && stiffness > 0 ? stiffness : 1e-6
        let c = damping.isFinite && damping > 0 ? damping : 0
        omega = (k / m).squareRoot()
        zeta = c / (2 * (k * m).squareRoot())
        self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
    }

    private static let criticalBand = 1e-9

    /// The displacement from rest u(t) = x(t) − 1 (u(0) = −1, u′(0) = v₀).
    public func displacement(at t: Double) -> Double {
        let u0 = -1.0, v0 = initialVelocity
        if zeta < 1 - SpringSolution.criticalBand {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            let b = (v0 + zeta * omega * u0) / wd
            return exp(-zeta * omega * t) * (u0 * cos(wd * t) + b * sin(wd * t))
        } else if zeta > 1 + SpringSolution.criticalBand {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega * (zeta - root), r2 = -omega * (zeta + root)
            let c2 = (v0 - r1 * u0) / (r2 - r1), c1 = u0 - c2
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        } else {
            let b = v0 + omega * u0
            return (u0 + b * t) * exp(-omega * t)
        }
    }

    /// The fraction of the way from start to end at `t` seconds (overshoots past 1 when under-damped).
    public func fraction(at t: Double) -> Double { 1 + displacement(at: max(0, t)) }

    /// An upper bound of |u(t)| that decreases with t once past its peak.
    private func envelope(at t: Double) -> Double {
        let u0 = -1.0, v0 = initialVelocity
        if zeta < 1 - SpringSolution.criticalBand {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            let b = (v0 + zeta * omega * u0) / wd
            return exp(-zeta * omega * t) * (u0 * u0 + b * b).squareRoot()
        } else if zeta > 1 + SpringSolution.criticalBand {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega * (zeta - root), r2 = -omega * (zeta + root)
            let c2 = (v0 - r1 * u0) / (r2 - r1), c1 = u0 - c2
            return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        } else {
            let b = v0 + omega * u0
            return (abs(u0) + abs(b) * t) * exp(-omega * t)
        }
    }

    /// The first time after which the envelope of the motion stays below `threshold`
    /// (0 when the spring never moves away; `.infinity` for an undamped spring).
    public func settlingTime(threshold: Double) -> Double {
        guard zeta > 0 else { return .infinity }
        // The envelope may rise at first (critical/over-damped with velocity): step past its peak.
        var hi = 1.0 / max(omega, 1e-9)
        var steps = 0
        while envelope(at: hi) >= threshold || envelope(at: hi * 2) > envelope(at: hi) {
            hi *= 2; steps += 1
            if steps > 200 || !hi.isFinite { return .infinity }
        }
        var lo = 0.0
        if envelope(at: 0) < threshold { return 0 }
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if envelope(at: mid) < threshold { hi = mid } else { lo = mid }
        }
        return hi
    }
}
