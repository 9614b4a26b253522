import Foundation
import VitrineGraphics
import VitrineSystem
import XCTest
@testable import VitrineAnimation
@testable import VitrineConfig
@testable import VitrinePlayer

/// Configs a hostile or careless operator writes: whatever `check` accepts must play without a
/// trap, and values whose cost grows with their size have limits that `check` enforces.
final class HostileConfigTests: XCTestCase {
    private func playlist(layer: String, canvas: String = "[320, 180]") throws -> Playlist {
        try loadPlaylist(
            """
            [player]
            canvas = \(canvas)

            [[scene]]
            name = "s"
            duration = 5

            [[scene.layer]]
            \(layer)
            """)
    }

    /// Builds the scene (as `check` does) and renders it at several times (as `render` and the
    /// player do): a trap here would end the test run.
    private func renderAtSeveralTimes(_ playlist: Playlist, file: StaticString = #filePath, line: UInt = #line) throws {
        _ = try SceneInstance(playlist.scenes[0], playlist: playlist)
        for time in [0, 0.4, 1.3, 4.9] {
            let frame = try SceneInstance.renderStill(
                playlist.scenes[0], playlist: playlist, at: time, width: 160, height: 90)
            XCTAssertEqual(frame.width, 160, file: file, line: line)
        }
    }

    /// Found from outside: shares of 1e308 overflowed their sum, and the label's percentage
    /// (NaN) trapped when converted to an integer.
    func testAPieOfHugeValuesPlaysAsEqualShares() throws {
        let pie = try playlist(
            layer: """
                type = "pie"
                bounds = [0, 0, 160, 160]
                position = [160, 90]
                values = [1e308, 1e308]
                """)
        try renderAtSeveralTimes(pie)
        XCTAssertEqual(PieLayer.shares(of: [1e308, 1e308]), [0.5, 0.5])
        XCTAssertEqual(
            PieLayer.shares(of: [.greatestFiniteMagnitude, 1, -5, .nan]), [1, 1 / .greatestFiniteMagnitude, 0, 0])
        XCTAssertEqual(PieLayer.shares(of: [0, -1]), [0, 0])
    }

    func testAPieTakesAtMostAThousandValues() throws {
        let values = { (n: Int) in "[" + Array(repeating: "1", count: n).joined(separator: ", ") + "]" }
        let largest = try playlist(layer: "type = \"pie\"\nbounds = [0, 0, 160, 160]\nvalues = \(values(1000))")
        let pie = try SceneInstance(largest.scenes[0], playlist: largest).root.sublayers.compactMap {
            $0 as? PieChartLayer
        }.first
        XCTAssertEqual(pie?.values.count, 1000)
        XCTAssertThrowsError(try playlist(layer: "type = \"pie\"\nvalues = \(values(1001))")) { error in
            XCTAssertTrue(
                "\(error)".contains(
                    ":10:10: scene 's' › layer 1 › values: too large: 1,001 values; at most 1,000 are allowed"),
                "\(error)")
        }
    }

    /// Setting many values at once builds each slice once (it was quadratic in the count).
    func testSettingValuesBuildsOneSliceAndOneLabelPerValue() {
        let pie = PieLayer()
        pie.setValues(Array(repeating: 1, count: 500), colors: PieChartLayer.palette)
        XCTAssertEqual(pie.slices.count, 500)
        XCTAssertEqual(pie.labelContainer.sublayers.count, 500)
        pie.setValues([1, 2, 3], colors: PieChartLayer.palette)
        XCTAssertEqual(pie.slices.count, 3)
        XCTAssertEqual(pie.labelContainer.sublayers.count, 3)
        XCTAssertEqual((pie.labelContainer.sublayers[2] as? TextLayer)?.string, "50%")
    }

    func testATextLayerTakesAtMost64KiB() throws {
        let longest = String(repeating: "Lorem ipsum ", count: 65_536 / 12) + String(repeating: "x", count: 65_536 % 12)
        let text = try playlist(
            layer: "type = \"text\"\nframe = [0, 0, 320, 180]\nisWrapped = true\nstring = \"\(longest)\"")
        try renderAtSeveralTimes(text)
        XCTAssertThrowsError(try playlist(layer: "type = \"text\"\nstring = \"\(longest)y\"")) { error in
            XCTAssertTrue(
                "\(error)".contains("› layer 1 › string: too large: 65,537 bytes; at most 65,536 are allowed"),
                "\(error)")
        }
    }

    /// A long string outlines only the glyphs the clip lets through: drawing it through a small
    /// clip gives the same pixels there as drawing it whole, from far fewer outlines.
    func testTextOutsideTheClipIsNotOutlined() throws {
        let font = try Font(family: "DejaVu Sans", size: 20)
        let string = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 200)
        let visible = Rect(x: 0, y: -30, width: 200, height: 40)
        let culled = font.path(for: string, at: .zero, visibleIn: visible)
        let whole = font.path(for: string, at: .zero)
        XCTAssertLessThan(culled.elements.count * 50, whole.elements.count)
        let a = Bitmap(width: 200, height: 40), b = Bitmap(width: 200, height: 40)
        for (bitmap, path) in [(a, culled), (b, whole)] {
            let ctx = GraphicsContext(bitmap: bitmap)
            ctx.translateBy(x: 0, y: 30)
            ctx.fill(path, color: .black)
        }
        for y in 0..<40 {
            for x in 0..<200 where a[x, y] != b[x, y] { return XCTFail("(\(x), \(y)) differs") }
        }
    }

    /// Keyframes whose distances add up past the largest Double paced their time by NaN and
    /// trapped; they now pace evenly.
    func testPacedKeyframesOfHugeValuesPlay() throws {
        for mode in ["paced", "cubicPaced", "cubic", "linear"] {
            try renderAtSeveralTimes(
                try playlist(
                    layer: """
                        type = "shape"
                        path = "M 0 0 L 100 100 L 0 100 Z"
                        strokeColor = "#ff0000"

                        [[scene.layer.animation]]
                        keyPath = "lineWidth"
                        values = [0, 1e308, -1e308, 1]
                        calculationMode = "\(mode)"
                        duration = 1
                        """))
        }
    }

    /// Every number key of every layer type at the extremes `check` accepts, set and animated:
    /// each config that loads must render.
    func testEveryNumberKeyAtItsExtremesRenders() throws {
        let extremes = ["1e308", "-1e308", "1e-308", "-1e9"]
        for type in LayerTypeRegistry.standard.types {
            let base: String
            switch type.name {
            case "shape":
                base = "path = \"M 0 0 L 100 100 L 0 100 Z\"\nstrokeColor = \"#ff0000\"\nlineDashPattern = [4, 2]"
            case "text": base = "string = \"Hello\""
            case "pie": base = "values = [1, 2, 3]"
            case "arrow":
                base =
                    "thickness = 30\nlengthRadians = 3\nfillColor = \"#ffffff\"\nstrokeColor = \"#ff0000\"\nlineWidth = 2"
            case "image": base = "contents = \"\(ConfigPaths.repository)/config/images/lake.png\""
            default: base = ""
            }
            for property in type.properties where property.type.name == "number" {
                for value in extremes {
                    let others = base.split(separator: "\n").filter { !$0.hasPrefix(property.key + " ") }
                    let layer =
                        "type = \"\(type.name)\"\nbounds = [0, 0, 100, 100]\nposition = [160, 90]\n"
                        + others.joined(separator: "\n") + "\n"
                    let keyAtItsExtreme =
                        ["bounds", "position"].contains(property.key) ? "" : "\(property.key) = \(value)"
                    // A key with a range refuses what lies outside it, naming the key.
                    if case .range(let range) = property.limit, !range.contains(Double(value)!) {
                        XCTAssertThrowsError(try playlist(layer: layer + keyAtItsExtreme)) { error in
                            XCTAssertTrue("\(error)".contains("› \(property.key): too large: "), "\(error)")
                        }
                        continue
                    }
                    try renderAtSeveralTimes(try playlist(layer: layer + keyAtItsExtreme))
                    guard property.isAnimatable else { continue }
                    try renderAtSeveralTimes(
                        try playlist(
                            layer: layer + """

                                [[scene.layer.animation]]
                                keyPath = "\(property.key)"
                                from = \(value)
                                to = 1
                                duration = 1
                                autoreverses = true
                                repeatCount = "infinity"
                                """))
                }
            }
        }
    }

    /// Absurd sizes: a canvas or an image of 20000x20000 is refused by `check`, as is a canvas
    /// within the side limit whose frames would take gigabytes; a font of 1e6 pixels, a line
    /// 1e9 wide and dashes of 1e-9 are drawn on a 1080p frame in bounded time and memory, since
    /// everything is clipped to the frame.
    func testAbsurdSizesAreRefusedOrDrawnInBoundedTimeAndMemory() throws {
        for canvas in ["[20000, 20000]", "[16384, 16384]"] {
            XCTAssertThrowsError(try playlist(layer: "type = \"shape\"", canvas: canvas)) { error in
                XCTAssertTrue("\(error)".contains("› canvas: "), "\(error)")
            }
        }
        // Only the header of a 20000x20000 PNG: the size is refused before anything is decoded.
        let png = NSTemporaryDirectory() + "vitrine-huge-\(getpid()).png"
        try Data(Self.pngHeader(width: 20000, height: 20000)).write(to: URL(fileURLWithPath: png))
        defer { unlink(png) }
        XCTAssertThrowsError(try playlist(layer: "type = \"image\"\ncontents = \"\(png)\"")) { error in
            XCTAssertTrue("\(error)".contains("20000x20000 pixels, more than the 67108864"), "\(error)")
        }

        let placed = "bounds = [0, 0, 300, 160]\nposition = [160, 90]\n"
        let layers = [
            "type = \"text\"\nstring = \"Hello, world\"\nfontSize = 1e6\n" + placed,
            "type = \"shape\"\npath = \"M 0 0 L 300 160 L 0 160 Z\"\nstrokeColor = \"#ff0000\"\nlineWidth = 1e9\n"
                + placed,
            """
            type = "shape"
            path = "M 0 0 C 300 0 0 160 300 160 L 0 160 Z"
            strokeColor = "#ff0000"
            lineWidth = 3
            lineDashPattern = [1e-9, 2e-9]
            \(placed)
            [[scene.layer.animation]]
            keyPath = "lineDashPhase"
            from = 0
            to = 1e-6
            duration = 1
            """
        ]
        for layer in layers {
            let playlist = try playlist(layer: layer)
            let peakBefore = Self.peakResidentKilobytes()
            let start = MonotonicInstant.now()
            for time in [0, 0.5] {
                _ = try SceneInstance.renderStill(
                    playlist.scenes[0], playlist: playlist, at: time, width: 1920, height: 1080)
            }
            let seconds = Double(MonotonicInstant.now().nanoseconds(since: start)) / 1e9
            XCTAssertLessThan(seconds, 3, layer)
            XCTAssertLessThan(Self.peakResidentKilobytes() - peakBefore, 256 << 10, layer)
        }
    }

    /// The process's peak resident size so far.
    private static func peakResidentKilobytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    /// The signature and IHDR chunk of an 8-bit RGB PNG of `width` × `height`, an empty IDAT
    /// and IEND: a header that declares the size, with no pixels.
    private static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [])
            + chunk("IEND", [])
    }

    /// A JPEG photo plays as a PNG does, turned upright by its EXIF orientation (the fixture is
    /// the lake stored sideways with orientation 6); a truncated copy is refused by `check`.
    func testAJPEGPhotoIsShownUprightAndATruncatedOneRefused() throws {
        let fixture = ConfigPaths.repository + "/Tests/VitrinePlayerTests/Fixtures/lake-sideways-exif6.jpg"
        func picture(_ contents: String) throws -> Bitmap {
            let playlist = try playlist(
                layer: "type = \"image\"\ncontents = \"\(contents)\"\nbounds = [0, 0, 160, 160]\nposition = [160, 90]")
            return try SceneInstance.renderStill(playlist.scenes[0], playlist: playlist, at: 0, width: 320, height: 180)
        }
        let jpeg = try picture(fixture)
        let png = try picture(ConfigPaths.repository + "/config/images/lake.png")
        var total = 0
        for y in 10..<170 {
            for x in 80..<240 {
                for shift: UInt32 in [0, 8, 16] {
                    total += abs(Int((jpeg[x, y] >> shift) & 0xFF) - Int((png[x, y] >> shift) & 0xFF))
                }
            }
        }
        XCTAssertLessThan(Double(total) / Double(160 * 160 * 3), 4, "the photo is not the lake, upright")

        let truncated = NSTemporaryDirectory() + "vitrine-truncated-\(getpid()).jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        defer { unlink(truncated) }
        XCTAssertThrowsError(try playlist(layer: "type = \"image\"\ncontents = \"\(truncated)\"")) { error in
            // FILE:LINE:COLUMN: scene › layer › KEY: what is wrong, naming the image file.
            let text = "\(error)"
            XCTAssertTrue(
                text.hasPrefix(ConfigPaths.repository + "/config/test.toml:10:12: scene 's' › layer 1 › contents: "),
                text)
            XCTAssertTrue(text.contains("\(truncated): not a valid JPEG: "), text)
        }
    }

    /// An image path that names a directory, a FIFO or a device says so (it said "You don't
    /// have permission" or "NSCocoaErrorDomain error 256"), and a FIFO is not waited on.
    func testAnImageThatIsNotAFileIsNamedForWhatItIs() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        XCTAssertEqual(mkfifo(directory + "/pipe", 0o600), 0)
        let cases = [
            (directory, "is a directory, not a regular file"),
            (directory + "/pipe", "is a FIFO (named pipe), not a regular file"),
            ("/dev/null", "is a character device, not a regular file"),
            (directory + "/missing.png", "cannot open: no such file or directory")
        ]
        for (path, reason) in cases {
            XCTAssertThrowsError(try playlist(layer: "type = \"image\"\ncontents = \"\(path)\"")) { error in
                XCTAssertTrue(
                    "\(error)".hasSuffix("› layer 1 › contents: cannot load image '\(path)': \(path): \(reason)"),
                    "\(error)")
            }
        }
    }
}

/// A reload of an unchanged image shares the decoded pixels with the playlist playing, so a
/// storm of reloads does not hold a second copy of every photo.
final class DecodedImageSharingTests: XCTestCase {
    func testAReloadSharesAnUnchangedImageAndDecodesAChangedOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let image = directory + "/photo.png"
        try FileManager.default.copyItem(atPath: ConfigPaths.repository + "/config/images/lake.png", toPath: image)
        let config = directory + "/playlist.toml"
        try "[[scene]]\nname = \"s\"\nduration = 1\n[[scene.layer]]\ntype = \"image\"\ncontents = \"photo.png\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        func loadedImage() throws -> Image? {
            let playlist = try PlaylistLoader.load(file: config)
            return playlist.scenes[0].layers[0].settings.compactMap { $0.value as? Image }.first
        }
        let playing = try XCTUnwrap(try loadedImage())
        XCTAssertTrue(try loadedImage() === playing, "an unchanged file is decoded again")
        // Replaced (a new file at the path): decoded anew.
        try FileManager.default.removeItem(atPath: image)
        try FileManager.default.copyItem(atPath: ConfigPaths.repository + "/config/images/lake.png", toPath: image)
        XCTAssertFalse(try loadedImage() === playing)
    }
}
