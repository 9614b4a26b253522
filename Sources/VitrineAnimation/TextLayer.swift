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

    /// Where the layer draws: its bounds when it paints them (a background, a border, contents),
    /// while a transition moves its looks across them, or when its text wraps (wrapped lines
    /// fill the width, and wrapping a long text again would double the cost of each change),
    /// else only where its glyphs' ink lies within them. A centred title across a 1920-wide
    /// frame thus keeps a backing store, and is repainted in a fade, only where its words are.
    open override func visualExtent() -> Rect {
        let box = bounds.standardized
        if paintsItsBounds || transitionState != nil || isWrapped { return box }
        guard let string, !string.isEmpty, let foregroundColor, foregroundColor.alpha > 0 else { return .null }
        let key = InkKey(
            string: string, font: font, fontSize: fontSize, alignment: alignmentMode, truncation: truncationMode,
            box: box)
        // Kept on the model layer: every frame's presentation copy of an animated text layer
        // (a fading title, whose copies a backing store may hold) finds it there.
        let holder = model()
        if let known = holder.inkExtent, known.key == key { return known.extent }
        var extent = Rect.null
        if let font = try? Font.recent(family: font, size: fontSize) {
            let ink = TextBox.inkBounds(
                string, font: font, alignment: alignmentMode, in: box, truncation: truncationMode)
            if !ink.isNull {
                // The extent is also the drawing's clip, so it keeps clear of every pixel the
                // outlines touch on screens down to a quarter of the canvas's scale (four units
                // around), on whole units, so at whole-number scales it clips to whole pixels.
                let minX = (ink.minX - 4).rounded(.down), minY = (ink.minY - 4).rounded(.down)
                let maxX = (ink.maxX + 4).rounded(.up), maxY = (ink.maxY + 4).rounded(.up)
                extent = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY).intersection(box)
            }
        }
        holder.inkExtent = (key, extent)
        return extent
    }

    /// On a model layer, what its text's ink extent was last computed from, and the extent, so
    /// the text is laid out again only when it changes. (Its presentation copies' extents are
    /// computed on the frame's own thread, before bands are drawn on others.)
    private var inkExtent: (key: InkKey, extent: Rect)?
    private struct InkKey: Equatable {
        let string: String, font: String, fontSize: Double
        let alignment: TextAlignmentMode, truncation: TextTruncationMode
        let box: Rect
    }

    /// Draws the string from the top of the bounds, one line per line break (and per wrap when
    /// `isWrapped`), aligned by `alignmentMode` (justified lines are drawn left-aligned).
    open override func draw(in ctx: GraphicsContext) {
        guard let string, !string.isEmpty, let foregroundColor else { return }
        TextBox.draw(
            string, family: font, size: fontSize, color: foregroundColor, alignment: alignmentMode,
            in: bounds.standardized, wrapped: isWrapped, truncation: truncationMode, into: ctx)
    }
}
