import CTurboJPEG
import Foundation
import XCTest
@testable import VitrineGraphics

/// JPEG reading through libjpeg-turbo: colours, EXIF orientation, and damaged files refused.
/// Test files are encoded here with TurboJPEG's own encoder, so no binary fixture is needed.
final class JPEGTests: XCTestCase {
    /// 64 × 48 in four quadrants: red, green / blue, white (top-left, top-right / bottom-left,
    /// bottom-right), as opaque BGRA.
    private let width = 64, height = 48
    private let quadrants: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF]

    private func quadrant(x: Int, y: Int) -> Int { (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1) }

    private func encode(quality: Int32 = 95) throws -> [UInt8] {
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { pixels[y * width + x] = quadrants[quadrant(x: x, y: y)] } }
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = pixels.withUnsafeBytes {
            tjCompress2(
                handle, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(width * 4),
                Int32(height), Int32(TJPF_BGRA.rawValue), &output, &size, Int32(TJSAMP_444.rawValue), quality, 0)
        }
        XCTAssertEqual(result, 0)
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: try XCTUnwrap(output), count: Int(size)))
    }

    /// The file with an EXIF APP1 segment stating `orientation` right after SOI.
    private func withOrientation(_ orientation: UInt16, littleEndian: Bool) throws -> [UInt8] {
        let jpeg = try encode()
        func u16(_ v: UInt16) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            littleEndian
                ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        // TIFF header, IFD0 at 8 with one entry: Orientation, SHORT, 1 value, then no next IFD.
        let tiff =
            (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(1)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = UInt16(body.count + 2)
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + jpeg.dropFirst(2)
    }

    private func assertQuadrants(
        _ image: Image, _ expected: [UInt32], file: StaticString = #filePath, line: UInt = #line
    ) {
        // Sample the centre of each quarter of the picture, in the order TL, TR, BL, BR.
        let w = image.width, h = image.height
        let samples = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
        for (i, (x, y)) in samples.enumerated() {
            let got = image.pixels[y * w + x], want = expected[i]
            for shift: UInt32 in [0, 8, 16, 24] {
                let a = Int((got >> shift) & 0xFF), b = Int((want >> shift) & 0xFF)
                XCTAssertLessThanOrEqual(abs(a - b), 8, "quadrant \(i) at (\(x), \(y))", file: file, line: line)
            }
        }
    }

    func testDecodesColoursAndSize() throws {
        let image = try Image(jpegData: Data(try encode()))
        XCTAssertEqual([image.width, image.height], [width, height])
        assertQuadrants(image, quadrants)
    }

    /// Each EXIF orientation turns the picture upright, both byte orders.
    func testEXIFOrientationIsHonoured() throws {
        let (r, g, b, w) = (quadrants[0], quadrants[1], quadrants[2], quadrants[3])
        // What the upright picture shows in TL, TR, BL, BR for each stored orientation.
        let expected: [UInt16: [UInt32]] = [
            1: [r, g, b, w], 2: [g, r, w, b], 3: [w, b, g, r], 4: [b, w, r, g],
            5: [r, b, g, w], 6: [b, r, w, g], 7: [w, g, b, r], 8: [g, w, r, b]
        ]
        for littleEndian in [true, false] {
            for (orientation, corners) in expected {
                let image = try Image(jpegData: Data(try withOrientation(orientation, littleEndian: littleEndian)))
                let turned = orientation >= 5
                XCTAssertEqual([image.width, image.height], turned ? [height, width] : [width, height])
                assertQuadrants(image, corners)
            }
        }
    }

    /// Truncated, corrupted or oversized files are errors naming the source, never a crash or
    /// a picture half grey.
    func testDamagedFilesAreRefused() throws {
        let jpeg = try encode()
        XCTAssertThrowsError(try Image(jpegData: Data(jpeg.prefix(jpeg.count / 2)), source: "half.jpg")) { error in
            XCTAssertTrue("\(error)".hasPrefix("half.jpg: not a valid JPEG: "), "\(error)")
        }
        for cut in stride(from: 3, to: jpeg.count, by: 37) {
            XCTAssertThrowsError(try Image(jpegData: Data(jpeg.prefix(cut))))
        }
        // The frame header's height and width (SOF0: FF C0, length, precision, height, width).
        var huge = jpeg
        let sof = try XCTUnwrap((0..<huge.count - 1).first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge.replaceSubrange((sof + 5)..<(sof + 9), with: [0x4E, 0x20, 0x4E, 0x20])  // 20000 × 20000
        XCTAssertThrowsError(try Image(jpegData: Data(huge), source: "huge.jpg")) { error in
            XCTAssertEqual(error as? JPEGError, .unsupportedSize(source: "huge.jpg", width: 20000, height: 20000))
        }
        // A broken EXIF segment is ignored: the picture stays as stored.
        var badExif = try withOrientation(6, littleEndian: true)
        badExif[12] = 0x00  // the TIFF byte-order mark
        XCTAssertEqual(try Image(jpegData: Data(badExif)).width, width)
    }

    func testFilesAreToldApartByTheirFirstBytes() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let jpegPath = directory + "/vitrine-\(getpid()).png"  // the name does not matter
        let otherPath = directory + "/vitrine-\(getpid()).gif"
        try Data(try encode()).write(to: URL(fileURLWithPath: jpegPath))
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: otherPath))
        defer { unlink(jpegPath); unlink(otherPath) }
        XCTAssertEqual(try Image(contentsOfFile: jpegPath).width, width)
        XCTAssertThrowsError(try Image(contentsOfFile: otherPath)) { error in
            XCTAssertEqual("\(error)", "\(otherPath): neither a PNG nor a JPEG file")
        }
    }

    /// A JPEG decoded later (`DeferredImage`): its size known at once, upright; the same pixels
    /// as decoded at once, for every orientation; a file truncated in its data passes the
    /// header check and fails its decoding with the words it fails with at once.
    func testADeferredJPEGDecodesTheSamePixelsLater() throws {
        let path = NSTemporaryDirectory() + "vitrine-deferred-\(getpid()).jpg"
        defer { unlink(path) }
        for orientation: UInt16 in 1...8 {
            let bytes = try withOrientation(orientation, littleEndian: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let deferred = try DeferredImage(contentsOfFile: path)
            let now = try Image(contentsOfFile: path)
            XCTAssertEqual([deferred.image.width, deferred.image.height], [now.width, now.height], "\(orientation)")
            try deferred.decode()
            XCTAssertEqual(
                Array(UnsafeBufferPointer(start: deferred.image.pixels, count: now.width * now.height)),
                Array(UnsafeBufferPointer(start: now.pixels, count: now.width * now.height)), "\(orientation)")
            XCTAssertTrue(deferred.image.isOpaque)
        }
        let whole = try encode()
        // Cut before its scan begins, it is refused at once; cut inside the scan, when decoded.
        try Data(whole.prefix(64)).write(to: URL(fileURLWithPath: path))
        var atOnce = ""
        XCTAssertThrowsError(try Image(contentsOfFile: path)) { atOnce = "\($0)" }
        XCTAssertThrowsError(try DeferredImage(contentsOfFile: path)) { XCTAssertEqual("\($0)", atOnce) }
        try Data(whole.prefix(whole.count - 40)).write(to: URL(fileURLWithPath: path))
        try assertDecodingLaterFailsAsAtOnce(path, "not a valid JPEG")
    }
}
