import Foundation
import VitrineGraphics
import XCTest

/// What the tests that hold a player's screen against `vitrine render` share: a still scene
/// with what scaling can make differ, `render` run as a process, and the comparison.
enum StillFrames {
    /// Writes `directory/still.toml`: a 1920x1080 still (scene "still") with anti-aliased curves
    /// and strokes, text saying `title`, a photo, a translucent fill and the player's
    /// background in any letterbox bars.
    static func writeConfig(in directory: String, title: String) throws -> String {
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
            string = "\(title)"
            frame = [60, 900, 1800, 120]
            fontSize = 83
            foregroundColor = "#101010"
            """)
        return config
    }

    /// `vitrine render CONFIG --scene still --time 1 [--size SIZE]`, written in `directory` and
    /// read back.
    static func render(
        _ config: String, size: String?, in directory: String, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Image {
        let output = directory + "/render-\(size ?? "canvas").png"
        var arguments = ["render", config, "--scene", "still", "--time", "1", "-o", output]
        if let size { arguments += ["--size", size] }
        let process = try PlayProcess(arguments: arguments, environment: [:])
        XCTAssertEqual(process.waitForExit(seconds: 30), 0, process.standardError, file: file, line: line)
        return try Image(contentsOfFile: output)
    }

    /// The largest difference of a colour channel (red, green or blue) between two pictures of
    /// `width` × `height`, given pixel by pixel.
    static func largestDifference(
        width: Int, height: Int, _ a: (Int, Int) -> UInt32, _ b: (Int, Int) -> UInt32
    ) -> Int {
        var worst = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = a(x, y), q = b(x, y)
                for shift: UInt32 in [0, 8, 16] {
                    worst = max(worst, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)))
                }
            }
        }
        return worst
    }

    /// The same for two images (255 when their sizes differ).
    static func largestDifference(_ a: Image, _ b: Image) -> Int {
        guard a.width == b.width, a.height == b.height else { return 255 }
        return largestDifference(
            width: a.width, height: a.height, { x, y in a[x, y] }, { x, y in b[x, y] })
    }
}
