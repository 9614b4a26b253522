import Glibc

/// The pacing of an animation: a cubic Bézier from (0, 0) to (1, 1) with two control points,
/// mapping elapsed time (x) to progress (y), as CAMediaTimingFunction.
public struct TimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The first control point's x (clamped to 0…1 so the curve stays a function of time).
    public let c1x: Double
    /// The first control point's y (may leave 0…1: overshoot).
    public let c1y: Double
    /// The second control point's x (clamped to 0…1).
    public let c2x: Double
    /// The second control point's y.
    public let c2y: Double

    /// A custom curve through the control points (c1x, c1y) and (c2x, c2y).
    public init(controlPoints c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
        self.c1x = TimingFunction.clampUnit(c1x); self.c1y = c1y.isFinite ? c1y : 0
        self.c2x = TimingFunction.clampUnit(c2x); self.c2y = c2y.isFinite ? c2y : 1
    }

    /// The named curves of Core Animation.
    public enum Name: String, Sendable, CaseIterable {
        case linear, easeIn, easeOut, easeInEaseOut, `default`
    }

    /// The named curve.
    public init(name: Name) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    /// Constant speed: (0, 0), (1, 1).
    public static let linear = TimingFunction(name: .linear)
    /// Slow start: (0.42, 0), (1, 1).
    public static let easeIn = TimingFunction(name: .easeIn)
    /// Slow end: (0, 0), (0.58, 1).
    public static let easeOut = TimingFunction(name: .easeOut)
    /// Slow start and end: (0.42, 0), (0.58, 1).
    public static let easeInEaseOut = TimingFunction(name: .easeInEaseOut)
    /// The system default: (0.25, 0.1), (0.25, 1).
    public static let `default` = TimingFunction(name: .default)

    public var description: String { "cubic-bezier(\(c1x), \(c1y), \(c2x), \(c2y))" }

    /// The precision in x to which `value(at:)` solves the curve.
    public static let tolerance = 1e-7

    /// The progress (y) at elapsed fraction `x`: solves x(t) = x for the curve parameter
    /// (Newton's method, bisection when Newton stalls), then evaluates y(t). Exact at 0 and 1.
    public func value(at x: Double) -> Double {
        guard x.isFinite else { return x.isNaN ? 0 : (x > 0 ? 1 : 0) }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if c1x == c1y && c2x == c2y { return x }
        return sampleY(solveParameter(x))
    }

    // Bernstein form: B(t) = 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³, written as ((a·t + b)·t + c)·t.
    private static func coefficients(_ p1: Double, _ p2: Double) -> (Double, Double, Double) {
        let c = 3 * p1, b = 3 * (p2 - p1) - c, a = 1 - c - b
        return (a, b, c)
    }

    private func sampleX(_ t: Double) -> Double {
        let (a, b, c) = TimingFunction.coefficients(c1x, c2x)
        return ((a * t + b) * t + c) * t
    }

    private func sampleY(_ t: Double) -> Double {
        let (a, b, c) = TimingFunction.coefficients(c1y, c2y)
        return ((a * t + b) * t + c) * t
    }

    private func sampleDX(_ t: Double) -> Double {
        let (a, b, c) = TimingFunction.coefficients(c1x, c2x)
        return (3 * a * t + 2 * b) * t + c
    }

    /// The curve parameter t with x(t) = x. x(t) is non-decreasing for control x in 0…1.
    func solveParameter(_ x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < TimingFunction.tolerance { return t }
            let slope = sampleDX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
            if t < 0 || t > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<64 {
            let value = sampleX(t)
            if abs(value - x) < TimingFunction.tolerance { return t }
            if value < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }

    private static func clampUnit(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(Swift.max(v, 0), 1) }
}
