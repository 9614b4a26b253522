/// A string placed into glyphs and lines by one `Font`: the same placement `Font.path(for:at:)`
/// draws, kept so it can be inspected, or drawn at many origins without laying it out again.
/// Positions are in pixels relative to the first line's baseline origin, y down.
public struct TextLayout: Sendable {
    /// One glyph of the layout.
    public struct Glyph: Sendable {
        /// The code point this glyph draws.
        public let scalar: Unicode.Scalar
        /// The glyph's index in its face (0 is .notdef, the missing-glyph box).
        public let glyphIndex: UInt32
        /// The face that draws it: the font's own, or a fallback that covers the code point.
        public let file: FontFile
        /// The pen position on the glyph's baseline, kerning with its left neighbour applied.
        public let position: Point
        /// The glyph's own advance width in pixels (kerning excluded).
        public let advance: Double
        /// The line the glyph is on, from 0.
        public let line: Int

        fileprivate let placed: PlacedGlyph
    }

    /// The glyphs in text order (characters that take no space, such as line breaks, have none).
    public let glyphs: [Glyph]
    /// The advance width of each line, kerning included; empty for an empty string.
    public let lineWidths: [Double]
    /// Distance between consecutive baselines.
    public let lineHeight: Double

    init(_ string: String, font: Font) {
        var glyphs: [Glyph] = []
        var widths: [Double] = []
        var placer = GlyphPlacer(string, font: font)
        while let event = placer.next() {
            switch event {
            case .glyph(let p):
                glyphs.append(
                    Glyph(
                        scalar: p.scalar, glyphIndex: p.glyph, file: p.face.file,
                        position: p.origin, advance: p.outline.advance * p.scale,
                        line: p.line, placed: p))
            case .endOfLine(let width):
                widths.append(width)
            }
        }
        self.glyphs = glyphs
        lineWidths = widths
        lineHeight = font.lineHeight
    }

    /// The widest line's advance by the number of lines times the line height.
    public var size: Size {
        Size(width: lineWidths.max() ?? 0, height: Double(lineWidths.count) * lineHeight)
    }

    /// The tight bounds of the ink relative to the first baseline's origin; `.null` when blank.
    public var inkBounds: Rect {
        glyphs.reduce(Rect.null) { $0.union($1.placed.bounds) }
    }

    /// The outlines with the first baseline starting at `baselineOrigin`; fill with nonzero.
    public func path(at baselineOrigin: Point) -> Path {
        var path = Path()
        for glyph in glyphs { glyph.placed.append(to: &path, baselineOrigin: baselineOrigin) }
        return path
    }
}
