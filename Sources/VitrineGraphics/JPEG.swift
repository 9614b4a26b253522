import CTurboJPEG
import Glibc

/// Why a JPEG could not be decoded.
public enum JPEGError: Error, Equatable, CustomStringConvertible {
    /// libjpeg-turbo refused the data (corrupt, truncated or unsupported), with its words.
    case invalidJPEG(source: String, message: String)
    /// The declared size is empty or exceeds `Image.maximumPNGPixels`.
    case unsupportedSize(source: String, width: Int, height: Int)

    public var description: String {
        switch self {
        case .invalidJPEG(let source, let message): return "\(source): not a valid JPEG: \(message)"
        case .unsupportedSize(let source, let w, let h):
            guard w > 0, h > 0 else { return "\(source): the image is empty (\(w)x\(h) pixels)" }
            return
                "\(source): the image is \(w)x\(h) pixels, more than the \(Image.maximumPNGPixels) (8192x8192) an image may have"
        }
    }
}

extension Image {
    /// Whether `bytes` start as a JPEG file does (the SOI marker and another marker).
    public static func isJPEG<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF]
    }

    /// Decodes a JPEG (baseline or progressive, grey, YCbCr or CMYK) into opaque pixels, turned
    /// upright as its EXIF orientation says (the way a camera held sideways meant it). A
    /// warning from the decoder (a truncated file, corrupt data) is an error: a photo that does
    /// not decode cleanly is refused, never shown half grey.
    public convenience init(jpegData data: some Sequence<UInt8>, source: String = "JPEG data") throws {
        let bytes = Array(data)
        let (width, height, pixels) = try JPEGCodec.decode(bytes, source: source)
        let orientation = EXIFOrientation(jpeg: bytes)
        guard orientation != .upright else {
            self.init(width: width, height: height, adopting: pixels)
            return
        }
        let (turnedWidth, turnedHeight, turned) = orientation.apply(to: pixels, width: width, height: height)
        pixels.deallocate()
        self.init(width: turnedWidth, height: turnedHeight, adopting: turned)
    }
}

enum JPEGCodec {
    /// Decodes to opaque BGRA pixels the caller owns.
    static func decode(_ bytes: [UInt8], source: String) throws -> (Int, Int, UnsafeMutablePointer<UInt32>) {
        let (width, height) = try size(of: bytes, source: source)
        let pixels = try Image.newPixels(width: width, height: height) {
            try decode(bytes, source: source, into: $0, width: width, height: height)
        }
        return (width, height, pixels)
    }

    /// The size the JPEG's header declares, within `Image.maximumPNGPixels`.
    static func size(of bytes: [UInt8], source: String) throws -> (Int, Int) {
        try withDecompressor(bytes, source: source) { handle, failure in
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            let header = bytes.withUnsafeBufferPointer {
                tjDecompressHeader3(
                    handle, $0.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
            }
            guard header == 0 else { throw failure() }
            let w = Int(width), h = Int(height)
            guard w > 0, h > 0, w * h <= Image.maximumPNGPixels else {
                throw JPEGError.unsupportedSize(source: source, width: w, height: h)
            }
            return (w, h)
        }
    }

    /// Decodes opaque BGRA pixels into `pixels`, `width × height` as `size(of:source:)` gave.
    static func decode(
        _ bytes: [UInt8], source: String, into pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int
    ) throws {
        try withDecompressor(bytes, source: source) { handle, failure in
            // Progressive files of thousands of scans cost without bound: LIMITSCANS stops at 500.
            let flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
            let decoded = bytes.withUnsafeBufferPointer {
                tjDecompress2(
                    handle, $0.baseAddress, UInt(bytes.count),
                    UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self),
                    Int32(width), Int32(width * 4), Int32(height), Int32(TJPF_BGRA.rawValue), Int32(flags))
            }
            guard decoded == 0 else { throw failure() }
        }
    }

    /// Runs `body` with a decompressor for `bytes` and the error it reports in its own words.
    private static func withDecompressor<Result>(
        _ bytes: [UInt8], source: String, _ body: (tjhandle, () -> JPEGError) throws -> Result
    ) throws -> Result {
        guard let handle = tjInitDecompress() else {
            throw JPEGError.invalidJPEG(source: source, message: "the decoder could not start")
        }
        defer { tjDestroy(handle) }
        guard !bytes.isEmpty, bytes.count <= Int(UInt32.max) else {
            throw JPEGError.invalidJPEG(source: source, message: "no data")
        }
        return try body(handle) {
            .invalidJPEG(source: source, message: tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error")
        }
    }
}

/// How a camera says its picture must be turned to stand upright: the Orientation tag (0x0112)
/// of the EXIF data in a JPEG's APP1 segment, values 1…8 as TIFF defines them.
enum EXIFOrientation: Int, Equatable {
    case upright = 1, mirrored, upsideDown, upsideDownMirrored
    case turnedMirroredTransposed, turnedClockwise, turnedTransverse, turnedAnticlockwise

    /// The orientation a JPEG file states; upright when it states none, or nothing readable.
    init(jpeg bytes: [UInt8]) {
        self = EXIFOrientation.read(bytes).flatMap(EXIFOrientation.init(rawValue:)) ?? .upright
    }

    /// The Orientation value of the first EXIF APP1 segment before the image data.
    private static func read(_ bytes: [UInt8]) -> Int? {
        var at = 2  // past SOI
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return nil }
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data: no EXIF before it
            let body = bytes[(at + 4)..<(at + 2 + length)]
            if marker == 0xE1, body.starts(with: Array("Exif".utf8) + [0, 0]) {
                return orientation(inTIFF: Array(body.dropFirst(6)))
            }
            at += 2 + length
        }
        return nil
    }

    /// The Orientation entry of a TIFF structure's first directory (IFD0).
    private static func orientation(inTIFF tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= tiff.count else { return nil }
            var value = 0
            for i in 0..<size {
                let byte = Int(tiff[offset + (littleEndian ? size - 1 - i : i)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(2, 2) == 42, let directory = read(4, 4), let count = read(directory, 2) else { return nil }
        for entry in 0..<min(count, 512) {
            let offset = directory + 2 + entry * 12
            guard let tag = read(offset, 2) else { return nil }
            // SHORT (type 3), one value, stored in the entry itself.
            if tag == 0x0112, read(offset + 2, 2) == 3 { return read(offset + 8, 2) }
        }
        return nil
    }

    /// `pixels` (width × height) turned upright: a new buffer, and its size.
    func apply(
        to pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int
    ) -> (Int, Int, UnsafeMutablePointer<UInt32>) {
        let out = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        apply(to: pixels, width: width, height: height, into: out)
        return rawValue >= 5 ? (height, width, out) : (width, height, out)
    }

    /// The stored `width × height` pixels turned upright into `out`, as many pixels.
    func apply(
        to pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, into out: UnsafeMutablePointer<UInt32>
    ) {
        let outWidth = rawValue >= 5 ? height : width
        for y in 0..<height {
            for x in 0..<width {
                // Where the stored pixel (x, y) belongs in the upright picture.
                let (ux, uy): (Int, Int)
                switch self {
                case .upright: (ux, uy) = (x, y)
                case .mirrored: (ux, uy) = (width - 1 - x, y)
                case .upsideDown: (ux, uy) = (width - 1 - x, height - 1 - y)
                case .upsideDownMirrored: (ux, uy) = (x, height - 1 - y)
                case .turnedMirroredTransposed: (ux, uy) = (y, x)
                case .turnedClockwise: (ux, uy) = (height - 1 - y, x)
                case .turnedTransverse: (ux, uy) = (height - 1 - y, width - 1 - x)
                case .turnedAnticlockwise: (ux, uy) = (y, width - 1 - x)
                }
                out[uy * outWidth + ux] = pixels[y * width + x]
            }
        }
    }
}
