import Glibc
import VitrineGraphics

/// A value a layer property can hold and an animation can move: the algebra animations need.
///
/// `interpolated(to:fraction:)` must return `self` at 0 and `end` at 1 and extrapolate beyond
/// (springs overshoot). `adding`, `subtracting` and `scaled` serve `byValue`, `isAdditive`,
/// `isCumulative` and cubic keyframes; `distance` paces keyframes.
public protocol Interpolatable: Equatable {
    /// The value a `fraction` of the way from `self` to `end` (0 → self, 1 → end).
    func interpolated(to end: Self, fraction: Double) -> Self
    /// `self + other`, as additive animations and `byValue` combine values.
    func adding(_ other: Self) -> Self
    /// `self − other`.
    func subtracting(_ other: Self) -> Self
    /// `self × factor` (cumulative repeats, spline tangents).
    func scaled(by factor: Double) -> Self
    /// A non-negative distance between two values, for paced keyframes.
    func distance(to other: Self) -> Double
    /// What a missing (nil) value of an optional property stands for next to this value:
    /// a transparent colour, a path collapsed to a point … Default: `self`.
    var absentCounterpart: Self { get }
    /// The component at a sub-key path such as `x`, `size.width` or `rotation.z`, or nil.
    func value(atSubPath path: Substring) -> (any Interpolatable)?
    /// A copy with the component at `path` replaced, or nil when the path or type is wrong.
    func replacing(atSubPath path: Substring, with value: any Interpolatable) -> Self?
    /// `self == other`, as the engine compares every slot of a changed layer each frame from
    /// code that is not specialised for the type. Default: `==`.
    func isSame(as other: Self) -> Bool
}

extension Interpolatable {
    public var absentCounterpart: Self { self }
    public func isSame(as other: Self) -> Bool { self == other }
    public func value(atSubPath path: Substring) -> (any Interpolatable)? { nil }
    public func replacing(atSubPath path: Substring, with value: any Interpolatable) -> Self? { nil }
}

/// Splits `a.b.c` into `a` and `b.c`.
@inline(__always)
func splitKeyPath(_ path: Substring) -> (head: Substring, rest: Substring?) {
    guard let dot = path.firstIndex(of: ".") else { return (path, nil) }
    return (path[..<dot], path[path.index(after: dot)...])
}

// MARK: - Scalars

extension Double: Interpolatable {
    public func interpolated(to end: Double, fraction: Double) -> Double {
        if fraction == 0 { return self }
        if fraction == 1 { return end }
        return self + (end - self) * fraction
    }
    public func adding(_ other: Double) -> Double { self + other }
    public func subtracting(_ other: Double) -> Double { self - other }
    public func scaled(by factor: Double) -> Double { self * factor }
    public func distance(to other: Double) -> Double { abs(self - other) }
    public var absentCounterpart: Double { 0 }
}

/// Booleans (`isHidden`, `masksToBounds`) change discretely, at the midpoint.
extension Bool: Interpolatable {
    public func interpolated(to end: Bool, fraction: Double) -> Bool { fraction < 0.5 ? self : end }
    public func adding(_ other: Bool) -> Bool { self || other }
    public func subtracting(_ other: Bool) -> Bool { self && !other }
    public func scaled(by factor: Double) -> Bool { factor == 0 ? false : self }
    public func distance(to other: Bool) -> Double { self == other ? 0 : 1 }
}

/// Dash patterns. Patterns of different lengths are first repeated to a common length (a dash
/// pattern repeats, so `[4, 2]` and `[4, 2, 4, 2]` draw the same line), then interpolated
/// element by element.
extension Array: Interpolatable where Element == Double {
    public func interpolated(to end: [Double], fraction: Double) -> [Double] {
        if fraction == 0 { return self }
        if fraction == 1 { return end }
        let (a, b) = Array.commonLength(self, end)
        return zip(a, b).map { $0.interpolated(to: $1, fraction: fraction) }
    }
    public func adding(_ other: [Double]) -> [Double] {
        let (a, b) = Array.commonLength(self, other)
        return zip(a, b).map { $0 + $1 }
    }
    public func subtracting(_ other: [Double]) -> [Double] {
        let (a, b) = Array.commonLength(self, other)
        return zip(a, b).map { $0 - $1 }
    }
    public func scaled(by factor: Double) -> [Double] { map { $0 * factor } }
    public func distance(to other: [Double]) -> Double {
        let (a, b) = Array.commonLength(self, other)
        return zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }

    /// Both patterns repeated to the least common multiple of their lengths (an empty pattern
    /// becomes zeros; past 256 elements the shorter is zero-padded instead).
    static func commonLength(_ a: [Double], _ b: [Double]) -> ([Double], [Double]) {
        if a.count == b.count { return (a, b) }
        if a.isEmpty { return (Array(repeating: 0, count: b.count), b) }
        if b.isEmpty { return (a, Array(repeating: 0, count: a.count)) }
        func gcd(_ x: Int, _ y: Int) -> Int { y == 0 ? x : gcd(y, x % y) }
        let lcm = a.count / gcd(a.count, b.count) * b.count
        if lcm <= 256 {
            return ((0..<lcm).map { a[$0 % a.count] }, (0..<lcm).map { b[$0 % b.count] })
        }
        let n = Swift.max(a.count, b.count)
        return (a + Array(repeating: 0, count: n - a.count), b + Array(repeating: 0, count: n - b.count))
    }
}

// MARK: - Optional

/// An optional property (`fillColor`, `path` …) interpolates between two values as the wrapped
/// type does; next to nil it moves from or to the value's `absentCounterpart` (a colour fades,
/// a path collapses). The endpoints are exact: nil at its end of the animation.
extension Optional: Interpolatable where Wrapped: Interpolatable {
    public func interpolated(to end: Wrapped?, fraction: Double) -> Wrapped? {
        switch (self, end) {
        case let (a?, b?): return a.interpolated(to: b, fraction: fraction)
        case (nil, nil): return nil
        case let (nil, b?):
            return fraction <= 0 ? nil : b.absentCounterpart.interpolated(to: b, fraction: fraction)
        case let (a?, nil):
            return fraction >= 1 ? nil : a.interpolated(to: a.absentCounterpart, fraction: fraction)
        }
    }
    public func adding(_ other: Wrapped?) -> Wrapped? {
        switch (self, other) {
        case let (a?, b?): return a.adding(b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }
    public func subtracting(_ other: Wrapped?) -> Wrapped? {
        switch (self, other) {
        case let (a?, b?): return a.subtracting(b)
        case let (a?, nil): return a
        case let (nil, b?): return b.absentCounterpart.subtracting(b)
        case (nil, nil): return nil
        }
    }
    public func scaled(by factor: Double) -> Wrapped? { self.map { $0.scaled(by: factor) } }
    /// Without Optional's own `==`, which unspecialised matches a pair of optionals and has the
    /// runtime look up the pair's type on every call (about 300 instructions).
    public func isSame(as other: Wrapped?) -> Bool {
        switch self {
        case .none:
            if case .none = other { return true }
            return false
        case .some(let a):
            if case .some(let b) = other { return a.isSame(as: b) }
            return false
        }
    }
    public func distance(to other: Wrapped?) -> Double {
        switch (self, other) {
        case let (a?, b?): return a.distance(to: b)
        case let (a?, nil): return a.distance(to: a.absentCounterpart)
        case let (nil, b?): return b.absentCounterpart.distance(to: b)
        case (nil, nil): return 0
        }
    }
    public func value(atSubPath path: Substring) -> (any Interpolatable)? {
        self.flatMap { $0.value(atSubPath: path) }
    }
    public func replacing(atSubPath path: Substring, with value: any Interpolatable) -> Wrapped?? {
        guard let wrapped = self, let replaced = wrapped.replacing(atSubPath: path, with: value) else { return nil }
        return .some(replaced)
    }
}

// MARK: - Working with type-erased values

/// Casts a type-erased value to `T` (a `Color` becomes a `Color?` when `T` is optional).
@inline(__always)
func coerce<T: Interpolatable>(_ value: (any Interpolatable)?, to: T.Type) -> T? {
    guard let value else { return nil }
    if let v = value as? T { return v }
    return nil
}

/// Interpolates two type-erased values of the same type; nil when their types differ.
public func interpolate(_ a: any Interpolatable, _ b: any Interpolatable, fraction: Double) -> (any Interpolatable)? {
    func open<T: Interpolatable>(_ a: T) -> (any Interpolatable)? {
        guard let b = coerce(b, to: T.self) else { return nil }
        return a.interpolated(to: b, fraction: fraction)
    }
    return open(a)
}

/// True when two type-erased values have the same type and are equal.
public func isEqualValue(_ a: (any Interpolatable)?, _ b: (any Interpolatable)?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case let (a?, b?):
        func open<T: Interpolatable>(_ a: T) -> Bool { coerce(b, to: T.self) == a }
        return open(a)
    default: return false
    }
}
