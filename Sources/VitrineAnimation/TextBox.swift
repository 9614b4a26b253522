import VitrineGraphics

/// Text set in a rectangle the way CATextLayer sets it: lines from the top edge (the first
/// baseline one ascent below it), one line per line break and, when wrapping, as many words per
/// line as fit the width; each line aligned on its own. Used by `TextLayer` and by the label of
/// `ProgressLayer`.
enum TextBox {
    /// Draws `string` in `family` at `size` pixels per em; a font that cannot be loaded (or a
    /// size that is not positive) draws nothing.
    static func draw(
        _ string: String, family: String, size: Double, color: Color, alignment: TextAlignmentMode,
        in rect: Rect, wrapped: Bool = false, into ctx: GraphicsContext
    ) {
        guard let font = try? Font(family: family, size: size) else { return }
        draw(string, font: font, color: color, alignment: alignment, in: rect, wrapped: wrapped, into: ctx)
    }

    /// Draws `string` with the font size whose line height is `lineHeight`.
    static func draw(
        _ string: String, family: String, lineHeight: Double, color: Color, alignment: TextAlignmentMode,
        in rect: Rect, into ctx: GraphicsContext
    ) {
        guard let probe = try? Font(family: family, size: lineHeight), probe.lineHeight > 0 else { return }
        draw(
            string, family: family, size: lineHeight * lineHeight / probe.lineHeight, color: color,
            alignment: alignment, in: rect, into: ctx)
    }

    static func draw(
        _ string: String, font: Font, color: Color, alignment: TextAlignmentMode, in rect: Rect,
        wrapped: Bool, into ctx: GraphicsContext
    ) {
        // Only what the clip lets through is outlined: a long string costs what is seen.
        let visible = visibleRect(in: ctx)
        var baseline = rect.minY + font.ascent
        for line in lines(of: string, font: font, width: wrapped ? rect.width : nil) {
            if let visible, baseline - font.lineHeight > visible.maxY { break }
            let slack = rect.width - line.width
            let x: Double
            switch alignment {
            case .natural, .left, .justified: x = rect.minX
            case .center: x = rect.minX + slack / 2
            case .right: x = rect.minX + slack
            }
            if !line.text.isEmpty {
                ctx.fill(font.path(for: line.text, at: Point(x: x, y: baseline), visibleIn: visible), color: color)
            }
            baseline += font.lineHeight
        }
    }

    /// The part of the user space that can reach a pixel: the clip's box mapped back through
    /// the transform; nil when the transform cannot be inverted (then nothing is culled).
    static func visibleRect(in ctx: GraphicsContext) -> Rect? {
        let box = ctx.clipBoundingBox
        guard let inverse = ctx.transform.inverted() else { return nil }
        let device = Rect(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
        let user = inverse.apply(to: device)
        return user.minX.isFinite && user.maxX.isFinite && user.minY.isFinite && user.maxY.isFinite ? user : nil
    }

    /// The lines of `string` with their advance widths: split at line breaks and, when `width`
    /// is given, wrapped greedily between words (a word wider than the line gets a line alone).
    static func lines(of string: String, font: Font, width: Double?) -> [(text: String, width: Double)] {
        var out: [(text: String, width: Double)] = []
        let paragraphs = string.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for paragraph in paragraphs {
            guard let width, width > 0 else {
                let text = String(paragraph)
                out.append((text, font.advance(of: text)))
                continue
            }
            var current = "", currentWidth = 0.0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                let candidateWidth = font.advance(of: candidate)
                if candidateWidth <= width || current.isEmpty {
                    current = candidate
                    currentWidth = candidateWidth
                } else {
                    out.append((current, currentWidth))
                    current = String(word)
                    currentWidth = font.advance(of: current)
                }
            }
            out.append((current, currentWidth))
        }
        return out
    }
}
