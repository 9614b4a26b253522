import Foundation
import VitrineAnimation
import VitrineGraphics
import VitrineSystem
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// How the picture meets the screen: `rotation`, `fit`, `pixelShift` and `screenOn` of `[player]`.
final class ScreenFitTests: XCTestCase {
    private func defaultPlaylist(_ settings: String = "") throws -> Playlist {
        let path = ConfigPaths.repository + "/config/default.toml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "[player]\n", with: "[player]\n\(settings)\n")
        return try loadPlaylist(text, file: path)
    }

    private func still(_ playlist: Playlist, scene: String, at time: Double, width: Int, height: Int) throws -> Bitmap {
        try SceneInstance.renderStill(
            playlist.scenes.first { $0.name == scene }!, playlist: playlist, at: time, width: width, height: height)
    }

    /// 90° turns the picture clockwise (the canvas's top edge on the screen's right edge, as
    /// `xrandr --rotate right`), 180° upside down, 270° the other way; what is drawn is the
    /// same picture, pixel for pixel (an image, text, shapes and a mask).
    func testRotationTurnsThePictureClockwise() throws {
        let width = 192, height = 108
        let upright = try still(try defaultPlaylist(), scene: "arrow", at: 1, width: width, height: height)
        for degrees in [90, 180, 270] {
            let turned = degrees == 180 ? (width, height) : (height, width)
            let picture = try still(
                try defaultPlaylist("rotation = \(degrees)"), scene: "arrow", at: 1, width: turned.0, height: turned.1)
            // Where the upright picture's pixel (x, y) lands on the turned screen.
            func turnedPixel(_ x: Int, _ y: Int) -> UInt32 {
                switch degrees {
                case 90: return picture[turned.0 - 1 - y, x]
                case 180: return picture[width - 1 - x, height - 1 - y]
                default: return picture[y, turned.1 - 1 - x]
                }
            }
            let worst = StillFrames.largestDifference(width: width, height: height, { upright[$0, $1] }, turnedPixel)
            var inked = 0
            for y in 0..<height {
                for x in 0..<width where upright[x, y] & 0xFF_FFFF != upright[0, 0] & 0xFF_FFFF { inked += 1 }
            }
            XCTAssertLessThanOrEqual(worst, 2, "rotation \(degrees)")
            XCTAssertGreaterThan(inked, width * height / 10)
        }
    }

    /// A turned picture's damage is turned too: under every rotation, frames repainted only
    /// where they changed equal frames repainted whole.
    func testTheDamageOfATurnedPictureIsTurnedToo() throws {
        for degrees in [0, 90, 180, 270] {
            let playlist = try defaultPlaylist("rotation = \(degrees)")
            let (width, height) = degrees % 180 == 0 ? (160, 90) : (90, 160)
            func frames() -> PlayerFrames {
                let screen = Size(width: Double(width), height: Double(height))
                let player = Player(playlist: playlist, screenSize: screen, onlyScene: "wave")
                return PlayerFrames(player: player, bitmap: Bitmap(width: width, height: height))
            }
            let damaged = frames(), whole = frames()
            var partial = 0
            for frame in 0..<45 {
                let t = Double(frame) / 15
                let result = try damaged.makeFrame(at: t).result
                whole.renderer.setNeedsFullFrame()
                _ = try whole.makeFrame(at: t)
                if result.pixelsRedrawn < width * height { partial += 1 }
                for y in 0..<height {
                    for x in 0..<width where damaged.bitmap[x, y] != whole.bitmap[x, y] {
                        return XCTFail("rotation \(degrees), frame \(frame): (\(x), \(y)) differs")
                    }
                }
            }
            XCTAssertGreaterThan(partial, 10, "rotation \(degrees): the frames were not repainted in part")
        }
    }

    /// contain keeps all of the canvas with bars; cover fills the screen and cuts the overflow;
    /// stretch fills the screen on each axis.
    func testFitContainCoverAndStretch() throws {
        func picture(_ fit: String) throws -> Bitmap {
            let playlist = try loadPlaylist(
                """
                [player]
                background = "#0000ff"
                canvas = [400, 200]
                fit = "\(fit)"

                [[scene]]
                name = "s"
                duration = 1
                background = "#ff0000"

                [[scene.layer]]
                type = "layer"
                bounds = [0, 0, 100, 100]
                position = [50, 50]
                backgroundColor = "#00ff00"
                """)
            return try SceneInstance.renderStill(playlist.scenes[0], playlist: playlist, at: 0, width: 200, height: 200)
        }
        let blue: UInt32 = 0xFF00_00FF, red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00
        // contain: 400 × 200 at scale 0.5 is 200 × 100 at y = 50.
        let contain = try picture("contain")
        XCTAssertEqual([contain[100, 10], contain[150, 100], contain[10, 60]], [blue, red, green])
        // cover: scale 1, 400 × 200 centred: x from -100, so the green square (0…100) is cut off.
        let cover = try picture("cover")
        XCTAssertEqual([cover[100, 2], cover[2, 2], cover[199, 199]], [red, red, red])
        // stretch: 0.5 across, 1 down: the square is 50 × 100 at the top left.
        let stretch = try picture("stretch")
        XCTAssertEqual([stretch[48, 98], stretch[52, 98], stretch[48, 102], stretch[199, 199]], [green, red, red, red])
    }

    /// The pixel shift starts in place, moves one pixel a step, visits every place of its
    /// square, never leaves it, and wakes an idle player for each step; a still never shifts.
    func testPixelShiftWalksItsSquareOnePixelAtATime() throws {
        let playlist = try loadPlaylist(
            """
            [player]
            canvas = [100, 100]
            pixelShift = { every = 60, by = 2 }

            [[scene]]
            name = "s"
            duration = 100000
            """)
        let player = Player(playlist: playlist, screenSize: Size(width: 100, height: 100))
        var seen: Set<[Double]> = []
        var previous: Point?
        for step in 0..<60 {
            let t = Double(step) * 60 + 0.5
            try player.frameWillRender(at: t)
            let origin = player.viewportFrame.origin
            if step == 0 { XCTAssertEqual(origin, .zero) }
            XCTAssertLessThanOrEqual(max(abs(origin.x), abs(origin.y)), 2)
            if let previous {
                XCTAssertEqual(abs(origin.x - previous.x) + abs(origin.y - previous.y), 1, "step \(step)")
            }
            XCTAssertEqual(player.nextDeadline, Double(step + 1) * 60)
            seen.insert([origin.x, origin.y])
            previous = origin
        }
        XCTAssertEqual(seen.count, 25)

        let still = Player(playlist: playlist, screenSize: Size(width: 100, height: 100), holdsScene: true)
        try still.frameWillRender(at: 610)
        XCTAssertEqual(still.viewportFrame.origin, .zero)
    }

    func testScreenSettingsAreChecked() {
        let errors = configErrors(
            """
            [player]
            rotation = 45
            fit = "fill"
            pixelShift = { every = 0.5, by = 40, speed = 2 }

            [[scene]]
            name = "s"
            duration = 1
            """)
        let text = errors.joined(separator: "\n")
        XCTAssertTrue(text.contains("player › rotation: must be 0, 90, 180 or 270"), text)
        XCTAssertTrue(text.contains("player › fit: "), text)
        XCTAssertTrue(text.contains("contain"), text)
        XCTAssertTrue(text.contains("pixelShift › speed"), text)
        XCTAssertTrue(text.contains("pixelShift › every"), text)
        XCTAssertTrue(text.contains("pixelShift › by: must be from 1 to 16 pixels"), text)
    }
    /// Days, times and periods past midnight, read from the config.
    func testScreenHours() throws {
        let playlist = try loadPlaylist(
            """
            [player]
            screenOn = [["Mon-Fri", "07:00", "19:00"], ["Sat,Sun", "22:00", "02:30"], ["Fri-Mon", "12:00", "12:30"]]

            [[scene]]
            name = "s"
            duration = 1
            """)
        let schedule = try XCTUnwrap(playlist.settings.screenOn)
        func on(_ day: Int, _ time: String) -> Bool {
            schedule.isOn(
                at: LocalTime(weekday: day, minuteOfDay: ScreenSchedule.minutes(time, allowsEndOfDay: false)!))
        }
        XCTAssertFalse(on(1, "06:59"))
        XCTAssertTrue(on(1, "07:00"))
        XCTAssertTrue(on(5, "18:59"))
        XCTAssertFalse(on(5, "19:00"))
        XCTAssertFalse(on(6, "07:00"), "not on Saturday mornings")
        XCTAssertTrue(on(6, "23:00"))
        XCTAssertTrue(on(0, "02:29"), "Saturday's evening runs into Sunday")
        XCTAssertTrue(on(1, "02:00"), "Sunday's evening runs into Monday")
        XCTAssertFalse(on(1, "02:30"))
        XCTAssertFalse(on(6, "02:00"), "Friday's evening is not listed")
        XCTAssertTrue(on(0, "12:15"), "Fri-Mon goes round the weekend")
        XCTAssertFalse(on(6, "12:45"))
        XCTAssertEqual(ScreenSchedule.days("daily"), Set(0..<7))
        XCTAssertNil(ScreenSchedule.days("Mon-"))
        XCTAssertNil(ScreenSchedule.minutes("7:00", allowsEndOfDay: false))
        XCTAssertEqual(ScreenSchedule.minutes("24:00", allowsEndOfDay: true), 1440)
        XCTAssertNil(ScreenSchedule.minutes("24:00", allowsEndOfDay: false))

        let errors = configErrors(
            """
            [player]
            screenOn = [["Mon-Fri", "07:00"], ["Monday", "07:00", "19:00"], ["Sat", "25:00", "19:00"], ["Sun", "09:00", "09:00"]]

            [[scene]]
            name = "s"
            duration = 1
            """
        ).joined(separator: "\n")
        XCTAssertTrue(errors.contains("player › screenOn: period 1: expected [DAYS, \"HH:MM\", \"HH:MM\"]"), errors)
        XCTAssertTrue(errors.contains("period 2: 'Monday' is not days of the week"), errors)
        XCTAssertTrue(errors.contains("period 3: start '25:00' is not a time from 00:00 to 23:59"), errors)
        XCTAssertTrue(errors.contains("period 4: start and end are the same time"), errors)
    }
}
