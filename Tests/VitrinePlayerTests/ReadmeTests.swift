import Foundation
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// The README's config reference is the registry's own output, never a hand-kept copy.
final class ReadmeTests: XCTestCase {
    func testConfigReferenceInTheReadmeIsGenerated() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardized
        let text = try String(contentsOf: readme, encoding: .utf8)
        let begin = "<!-- config-reference:begin -->\n", end = "<!-- config-reference:end -->"
        let start = try XCTUnwrap(text.range(of: begin), "README has no config-reference markers")
        let stop = try XCTUnwrap(text.range(of: end, range: start.upperBound..<text.endIndex))
        XCTAssertEqual(
            String(text[start.upperBound..<stop.lowerBound]), ConfigReference.render(.markdown),
            "regenerate the README section with `vitrine scenes --markdown`")
    }

    func testEveryScreenshotTheReadmeShowsExists() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
            .standardized
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\]\((docs/screenshots/[^)]+\.png)\)"#)
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        XCTAssertGreaterThanOrEqual(matches.count, 11)
        for match in matches {
            let path = String(text[Range(match.range(at: 1), in: text)!])
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), path)
        }
    }

    /// The keys every layer type shares are listed once, not under each type.
    func testTheKeysEveryTypeSharesAreListedOnce() {
        let markdown = ConfigReference.render(.markdown)
        let common = ConfigReference.commonProperties(of: .standard).map(\.key)
        XCTAssertEqual(common.count, 27, "\(common)")
        for key in ["bounds", "position", "transform", "opacity", "masksToBounds"] {
            XCTAssertTrue(common.contains(key), key)
            XCTAssertEqual(markdown.components(separatedBy: "\n| \(key) |").count - 1, 1, key)
        }
        // A key whose meaning differs by type stays with each type.
        XCTAssertFalse(common.contains("contents"))
        XCTAssertEqual(
            markdown.components(separatedBy: "\n| contents |").count - 1, LayerTypeRegistry.standard.names.count)
    }
}
