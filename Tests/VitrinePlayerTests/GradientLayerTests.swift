import Foundation
import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// `type = "gradient"` (CAGradientLayer): the colour at sampled points follows from the
/// geometry of each kind, and its properties animate.
final class GradientLayerTests: XCTestCase {
    private func picture(_ layer: String, at time: Double = 0, width: Int = 200, height: Int = 100) throws -> Bitmap {
        let playlist = try loadPlaylist(
            """
            [player]
            canvas = [\(width), \(height)]

            [[scene]]
            name = "s"
            duration = 10

            [[scene.layer]]
            type = "gradient"
            frame = [0, 0, \(width), \(height)]
            \(layer)
            """)
        return try SceneInstance.renderStill(
            playlist.scenes[0], playlist: playlist, at: time, width: width, height: height)
    }

    private func red(_ pixel: UInt32) -> Double { Double((pixel >> 16) & 0xFF) }

    func testAxialRunsFromTheTopCentreToTheBottomCentreByDefault() throws {
        let bitmap = try picture("colors = [\"#000000\", \"#ff0000\"]")
        for y in [0, 25, 50, 99] {
            let expected = 255 * (Double(y) + 0.5) / 100
            XCTAssertEqual(red(bitmap[10, y]), expected, accuracy: 1.5, "row \(y)")
            XCTAssertEqual(bitmap[10, y], bitmap[190, y], "rows are even")
        }
    }

    /// Radial: an ellipse centred on startPoint reaching endPoint on each axis (here the
    /// bounds' edges: 100 across, 50 down).
    func testRadialIsAnEllipseReachingTheEndPointOnEachAxis() throws {
        let bitmap = try picture(
            "gradientType = \"radial\"\ncolors = [\"#000000\", \"#ff0000\"]\nstartPoint = [0.5, 0.5]\nendPoint = [1, 1]"
        )
        XCTAssertLessThan(red(bitmap[100, 50]), 5, "the centre")
        XCTAssertEqual(red(bitmap[150, 50]), 255 * 50.5 / 100, accuracy: 3, "half way across")
        XCTAssertEqual(red(bitmap[100, 75]), 255 * 25.5 / 50, accuracy: 3, "half way down")
        XCTAssertEqual(red(bitmap[199, 99]), 255, "beyond the ellipse")
    }

    /// Conic: round the centre, from the direction of endPoint, clockwise on screen.
    func testConicTurnsClockwiseFromTheEndPoint() throws {
        let bitmap = try picture(
            "gradientType = \"conic\"\ncolors = [\"#000000\", \"#ff0000\"]\nstartPoint = [0.5, 0.5]\nendPoint = [0.5, 0]",
            width: 200, height: 200)
        // From straight up: a quarter turn clockwise is to the right, a half turn straight down.
        XCTAssertEqual(red(bitmap[180, 100]), 255 * 0.25, accuracy: 4)
        XCTAssertEqual(red(bitmap[100, 180]), 255 * 0.5, accuracy: 4)
        XCTAssertEqual(red(bitmap[20, 100]), 255 * 0.75, accuracy: 4)
    }

    func testColoursLocationsAndPointsAnimate() throws {
        let layer = """
            colors = ["#000000", "#000000"]
            locations = [0, 1]
            [[scene.layer.animation]]
            keyPath = "colors"
            from = ["#000000", "#000000"]
            to = ["#ff0000", "#ff0000"]
            duration = 2
            timingFunction = "linear"
            """
        XCTAssertEqual(red(try picture(layer, at: 1)[100, 50]), 128, accuracy: 1.5)
        let moving = """
            colors = ["#000000", "#ff0000"]
            [[scene.layer.animation]]
            keyPath = "endPoint"
            from = [0.5, 1]
            to = [0.5, 0.5]
            duration = 2
            timingFunction = "linear"
            """
        // At 1 s the end is at 0.75 of the height: row 37 is half way there.
        XCTAssertEqual(red(try picture(moving, at: 1)[100, 37]), 255 * 37.5 / 75, accuracy: 3)
        XCTAssertEqual(red(try picture(moving, at: 1)[100, 90]), 255)
    }

    func testBadValuesNameTheirKey() {
        let errors = configErrors(
            """
            [[scene]]
            name = "s"
            duration = 1

            [[scene.layer]]
            type = "gradient"
            gradientType = "diamond"
            colors = ["#ff0000", "blue"]
            startPoint = [0.5]
            """
        ).joined(separator: "\n")
        XCTAssertTrue(errors.contains("› gradientType: 'diamond' is not one of 'axial', 'radial', 'conic'"), errors)
        XCTAssertTrue(errors.contains("› colors: "), errors)
        XCTAssertTrue(errors.contains("› startPoint: "), errors)
    }

    /// A shape layer's fillGradient and strokeGradient paint in the layer's coordinates: a ring
    /// stroked with a conic gradient from black (up) to red, clockwise, half of it stroked.
    func testShapeLayersFillAndStrokeWithGradients() throws {
        let playlist = try loadPlaylist(
            """
            [player]
            canvas = [200, 200]

            [[scene]]
            name = "s"
            duration = 10

            [[scene.layer]]
            type = "shape"
            frame = [0, 0, 200, 200]
            oval = [20, 20, 160, 160]
            fillGradient = { type = "axial", colors = ["#0000ff", "#00ff00"], start = [0, 60], end = [0, 140] }
            strokeGradient = { type = "conic", colors = ["#000000", "#ff0000"], start = [100, 100], end = [100, 0] }
            lineWidth = 20
            strokeEnd = 0.5
            """)
        let bitmap = try SceneInstance.renderStill(
            playlist.scenes[0], playlist: playlist, at: 0, width: 200, height: 200)
        // The oval's path runs clockwise from its right end, so the stroke is its lower half; the
        // conic colour depends only on the angle: a quarter turn (right) is a quarter red.
        XCTAssertEqual(red(bitmap[180, 100]), 255 * 0.25, accuracy: 4)
        XCTAssertEqual(red(bitmap[100, 180]), 255 * 0.5, accuracy: 4)
        XCTAssertEqual(red(bitmap[43, 43]), 0, "the upper half is not stroked (there the cone is 7/8 red)")
        // The fill: blue above y = 60, green below y = 140, half way between at 100.
        let green = { (p: UInt32) in Double((p >> 8) & 0xFF) }
        let blue = { (p: UInt32) in Double(p & 0xFF) }
        XCTAssertEqual(blue(bitmap[100, 50]), 255)
        XCTAssertEqual(green(bitmap[100, 150]), 255)
        XCTAssertEqual(green(bitmap[100, 100]), 255 * 40.5 / 80, accuracy: 2)
        XCTAssertEqual(blue(bitmap[100, 100]), 255 * 39.5 / 80, accuracy: 2)
    }

    func testBadShapeGradientsAndShadowsNameTheirKey() {
        let errors = configErrors(
            """
            [[scene]]
            name = "s"
            duration = 1

            [[scene.layer]]
            id = "ring"
            type = "shape"
            oval = [0, 0, 10, 10]
            fillGradient = "red"
            strokeGradient = { type = "conic", colors = ["#000000"], start = [0, 0] }
            shadowOffset = [1]
            shadowOpacity = "half"
            shadowPath = "M 0 0 L 10 Q"
            """
        ).joined(separator: "\n")
        XCTAssertTrue(errors.contains("layer 'ring' › fillGradient: expected a gradient table"), errors)
        XCTAssertTrue(errors.contains("layer 'ring' › strokeGradient"), errors)
        XCTAssertTrue(errors.contains("end"), errors)
        XCTAssertTrue(errors.contains("layer 'ring' › shadowOffset: "), errors)
        XCTAssertTrue(errors.contains("layer 'ring' › shadowOpacity: "), errors)
        XCTAssertTrue(errors.contains("layer 'ring' › shadowPath: bad path data at byte"), errors)
    }
}
