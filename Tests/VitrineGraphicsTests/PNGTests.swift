import Foundation
import VitrineSystem
import XCTest

@testable import VitrineGraphics

/// PNG reading and writing. Test files are built here by a minimal independent encoder
/// (uncompressed deflate blocks), so every colour type and bit depth can be covered
/// without binary fixtures.
final class PNGTests: XCTestCase {
    // MARK: - A minimal PNG encoder

    private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = PNGTests.crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    private func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + bigEndian(b << 16 | a)
    }

    /// `rows` are raw scanlines (filter byte 0 is prepended here).
    private func makePNG(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]],
        palette: [UInt8]? = nil, transparency: [UInt8]? = nil
    ) -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, 0])
        if let palette { png += chunk("PLTE", palette) }
        if let transparency { png += chunk("tRNS", transparency) }
        png += chunk("IDAT", zlibStored(rows.flatMap { [0] + $0 }))
        png += chunk("IEND", [])
        return Data(png)
    }

    private func argb(_ a: UInt32, _ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 { a << 24 | r << 16 | g << 8 | b }

    private func assertClose(
        _ got: UInt32, _ want: UInt32, tolerance: Int = 0, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for shift in stride(from: 0, through: 24, by: 8) {
            let g = Int((got >> UInt32(shift)) & 0xFF), w = Int((want >> UInt32(shift)) & 0xFF)
            XCTAssertLessThanOrEqual(
                abs(g - w), tolerance,
                "\(what): \(String(got, radix: 16)) vs \(String(want, radix: 16))",
                file: file, line: line)
        }
    }

    // MARK: - Reading every colour type

    func testEncoderSanityAndRGBA8() throws {
        let data = makePNG(
            width: 2, height: 1, bitDepth: 8, colorType: 6,
            rows: [[255, 0, 0, 255, 10, 200, 30, 128]])
        let image = try Image(pngData: data)
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image[0, 0], argb(255, 255, 0, 0))
        // Premultiplied: round(c · 128 / 255).
        XCTAssertEqual(image[1, 0], argb(128, 5, 100, 15))
    }

    func testRGB8AndGrey8() throws {
        let rgb = try Image(
            pngData: makePNG(
                width: 2, height: 2, bitDepth: 8, colorType: 2,
                rows: [[1, 2, 3, 4, 5, 6], [250, 128, 0, 9, 99, 199]]))
        XCTAssertEqual(rgb[0, 0], argb(255, 1, 2, 3))
        XCTAssertEqual(rgb[1, 1], argb(255, 9, 99, 199))
        let grey = try Image(pngData: makePNG(width: 3, height: 1, bitDepth: 8, colorType: 0, rows: [[0, 128, 255]]))
        XCTAssertEqual(grey[0, 0], argb(255, 0, 0, 0))
        XCTAssertEqual(grey[1, 0], argb(255, 128, 128, 128))
        XCTAssertEqual(grey[2, 0], argb(255, 255, 255, 255))
    }

    func testGreyAlphaAndLowBitDepthGrey() throws {
        let ga = try Image(
            pngData: makePNG(width: 2, height: 1, bitDepth: 8, colorType: 4, rows: [[200, 128, 50, 255]]))
        XCTAssertEqual(ga[0, 0], argb(128, 100, 100, 100))  // 200 · 128 / 255 = 100.4
        XCTAssertEqual(ga[1, 0], argb(255, 50, 50, 50))
        // 2-bit grey: levels 0, 85, 170, 255; four pixels in one byte, most significant first.
        let g2 = try Image(pngData: makePNG(width: 4, height: 1, bitDepth: 2, colorType: 0, rows: [[0b00_01_10_11]]))
        XCTAssertEqual((0..<4).map { g2[$0, 0] & 0xFF }, [0, 85, 170, 255])
    }

    func testPaletteWithTransparency() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 0, 255, 10, 20, 30]
        let data = makePNG(
            width: 4, height: 1, bitDepth: 4, colorType: 3, rows: [[0x01, 0x20]],
            palette: palette, transparency: [128, 0])
        let image = try Image(pngData: data)
        XCTAssertEqual(image[0, 0], argb(128, 128, 0, 0))
        XCTAssertEqual(image[1, 0], 0)  // fully transparent
        XCTAssertEqual(image[2, 0], argb(255, 10, 20, 30))
        XCTAssertEqual(image[3, 0], argb(128, 128, 0, 0))
    }

    func testSixteenBitRGBAndRGBA() throws {
        // 16-bit samples v map to 8 bits as v / 257 (the files carry no gamma: taken as sRGB).
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        let rgb = try Image(
            pngData: makePNG(
                width: 2, height: 1, bitDepth: 16, colorType: 2,
                rows: [be16(0xFFFF) + be16(0x8080) + be16(0) + be16(0x1234) + be16(0xABCD) + be16(0x0101)]))
        XCTAssertEqual(rgb[0, 0], argb(255, 255, 128, 0))
        assertClose(rgb[1, 0], argb(255, 18, 171, 1), tolerance: 1, "16-bit RGB")
        let rgba = try Image(
            pngData: makePNG(
                width: 2, height: 1, bitDepth: 16, colorType: 6,
                rows: [
                    be16(0xFFFF) + be16(0) + be16(0xFFFF) + be16(0xFFFF)
                        + be16(0xFFFF) + be16(0xFFFF) + be16(0) + be16(0x8080)
                ]))
        XCTAssertEqual(rgba[0, 0], argb(255, 255, 0, 255))
        assertClose(rgba[1, 0], argb(128, 128, 128, 0), tolerance: 2, "16-bit RGBA, half alpha")
    }

    // MARK: - Writing

    func testRoundTripOpaqueAndTranslucent() throws {
        let bitmap = Bitmap(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 {
                let a = UInt32(x < 32 ? 255 : (x * 7 + y * 3) % 256)
                let r = UInt32((x * 4) % 256), g = UInt32((y * 8) % 256), b = UInt32((x * y) % 256)
                // Premultiplied: channels never above alpha.
                bitmap[x, y] = a << 24 | min(r, a) << 16 | min(g, a) << 8 | min(b, a)
            }
        }
        let data = try bitmap.pngData()
        XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let back = try Image(pngData: data)
        XCTAssertEqual(back.width, 64)
        XCTAssertEqual(back.height, 32)
        for y in 0..<32 {
            for x in 0..<64 {
                let a = bitmap[x, y] >> 24
                // Exact where alpha is 0 or 255; otherwise 8-bit un-premultiplying loses at most
                // half a step, and premultiplying again restores the same value.
                XCTAssertEqual(back[x, y], a == 0 ? 0 : bitmap[x, y], "(\(x), \(y))")
            }
        }
        let copy = Bitmap(image: back)
        XCTAssertEqual(copy[10, 10], bitmap[10, 10])
    }

    func testWriteToFileAndReadBack() throws {
        let bitmap = Bitmap(width: 5, height: 3)
        bitmap.fill(0xFF20_4060)
        let path = NSTemporaryDirectory() + "vitrine-png-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try bitmap.writePNG(to: path)
        let image = try Image(contentsOfFile: path)
        XCTAssertEqual(image[4, 2], 0xFF20_4060)
        // Fast deflate (the headless player's frames) changes the size, never the pixels.
        try bitmap.writePNG(to: path, fast: true)
        let fast = try Image(contentsOfFile: path)
        for y in 0..<3 { for x in 0..<5 { XCTAssertEqual(fast[x, y], 0xFF20_4060) } }
        XCTAssertThrowsError(try bitmap.writePNG(to: "/nonexistent-dir/x.png")) { error in
            guard case PNGError.writeFailed(let destination, _)? = error as? PNGError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(destination, "/nonexistent-dir/x.png")
        }
    }

    /// The file is the encoding `pngData()` makes, byte for byte, whether written from the
    /// bitmap or from its pixels turned straight in place (a screenshot's copy), translucent
    /// pixels and a row stride wider than the image included.
    func testAFileWrittenAsItIsEncodedHoldsTheSameBytes() throws {
        let width = 61, height = 23, stride = 64
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: stride * height)
        storage.initialize(repeating: 0xDEAD_BEEF, count: stride * height)  // the padding, never read
        let bitmap = Bitmap(wrapping: storage, width: width, height: height, stride: stride) { storage.deallocate() }
        for y in 0..<height {
            for x in 0..<width {
                let a = UInt32(x < 20 ? 255 : (x * 7 + y * 3) % 256)
                let r = min(UInt32(x * 4), a), g = min(UInt32(y * 11), a), b = min(UInt32(x * y), a)
                bitmap[x, y] = a << 24 | r << 16 | g << 8 | b
            }
        }
        let expected = try bitmap.pngData()
        let path = NSTemporaryDirectory() + "vitrine-png-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try bitmap.writePNG(to: path)
        XCTAssertEqual(try Files.read(path, limit: 1 << 20), expected)
        bitmap.unpremultiplyInPlace()
        try bitmap.writeUnpremultipliedPNG(to: path)
        XCTAssertEqual(try Files.read(path, limit: 1 << 20), expected)
    }

    /// A write that fails at the end (no space left on `/dev/full`) says why, and only a
    /// regular file is removed for it: the device stays.
    func testAFailedWriteSaysWhyAndLeavesWhatIsNotARegularFile() throws {
        let bitmap = Bitmap(width: 300, height: 200)
        bitmap.fill(0xFF20_4060)
        XCTAssertThrowsError(try bitmap.writePNG(to: "/dev/full")) { error in
            XCTAssertEqual(
                error as? PNGError, .writeFailed(destination: "/dev/full", message: "no space left on device"))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: "/dev/full"))
    }

    /// A PNG decoded later (`DeferredImage`): its size at once, then the same pixels and the
    /// same opacity as decoded at once; one whose data is corrupt passes the header check and
    /// fails its decoding with the words it fails with at once; a file of neither kind, or
    /// missing, is refused at once.
    func testADeferredPNGDecodesTheSamePixelsLater() throws {
        let path = NSTemporaryDirectory() + "vitrine-deferred-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bitmap = Bitmap(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 {
                let a = UInt32(x < 32 ? 255 : (x * 7 + y * 3) % 256)
                bitmap[x, y] = a << 24 | min(UInt32(x * 4), a) << 16 | min(UInt32(y * 8), a) << 8 | min(7, a)
            }
        }
        for opaque in [false, true] {
            if opaque { bitmap.fill(0xFF20_4060) }
            try bitmap.writePNG(to: path)
            let deferred = try DeferredImage(contentsOfFile: path)
            XCTAssertEqual([deferred.image.width, deferred.image.height], [64, 32])
            try deferred.decode()
            let now = try Image(contentsOfFile: path)
            XCTAssertEqual(
                Array(UnsafeBufferPointer(start: deferred.image.pixels, count: 64 * 32)),
                Array(UnsafeBufferPointer(start: now.pixels, count: 64 * 32)))
            XCTAssertEqual(deferred.image.isOpaque, opaque)
            XCTAssertEqual(now.isOpaque, opaque)
        }

        var corrupt = [UInt8](
            makePNG(
                width: 8, height: 8, bitDepth: 8, colorType: 2,
                rows: Array(repeating: Array(repeating: 7, count: 24), count: 8)))
        corrupt[50] ^= 0xFF  // inside IDAT: the header is sound, the data is not
        try Data(corrupt).write(to: URL(fileURLWithPath: path))
        try assertDecodingLaterFailsAsAtOnce(path, "not a valid PNG")

        try Data("definitely not an image".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try DeferredImage(contentsOfFile: path)) { error in
            XCTAssertEqual(error as? PNGError, .notAnImage(source: path))
        }
        XCTAssertThrowsError(try DeferredImage(contentsOfFile: path + ".missing")) { error in
            guard case PNGError.unreadableFile? = error as? PNGError else { return XCTFail("\(error)") }
        }
    }

    /// Premultiplying eight pixels at a time gives what one at a time gives, for every alpha
    /// and channel value, in whole blocks and in the rest.
    func testPremultiplyingInBlocksMatchesOnePixelAtATime() {
        var straight: [UInt32] = []
        for a in UInt32(0)...255 {
            for c in UInt32(0)...255 { straight.append(a << 24 | c << 16 | (255 - c) << 8 | (c &* 7) & 0xFF) }
        }
        straight += [0x80FF_FFFF, 0x0112_3456, 0xFF00_0000]  // a rest of three after whole blocks
        var blocks = straight
        blocks.withUnsafeMutableBufferPointer { PNGCodec.premultiply($0.baseAddress!, count: $0.count) }
        for (i, v) in straight.enumerated() {
            let a = v >> 24
            let expected = a == 255 ? v : a == 0 ? 0 : (PixelMath.scale(v, a) & 0x00FF_FFFF) | a << 24
            if blocks[i] != expected { return XCTFail("pixel \(i): \(blocks[i]) for \(v), expected \(expected)") }
        }
    }

    // MARK: - Bad input

    func testCorruptTruncatedAndMissingFilesThrow() throws {
        let good = makePNG(
            width: 8, height: 8, bitDepth: 8, colorType: 2,
            rows: Array(repeating: Array(repeating: 7, count: 24), count: 8))
        XCTAssertNoThrow(try Image(pngData: good))
        for cut in [0, 4, 8, 20, 33, good.count / 2, good.count - 13] {
            XCTAssertThrowsError(try Image(pngData: good.prefix(cut)), "truncated at \(cut)") { error in
                XCTAssert(error is PNGError, "\(error)")
            }
        }
        var corrupt = [UInt8](good)
        corrupt[50] ^= 0xFF  // inside IDAT: the chunk's CRC no longer matches
        XCTAssertThrowsError(try Image(pngData: Data(corrupt))) { error in
            guard case PNGError.invalidPNG(let source, let message)? = error as? PNGError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(source, "PNG data")
            XCTAssertFalse(message.isEmpty)
        }
        XCTAssertThrowsError(try Image(pngData: Data("definitely not a png".utf8)))
        // A header claiming an enormous image is refused before allocating.
        var huge = [UInt8](makePNG(width: 1, height: 1, bitDepth: 8, colorType: 0, rows: [[0]]))
        let ihdr = [UInt8]("IHDR".utf8) + bigEndian(100_000) + bigEndian(100_000) + [8, 0, 0, 0, 0]
        huge.replaceSubrange(12..<29, with: ihdr)
        huge.replaceSubrange(29..<33, with: bigEndian(crc32(ihdr)))
        XCTAssertThrowsError(try Image(pngData: Data(huge))) { error in
            XCTAssertEqual(error as? PNGError, .unsupportedSize(source: "PNG data", width: 100_000, height: 100_000))
        }
        XCTAssertThrowsError(try Image(contentsOfFile: "/nonexistent/file.png")) { error in
            guard case PNGError.unreadableFile(let path, _)? = error as? PNGError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/file.png")
        }
    }
}
