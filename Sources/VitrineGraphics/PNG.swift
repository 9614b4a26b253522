import CPNG
import Glibc
import VitrineSystem

/// Why a PNG could not be read or written; `source` / `destination` name the file, or
/// "PNG data" for bytes in memory.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadableFile(path: String, reason: String)
    /// libpng rejected the data: not a PNG, corrupt, truncated or unsupported.
    case invalidPNG(source: String, message: String)
    /// The declared size exceeds `Image.maximumPNGPixels` (or is empty).
    case unsupportedSize(source: String, width: Int, height: Int)
    /// The file is neither a PNG nor a JPEG (by its first bytes).
    case notAnImage(source: String)
    /// Encoding or writing failed.
    case writeFailed(destination: String, message: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "\(path): \(reason)"
        case .invalidPNG(let source, let message): return "\(source): not a valid PNG: \(message)"
        case .notAnImage(let source): return "\(source): neither a PNG nor a JPEG file"
        case .unsupportedSize(let source, let w, let h):
            guard w > 0, h > 0 else { return "\(source): the image is empty (\(w)x\(h) pixels)" }
            return
                "\(source): the image is \(w)x\(h) pixels, more than the \(Image.maximumPNGPixels) (8192x8192) an image may have"
        case .writeFailed(let destination, let message): return "\(destination): cannot write the PNG: \(message)"
        }
    }
}

// libpng reports errors through longjmp, which must never cross Swift frames. The simplified
// API (png_image_*) catches its own longjmps inside C and reports failure by return value
// and `png_image.message`, so it is the only part of libpng used here.

extension Image {
    /// The largest PNG decoded, in pixels (8192 × 8192), so a hostile header cannot make us
    /// allocate gigabytes.
    public static let maximumPNGPixels = 8192 * 8192

    /// Decodes a PNG (any bit depth and colour type: grey, grey+alpha, palette with or without
    /// transparency, RGB, RGBA, 8 or 16 bits) into premultiplied pixels. 16-bit files without
    /// colour-space information are taken as sRGB-encoded, like 8-bit ones.
    public convenience init(pngData data: some Sequence<UInt8>) throws {
        try self.init(pngData: Array(data), source: "PNG data")
    }

    /// Reads and decodes a PNG or JPEG file, told apart by their first bytes (see
    /// `init(pngData:)` and `init(jpegData:)`).
    public convenience init(contentsOfFile path: String) throws {
        let bytes = try Image.readFile(path)
        if Image.isJPEG(bytes) {
            try self.init(jpegData: bytes, source: path)
        } else if Image.isPNG(bytes) {
            try self.init(pngData: bytes, source: path)
        } else {
            throw PNGError.notAnImage(source: path)
        }
    }

    /// The largest PNG file read: more than any image of `maximumPNGPixels` compresses to.
    public static let maximumPNGFileBytes = 256 << 20

    /// The bytes of the image file at `path`, at most `maximumPNGFileBytes`.
    static func readFile(_ path: String) throws -> [UInt8] {
        do {
            return try Files.read(path, limit: Image.maximumPNGFileBytes)
        } catch let error as FileError {
            throw PNGError.unreadableFile(path: path, reason: error.reason)
        }
    }

    /// New storage for `width × height` pixels, which `fill` writes; freed if it throws.
    static func newPixels(
        width: Int, height: Int, _ fill: (UnsafeMutablePointer<UInt32>) throws -> Void
    ) throws -> UnsafeMutablePointer<UInt32> {
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        do {
            try fill(pixels)
        } catch {
            pixels.deallocate()
            throw error
        }
        return pixels
    }

    /// Whether `bytes` start with the PNG signature's first four bytes.
    static func isPNG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) }

    private convenience init(pngData data: [UInt8], source: String) throws {
        let (width, height, pixels) = try PNGCodec.decode(data, source: source)
        self.init(width: width, height: height, adopting: pixels)
    }
}

extension Bitmap {
    /// The bitmap as an 8-bit RGBA PNG (colours un-premultiplied).
    public func pngData() throws -> [UInt8] {
        try PNGCodec.encode(self, destination: "PNG data")
    }

    /// Writes the bitmap to `path` as an 8-bit RGBA PNG (colours un-premultiplied). `fast`
    /// trades size for speed (libpng's fast deflate settings): for streams of frames. The
    /// file is written as it is encoded (one un-premultiplied copy of the pixels in memory,
    /// not the encoded file too); if anything fails, a regular file begun is removed.
    public func writePNG(to path: String, fast: Bool = false) throws {
        let straight = PNGCodec.straightPixels(of: self)
        try straight.withUnsafeBufferPointer {
            try PNGCodec.write($0.baseAddress!, width: width, height: height, rowPixels: width, to: path, fast: fast)
        }
    }

    /// Turns the pixels to straight alpha in place, for `writeUnpremultipliedPNG(to:fast:)`:
    /// a bitmap written and then dropped (a screenshot's copy of the frame) then costs no
    /// second frame of memory (8 MB at 1080p, 33 MB at 4K). Drawing into it afterwards is wrong.
    public func unpremultiplyInPlace() {
        for y in 0..<height { PNGCodec.unpremultiply(row(y), into: row(y), count: width) }
    }

    /// As `writePNG(to:fast:)`, for a bitmap whose pixels `unpremultiplyInPlace()` has
    /// turned to straight alpha.
    public func writeUnpremultipliedPNG(to path: String, fast: Bool = false) throws {
        try PNGCodec.write(pixels, width: width, height: height, rowPixels: stride, to: path, fast: fast)
    }
}

enum PNGCodec {
    /// B, G, R, A bytes in memory: on little-endian, the `UInt32` layout of `Bitmap`.
    private static let formatBGRA = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_BGR | PNG_FORMAT_FLAG_ALPHA)

    /// Decodes to premultiplied pixels the caller owns.
    static func decode(_ data: [UInt8], source: String) throws -> (Int, Int, UnsafeMutablePointer<UInt32>) {
        let (width, height) = try size(of: data, source: source)
        let pixels = try Image.newPixels(width: width, height: height) {
            try decode(data, source: source, into: $0, width: width, height: height)
        }
        return (width, height, pixels)
    }

    /// The size the PNG's header declares, within `Image.maximumPNGPixels`.
    static func size(of data: [UInt8], source: String) throws -> (Int, Int) {
        guard !data.isEmpty else { throw PNGError.invalidPNG(source: source, message: "no data") }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        return try data.withUnsafeBytes { raw -> (Int, Int) in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw PNGError.invalidPNG(source: source, message: message(of: &image))
            }
            png_image_free(&image)
            let width = Int(image.width), height = Int(image.height)
            guard width > 0, height > 0, width * height <= Image.maximumPNGPixels else {
                throw PNGError.unsupportedSize(source: source, width: width, height: height)
            }
            return (width, height)
        }
    }

    /// Decodes premultiplied pixels into `pixels`, `width × height` as `size(of:source:)` gave.
    static func decode(
        _ data: [UInt8], source: String, into pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int
    ) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        // libpng reads from the caller's memory until finish_read, so both calls share one
        // borrow of the bytes.
        try data.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw PNGError.invalidPNG(source: source, message: message(of: &image))
            }
            precondition(Int(image.width) == width && Int(image.height) == height, "not the size `size(of:)` gave")
            image.format = formatBGRA
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            pixels.initialize(repeating: 0, count: width * height)
            guard png_image_finish_read(&image, nil, pixels, Int32(width * 4), nil) != 0 else {
                throw PNGError.invalidPNG(source: source, message: message(of: &image))
            }
        }
        premultiply(pixels, count: width * height)
    }

    /// The bitmap's pixels with straight alpha, row after row without padding.
    static func straightPixels(of bitmap: Bitmap) -> [UInt32] {
        let width = bitmap.width, height = bitmap.height
        return [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
            for y in 0..<height { unpremultiply(bitmap.row(y), into: out.baseAddress! + y * width, count: width) }
            count = width * height
        }
    }

    /// `count` pixels from `source` to straight alpha at `target` (which may be `source`).
    static func unpremultiply(_ source: UnsafePointer<UInt32>, into target: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count { target[i] = unpremultiply(source[i]) }
    }

    /// A description of straight-alpha BGRA pixels at 8 bits per channel, for libpng.
    private static func describe(width: Int, height: Int, fast: Bool) -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = formatBGRA
        if fast { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        return image
    }

    /// Encodes straight-alpha pixels (`rowPixels` apart) into the file at `path` as they are
    /// compressed. If encoding or writing fails (a full disk shows at the close), a regular file
    /// is removed rather than left half written; anything else (`/dev/stdout`, a pipe) stays.
    static func write(
        _ pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int, to path: String, fast: Bool
    ) throws {
        guard width > 0, height > 0, rowPixels <= Int(Int32.max) / 4 else {
            throw PNGError.writeFailed(destination: path, message: "cannot encode a \(width)x\(height) image")
        }
        let fd: Int32
        do {
            fd = try Files.create(path)
        } catch FileError.system(let failure) {
            throw PNGError.writeFailed(destination: path, message: failure.reason)
        }
        // Removed on failure only when the path itself names a regular file (not a link to one).
        var info = stat()
        let isRegularFile = lstat(path, &info) == 0 && FileKind(mode: info.st_mode) == .regularFile
        func fail(_ failure: String) -> PNGError {
            if isRegularFile { unlink(path) }
            return PNGError.writeFailed(destination: path, message: failure)
        }
        guard let file = fdopen(fd, "wb") else {
            let failure = SystemError.describe(errno)
            close(fd)
            throw fail(failure)
        }
        var image = describe(width: width, height: height, fast: fast)
        let encoded = png_image_write_to_stdio(&image, file, 0, pixels, Int32(rowPixels * 4), nil) != 0
        let writeError = errno
        var failure: String?
        if !encoded {
            // A write that failed mid-way is the system's error (libpng's own says "Write Error").
            failure = ferror(file) != 0 ? SystemError.describe(writeError) : message(of: &image)
        }
        if fclose(file) != 0, failure == nil { failure = SystemError.describe(errno) }
        if let failure { throw fail(failure) }
    }

    /// Encodes straight-alpha RGBA at 8 bits per channel.
    static func encode(_ bitmap: Bitmap, destination: String, fast: Bool = false) throws -> [UInt8] {
        let width = bitmap.width, height = bitmap.height
        guard width > 0, height > 0, width <= Int(Int32.max) / 4 else {
            throw PNGError.writeFailed(destination: destination, message: "cannot encode a \(width)x\(height) image")
        }
        let straight = straightPixels(of: bitmap)
        var image = describe(width: width, height: height, fast: fast)
        // Room for the raw rows plus deflate's worst-case overhead; retried if libpng asks for more.
        var capacity = width * height * 4 + height + (width * height * 4 / 16_000 + 1) * 5 + 4096
        for _ in 0..<2 {
            var data = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = data.withUnsafeMutableBytes { memory in
                straight.withUnsafeBytes { pixels in
                    png_image_write_to_memory(
                        &image, memory.baseAddress, &size, 0, pixels.baseAddress,
                        Int32(width * 4), nil)
                }
            }
            if ok != 0 {
                data.removeLast(capacity - Int(size))
                return data
            }
            guard Int(size) > capacity else {
                throw PNGError.writeFailed(destination: destination, message: message(of: &image))
            }
            capacity = Int(size)
            image = describe(width: width, height: height, fast: fast)
        }
        throw PNGError.writeFailed(destination: destination, message: "encoder kept asking for more memory")
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }

    /// Straight to premultiplied alpha, in place: eight pixels at a time, each one's colour
    /// scaled by its own alpha and its alpha by 255 (`SpanBlitter.scaleWide`, `PixelMath.scale`'s
    /// rounding), a block of opaque pixels left as it is; then the rest one by one.
    static func premultiply(_ p: UnsafeMutablePointer<UInt32>, count: Int) {
        let raw = UnsafeMutableRawPointer(p)
        let opaque = SIMD8<UInt32>(repeating: 0xFF00_0000), keepsAlpha = SIMD8<UInt32>(repeating: 255 << 16)
        var i = 0
        while i &+ 8 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self)
            if v & opaque != opaque {
                let a = v &>> 24
                let redBlue = unsafeBitCast(a | a &<< 16, to: SIMD16<UInt16>.self)
                let alphaGreen = unsafeBitCast(keepsAlpha | a, to: SIMD16<UInt16>.self)
                raw.storeBytes(
                    of: SpanBlitter.scaleWide(v, redBlue: redBlue, alphaGreen: alphaGreen), toByteOffset: i &* 4,
                    as: SIMD8<UInt32>.self)
            }
            i &+= 8
        }
        while i < count {
            let v = p[i], a = v >> 24
            if a != 255 { p[i] = a == 0 ? 0 : (PixelMath.scale(v, a) & 0x00FF_FFFF) | a << 24 }
            i &+= 1
        }
    }

    /// Premultiplied to straight alpha, rounded: premultiplying the result again gives back
    /// the same pixel.
    @inline(__always)
    static func unpremultiply(_ v: UInt32) -> UInt32 {
        let a = v >> 24
        if a == 255 || a == 0 { return a == 0 ? 0 : v }
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            min(255, (((v >> shift) & 0xFF) * 255 + a / 2) / a) << shift
        }
        return a << 24 | channel(16) | channel(8) | channel(0)
    }
}
