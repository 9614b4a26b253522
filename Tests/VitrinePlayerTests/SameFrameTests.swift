import CX11
import Foundation
import VitrineGraphics
import VitrineTestSupport
import XCTest

/// `vitrine render` draws the frame `vitrine play` shows: a still scene played under Xvfb on
/// screens of other shapes than its canvas, and by the headless backend, matches `render` of
/// the same scene at the same size.
final class SameFrameTests: TemporaryDirectoryTestCase {
    /// A 1920x1080 still with what scaling can make differ: anti-aliased curves and strokes,
    /// text, a photo, a translucent fill, the player's background in the letterbox bars.
    private func stillConfig() throws -> String {
        let config = directory + "/still.toml"
        try writeFile(
            config,
            """
            [player]
            background = "#203040"
            canvas = [1920, 1080]

            [[scene]]
            name = "still"
            duration = 600
            background = "#f0e8dc"

            [[scene.layer]]
            type = "image"
            contents = "\(ConfigPaths.repository)/config/images/lake.png"
            frame = [100, 140, 700, 700]
            cornerRadius = 40
            masksToBounds = true

            [[scene.layer]]
            type = "shape"
            oval = [900, 150, 800, 800]
            fillColor = "#d6272880"
            strokeColor = "#1f77b4"
            lineWidth = 17

            [[scene.layer]]
            type = "text"
            string = "Vitrine: the same frame"
            frame = [60, 900, 1800, 120]
            fontSize = 83
            foregroundColor = "#101010"
            """)
        return config
    }

    private func render(_ config: String, size: String?) throws -> Image {
        let output = directory + "/render-\(size ?? "canvas").png"
        var arguments = ["render", config, "--scene", "still", "--time", "1", "-o", output]
        if let size { arguments += ["--size", size] }
        let process = try PlayProcess(arguments: arguments, environment: [:])
        XCTAssertEqual(process.waitForExit(seconds: 30), 0, process.standardError)
        return try Image(contentsOfFile: output)
    }

    /// The largest difference of a channel between the screen and the rendered picture.
    private func maximumDifference(screen: (Int, Int) -> UInt32, _ image: Image) -> Int {
        var worst = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = screen(x, y), b = image.pixels[y * image.width + x]
                for shift in [0, 8, 16] {
                    worst = max(worst, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return worst
    }

    func testTheX11ScreenShowsWhatRenderDraws() throws {
        let config = try stillConfig()
        for (width, height) in [(1000, 1000), (1366, 768), (800, 1280)] {
            let xvfb = try XvfbServer(width: width, height: height)
            let notify = try NotifyLog()
            let player = try PlayProcess(
                arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
                environment: ["NOTIFY_SOCKET": notify.listener.name])
            XCTAssertTrue(notify.wait(for: "READY=1", seconds: 10), player.standardError)
            let display = try XCTUnwrap(XOpenDisplay(xvfb.name))
            defer { XCloseDisplay(display) }
            let image = try XCTUnwrap(
                XGetImage(
                    display, XDefaultRootWindow(display), 0, 0, UInt32(width), UInt32(height),
                    XAllPlanes(), ZPixmap))
            defer { vitrine_XDestroyImage(image) }
            XCTAssertEqual(image.pointee.bits_per_pixel, 32)
            let data = UnsafeRawPointer(image.pointee.data!)
            let stride = Int(image.pointee.bytes_per_line)
            let expected = try render(config, size: "\(width)x\(height)")
            let difference = maximumDifference(
                screen: { x, y in
                    data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
                }, expected)
            XCTAssertLessThanOrEqual(difference, 2, "\(width)x\(height)")
            player.send(SIGTERM)
            XCTAssertEqual(player.waitForExit(seconds: 5), 0)
        }
    }

    /// A portrait canvas (1080x1920) turned a quarter clockwise onto a 1920x1080 X screen fills
    /// it: no bars, the canvas's top-left corner at the screen's top-right, and the screen is
    /// what `render --size 1920x1080` draws.
    func testAPortraitCanvasTurnedOntoALandscapeScreenFillsIt() throws {
        let config = directory + "/portrait.toml"
        try writeFile(
            config,
            """
            [player]
            background = "#000000"
            canvas = [1080, 1920]
            rotation = 90

            [[scene]]
            name = "still"
            duration = 600
            background = "#3060a0"

            [[scene.layer]]
            type = "layer"
            frame = [0, 0, 200, 100]
            backgroundColor = "#ff0000"

            [[scene.layer]]
            type = "text"
            string = "Portrait"
            frame = [0, 800, 1080, 200]
            fontSize = 150
            alignmentMode = "center"
            foregroundColor = "#ffffff"
            """)
        let xvfb = try XvfbServer(width: 1920, height: 1080)
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
            environment: ["NOTIFY_SOCKET": notify.listener.name])
        XCTAssertTrue(notify.wait(for: "READY=1", seconds: 10), player.standardError)
        let screen = try XCTUnwrap(try ScreenReader(xvfb.name).capture(width: 1920, height: 1080))
        // The red 200x100 corner: 100 wide and 200 tall at the top right once turned.
        XCTAssertEqual(screen[10 * 1920 + 1915], 0xFF0000)
        XCTAssertEqual(screen[190 * 1920 + 1825], 0xFF0000)
        XCTAssertEqual(screen[10 * 1920 + 1815], 0x3060A0)
        XCTAssertEqual(screen[1075 * 1920 + 5], 0x3060A0, "bars where the canvas should be")
        let expected = try render(config, size: "1920x1080")
        XCTAssertLessThanOrEqual(maximumDifference(screen: { x, y in screen[y * 1920 + x] }, expected), 2)
        player.send(SIGTERM)
        XCTAssertEqual(player.waitForExit(seconds: 5), 0)
    }

    func testTheHeadlessFramesAreWhatRenderDraws() throws {
        let config = try stillConfig()
        let output = directory + "/frames"
        let player = try PlayProcess(
            arguments: [
                "play", config, "--backend", "headless", "--output", output,
                "--fps", "1", "--frames", "2"
            ], environment: [:])
        XCTAssertEqual(player.waitForExit(seconds: 30), 0, player.standardError)
        let frame = try Image(contentsOfFile: output + "/frame-000001.png")
        let expected = try render(config, size: nil)
        XCTAssertEqual(frame.width, expected.width)
        let difference = maximumDifference(screen: { x, y in frame.pixels[y * frame.width + x] }, expected)
        XCTAssertLessThanOrEqual(difference, 2)
    }
}
