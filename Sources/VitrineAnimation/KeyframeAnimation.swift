import Glibc
import VitrineGraphics

/// How a keyframe animation moves between its values (kCAAnimation… calculation modes).
public enum CalculationMode: String, Sendable, CaseIterable {
    /// Straight interpolation between consecutive values at `keyTimes`.
    case linear
    /// Each value held until the next key time; `keyTimes` has one more entry than `values`.
    case discrete
    /// Constant speed: key times from the distances between values; `keyTimes` and
    /// `timingFunctions` are ignored.
    case paced
    /// A smooth Catmull-Rom spline through the values at `keyTimes`.
    case cubic
    /// The cubic spline travelled at constant speed.
    case cubicPaced
}

/// How a layer moved along a keyframe `path` turns (kCAAnimationRotate…).
public enum RotationMode: String, Sendable, CaseIterable {
    /// Rotate with the path's tangent.
    case auto
    /// Rotate with the path's tangent plus half a turn.
    case autoReverse
}

/// Moves a property through a sequence of values, or a point property along a path
/// (CAKeyframeAnimation). The animation's own `timingFunction` paces the whole; `timingFunctions`
/// pace each segment.
open class KeyframeAnimation: PropertyAnimation {
    /// The keyframe values, all of the property's type. Default nil.
    public var values: [any Interpolatable]? { didSet { typedValues = nil } }
    /// `values` in the type a frame last asked for, kept while `values` stays the same (each
    /// frame would otherwise copy them into a new array).
    private var typedValues: (type: ObjectIdentifier, values: Any)?
    /// A path for a point property (`position`); when set, `values` are ignored. Default nil.
    public var path: Path?
    /// The time (0…1) of each keyframe; nil spaces them evenly. Default nil.
    public var keyTimes: [Double]?
    /// One timing function per segment (values.count − 1 of them). Default nil: linear.
    public var timingFunctions: [TimingFunction]?
    /// How the values are connected. Default `.linear`.
    public var calculationMode: CalculationMode = .linear
    /// Turn the layer with the path's direction; only with `path`. Default nil: no rotation.
    public var rotationMode: RotationMode?

    open override func copyConfiguration(from other: Animation) {
        super.copyConfiguration(from: other)
        guard let o = other as? KeyframeAnimation else { return }
        values = o.values; path = o.path; keyTimes = o.keyTimes; timingFunctions = o.timingFunctions
        calculationMode = o.calculationMode; rotationMode = o.rotationMode
    }

    override func apply(to layer: Layer, iterationTime time: Double, iteration: Int) {
        super.apply(to: layer, iterationTime: time, iteration: iteration)
        guard let rotationMode, let path, let walker = PathWalker(path) else { return }
        let tangent = walker.sample(at: progress(atIterationTime: time), animation: self).tangent
        var angle = atan2(tangent.y, tangent.x)
        if rotationMode == .autoReverse { angle += .pi }
        layer.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1).concatenating(layer.transform)
    }

    override func value<T: Interpolatable>(atIterationTime time: Double, underlying: T) -> T? {
        let f = progress(atIterationTime: time)
        if let path {
            guard let walker = PathWalker(path) else { return nil }
            let point = walker.sample(at: f, animation: self).point
            return coerce(point, to: T.self)
        }
        guard let raw = values, !raw.isEmpty else { return nil }
        let typed: [T]
        if let kept = typedValues, kept.type == ObjectIdentifier(T.self), let values = kept.values as? [T] {
            typed = values
        } else {
            var converted: [T] = []
            converted.reserveCapacity(raw.count)
            for v in raw {
                guard let t = coerce(v, to: T.self) else { return nil }
                converted.append(t)
            }
            typedValues = (ObjectIdentifier(T.self), converted)
            typed = converted
        }
        return KeyframeAnimation.interpolate(
            typed, at: f, mode: calculationMode, keyTimes: keyTimes,
            timingFunctions: timingFunctions)
    }

    /// The value of a keyframe sequence at overall fraction `f`.
    static func interpolate<T: Interpolatable>(
        _ v: [T], at f: Double, mode: CalculationMode,
        keyTimes: [Double]?, timingFunctions: [TimingFunction]?
    ) -> T {
        let n = v.count
        if n == 1 { return v[0] }
        switch mode {
        case .discrete:
            // Value i starts at keyTimes[i], or at i / n.
            let given = keyTimes.flatMap { k in k.count == n + 1 || k.count == n ? k : nil }
            let starts = given.map(isNonDecreasing) == true ? given : nil
            if f >= 1 { return v[n - 1] }
            var i = 0
            while i + 1 < n && f >= (starts?[i + 1] ?? Double(i + 1) / Double(n)) { i += 1 }
            return v[i]
        case .linear, .cubic:
            let times: [Double]
            if let k = keyTimes, k.count == n, isNonDecreasing(k) { times = k } else { times = uniformTimes(n) }
            let (i, local) = segment(at: f, times: times)
            let paced = timingFunctions.flatMap { i < $0.count ? $0[i] : $0.last }?.value(at: local) ?? local
            if mode == .linear { return v[i].interpolated(to: v[i + 1], fraction: paced) }
            return hermite(v, times: times, segment: i, local: paced)
        case .paced:
            var cumulative = [0.0]
            for i in 1..<n { cumulative.append(cumulative[i - 1] + v[i - 1].distance(to: v[i])) }
            let total = cumulative[n - 1]
            // Distances too large to add up (values near ±Double.greatestFiniteMagnitude) pace
            // evenly, as equal distances do.
            let times = total > 0 && total.isFinite ? cumulative.map { $0 / total } : uniformTimes(n)
            let (i, local) = segment(at: f, times: times)
            return v[i].interpolated(to: v[i + 1], fraction: local)
        case .cubicPaced:
            let times = uniformTimes(n)
            let samples = 16
            var table = [0.0]
            var previous = v[0]
            for i in 0..<(n - 1) {
                for s in 1...samples {
                    let p = hermite(v, times: times, segment: i, local: Double(s) / Double(samples))
                    table.append(table[table.count - 1] + previous.distance(to: p))
                    previous = p
                }
            }
            let total = table[table.count - 1]
            guard total > 0 else { return v[0] }
            guard total.isFinite else {
                let (i, local) = segment(at: f, times: times)
                return hermite(v, times: times, segment: i, local: local)
            }
            let target = min(max(f, 0), 1) * total
            var j = 0
            while j + 1 < table.count - 1 && table[j + 1] < target { j += 1 }
            let span = table[j + 1] - table[j]
            let u = (Double(j) + (span > 0 ? (target - table[j]) / span : 0)) / Double(samples)
            let i = min(Int(u), n - 2)
            return hermite(v, times: times, segment: i, local: u - Double(i))
        }
    }

    static func uniformTimes(_ n: Int) -> [Double] { (0..<n).map { Double($0) / Double(n - 1) } }

    static func isNonDecreasing(_ k: [Double]) -> Bool {
        zip(k, k.dropFirst()).allSatisfy { $0 <= $1 } && k.allSatisfy(\.isFinite)
    }

    /// The segment containing `f` and the fraction within it (clamped to the first/last key).
    static func segment(at f: Double, times: [Double]) -> (Int, Double) {
        let n = times.count
        if f <= times[0] { return (0, 0) }
        if f >= times[n - 1] { return (n - 2, 1) }
        var i = 0
        while i < n - 2 && f >= times[i + 1] { i += 1 }
        let span = times[i + 1] - times[i]
        return (i, span > 0 ? (f - times[i]) / span : 1)
    }

    /// Catmull-Rom (cubic Hermite) interpolation in segment `i` at `local` ∈ 0…1, with tangents
    /// (per unit time) from the neighbouring keys; the end keys are mirrored.
    static func hermite<T: Interpolatable>(_ v: [T], times: [Double], segment i: Int, local s: Double) -> T {
        let n = v.count
        func tangent(_ k: Int) -> T {
            let prev = max(k - 1, 0), next = min(k + 1, n - 1)
            var dt = times[next] - times[prev]
            if k == 0 || k == n - 1 { dt *= 2 }
            return dt > 0 ? v[next].subtracting(v[prev]).scaled(by: 1 / dt) : v[k].subtracting(v[k])
        }
        let h = times[i + 1] - times[i]
        let s2 = s * s, s3 = s2 * s
        let h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        // Written as v_i + (v_{i+1} − v_i)·h01 + tangents, so that h00 + h01 = 1 needs no zero value.
        return v[i].adding(v[i + 1].subtracting(v[i]).scaled(by: h01))
            .adding(tangent(i).scaled(by: h10 * h))
            .adding(tangent(i + 1).scaled(by: h11 * h))
    }
}

/// A keyframe path as a sequence of cubic segments, walked by time or by arc length.
struct PathWalker {
    let segments: [CubicSegment]
    let tables: [[Double]]
    let cumulative: [Double]

    init?(_ path: Path) {
        var segs: [CubicSegment] = []
        for sub in CubicSubpath.subpaths(of: path) {
            if sub.segments.isEmpty { segs.append(.line(sub.start, sub.start)) }
            segs += sub.segments
        }
        guard !segs.isEmpty else { return nil }
        segments = segs
        var tables: [[Double]] = [], cumulative: [Double] = []
        var total = 0.0
        for s in segs {
            let t = s.lengthTable()
            total += t[t.count - 1]
            tables.append(t); cumulative.append(total)
        }
        self.tables = tables; self.cumulative = cumulative
    }

    /// The point and tangent at overall fraction `f` under the animation's calculation mode.
    func sample(at f: Double, animation a: KeyframeAnimation) -> (point: Point, tangent: Point) {
        let n = segments.count
        switch a.calculationMode {
        case .discrete:
            // The keyframes are the path's points: pick one by the discrete rule.
            let points = [segments[0].p0] + segments.map(\.p3)
            let k = Int(
                KeyframeAnimation.interpolate(
                    points.indices.map(Double.init), at: f, mode: .discrete,
                    keyTimes: a.keyTimes, timingFunctions: nil))
            let seg = segments[min(max(k - 1, 0), n - 1)]
            return (points[k], seg.tangent(at: k == 0 ? 0 : 1))
        case .linear, .cubic:
            let times: [Double]
            if let k = a.keyTimes, k.count == n + 1, KeyframeAnimation.isNonDecreasing(k) {
                times = k
            } else {
                times = KeyframeAnimation.uniformTimes(n + 1)
            }
            let (i, local) = KeyframeAnimation.segment(at: f, times: times)
            let paced = a.timingFunctions.flatMap { i < $0.count ? $0[i] : $0.last }?.value(at: local) ?? local
            return (segments[i].point(at: paced), segments[i].tangent(at: paced))
        case .paced, .cubicPaced:
            let total = cumulative[n - 1]
            let target = min(max(f, 0), 1) * total
            var j = 0
            while j < n - 1 && cumulative[j] < target { j += 1 }
            let begin = j == 0 ? 0 : cumulative[j - 1]
            let t = total > 0 ? CubicSegment.parameter(atLength: target - begin, table: tables[j]) : min(max(f, 0), 1)
            return (segments[j].point(at: t), segments[j].tangent(at: t))
        }
    }
}
