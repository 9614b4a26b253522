import VitrineGraphics

/// How a text layer aligns its lines (kCAAlignment…).
public enum TextAlignmentMode: String, Sendable, CaseIterable {
    case natural, left, right, center, justified
}

/// A layer that draws a string (CATextLayer). Text is laid out and drawn by the renderer.
open class TextLayer: Layer {
    /// The text; nil draws nothing. Defaults to nil. Not animatable.
    @LayerProperty public var string: String? = nil
    /// The font family name, matched with fontconfig. Defaults to "sans-serif". Not animatable.
    @LayerProperty public var font: String = "sans-serif"
    /// The font size in points. Defaults to 36. Animatable.
    @Animatable public var fontSize: Double = 36
    /// The text colour. Defaults to opaque white. Animatable.
    @Animatable public var foregroundColor: Color? = .white
    /// How lines are aligned in the bounds. Defaults to `.natural` (left). Not animatable.
    @LayerProperty public var alignmentMode: TextAlignmentMode = .natural
    /// Whether text wraps to the bounds' width (between words; CJK text between characters).
    /// Defaults to false. Not animatable.
    @LayerProperty public var isWrapped: Bool = false
    /// How text that does not fit the bounds is shortened with an ellipsis. Defaults to
    /// `.none`. Not animatable.
    @LayerProperty public var truncationMode: TextTruncationMode = .none

    /// The text's properties and the bounds change the drawing.
    open override class func needsDisplay(forKey key: String) -> Bool {
        TextLayer.drawingKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    static let drawingKeys: Set<String> = [
        "string", "font", "fontSize", "foregroundColor", "alignmentMode",
        "isWrapped", "truncationMode", "bounds"
    ]

    /// Draws the string from the top of the bounds, one line per line break (and per wrap when
    /// `isWrapped`), aligned by `alignmentMode` (justified lines are drawn left-aligned).
    open override func draw(in ctx: GraphicsContext) {
        guard let string, !string.isEmpty, let foregroundColor else { return }
        TextBox.draw(
            string, family: font, size: fontSize, color: foregroundColor, alignment: alignmentMode,
            in: bounds.standardized, wrapped: isWrapped, truncation: truncationMode, into: ctx)
    }
}
