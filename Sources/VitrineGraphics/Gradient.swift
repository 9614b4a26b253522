/// A paint that varies across a shape (CAGradientLayer's kinds): colours at stops from 0 to 1
/// along a line (axial), out from a centre (radial) or round a centre (conic). Points are in
/// the coordinates of the shape painted. Colours are interpolated in sRGB-encoded,
/// unpremultiplied values, as Core Animation and Skia do; beyond the ends the end colours go on.
public struct Gradient: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        /// From `start` to `end`.
        case axial
        /// A circle centred on `start` with radius |end − start|.
        case radial
        /// Round `start`, the first colour pointing towards `end`, the stops running clockwise on
        /// screen through one full turn.
        case conic
    }

    public var kind: Kind
    /// At least one colour.
    public var colors: [Color]
    /// Where each colour sits, 0…1 and not decreasing; nil spaces them evenly.
    public var locations: [Double]?
    public var start: Point
    public var end: Point

    public init(kind: Kind, colors: [Color], locations: [Double]? = nil, start: Point, end: Point) {
        self.kind = kind
        self.colors = colors
        self.locations = locations
        self.start = start
        self.end = end
    }

    /// The stop positions used: `locations` when there is one per colour (clamped to 0…1 and
    /// made non-decreasing), else evenly spaced.
    var stops: [Double] {
        guard let locations, locations.count == colors.count else {
            return colors.count < 2 ? [0] : (0..<colors.count).map { Double($0) / Double(colors.count - 1) }
        }
        var last = 0.0
        return locations.map { location in
            last = max(last, location.isNaN ? 0 : min(max(location, 0), 1))
            return last
        }
    }

    /// The colour at `t` (0…1; outside, the nearest end's).
    public func color(at t: Double) -> Color { color(at: t, stops: stops) }

    /// The colour at `t` with the stop positions computed once by the caller.
    func color(at t: Double, stops positions: [Double]) -> Color {
        guard let first = colors.first else { return Color(red: 0, green: 0, blue: 0, alpha: 0) }
        guard t > positions[0] else { return first }
        for i in 1..<colors.count where t <= positions[i] {
            let span = positions[i] - positions[i - 1]
            let f = span > 0 ? (t - positions[i - 1]) / span : 1
            let a = colors[i - 1], b = colors[i]
            return Color(
                red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
                blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f)
        }
        return colors[colors.count - 1]
    }
}
