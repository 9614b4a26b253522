import CX11
import Foundation
import VitrineGraphics
import VitrineTestSupport
import XCTest

/// `vitrine render` draws the frame `vitrine play` shows: a still scene played under Xvfb on
/// screens of other shapes than its canvas, and by the headless backend, matches `render` of
/// the same scene at the same size.
final class SameFrameTests: TemporaryDirectoryTestCase {
    private func stillConfig() throws -> String {
        try StillFrames.writeConfig(in: directory, title: "Vitrine: the same frame")
    }

    private func render(_ config: String, size: String?) throws -> Image {
        try StillFrames.render(config, size: size, in: directory)
    }

    /// The largest difference of a channel between the screen and the rendered picture.
    private func maximumDifference(screen: (Int, Int) -> UInt32, _ image: Image) -> Int {
        StillFrames.largestDifference(width: image.width, height: image.height, screen) { x, y in image[x, y] }
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
