import CFreeType

/// Why a font could not be created: each case names the file or family where it happened.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pixel size is zero, negative or not finite.
    case invalidSize(Double)
    /// FreeType itself could not start (`FT_Init_FreeType` failed with `code`).
    case freeTypeUnavailable(code: Int32)
    /// Fontconfig could not start, or offered no font file at all for the family.
    case noMatch(family: String)
    /// FreeType could not open face `faceIndex` of the file (`FT_New_Face` failed with `code`).
    case cannotLoad(path: String, faceIndex: Int, code: Int32)
    /// The face holds only bitmap strikes, so its glyphs have no outlines to draw.
    case notScalable(path: String, faceIndex: Int)

    /// A one-line explanation naming the file or family concerned.
    public var description: String {
        switch self {
        case .invalidSize(let size):
            return "font size \(size) is not a positive finite number of pixels"
        case .freeTypeUnavailable(let code):
            return "FreeType failed to initialise (\(FontError.freeTypeMessage(code)))"
        case .noMatch(let family):
            return "fontconfig found no font for family \"\(family)\""
        case .cannotLoad(let path, let index, let code):
            return "\(path): cannot load face \(index) (\(FontError.freeTypeMessage(code)))"
        case .notScalable(let path, let index):
            return "\(path): face \(index) is a bitmap font without outlines"
        }
    }

    /// FreeType's own text for an error code when the library was built with it, else the code.
    static func freeTypeMessage(_ code: Int32) -> String {
        if let text = FT_Error_String(code) { return "FreeType error \(code): \(String(cString: text))" }
        return "FreeType error \(code)"
    }
}
