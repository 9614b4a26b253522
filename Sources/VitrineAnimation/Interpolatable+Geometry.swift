import Glibc
import VitrineGraphics

/// `distance(to:)` is VitrineGraphics' Euclidean distance.
extension Point: Interpolatable {
    public func interpolated(to end: Point, fraction: Double) -> Point {
        Point(x: x.interpolated(to: end.x, fraction: fraction), y: y.interpolated(to: end.y, fraction: fraction))
    }
    public func adding(_ other: Point) -> Point { self + other }
    public func subtracting(_ other: Point) -> Point { self - other }
    public func scaled(by factor: Double) -> Point { self * factor }
    public var absentCounterpart: Point { .zero }

    public func value(atSubPath path: Substring) -> (any Interpolatable)? {
        switch path {
        case "x": return x
        case "y": return y
        default: return nil
        }
    }
    public func replacing(atSubPath path: Substring, with value: any Interpolatable) -> Point? {
        guard let v = value as? Double else { return nil }
        switch path {
        case "x": return Point(x: v, y: y)
        case "y": return Point(x: x, y: v)
        default: return nil
        }
    }
}

extension Size: Interpolatable {
    public func interpolated(to end: Size, fraction: Double) -> Size {
        Size(
            width: width.interpolated(to: end.width, fraction: fraction),
            height: height.interpolated(to: end.height, fraction: fraction))
    }
    public func adding(_ other: Size) -> Size { Size(width: width + other.width, height: height + other.height) }
    public func subtracting(_ other: Size) -> Size { Size(width: width - other.width, height: height - other.height) }
    public func scaled(by factor: Double) -> Size { Size(width: width * factor, height: height * factor) }
    public func distance(to other: Size) -> Double {
        ((width - other.width) * (width - other.width) + (height - other.height) * (height - other.height)).squareRoot()
    }
    public var absentCounterpart: Size { .zero }

    public func value(atSubPath path: Substring) -> (any Interpolatable)? {
        switch path {
        case "width": return width
        case "height": return height
        default: return nil
        }
    }
    public func replacing(atSubPath path: Substring, with value: any Interpolatable) -> Size? {
        guard let v = value as? Double else { return nil }
        switch path {
        case "width": return Size(width: v, height: height)
        case "height": return Size(width: width, height: v)
        default: return nil
        }
    }
}

extension Rect: Interpolatable {
    public func interpolated(to end: Rect, fraction: Double) -> Rect {
        Rect(
            origin: origin.interpolated(to: end.origin, fraction: fraction),
            size: size.interpolated(to: end.size, fraction: fraction))
    }
    public func adding(_ other: Rect) -> Rect { Rect(origin: origin + other.origin, size: size.adding(other.size)) }
    public func subtracting(_ other: Rect) -> Rect {
        Rect(origin: origin - other.origin, size: size.subtracting(other.size))
    }
    public func scaled(by factor: Double) -> Rect { Rect(origin: origin * factor, size: size.scaled(by: factor)) }
    public func distance(to other: Rect) -> Double {
        let d = origin.distance(to: other.origin), s = size.distance(to: other.size)
        return (d * d + s * s).squareRoot()
    }
    public var absentCounterpart: Rect { Rect(origin: center, size: .zero) }

    /// Sub-keys: `origin`, `size`, and their components (`origin.x`, `size.width` …).
    public func value(atSubPath path: Substring) -> (any Interpolatable)? {
        let (head, rest) = splitKeyPath(path)
        let part: any Interpolatable
        switch head {
        case "origin": part = origin
        case "size": part = size
        default: return nil
        }
        guard let rest else { return part }
        return part.value(atSubPath: rest)
    }
    public func replacing(atSubPath path: Substring, with value: any Interpolatable) -> Rect? {
        let (head, rest) = splitKeyPath(path)
        switch head {
        case "origin":
            let o: Point? = rest.map { origin.replacing(atSubPath: $0, with: value) } ?? (value as? Point)
            return o.map { Rect(origin: $0, size: size) }
        case "size":
            let s: Size? = rest.map { size.replacing(atSubPath: $0, with: value) } ?? (value as? Size)
            return s.map { Rect(origin: origin, size: $0) }
        default: return nil
        }
    }
}

/// Colours interpolate with premultiplied components, so fading from a transparent colour
/// never passes through a dark fringe (straight-alpha interpolation from clear black would).
/// `adding`/`subtracting`/`scaled` work on the straight components.
extension Color: Interpolatable {
    public func interpolated(to end: Color, fraction: Double) -> Color {
        if fraction == 0 { return self }
        if fraction == 1 { return end }
        let a = alpha.interpolated(to: end.alpha, fraction: fraction)
        func channel(_ c0: Double, _ c1: Double) -> Double {
            let premultiplied = (c0 * alpha).interpolated(to: c1 * end.alpha, fraction: fraction)
            if a != 0 { return premultiplied / a }
            return c0.interpolated(to: c1, fraction: fraction)
        }
        return Color(
            red: channel(red, end.red), green: channel(green, end.green),
            blue: channel(blue, end.blue), alpha: a)
    }
    public func adding(_ o: Color) -> Color {
        Color(red: red + o.red, green: green + o.green, blue: blue + o.blue, alpha: alpha + o.alpha)
    }
    public func subtracting(_ o: Color) -> Color {
        Color(red: red - o.red, green: green - o.green, blue: blue - o.blue, alpha: alpha - o.alpha)
    }
    public func scaled(by f: Double) -> Color {
        Color(red: red * f, green: green * f, blue: blue * f, alpha: alpha * f)
    }
    public func distance(to o: Color) -> Double {
        let dr = red - o.red, dg = green - o.green, db = blue - o.blue, da = alpha - o.alpha
        return (dr * dr + dg * dg + db * db + da * da).squareRoot()
    }
    /// The same colour, fully transparent: a nil colour fades in and out.
    public var absentCounterpart: Color { Color(red: red, green: green, blue: blue, alpha: 0) }
}
