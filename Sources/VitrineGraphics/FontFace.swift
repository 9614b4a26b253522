import CFreeType
import Glibc
import VitrineSystem

/// One FreeType face, loaded once per process and shared by every `Font` that uses it,
/// whatever its size: metrics and outlines stay in font units and callers scale them.
///
/// An FT_Face must not be used by two threads at once, so every FreeType call on it happens
/// under `lock`; the outlines it produces are cached, so the lock guards mostly dictionary
/// look-ups after the first frame.
final class FontFace: @unchecked Sendable {
    let file: FontFile
    /// The family name stored in the font (fontconfig's best match may differ from the request).
    let familyName: String
    let unitsPerEm: Double
    /// Distance from the baseline up to the top of the tallest glyphs, in font units (positive).
    let ascender: Double
    /// Distance from the baseline down to the bottom of the deepest glyphs, in font units (positive).
    let descender: Double
    /// Baseline-to-baseline distance, in font units.
    let lineHeight: Double
    /// True when FT_Get_Kerning has pairs to give. FreeType reads only the legacy 'kern' table,
    /// never GPOS: DejaVu Sans 2.37 ships one (A-V is -131 of 2048 units), while fonts that kern
    /// through GPOS alone (the URW base35 OpenType fonts, for one) are laid out unkerned.
    let hasKerning: Bool

    private let face: FT_Face
    /// The font data of a face opened from memory: FreeType reads it for the face's lifetime.
    private let data: UnsafeMutableRawBufferPointer?
    private let lock = Lock()
    private var outlines: [UInt32: GlyphOutline] = [:]

    private init(file: FontFile, face: FT_Face, data: UnsafeMutableRawBufferPointer? = nil) {
        self.file = file
        self.face = face
        self.data = data
        let rec = face.pointee
        familyName = rec.family_name.map { String(cString: $0) } ?? ""
        // Scalable faces always have a nonzero em; guard anyway so a broken font cannot divide by zero.
        unitsPerEm = Double(max(rec.units_per_EM, 1))
        ascender = Double(rec.ascender)
        descender = -Double(rec.descender)
        lineHeight = Double(rec.height)
        hasKerning = vitrine_ft_face_has_kerning(face) != 0
    }

    /// Cached faces live as long as the process; faces opened from memory end here.
    deinit {
        if let library = try? FreeTypeLibrary.shared.get() {
            library.lock.lock()
            FT_Done_Face(face)
            library.lock.unlock()
        }
        data?.deallocate()
    }

    /// The face's glyph for a code point, 0 (.notdef) when the font lacks it.
    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        lock.lock(); defer { lock.unlock() }
        return FT_Get_Char_Index(face, FT_ULong(scalar.value))
    }

    /// The kerning adjustment between two glyphs, in font units (negative pulls them together).
    func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        guard hasKerning else { return 0 }
        var delta = FT_Vector()
        lock.lock(); defer { lock.unlock() }
        guard FT_Get_Kerning(face, left, right, FT_KERNING_UNSCALED.rawValue, &delta) == 0 else { return 0 }
        return Double(delta.x)
    }

    /// The glyph's outline in font units, loaded unhinted and cached for the life of the face.
    /// A glyph FreeType cannot load draws nothing and advances by nothing.
    func outline(of glyph: UInt32) -> GlyphOutline {
        lock.lock(); defer { lock.unlock() }
        if let cached = outlines[glyph] { return cached }
        let loaded = loadOutline(glyph) ?? .empty
        outlines[glyph] = loaded
        return loaded
    }

    private func loadOutline(_ glyph: UInt32) -> GlyphOutline? {
        let flags = VitrineFTLoadNoScale | VitrineFTLoadNoHinting | VitrineFTLoadNoBitmap
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph else { return nil }
        return GlyphOutline(slot: slot)
    }

    // MARK: - Process-wide cache

    private static let cacheLock = Lock()
    /// Every face opened so far, failures included so a broken file is not reopened every frame.
    private static var cache: [FontFile: Result<FontFace, FontError>] = [:]

    /// The shared face for a file, opening it on first use.
    static func face(for file: FontFile) throws(FontError) -> FontFace {
        cacheLock.lock(); defer { cacheLock.unlock() }
        if let cached = cache[file] { return try cached.get() }
        let result = Result { () throws(FontError) in try open(file) }
        cache[file] = result
        return try result.get()
    }

    private static func open(_ file: FontFile) throws(FontError) -> FontFace {
        try open(file) { library, index, face in FT_New_Face(library, file.path, index, &face) }
    }

    /// A face read from `bytes` (the contents of a font file that `name` stands for in errors),
    /// owned by the caller and not cached: a font that arrives as data.
    static func face(data bytes: [UInt8], name: String, faceIndex: Int) throws(FontError) -> FontFace {
        let data = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { data.copyMemory(from: $0) }
        do {
            return try open(FontFile(path: name, faceIndex: faceIndex), data: data) { library, index, face in
                FT_New_Memory_Face(
                    library, data.baseAddress!.assumingMemoryBound(to: UInt8.self), FT_Long(bytes.count), index, &face)
            }
        } catch {
            data.deallocate()
            throw error
        }
    }

    /// Opens `file`'s face through `newFace` (FT_New_Face or FT_New_Memory_Face) and checks
    /// that it has outlines.
    private static func open(
        _ file: FontFile, data: UnsafeMutableRawBufferPointer? = nil,
        _ newFace: (FT_Library, FT_Long, inout FT_Face?) -> FT_Error
    ) throws(FontError) -> FontFace {
        let library = try FreeTypeLibrary.shared.get()
        // A negative index asks FreeType a question (how many faces?) instead of opening one.
        guard file.faceIndex >= 0, file.faceIndex <= Int(Int32.max) else {
            throw FontError.cannotLoad(
                path: file.path, faceIndex: file.faceIndex,
                code: Int32(FT_Err_Invalid_Argument))
        }
        var face: FT_Face?
        library.lock.lock()
        let error = newFace(library.handle, FT_Long(file.faceIndex), &face)
        library.lock.unlock()
        guard error == 0, let face else {
            throw FontError.cannotLoad(path: file.path, faceIndex: file.faceIndex, code: error)
        }
        guard vitrine_ft_face_is_scalable(face) != 0 else {
            library.lock.lock()
            FT_Done_Face(face)
            library.lock.unlock()
            throw FontError.notScalable(path: file.path, faceIndex: file.faceIndex)
        }
        return FontFace(file: file, face: face, data: data)
    }
}
