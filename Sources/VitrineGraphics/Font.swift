/// A typeface at a pixel size: a family found through fontconfig, loaded with FreeType, drawn
/// as unhinted outlines exactly as designed, scaled so that one em is `size` pixels.
///
/// Faces and glyph outlines are cached process-wide, so creating a `Font` every frame costs a
/// dictionary look-up. Safe to use from any thread.
public final class Font: Sendable {
    /// The family used when none is given.
    public static let defaultFamily = FontLookup.defaultFamily

    /// The family that was asked for (fontconfig may have substituted another: see `familyName`).
    public let family: String
    /// The em size in pixels.
    public let size: Double
    /// Distance from the baseline up to the font's ascender line, in pixels (positive).
    public let ascent: Double
    /// Distance from the baseline down to the font's descender line, in pixels (positive).
    public let descent: Double
    /// Distance between the baselines of consecutive lines, in pixels.
    public let lineHeight: Double

    let face: FontFace
    /// The family whose fontconfig ranking supplies glyphs this face lacks.
    let fallbackFamily: String

    /// The best installed match for `family` (an unknown family gets fontconfig's substitute).
    /// Throws when no font is installed at all, the file does not load, or it has no outlines.
    public convenience init(family: String = Font.defaultFamily, size: Double) throws(FontError) {
        try Font.validate(size)
        let file = try FontLookup.file(forFamily: family)
        try self.init(face: FontFace.face(for: file), family: family, size: size)
    }

    /// A specific font file, for fonts shipped with a configuration rather than installed.
    /// Glyphs it lacks fall back to fontconfig's choices for the family stored in the file.
    public convenience init(file: FontFile, size: Double) throws(FontError) {
        try Font.validate(size)
        let face = try FontFace.face(for: file)
        self.init(face: face, family: face.familyName, size: size)
    }

    /// A font from the contents of a font file (`name` stands for it in errors), for fonts that
    /// arrive as data; its face is not shared. Glyphs it lacks fall back as for a file.
    public convenience init(data: [UInt8], name: String, faceIndex: Int = 0, size: Double) throws(FontError) {
        try Font.validate(size)
        let face = try FontFace.face(data: data, name: name, faceIndex: faceIndex)
        self.init(face: face, family: face.familyName, size: size)
    }

    private init(face: FontFace, family: String, size: Double) {
        self.face = face
        self.family = family
        self.size = size
        fallbackFamily = family
        let scale = size / face.unitsPerEm
        ascent = face.ascender * scale
        descent = face.descender * scale
        lineHeight = face.lineHeight * scale
    }

    private static func validate(_ size: Double) throws(FontError) {
        guard size.isFinite, size > 0 else { throw .invalidSize(size) }
    }

    /// The file of the face in use.
    public var file: FontFile { face.file }
    /// The family name stored in the face in use.
    public var familyName: String { face.familyName }

    /// The width of the widest line of `string`, kerning included, in pixels.
    public func advance(of string: String) -> Double {
        var widest = 0.0
        var placer = GlyphPlacer(string, font: self)
        while let event = placer.next() {
            if case .endOfLine(let width) = event { widest = max(widest, width) }
        }
        return widest
    }

    /// The size of the text's line boxes: the widest line's advance by the number of lines times
    /// the line height (zero for an empty string).
    public func measure(_ string: String) -> Size {
        var widest = 0.0, lines = 0
        var placer = GlyphPlacer(string, font: self)
        while let event = placer.next() {
            if case .endOfLine(let width) = event { widest = max(widest, width); lines += 1 }
        }
        return Size(width: widest, height: Double(lines) * lineHeight)
    }

    /// The tight bounds of the ink (the glyph outlines) with the first baseline starting at
    /// `baselineOrigin`; `.null` when nothing would be drawn.
    public func boundingBox(of string: String, at baselineOrigin: Point = .zero) -> Rect {
        var bounds = Rect.null
        var placer = GlyphPlacer(string, font: self)
        while let event = placer.next() {
            if case .glyph(let glyph) = event { bounds = bounds.union(glyph.bounds) }
        }
        return bounds.isNull ? bounds : bounds.offsetBy(dx: baselineOrigin.x, dy: baselineOrigin.y)
    }

    /// The outlines of the text with the first line's baseline starting at `baselineOrigin`
    /// (y down, later lines one line height lower). Fill with the nonzero rule.
    public func path(for string: String, at baselineOrigin: Point) -> Path {
        path(for: string, at: baselineOrigin, visibleIn: nil)
    }

    /// The outlines of only those glyphs whose ink meets `visible` (nil: every glyph), so a
    /// long string costs outlines for what can be seen, not for all of it.
    public func path(for string: String, at baselineOrigin: Point, visibleIn visible: Rect?) -> Path {
        var path = Path()
        appendPath(for: string, at: baselineOrigin, visibleIn: visible, to: &path)
        return path
    }

    /// `path(for:at:visibleIn:)` added to `path`, for callers that reuse a path's storage.
    public func appendPath(for string: String, at baselineOrigin: Point, visibleIn visible: Rect?, to path: inout Path)
    {
        var placer = GlyphPlacer(string, font: self)
        while let event = placer.next() {
            guard case .glyph(let glyph) = event else { continue }
            if let visible {
                let ink = glyph.bounds
                if ink.isNull || !ink.offsetBy(dx: baselineOrigin.x, dy: baselineOrigin.y).intersects(visible) {
                    continue
                }
            }
            glyph.append(to: &path, baselineOrigin: baselineOrigin)
        }
    }

    /// The text placed into glyphs and lines, for callers that inspect or reuse the layout.
    public func layout(_ string: String) -> TextLayout {
        TextLayout(string, font: self)
    }
}

extension Font {
    /// The font of `family` at `size`, one of the last eight asked for on the calling thread:
    /// text drawn every frame (a progress bar's percentage) then makes no font object each time.
    public static func recent(family: String, size: Double) throws(FontError) -> Font {
        let shelf = RecentFonts.perThread.value
        if let i = shelf.fonts.firstIndex(where: { $0.size == size && $0.family == family }) {
            return shelf.fonts[i]
        }
        let font = try Font(family: family, size: size)
        if shelf.fonts.count == 8 { shelf.fonts.removeFirst() }
        shelf.fonts.append(font)
        return font
    }
}

private final class RecentFonts {
    var fonts: [Font] = []
    static let perThread = ThreadLocal { RecentFonts() }
}
