/// Where a face lives: a font file and the index of the face inside it (a TrueType collection
/// holds several faces; a plain font file has only face 0).
public struct FontFile: Hashable, Sendable, CustomStringConvertible {
    /// Absolute path of the font file.
    public let path: String
    /// Index of the face within the file, 0 for single-face files.
    public let faceIndex: Int

    /// A face in a font file; the first (or only) face unless `faceIndex` says otherwise.
    public init(path: String, faceIndex: Int = 0) {
        self.path = path; self.faceIndex = faceIndex
    }

    /// The path, followed by `#index` for a face other than the first.
    public var description: String { faceIndex == 0 ? path : "\(path)#\(faceIndex)" }
}
