/// A glyph put in place by the layout rule: the face that draws it and where its origin sits.
struct PlacedGlyph {
    let scalar: Unicode.Scalar
    let face: FontFace
    let glyph: UInt32
    let outline: GlyphOutline
    /// Pen position on the glyph's baseline, in pixels, relative to the first baseline's origin
    /// (y grows downward, one line height per line).
    let origin: Point
    /// Pixels per font unit of `face`.
    let scale: Double
    let line: Int

    /// The outline scaled to pixels and moved to `baselineOrigin + origin`, appended to `path`.
    func append(to path: inout Path, baselineOrigin: Point) {
        let t = Transform2D(
            a: scale, b: 0, c: 0, d: scale,
            tx: baselineOrigin.x + origin.x, ty: baselineOrigin.y + origin.y)
        path.addPath(outline.path, transform: t)
    }

    /// The outline's tight bounds in pixels relative to the first baseline's origin.
    var bounds: Rect {
        let b = outline.bounds
        if b.isNull { return .null }
        return Rect(
            x: origin.x + b.minX * scale, y: origin.y + b.minY * scale,
            width: b.width * scale, height: b.height * scale)
    }
}

/// The one layout rule that drawing, measuring and `TextLayout` share. Walks the string's
/// Unicode scalars and yields each glyph, then the end of each line with its width.
///
/// - Each scalar maps to the font's glyph; a scalar the font lacks comes from fontconfig's
///   fallback for the family, and only when no installed font has it, the .notdef box.
/// - Pen advances are the unhinted design advances scaled to the pixel size, adjusted by
///   kerning between neighbours from the same face (FreeType reads the legacy 'kern' table
///   only; GPOS kerning needs a shaper and is not applied).
/// - LF, CR, CR LF, VT, FF, NEL, U+2028 and U+2029 end a line; the next baseline lies one line
///   height lower. Other control characters, and default-ignorable code points no font draws,
///   take no space.
/// - No shaping: no ligatures, no contextual forms, no bidirectional reordering.
struct GlyphPlacer: IteratorProtocol {
    enum Event {
        case glyph(PlacedGlyph)
        case endOfLine(width: Double)
    }

    private let font: Font
    private var scalars: String.UnicodeScalarView.Iterator
    private var penX = 0.0
    private var line = 0
    private var previous: (face: FontFace, glyph: UInt32)?
    private var afterCarriageReturn = false
    private var finished: Bool

    init(_ string: String, font: Font) {
        self.font = font
        scalars = string.unicodeScalars.makeIterator()
        finished = string.isEmpty  // no text, no line
    }

    mutating func next() -> Event? {
        while let scalar = scalars.next() {
            let value = scalar.value
            if value == 0x0A, afterCarriageReturn { afterCarriageReturn = false; continue }
            afterCarriageReturn = value == 0x0D
            if GlyphPlacer.isLineBreak(value) { return endLine() }
            if GlyphPlacer.isControl(value) { continue }
            guard let (face, glyph) = resolve(scalar) else { continue }
            let scale = font.size / face.unitsPerEm
            if let previous, previous.face === face {
                penX += face.kerning(previous.glyph, glyph) * scale
            }
            let outline = face.outline(of: glyph)
            let placed = PlacedGlyph(
                scalar: scalar, face: face, glyph: glyph, outline: outline,
                origin: Point(x: penX, y: Double(line) * font.lineHeight),
                scale: scale, line: line)
            penX += outline.advance * scale
            previous = (face, glyph)
            return .glyph(placed)
        }
        if finished { return nil }
        finished = true
        return .endOfLine(width: penX)
    }

    private mutating func endLine() -> Event {
        let width = penX
        penX = 0
        line += 1
        previous = nil
        return .endOfLine(width: width)
    }

    /// The face and glyph that draw a scalar, or nil for a scalar that should take no space.
    private func resolve(_ scalar: Unicode.Scalar) -> (FontFace, UInt32)? {
        let glyph = font.face.glyphIndex(for: scalar)
        if glyph != 0 { return (font.face, glyph) }
        if scalar.properties.isDefaultIgnorableCodePoint { return nil }
        if let fallback = FontLookup.fallbackFace(
            for: scalar, family: font.fallbackFamily,
            excluding: font.face.file)
        {
            return (fallback, fallback.glyphIndex(for: scalar))
        }
        return (font.face, 0)
    }

    private static func isLineBreak(_ v: UInt32) -> Bool {
        (0x0A...0x0D).contains(v) || v == 0x85 || v == 0x2028 || v == 0x2029
    }

    /// General category Cc: C0 controls, DEL and C1 controls.
    private static func isControl(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0x9F).contains(v)
    }
}
