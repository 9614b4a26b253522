import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// CATextLayer's isWrapped (words; CJK between characters) and truncationMode: every line
/// stays inside the bounds.
final class TextWrappingTests: XCTestCase {
    private let sentence = "The quick brown fox jumps over the lazy dog while the kiosk keeps playing"

    func testWordsWiderThanTheLineBreakBetweenCharacters() throws {
        let font = try Font(size: 20)
        let width = font.advance(of: "kiosk")
        let lines = TextBox.lines(
            of: "a supercalifragilistic kiosk", font: font, in: Size(width: width, height: 500), wrapped: true)
        XCTAssertEqual(lines.map(\.text).joined(), "asupercalifragilistickiosk")
        for line in lines { XCTAssertLessThanOrEqual(line.width, width + 1e-9, line.text) }
        XCTAssertEqual(lines.first?.text, "a")
        XCTAssertEqual(lines.last?.text, "kiosk")
    }

    func testCJKBreaksBetweenCharactersAndKeepsClosingPunctuation() throws {
        let font = try Font(family: "Droid Sans Fallback", size: 20)
        let text = "東京の天気は晴れ、明日も晴れです。"
        let one = font.advance(of: "東")
        let lines = TextBox.lines(of: text, font: font, in: Size(width: one * 5.5, height: 500), wrapped: true)
        XCTAssertEqual(lines.map(\.text).joined(), text)
        XCTAssertGreaterThan(lines.count, 2)
        for line in lines {
            XCTAssertLessThanOrEqual(line.width, one * 5.5 + 1e-9, line.text)
            XCTAssertFalse(line.text.hasPrefix("、") || line.text.hasPrefix("。"), line.text)
        }
        XCTAssertEqual(TextBox.breakUnits(of: "Hello 世界。OK")[...], ["Hello ", "世", "界。", "OK"])
    }

    func testTruncationModesShortenWithAnEllipsis() throws {
        let font = try Font(size: 20)
        let width = font.advance(of: "The quick brown")
        func line(_ mode: TextTruncationMode) -> String {
            TextBox.lines(
                of: sentence, font: font, in: Size(width: width, height: 30), wrapped: false, truncation: mode)[0].text
        }
        XCTAssertTrue(line(.end).hasPrefix("The quick"), line(.end))
        XCTAssertTrue(line(.end).hasSuffix("…"))
        XCTAssertTrue(line(.start).hasPrefix("…"))
        XCTAssertTrue(line(.start).hasSuffix("keeps playing"), line(.start))
        let halves = line(.middle).split(separator: "…", omittingEmptySubsequences: false)
        XCTAssertEqual(halves.count, 2, line(.middle))
        XCTAssertTrue(sentence.hasPrefix(halves[0]) && sentence.hasSuffix(halves[1]), line(.middle))
        XCTAssertLessThanOrEqual(abs(halves[0].count - halves[1].count), 1, "as much kept of each end")
        XCTAssertEqual(line(.none), sentence)
        for mode in [TextTruncationMode.start, .middle, .end] {
            XCTAssertLessThanOrEqual(font.advance(of: line(mode)), width, "\(mode)")
        }
        // Text that fits is left alone.
        XCTAssertEqual(
            TextBox.lines(of: "fits", font: font, in: Size(width: width, height: 30), wrapped: false, truncation: .end)[
                0
            ]
            .text, "fits")
    }

    func testWrappedTextEndsWithTheLastLineThatFits() throws {
        let font = try Font(size: 20)
        let size = Size(width: font.advance(of: "The quick brown"), height: font.lineHeight * 2.5)
        let lines = TextBox.lines(of: sentence, font: font, in: size, wrapped: true, truncation: .end)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[1].text.hasSuffix("…"), lines[1].text)
        XCTAssertLessThanOrEqual(lines[1].width, size.width)
    }

    /// Rendered: wrapped and truncated text's ink stays inside the layer's bounds.
    func testWrappedAndTruncatedTextStaysInsideItsBounds() {
        let scene = RenderScene(width: 400, height: 300, background: .black)
        let box = Rect(x: 50, y: 40, width: 220, height: 100)
        let text = TextLayer()
        text.frame = box
        text.fontSize = 28
        text.string = sentence + " " + sentence
        text.isWrapped = true
        text.truncationMode = .end
        scene.root.addSublayer(text)
        scene.frame(at: 0)
        savePNG(scene.bitmap, "text-wrapped-truncated")
        let inside = IntRect(x: 50, y: 40, width: 220, height: 100)
        var inked = 0
        for y in 0..<300 {
            for x in 0..<400 where color(scene.bitmap, at: Point(x: Double(x) + 0.5, y: Double(y) + 0.5)).red > 0 {
                inked += 1
                XCTAssertTrue(
                    x >= inside.x && x < inside.maxX && y >= inside.y && y < inside.maxY + 8, "ink at (\(x), \(y))")
            }
        }
        XCTAssertGreaterThan(inked, 1000)
        // One line, middle-truncated, centred: ink on both sides, inside.
        text.isWrapped = false
        text.truncationMode = .middle
        text.alignmentMode = .center
        scene.frame(at: 1)
        XCTAssertEqual(countPixels(scene.bitmap, in: IntRect(x: 0, y: 0, width: 50, height: 300)) { $0.red > 0 }, 0)
        XCTAssertEqual(countPixels(scene.bitmap, in: IntRect(x: 270, y: 0, width: 130, height: 300)) { $0.red > 0 }, 0)
    }
}
