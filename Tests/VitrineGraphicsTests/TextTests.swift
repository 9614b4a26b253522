import CFontconfig
import CFreeType
import Foundation
import XCTest
import VitrineGraphics

/// Text layout checked against FreeType's own numbers, computed here from a separately opened
/// face scaled by FreeType (FT_Set_Char_Size), never from the layout's font-unit arithmetic.
final class TextTests: XCTestCase {
    // Sizes whose 26.6 value is an integer, so FreeType's scaling adds no rounding of its own.
    // At 64 px DejaVu Sans (2048 units per em) scales by exactly 1/32: 26.6 metrics are exact.
    private let exactSize = 64.0

    // MARK: - Advances and kerning

    func testGlyphAdvancesMatchFreeTypeLinearAdvances() throws {
        let size = 37.5
        let font = try Font(size: size)
        let reference = try ReferenceFace(font.file, size: size)
        let text = "Hamburgefonstiv 0123 xyz"
        let layout = font.layout(text)
        XCTAssertEqual(layout.glyphs.count, text.unicodeScalars.count)
        for (glyph, scalar) in zip(layout.glyphs, text.unicodeScalars) {
            XCTAssertEqual(glyph.scalar, scalar)
            XCTAssertEqual(glyph.glyphIndex, reference.glyphIndex(scalar))
            XCTAssertEqual(glyph.advance, try reference.linearAdvance(of: scalar), accuracy: 1e-3, "\(scalar)")
        }
        // Pen positions: each glyph starts where the previous one's advance (plus kerning) ends.
        for (left, right) in zip(layout.glyphs, layout.glyphs.dropFirst()) {
            let kern = reference.scaledKerning(left.scalar, right.scalar)
            XCTAssertEqual(
                right.position.x, left.position.x + left.advance + kern, accuracy: 1.0 / 64,
                "\(left.scalar)\(right.scalar)")
            XCTAssertEqual(right.position.y, 0)
        }
        let sum = try text.unicodeScalars.reduce(0.0) { $0 + (try reference.linearAdvance(of: $1)) }
        let kerns = zip(text.unicodeScalars, text.unicodeScalars.dropFirst())
            .reduce(0.0) { $0 + reference.scaledKerning($1.0, $1.1) }
        XCTAssertEqual(font.advance(of: text), sum + kerns, accuracy: 0.02)
    }

    func testKerningPullsAVTogether() throws {
        let font = try Font(size: exactSize)
        let reference = try ReferenceFace(font.file, size: exactSize)
        guard reference.hasKerning else {
            throw XCTSkip("\(font.file) has no 'kern' table FreeType can read")
        }
        let kern = reference.scaledKerning("A", "V")
        XCTAssertLessThan(kern, 0, "DejaVu Sans kerns A-V")
        let separate = font.advance(of: "A") + font.advance(of: "V")
        XCTAssertLessThan(font.advance(of: "AV"), separate)
        // At 64 px the kerning FreeType scales is exact, so the layout must match it exactly.
        XCTAssertEqual(font.advance(of: "AV"), separate + kern, accuracy: 1e-9)
        let layout = font.layout("AV")
        XCTAssertEqual(layout.glyphs[1].position.x, layout.glyphs[0].advance + kern, accuracy: 1e-9)
        // Kerning never crosses a line break.
        XCTAssertEqual(font.layout("A\nV").glyphs[1].position.x, 0)
    }

    // MARK: - Outlines

    func testCapitalIIsARectangleMatchingFreeTypeMetrics() throws {
        let font = try Font(size: exactSize)
        let reference = try ReferenceFace(font.file, size: exactSize)
        let metrics = try reference.metrics(of: "I")
        let origin = Point(x: 10, y: 100)
        let path = font.path(for: "I", at: origin)

        let expected = Rect(
            x: origin.x + metrics.bearingX, y: origin.y - metrics.bearingY,
            width: metrics.width, height: metrics.height)
        XCTAssertEqual(path.bounds, expected)
        XCTAssertEqual(expected.maxY, origin.y, "I stands on the baseline")

        // One contour: a move, three lines, and the close that draws the fourth side.
        XCTAssertEqual(path.elements.count, 5)
        guard case .move? = path.elements.first, path.elements.last == .close else {
            return XCTFail("not one closed contour: \(path.elements)")
        }
        let corners: Set<Point> = [
            Point(x: expected.minX, y: expected.minY), Point(x: expected.maxX, y: expected.minY),
            Point(x: expected.maxX, y: expected.maxY), Point(x: expected.minX, y: expected.maxY)
        ]
        XCTAssertEqual(Set(path.elements.compactMap(\.endPoint)), corners)
    }

    func testCurvedGlyphBoundsMatchFreeTypeBoundingBox() throws {
        let font = try Font(size: exactSize)
        let reference = try ReferenceFace(font.file, size: exactSize)
        for scalar in ["O", "g", "&", "é"] as [Unicode.Scalar] {
            let path = font.path(for: String(scalar), at: .zero)
            let box = try reference.outlineBoundingBox(of: scalar)
            // FT_Outline_Get_BBox rounds curve extremes to 1/64 px.
            let b = path.bounds
            XCTAssertEqual(b.minX, box.minX, accuracy: 1.0 / 64, "\(scalar)")
            XCTAssertEqual(b.maxX, box.maxX, accuracy: 1.0 / 64, "\(scalar)")
            XCTAssertEqual(b.minY, box.minY, accuracy: 1.0 / 64, "\(scalar)")
            XCTAssertEqual(b.maxY, box.maxY, accuracy: 1.0 / 64, "\(scalar)")
            XCTAssertTrue(
                path.elements.contains {
                    if case .quad = $0 { return true }; return false
                },
                "TrueType conics become quads")
            XCTAssertEqual(font.boundingBox(of: String(scalar)), b)
        }
    }

    func testPathIsPlacedAtTheBaselineOriginAndScaledBySize() throws {
        let small = try Font(size: 20), large = try Font(size: 40)
        let a = small.path(for: "Hello", at: .zero)
        let b = large.path(for: "Hello", at: Point(x: 5, y: 7))
        XCTAssertEqual(b, a.applying(Transform2D(scaleX: 2, y: 2).concatenating(Transform2D(translationX: 5, y: 7))))
    }

    // MARK: - Input

    func testMultiByteUTF8Input() throws {
        let font = try Font(size: 48)
        let reference = try ReferenceFace(font.file, size: 48)
        // é, ü and € are two, two and three bytes in UTF-8.
        let bytes: [UInt8] = [0xC3, 0xA9, 0x20, 0xC3, 0xBC, 0x20, 0xE2, 0x82, 0xAC]
        let text = String(decoding: bytes, as: UTF8.self)
        let layout = font.layout(text)
        XCTAssertEqual(layout.glyphs.map(\.scalar), ["\u{E9}", " ", "\u{FC}", " ", "\u{20AC}"])
        for glyph in layout.glyphs {
            XCTAssertNotEqual(glyph.glyphIndex, 0)
            XCTAssertEqual(glyph.glyphIndex, reference.glyphIndex(glyph.scalar))
            XCTAssertEqual(glyph.file, font.file, "DejaVu Sans covers \(glyph.scalar) itself")
            XCTAssertEqual(glyph.advance, try reference.linearAdvance(of: glyph.scalar), accuracy: 1e-3)
        }
        XCTAssertFalse(font.path(for: text, at: .zero).isEmpty)
    }

    func testCodePointThePrimaryFaceLacksComesFromAFallbackFont() throws {
        let han: Unicode.Scalar = "\u{4E2D}"  // 中
        let font = try Font(size: 48)
        let primary = try ReferenceFace(font.file, size: 48)
        XCTAssertEqual(primary.glyphIndex(han), 0, "the test needs a code point \(font.familyName) lacks")
        let covering = installedFonts(covering: han)
        guard !covering.isEmpty else {
            throw XCTSkip("no installed font covers U+4E2D; install fonts-droid-fallback (or any CJK font)")
        }
        let layout = font.layout("A\(han)")
        XCTAssertEqual(layout.glyphs.count, 2)
        let glyph = layout.glyphs[1]
        XCTAssertNotEqual(glyph.file, font.file)
        XCTAssertTrue(covering.contains(glyph.file), "\(glyph.file) is not among \(covering)")
        let fallback = try ReferenceFace(glyph.file, size: 48)
        XCTAssertNotEqual(glyph.glyphIndex, 0)
        XCTAssertEqual(glyph.glyphIndex, fallback.glyphIndex(han))
        XCTAssertEqual(glyph.advance, try fallback.linearAdvance(of: han), accuracy: 1e-3)
        XCTAssertEqual(glyph.position.x, layout.glyphs[0].advance, accuracy: 1e-9)
        let ink = font.boundingBox(of: String(han))
        XCTAssertFalse(ink.isEmpty)
        XCTAssertLessThanOrEqual(ink.height, 48 * 1.2, "drawn at the font's size, not the fallback's em")
    }

    func testCodePointNoFontCoversDrawsTheNotdefBox() throws {
        let unassigned: Unicode.Scalar = "\u{10FFFD}"  // plane 16 private use: no real font maps it
        guard installedFonts(covering: unassigned).isEmpty else {
            throw XCTSkip("an installed font covers U+10FFFD")
        }
        let font = try Font(size: exactSize)
        let reference = try ReferenceFace(font.file, size: exactSize)
        let layout = font.layout(String(unassigned))
        XCTAssertEqual(layout.glyphs.count, 1)
        XCTAssertEqual(layout.glyphs[0].glyphIndex, 0)
        XCTAssertEqual(layout.glyphs[0].file, font.file)
        XCTAssertEqual(layout.glyphs[0].advance, try reference.linearAdvance(ofGlyph: 0), accuracy: 1e-9)
        let notdef = try reference.outlineBoundingBox(ofGlyph: 0)
        XCTAssertFalse(notdef.isEmpty, "DejaVu Sans' .notdef is a box")
        XCTAssertEqual(font.path(for: String(unassigned), at: .zero).bounds, notdef)
    }

    func testControlsAndIgnorablesTakeNoSpace() throws {
        let font = try Font(size: 48)
        XCTAssertEqual(font.advance(of: "a\u{0}\u{7}\u{7F}\u{200B}b"), font.advance(of: "ab"), accuracy: 1e-9)
    }

    func testEmptyStringIsEmpty() throws {
        let font = try Font(size: 48)
        XCTAssertTrue(font.path(for: "", at: Point(x: 3, y: 4)).isEmpty)
        XCTAssertEqual(font.measure(""), .zero)
        XCTAssertEqual(font.advance(of: ""), 0)
        XCTAssertTrue(font.boundingBox(of: "").isNull)
        XCTAssertTrue(font.layout("").glyphs.isEmpty)
        XCTAssertTrue(font.path(for: "   ", at: .zero).isEmpty, "spaces have no outline")
    }

    // MARK: - Metrics and lines

    func testMetricsComeFromTheHorizontalHeader() throws {
        let size = 48.0
        let font = try Font(size: size)
        let hhea = try ReferenceFace(font.file, size: size).horizontalHeader()
        XCTAssertEqual(font.ascent, hhea.ascender * size / hhea.unitsPerEm, accuracy: 1e-12)
        XCTAssertEqual(font.descent, -hhea.descender * size / hhea.unitsPerEm, accuracy: 1e-12)
        XCTAssertEqual(
            font.lineHeight, (hhea.ascender - hhea.descender + hhea.lineGap) * size / hhea.unitsPerEm,
            accuracy: 1e-12)
        XCTAssertGreaterThan(font.descent, 0)
        XCTAssertEqual(font.measure("Hello").height, font.lineHeight)
    }

    func testLinesStackOneLineHeightApart() throws {
        let font = try Font(size: 30)
        let layout = font.layout("AB\nC\r\nD\rE")
        XCTAssertEqual(layout.glyphs.map(\.line), [0, 0, 1, 2, 3])
        for glyph in layout.glyphs.dropFirst(2) {
            XCTAssertEqual(glyph.position, Point(x: 0, y: Double(glyph.line) * font.lineHeight))
        }
        XCTAssertEqual(layout.lineWidths.count, 4)
        XCTAssertEqual(layout.lineWidths[0], font.advance(of: "AB"), accuracy: 1e-9)
        let size = font.measure("AB\nC\r\nD\rE")
        XCTAssertEqual(size.height, 4 * font.lineHeight, accuracy: 1e-9)
        XCTAssertEqual(size.width, layout.lineWidths.max()!, accuracy: 1e-9)
        XCTAssertEqual(font.measure("\n").height, 2 * font.lineHeight, accuracy: 1e-9)

        let first = font.path(for: "W", at: .zero).bounds
        let second = font.boundingBox(of: "\nW")
        XCTAssertEqual(second.minX, first.minX, accuracy: 1e-9)
        XCTAssertEqual(second.minY, first.minY + font.lineHeight, accuracy: 1e-9)
        XCTAssertEqual(font.layout("A\nW").path(at: .zero).bounds, font.boundingBox(of: "A\nW"))
    }

    // MARK: - Errors and lookup

    func testInvalidSizesAndUnloadableFilesAreTypedErrors() throws {
        XCTAssertThrowsError(try Font(size: 0)) { XCTAssertEqual($0 as? FontError, .invalidSize(0)) }
        XCTAssertThrowsError(try Font(size: -3)) { XCTAssertEqual($0 as? FontError, .invalidSize(-3)) }
        XCTAssertThrowsError(try Font(size: .infinity))

        let missing = FontFile(path: "/nonexistent/vitrine-font.ttf")
        XCTAssertThrowsError(try Font(file: missing, size: 12)) { error in
            guard case .cannotLoad(let path, 0, let code)? = error as? FontError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, missing.path)
            XCTAssertNotEqual(code, 0)
        }
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vitrine-not-a-font-\(getpid()).ttf")
        try Data("this is not a font".utf8).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        XCTAssertThrowsError(try Font(file: FontFile(path: garbage.path), size: 12)) { error in
            guard case .cannotLoad(let path, _, _)? = error as? FontError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, garbage.path)
        }
        let dejaVu = try Font(size: 12).file
        XCTAssertThrowsError(try Font(file: FontFile(path: dejaVu.path, faceIndex: -1), size: 12))
    }

    /// A font from data draws what the same file draws; bytes that are not a font, or a font
    /// cut short anywhere, are refused with the name given or drawn, never a crash (the seed
    /// fonts of the `font` fuzz target: TrueType, CFF OpenType and a collection).
    func testFontsFromDataDrawLikeFilesAndSurviveDamage() throws {
        let installed = try Font(size: 30).file
        let fromData = try Font(
            data: Array(try Data(contentsOf: URL(fileURLWithPath: installed.path))), name: "x", size: 30)
        let fromFile = try Font(file: installed, size: 30)
        XCTAssertEqual(fromData.familyName, fromFile.familyName)
        let a = Bitmap(width: 160, height: 40), b = Bitmap(width: 160, height: 40)
        GraphicsContext(bitmap: a).fill(fromData.path(for: "AVa fi ß", at: Point(x: 2, y: 32)), color: .black)
        GraphicsContext(bitmap: b).fill(fromFile.path(for: "AVa fi ß", at: Point(x: 2, y: 32)), color: .black)
        var inked = 0
        for y in 0..<40 {
            for x in 0..<160 {
                if a[x, y] != b[x, y] { return XCTFail("(\(x), \(y)) differs") }
                if a[x, y] != 0 { inked += 1 }
            }
        }
        XCTAssertGreaterThan(inked, 300)

        XCTAssertThrowsError(try Font(data: Array("not a font".utf8), name: "upload.ttf", size: 12)) { error in
            XCTAssertTrue("\(error)".hasPrefix("upload.ttf: cannot load face 0"), "\(error)")
        }
        XCTAssertThrowsError(try Font(data: [], name: "empty.ttf", size: 12))

        let seeds = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/font")
        let files = try FileManager.default.contentsOfDirectory(atPath: seeds.path).filter { !$0.hasSuffix(".md") }
        XCTAssertGreaterThanOrEqual(files.count, 4)
        for file in files {
            let bytes = Array(try Data(contentsOf: seeds.appendingPathComponent(file)))
            XCTAssertNoThrow(try Font(data: bytes, name: file, size: 24), file)
            for cut in stride(from: 0, to: bytes.count, by: 61) {
                var damaged = Array(bytes[..<cut])
                if cut % 2 == 1, cut + 8 < bytes.count {
                    damaged = bytes;
                    damaged.replaceSubrange(cut..<cut + 8, with: [0xFF, 0, 0xFF, 0, 0x7F, 0x80, 0, 0xFF])
                }
                guard let font = try? Font(data: damaged, name: file, size: 24) else { continue }
                let ctx = GraphicsContext(bitmap: Bitmap(width: 96, height: 32))
                ctx.fill(font.path(for: "Vitrine AV fi 0123", at: Point(x: 2, y: 24)), color: .black)
            }
        }
    }

    func testUnknownFamilyGetsFontconfigsBestMatch() throws {
        let font = try Font(family: "No Such Family Vitrine", size: 12)
        XCTAssertFalse(font.familyName.isEmpty)
        XCTAssertFalse(font.path(for: "Ok", at: .zero).isEmpty)
        XCTAssertEqual(try Font(size: 12).familyName, "DejaVu Sans")
        let serif = try Font(family: "DejaVu Serif", size: 12)
        XCTAssertEqual(serif.familyName, "DejaVu Serif")
        XCTAssertNotEqual(serif.file, try Font(size: 12).file)
    }

    func testFontFromAFileDrawsLikeTheSameFontFoundByFamily() throws {
        let byFamily = try Font(size: 24)
        let byFile = try Font(file: byFamily.file, size: 24)
        XCTAssertEqual(byFile.path(for: "Vitrine", at: .zero), byFamily.path(for: "Vitrine", at: .zero))
    }

    // MARK: - Concurrency and speed

    func testConcurrentLayoutAgreesWithSerialLayout() throws {
        // A family no other test uses, so the threads race on cold face and glyph caches.
        let family = "DejaVu Sans Mono"
        let labels = (0..<16).map { "Label \($0) ÀÉÎ €\u{4E2D} \($0 * 37)%" }
        let results = UnsafeMutableBufferPointer<Path?>.allocate(capacity: labels.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: labels.count) { i in
            results[i] = try? Font(family: family, size: 18).path(for: labels[i], at: .zero)
        }
        let serial = try labels.map { try Font(family: family, size: 18).path(for: $0, at: .zero) }
        XCTAssertEqual(Array(results), serial.map { Optional($0) })
        XCTAssertFalse(serial[0].isEmpty)
    }

    func testLabelPathTakesMicrosecondsOnceCached() throws {
        let label = "Vitrine 42%"
        _ = try Font(size: 48).path(for: label, at: .zero)  // fills the face and glyph caches
        let iterations = 2000
        let start = DispatchTime.now().uptimeNanoseconds
        var elements = 0
        for i in 0..<iterations {
            let font = try Font(size: 48)  // a new Font every "frame", as an animation would
            elements += font.path(for: label, at: Point(x: Double(i), y: 50)).elements.count
        }
        let perLabel = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations) / 1000
        XCTAssertGreaterThan(elements, 0)
        // Typically a few µs; the bound leaves room for a loaded two-core machine, not for a
        // sanitizer's instrumentation (`scripts/sanitize.sh` says which one runs).
        if ProcessInfo.processInfo.environment["VITRINE_SANITIZER"] == nil {
            XCTAssertLessThan(perLabel, 100, "\(perLabel) µs per label")
        }
    }

    // MARK: - Independent references

    /// The installed fonts whose fontconfig coverage includes `scalar` (FcFontList, not the
    /// ranking the layout uses).
    private func installedFonts(covering scalar: Unicode.Scalar) -> [FontFile] {
        guard FcInit() != 0, let pattern = FcPatternCreate(), let charset = FcCharSetCreate() else { return [] }
        defer { FcPatternDestroy(pattern); FcCharSetDestroy(charset) }
        _ = FcCharSetAddChar(charset, scalar.value)
        _ = vitrine_fc_pattern_add_charset(pattern, charset)
        guard let objects = vitrine_fc_object_set_file_index() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        guard let set = FcFontList(nil, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        return UnsafeBufferPointer(start: set.pointee.fonts, count: Int(set.pointee.nfont)).compactMap { font in
            var path: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard let font, vitrine_fc_pattern_file(font, &path) == FcResultMatch, let path else { return nil }
            _ = vitrine_fc_pattern_index(font, &index)
            return FontFile(path: String(cString: path), faceIndex: Int(index))
        }
    }
}

/// A face opened directly with FreeType and scaled by FreeType (unhinted) to a pixel size.
private final class ReferenceFace {
    struct Metrics { let bearingX, bearingY, width, height: Double }
    struct HorizontalHeader { let unitsPerEm, ascender, descender, lineGap: Double }
    struct Failure: Error { let what: String }

    private var library: FT_Library?
    private var face: FT_Face?

    init(_ file: FontFile, size: Double) throws {
        guard FT_Init_FreeType(&library) == 0 else { throw Failure(what: "FT_Init_FreeType") }
        guard FT_New_Face(library, file.path, FT_Long(file.faceIndex), &face) == 0 else {
            throw Failure(what: "FT_New_Face \(file)")
        }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(size * 64), 72, 72) == 0 else {
            throw Failure(what: "FT_Set_Char_Size \(size)")
        }
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    var hasKerning: Bool { vitrine_ft_face_has_kerning(face) != 0 }

    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 { FT_Get_Char_Index(face, FT_ULong(scalar.value)) }

    private func load(_ glyph: UInt32) throws -> FT_GlyphSlot {
        guard FT_Load_Glyph(face, glyph, VitrineFTLoadNoHinting) == 0, let slot = face?.pointee.glyph else {
            throw Failure(what: "FT_Load_Glyph \(glyph)")
        }
        return slot
    }

    /// The unhinted advance FreeType scaled, in pixels (16.16 fixed point).
    func linearAdvance(ofGlyph glyph: UInt32) throws -> Double {
        Double(try load(glyph).pointee.linearHoriAdvance) / 65536
    }

    func linearAdvance(of scalar: Unicode.Scalar) throws -> Double {
        try linearAdvance(ofGlyph: glyphIndex(scalar))
    }

    /// Kerning scaled by FreeType, not grid-fitted, in pixels (26.6 fixed point).
    func scaledKerning(_ left: Unicode.Scalar, _ right: Unicode.Scalar) -> Double {
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, glyphIndex(left), glyphIndex(right), FT_KERNING_UNFITTED.rawValue, &delta) == 0
        else { return 0 }
        return Double(delta.x) / 64
    }

    /// Glyph metrics in pixels, y up as FreeType gives them.
    func metrics(of scalar: Unicode.Scalar) throws -> Metrics {
        let m = try load(glyphIndex(scalar)).pointee.metrics
        return Metrics(
            bearingX: Double(m.horiBearingX) / 64, bearingY: Double(m.horiBearingY) / 64,
            width: Double(m.width) / 64, height: Double(m.height) / 64)
    }

    /// The exact bounding box of the scaled outline (curve extremes included), flipped to y down.
    func outlineBoundingBox(ofGlyph glyph: UInt32) throws -> Rect {
        let slot = try load(glyph)
        var box = FT_BBox()
        guard FT_Outline_Get_BBox(&slot.pointee.outline, &box) == 0 else { throw Failure(what: "bbox") }
        return Rect(
            x: Double(box.xMin) / 64, y: -Double(box.yMax) / 64,
            width: Double(box.xMax - box.xMin) / 64, height: Double(box.yMax - box.yMin) / 64)
    }

    func outlineBoundingBox(of scalar: Unicode.Scalar) throws -> Rect {
        try outlineBoundingBox(ofGlyph: glyphIndex(scalar))
    }

    /// The font's 'hhea' table, read by FreeType's sfnt loader.
    func horizontalHeader() throws -> HorizontalHeader {
        guard let face, let raw = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA) else { throw Failure(what: "no hhea") }
        let hhea = raw.assumingMemoryBound(to: TT_HoriHeader.self).pointee
        return HorizontalHeader(
            unitsPerEm: Double(face.pointee.units_per_EM), ascender: Double(hhea.Ascender),
            descender: Double(hhea.Descender), lineGap: Double(hhea.Line_Gap))
    }
}
