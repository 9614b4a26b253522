import CFontconfig
import Glibc
import VitrineSystem

/// Finding fonts with fontconfig: the file for a family name, and a face for a code point the
/// primary face lacks. Fontconfig's matching takes milliseconds, so every answer is cached for
/// the life of the process (fonts installed while the player runs are not seen).
enum FontLookup {
    /// The family a font falls back to when none is named.
    static let defaultFamily = "DejaVu Sans"

    private static let lock = Lock()
    private static var matches: [String: Result<FontFile, FontError>] = [:]
    /// Per family: the fonts fontconfig ranks after the best match, with their coverage.
    private static var fallbackLists: [String: [FallbackCandidate]] = [:]
    /// Per family and code point: the face that draws it, or nil when no installed font does.
    private static var fallbacks: [FallbackKey: FontFace?] = [:]
    /// Text is finite but not bounded; past this many remembered code points the memo restarts.
    private static let fallbackMemoLimit = 4096

    private static let initialised: Bool = FcInit() != 0

    /// The file of fontconfig's best match for a family (an unknown family gets its best
    /// substitute, which is fontconfig's job).
    static func file(forFamily family: String) throws(FontError) -> FontFile {
        lock.lock(); defer { lock.unlock() }
        if let cached = matches[family] { return try cached.get() }
        let result = Result { () throws(FontError) in try match(family: family) }
        matches[family] = result
        return try result.get()
    }

    /// A face other than `primary` that has a glyph for `scalar`, chosen in fontconfig's order
    /// of preference for `family`; nil when no installed outline font covers it.
    static func fallbackFace(for scalar: Unicode.Scalar, family: String, excluding primary: FontFile) -> FontFace? {
        lock.lock(); defer { lock.unlock() }
        let key = FallbackKey(family: family, scalar: scalar.value)
        if let known = fallbacks[key] { return known }
        if fallbacks.count >= fallbackMemoLimit { fallbacks.removeAll(keepingCapacity: true) }
        let found = searchFallback(for: scalar, in: candidates(for: family), excluding: primary)
        fallbacks[key] = found
        return found
    }

    // MARK: - Fontconfig queries (called with `lock` held)

    private static func match(family: String) throws(FontError) -> FontFile {
        guard initialised, let pattern = substitutedPattern(family: family) else {
            throw FontError.noMatch(family: family)
        }
        defer { FcPatternDestroy(pattern) }
        var result = FcResultNoMatch
        guard let best = FcFontMatch(nil, pattern, &result), let file = fontFile(of: best) else {
            throw FontError.noMatch(family: family)
        }
        FcPatternDestroy(best)
        return file
    }

    private static func candidates(for family: String) -> [FallbackCandidate] {
        if let list = fallbackLists[family] { return list }
        var list: [FallbackCandidate] = []
        if initialised, let pattern = substitutedPattern(family: family) {
            var result = FcResultNoMatch
            // Trimmed: fonts that add no code point to those ranked above them are left out.
            if let set = FcFontSort(nil, pattern, FcBool(FcTrue), nil, &result) {
                let fonts = UnsafeBufferPointer(start: set.pointee.fonts, count: Int(set.pointee.nfont))
                for case let font? in fonts {
                    var outline = FcBool(FcFalse)
                    var charset: OpaquePointer?
                    guard vitrine_fc_pattern_outline(font, &outline) == FcResultMatch, outline != 0,
                        vitrine_fc_pattern_charset(font, &charset) == FcResultMatch, let charset,
                        let file = fontFile(of: font)
                    else { continue }
                    // The copy keeps the coverage alive after the font set is destroyed.
                    list.append(FallbackCandidate(file: file, coverage: FcCharSetCopy(charset)))
                }
                FcFontSetDestroy(set)
            }
            FcPatternDestroy(pattern)
        }
        fallbackLists[family] = list
        return list
    }

    private static func searchFallback(
        for scalar: Unicode.Scalar, in list: [FallbackCandidate],
        excluding primary: FontFile
    ) -> FontFace? {
        for candidate in list where candidate.file != primary {
            guard FcCharSetHasChar(candidate.coverage, scalar.value) != 0,
                let face = try? FontFace.face(for: candidate.file),
                face.glyphIndex(for: scalar) != 0
            else { continue }
            return face
        }
        return nil
    }

    /// A pattern for the family with the user's and the system's substitutions applied, ready
    /// for matching.
    private static func substitutedPattern(family: String) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        guard vitrine_fc_pattern_add_family(pattern, family) != 0,
            FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0
        else {
            FcPatternDestroy(pattern)
            return nil
        }
        FcDefaultSubstitute(pattern)
        return pattern
    }

    private static func fontFile(of pattern: OpaquePointer) -> FontFile? {
        var path: UnsafeMutablePointer<FcChar8>?
        guard vitrine_fc_pattern_file(pattern, &path) == FcResultMatch, let path else { return nil }
        var index: Int32 = 0
        if vitrine_fc_pattern_index(pattern, &index) != FcResultMatch { index = 0 }
        return FontFile(path: String(cString: path), faceIndex: Int(index))
    }
}

/// A font fontconfig ranked for a family, with the code points it covers.
private struct FallbackCandidate {
    let file: FontFile
    let coverage: OpaquePointer
}

private struct FallbackKey: Hashable {
    let family: String
    let scalar: UInt32
}
