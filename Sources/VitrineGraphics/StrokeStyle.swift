/// How the ends of open subpaths are drawn (CGLineCap / CAShapeLayerLineCap).
public enum LineCap: String, Sendable, CaseIterable {
    case butt, round, square
}

/// How corners between segments are drawn (CGLineJoin / CAShapeLayerLineJoin).
public enum LineJoin: String, Sendable, CaseIterable {
    case miter, round, bevel
}

/// Everything that turns a path into the outline of its stroke. Defaults are CAShapeLayer's.
public struct StrokeStyle: Hashable, Sendable {
    /// Width of the stroke, centred on the path. Default 1.
    public var lineWidth: Double
    /// Shape of the ends of open subpaths. Default butt.
    public var lineCap: LineCap
    /// Shape of corners. Default miter.
    public var lineJoin: LineJoin
    /// Miter joins longer than `miterLimit × lineWidth` become bevels. Default 10.
    public var miterLimit: Double
    /// Lengths of alternating dashes and gaps; empty means a solid line. Default empty.
    public var dashPattern: [Double]
    /// Distance into the dash pattern at which the stroke starts. Default 0.
    public var dashPhase: Double

    public init(
        lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
        miterLimit: Double = 10, dashPattern: [Double] = [], dashPhase: Double = 0
    ) {
        self.lineWidth = lineWidth; self.lineCap = lineCap; self.lineJoin = lineJoin
        self.miterLimit = miterLimit; self.dashPattern = dashPattern; self.dashPhase = dashPhase
    }
}
