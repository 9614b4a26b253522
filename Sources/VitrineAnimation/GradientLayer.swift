import VitrineGraphics

/// CAGradientLayer: its bounds filled with a gradient of `colors` at `locations`, from
/// `startPoint` to `endPoint` in unit coordinates of the bounds ((0, 0) the top-left, (1, 1) the
/// bottom-right, as Core Animation's on a flipped layer). `gradientType` is Core Animation's
/// `type`: axial (along the line), radial (an ellipse centred on `startPoint`, reaching
/// `endPoint` on each axis) or conic (round `startPoint`, starting towards `endPoint`,
/// clockwise on screen). Every property but the type animates.
open class GradientLayer: Layer {
    /// The colours of the stops. Defaults to none (nothing is drawn). Animatable, colour by colour.
    @Animatable public var colors: ColorList = []
    /// Where each colour sits, 0…1; empty (the default) spaces them evenly. Animatable.
    @Animatable public var locations: [Double] = []
    /// Defaults to the top centre, (0.5, 0). Animatable.
    @Animatable public var startPoint = Point(x: 0.5, y: 0)
    /// Defaults to the bottom centre, (0.5, 1). Animatable.
    @Animatable public var endPoint = Point(x: 0.5, y: 1)
    /// axial, radial or conic. Defaults to axial.
    @LayerProperty public var gradientType: Gradient.Kind = .axial

    open override class func needsDisplay(forKey key: String) -> Bool {
        customPropertyKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    private static func rectangle(_ rect: Rect) -> Path {
        var path = Path()
        path.addRect(rect)
        return path
    }

    /// A point of unit coordinates in the layer's own.
    private func layerPoint(_ unit: Point) -> Point {
        Point(x: bounds.minX + unit.x * bounds.width, y: bounds.minY + unit.y * bounds.height)
    }

    open override func draw(in ctx: GraphicsContext) {
        guard !colors.colors.isEmpty, bounds.width > 0, bounds.height > 0 else { return }
        let start = layerPoint(startPoint), end = layerPoint(endPoint)
        let stops = locations.count == colors.colors.count ? locations : nil
        guard gradientType == .radial else {
            let gradient = Gradient(kind: gradientType, colors: colors.colors, locations: stops, start: start, end: end)
            ctx.fill(GradientLayer.rectangle(bounds), gradient: gradient)
            return
        }
        // An ellipse: a unit circle scaled to the two radii about the centre.
        let radiusX = abs(end.x - start.x), radiusY = abs(end.y - start.y)
        guard radiusX > 0, radiusY > 0 else {
            // Every point lies beyond a flat ellipse: the last colour.
            ctx.fill(bounds, color: colors.colors[colors.colors.count - 1])
            return
        }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        ctx.translateBy(x: start.x, y: start.y)
        ctx.scaleBy(x: radiusX, y: radiusY)
        let area = Rect(
            x: (bounds.minX - start.x) / radiusX, y: (bounds.minY - start.y) / radiusY,
            width: bounds.width / radiusX, height: bounds.height / radiusY)
        let circle = Gradient(
            kind: .radial, colors: colors.colors, locations: stops, start: .zero, end: Point(x: 1, y: 0))
        ctx.fill(GradientLayer.rectangle(area), gradient: circle)
    }
}

/// The colours of a gradient, animated stop by stop (a list that grows or shrinks repeats its
/// last colour where the other has more).
public struct ColorList: Interpolatable, ExpressibleByArrayLiteral, Sendable {
    public var colors: [Color]

    public init(_ colors: [Color]) { self.colors = colors }
    public init(arrayLiteral elements: Color...) { colors = elements }

    private func paired(with other: ColorList) -> [(Color, Color)] {
        let count = max(colors.count, other.colors.count)
        guard let lastA = colors.last, let lastB = other.colors.last else { return [] }
        return (0..<count).map { i in
            (i < colors.count ? colors[i] : lastA, i < other.colors.count ? other.colors[i] : lastB)
        }
    }

    public func interpolated(to end: ColorList, fraction: Double) -> ColorList {
        if fraction == 0 || end.colors.isEmpty { return self }
        if fraction == 1 || colors.isEmpty { return end }
        return ColorList(paired(with: end).map { $0.interpolated(to: $1, fraction: fraction) })
    }
    public func adding(_ other: ColorList) -> ColorList { ColorList(paired(with: other).map { $0.adding($1) }) }
    public func subtracting(_ other: ColorList) -> ColorList {
        ColorList(paired(with: other).map { $0.subtracting($1) })
    }
    public func scaled(by factor: Double) -> ColorList { ColorList(colors.map { $0.scaled(by: factor) }) }
    public func distance(to other: ColorList) -> Double {
        paired(with: other).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}
