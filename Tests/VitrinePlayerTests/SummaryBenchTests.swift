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

    /// With `--repeat`, each size's measures give their median and every play's value, in order.
    func testRepeatedPlaysGiveTheMedianAndEveryPlay() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb"), "needs Xvfb")
        let tool = try PlayProcess.executable()
        let (status, output) = try runTool(
            tool, ["bench", "summary", ConfigPaths.defaultConfig, "--duration", "0.5", "--runs", "1", "--repeat", "3"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains(", 3 plays at each, private Xvfb"), output)
        let lines = output.split(separator: "\n")
        for size in ["1920x1080", "3840x2160"] {
            let cpu = try XCTUnwrap(lines.first { $0.hasPrefix("| playlist at \(size): CPU | ") }, output)
            let value = String(cpu.split(separator: "|")[1]).trimmingCharacters(in: .whitespaces)
            // "median M % of a core; plays A, B, C %": M is the middle one of A, B and C.
            let parts = value.split(separator: ";")
            XCTAssertEqual(parts.count, 2, value)
            let median = try XCTUnwrap(Double(parts[0].split(separator: " ")[1]), value)
            let plays = parts[1].dropFirst(" plays ".count).dropLast(" %".count).split(separator: ",")
                .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            XCTAssertEqual(plays.count, 3, value)
            XCTAssertEqual(median, plays.sorted()[1], value)
            let rss = try XCTUnwrap(lines.first { $0.hasPrefix("| playlist at \(size): peak RSS | median ") }, output)
            XCTAssertEqual(rss.split(separator: ";").last?.split(separator: ",").count, 3, String(rss))
            let frames = try XCTUnwrap(lines.first { $0.hasPrefix("| playlist at \(size): frames | ") }, output)
            XCTAssertTrue(frames.contains(" presented; deadlines missed "), String(frames))
            XCTAssertEqual(frames.split(separator: ";").last?.split(separator: ",").count, 3, String(frames))
        }
        let (refused, message) = try runTool(tool, ["bench", "summary", "--repeat", "0"])
        XCTAssertNotEqual(refused, 0)
        XCTAssertTrue(message.contains("--repeat must be from 1 to 20"), message)
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

/// `vitrine bench player --whole-playlist` plays the playlist in order, its fades included, as
/// one row: the pixels per frame include the fades' (more than the first scene's alone).
final class PlayerBenchWholePlaylistTests: XCTestCase {
    func testTheWholePlaylistIsOneRowWithItsTransitions() throws {
        let tool = try PlayProcess.executable()
        let (status, output) = try runTool(
            tool,
            ["bench", "player", ConfigPaths.defaultConfig, "--whole-playlist", "--duration", "9", "--size", "480x270"])
        XCTAssertEqual(status, 0, output)
        let rows = output.split(separator: "\n").filter {
            $0.hasPrefix("| ") && !$0.hasPrefix("| scene") && !$0.hasPrefix("| ---")
        }
        XCTAssertEqual(rows.count, 1, output)
        let row = try XCTUnwrap(rows.first)
        XCTAssertTrue(row.hasPrefix("| whole playlist |"), String(row))
        XCTAssertTrue(row.hasSuffix("| n/a | n/a |"), "no live columns: \(row)")
        // 9 s take in `arrow`'s fade into `pie` (at 8 s), which repaints far more per frame than
        // `arrow` alone does in its first 7 s.
        let (_, arrowOnly) = try runTool(
            tool,
            ["bench", "player", ConfigPaths.defaultConfig, "--whole-playlist", "--duration", "7", "--size", "480x270"])
        func pixels(_ text: Substring) -> Int? {
            Int(text.split(separator: "|")[5].trimmingCharacters(in: .whitespaces))
        }
        let arrowRow = try XCTUnwrap(
            arrowOnly.split(separator: "\n").first { $0.hasPrefix("| whole playlist |") }, arrowOnly)
        XCTAssertGreaterThan(
            try XCTUnwrap(pixels(row)), 5 * (try XCTUnwrap(pixels(arrowRow))) / 4, "\(row)\n\(arrowRow)")
        let (refused, message) = try runTool(tool, ["bench", "player", "--whole-playlist", "--scene", "pie"])
        XCTAssertNotEqual(refused, 0)
        XCTAssertTrue(message.contains("--whole-playlist plays every scene"), message)
    }
}
