/// An image file read and its header checked, whose pixels are decoded later, on another
/// thread if need be: a player shows its first scene without waiting for the images only later
/// scenes show. `image` has the file's size (upright, for a turned JPEG) from the start, and
/// must be neither drawn nor asked whether it is opaque before `decode()` returned without an
/// error.
public final class DeferredImage: @unchecked Sendable {
    /// The image the pixels are decoded into.
    public let image: Image
    /// The file, as errors name it.
    public let path: String
    /// The file's bytes, until they are decoded.
    private var bytes: [UInt8]
    /// How a JPEG is turned upright; nil for a PNG.
    private let orientation: EXIFOrientation?

    /// Reads the PNG or JPEG file at `path` and checks its header: an unreadable file, one of
    /// neither kind or a header `Image(contentsOfFile:)` would refuse is an error now, with
    /// its words.
    public init(contentsOfFile path: String) throws {
        self.path = path
        bytes = try Image.readFile(path)
        if Image.isJPEG(bytes) {
            let (width, height) = try JPEGCodec.size(of: bytes, source: path)
            let turned = EXIFOrientation(jpeg: bytes)
            let swaps = turned.rawValue >= 5
            orientation = turned
            image = Image(width: swaps ? height : width, height: swaps ? width : height, unwrittenOpaque: true)
        } else if Image.isPNG(bytes) {
            let (width, height) = try PNGCodec.size(of: bytes, source: path)
            orientation = nil
            image = Image(width: width, height: height, unwrittenOpaque: false)
        } else {
            throw PNGError.notAnImage(source: path)
        }
    }

    /// Decodes the pixels into `image`: the same pixels, and the same errors for a file whose
    /// data is corrupt or truncated, as `Image(contentsOfFile:)`. Call once: the file's bytes
    /// are let go.
    public func decode() throws {
        defer { bytes = [] }
        let pixels = image.unwrittenPixels, count = image.width * image.height
        guard let orientation else {
            try PNGCodec.decode(bytes, source: path, into: pixels, width: image.width, height: image.height)
            image.isOpaque = Image.allOpaque(pixels, count: count)
            return
        }
        guard orientation != .upright else {
            try JPEGCodec.decode(bytes, source: path, into: pixels, width: image.width, height: image.height)
            return
        }
        // Stored turned: decoded aside, then laid upright into the image.
        let (width, height) = orientation.rawValue >= 5 ? (image.height, image.width) : (image.width, image.height)
        let stored = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { stored.deallocate() }
        try JPEGCodec.decode(bytes, source: path, into: stored, width: width, height: height)
        orientation.apply(to: stored, width: width, height: height, into: pixels)
    }
}
