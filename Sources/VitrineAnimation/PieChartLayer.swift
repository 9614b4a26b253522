import VitrineGraphics

/// Seed 001's pie as a configurable layer: the shares and colours are properties, and the
/// slices grow from the top when the scene starts (PieLayer's delegate-driven animation and
/// per-frame slice rebuild).
open class PieChartLayer: PieLayer, SceneParticipant {
    /// The shares, one slice each. Defaults to empty. Not animatable.
    @LayerProperty public var values: [Double] = []
    /// The slice colours, used in turn. Not animatable.
    @LayerProperty public var colors: [Color] = PieChartLayer.palette
    /// Size of the percentage labels. Defaults to 14. Not animatable.
    @LayerProperty public var labelFontSize: Double = 14
    /// Colour of the percentage labels. Defaults to white. Not animatable.
    @LayerProperty public var labelColor: Color = .white
    /// Seconds each slice takes to grow. Defaults to 1. Not animatable.
    @LayerProperty public var growthDuration: Double = 1

    /// Five calm colours.
    public static let palette: [Color] = ["#e4572e", "#f3a712", "#29335c", "#669bbc", "#a8c686"]
        .map { try! Color(hex: $0) }

    /// Shows the values: the slices start growing now.
    public func sceneDidStart() {
        animationDuration = growthDuration
        setValues(values, colors: colors)
        for case let label as TextLayer in labelContainer.sublayers {
            label.fontSize = labelFontSize
            label.foregroundColor = labelColor
            label.bounds = Rect(x: 0, y: 0, width: labelFontSize * 4, height: labelFontSize * 1.5)
        }
    }

    /// The per-frame slice rebuild.
    public func attachFrameObservers(to engine: Engine) -> [Int] { [attach(to: engine)] }
}
