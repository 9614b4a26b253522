import CFreeType

/// One glyph as the font designed it: its outline and advance in font units, y pointing down,
/// the origin on the baseline at the pen position. Scaled to pixels only when drawn, so one
/// cached outline serves every size.
struct GlyphOutline: Sendable {
    /// The outline; fill it with the nonzero rule (TrueType and CFF contours wind oppositely).
    let path: Path
    /// How far the pen moves after this glyph, in font units.
    let advance: Double
    /// Tight bounds of the outline in font units (`.null` for a blank glyph such as space).
    let bounds: Rect

    static let empty = GlyphOutline(path: Path(), advance: 0, bounds: .null)

    /// Decomposes a glyph slot loaded with `FT_LOAD_NO_SCALE`; nil when the slot does not hold
    /// an outline or its outline cannot be walked.
    init?(slot: FT_GlyphSlot) {
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
        let builder = OutlineBuilder()
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in OutlineBuilder.from(user).move(to: to) },
            line_to: { to, user in OutlineBuilder.from(user).line(to: to) },
            conic_to: { control, to, user in OutlineBuilder.from(user).conic(control: control, to: to) },
            cubic_to: { c1, c2, to, user in OutlineBuilder.from(user).cubic(c1, c2, to: to) },
            shift: 0, delta: 0)
        let error = withExtendedLifetime(builder) {
            FT_Outline_Decompose(&slot.pointee.outline, &funcs, Unmanaged.passUnretained(builder).toOpaque())
        }
        guard error == 0 else { return nil }
        builder.closeContour()
        let path = Path(elements: builder.elements)
        // With FT_LOAD_NO_SCALE the advance is an integer number of font units.
        self.init(path: path, advance: Double(slot.pointee.advance.x), bounds: path.bounds)
    }

    private init(path: Path, advance: Double, bounds: Rect) {
        self.path = path; self.advance = advance; self.bounds = bounds
    }
}

/// Collects FT_Outline_Decompose callbacks as path elements, flipping y to point down.
/// Each contour ends with `close`; the line FreeType draws back to the contour's start is
/// dropped because `close` draws the same segment.
private final class OutlineBuilder {
    var elements: [PathElement] = []
    private var contourStart: Point?

    static func from(_ user: UnsafeMutableRawPointer?) -> OutlineBuilder {
        Unmanaged<OutlineBuilder>.fromOpaque(user!).takeUnretainedValue()
    }

    private static func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
        guard let v else { return .zero }
        return Point(x: Double(v.pointee.x), y: -Double(v.pointee.y))
    }

    func move(to v: UnsafePointer<FT_Vector>?) -> Int32 {
        closeContour()
        let p = OutlineBuilder.point(v)
        elements.append(.move(to: p))
        contourStart = p
        return 0
    }

    func line(to v: UnsafePointer<FT_Vector>?) -> Int32 {
        elements.append(.line(to: OutlineBuilder.point(v)))
        return 0
    }

    /// A TrueType conic is exactly a quadratic Bézier.
    func conic(control: UnsafePointer<FT_Vector>?, to v: UnsafePointer<FT_Vector>?) -> Int32 {
        elements.append(.quad(control: OutlineBuilder.point(control), to: OutlineBuilder.point(v)))
        return 0
    }

    func cubic(
        _ c1: UnsafePointer<FT_Vector>?, _ c2: UnsafePointer<FT_Vector>?,
        to v: UnsafePointer<FT_Vector>?
    ) -> Int32 {
        elements.append(
            .cubic(
                control1: OutlineBuilder.point(c1), control2: OutlineBuilder.point(c2),
                to: OutlineBuilder.point(v)))
        return 0
    }

    func closeContour() {
        guard let start = contourStart else { return }
        if case .line(let end)? = elements.last, end == start { elements.removeLast() }
        elements.append(.close)
        contourStart = nil
    }
}
