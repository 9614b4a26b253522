import Foundation
import XCTest

/// `vitrine bench summary` runs the real player at both sizes and prints every row of its table.
final class SummaryBenchTests: XCTestCase {
    func testTheSummaryPrintsEveryMeasure() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb"), "needs Xvfb")
        let (status, output) = try runTool(
            try PlayProcess.executable(),
            ["bench", "summary", ConfigPaths.defaultConfig, "--duration", "1", "--runs", "2"])
        XCTAssertEqual(status, 0, output)
        for measure in [
            "| playlist at 1920x1080: CPU | ", "| playlist at 1920x1080: peak RSS | ",
            "| playlist at 1920x1080: frames | ", "| playlist at 3840x2160: CPU | ",
            "| playlist at 3840x2160: frames | ", "| a still scene at 1920x1080: CPU | ",
            "| first frame (exec to READY=1), 2 runs | median "
        ] {
            XCTAssertTrue(output.contains(measure), "missing \(measure) in\n\(output)")
        }
        // A minute of frames at 60 fps is 60; a second at least 30 of them presented.
        let frames = try XCTUnwrap(
            output.split(separator: "\n").first { $0.hasPrefix("| playlist at 1920x1080: frames") })
        let presented = Int(frames.split(separator: "|")[1].split(separator: " ")[0]) ?? 0
        XCTAssertGreaterThan(presented, 30, String(frames))
    }
}

/// `vitrine bench player --size` measures at the screen size asked for, on an Xvfb of that size.
final class PlayerBenchSizeTests: XCTestCase {
    func testBenchPlayerMeasuresAtTheSizeAskedFor() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb"), "needs Xvfb")
        let (status, output) = try runTool(
            try PlayProcess.executable(),
            ["bench", "player", ConfigPaths.defaultConfig, "--size", "1280x720", "--duration", "0.5", "--scene", "pie"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains(": 1280x720, 30 frames per mode"), output)
        let row = try XCTUnwrap(output.split(separator: "\n").first { $0.hasPrefix("| pie |") }, output)
        XCTAssertTrue(row.contains(" %"), "a CPU share measured live: \(row)")
        let (refused, message) = try runTool(try PlayProcess.executable(), ["bench", "player", "--size", "4K"])
        XCTAssertNotEqual(refused, 0)
        XCTAssertTrue(message.contains("--size must be WIDTHxHEIGHT"), message)
    }
}
