import XCTest
@testable import VitrineTOML

/// No input crashes or hangs the parser: nesting is bounded, large inputs take linear time, and
/// random or mangled documents only ever parse or throw a located `TOMLParseError`.
final class RobustnessTests: XCTestCase {
    // MARK: Nesting

    func testArraysNestedToTheLimitParse() throws {
        let depth = TOML.maximumNestingDepth
        let doc = try TOML.parse("a = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var value = try XCTUnwrap(doc["a"]?.value)
        var levels = 1
        while let inner = value.arrayValue?.first?.value {
            value = inner
            levels += 1
        }
        XCTAssertEqual(levels, depth)
    }

    func testDeeperArraysAreRejectedAtTheFirstBracketTooDeep() {
        // "a = " is 4 columns; the 129th bracket is at column 4 + 129.
        assertParseError("a = " + String(repeating: "[", count: 100_000), at: 1, 133, "nested deeper than 128 levels")
    }

    func testDeepInlineTablesAreRejected() {
        // Each "{b = " is 5 columns; the 129th brace is at column 5 + 5 × 128.
        assertParseError(
            "a = " + String(repeating: "{b = ", count: 50_000), at: 1, 645, "nested deeper than 128 levels")
    }

    func testDeepHeadersAndDottedKeysAreRejected() {
        let segments = Array(repeating: "a", count: 10_000)
        // Header segment k is at column 2 + 2(k − 1); segment 129 would be depth 129.
        assertParseError(
            "[" + segments.joined(separator: ".") + "]", at: 1, 258, "tables are nested deeper than 128 levels")
        assertParseError(
            segments.joined(separator: ".") + " = 1", at: 1, 257, "tables are nested deeper than 128 levels")
        // A header 100 deep leaves room for 28 more dotted levels: the 29th segment is too deep.
        let header = "[" + Array(repeating: "h", count: 100).joined(separator: ".") + "]\n"
        assertParseError(
            header + Array(repeating: "b", count: 40).joined(separator: ".") + " = 1",
            at: 2, 57, "tables are nested deeper than 128 levels")
        // Arrays of tables count two levels: the array and its element.
        let aot = "[[" + Array(repeating: "t", count: 128).joined(separator: ".") + "]]"
        assertParseError(aot, at: 1, 257, "tables are nested deeper than 128 levels")
    }

    // MARK: Size

    func testLargeDocumentsParseQuickly() throws {
        let lines = (0..<50_000).map { "key\($0) = \($0)" }.joined(separator: "\n")
        let oneLineArray = "a = [" + (0..<100_000).map(String.init).joined(separator: ",") + "]"
        let longString = "s = \"" + String(repeating: "é", count: 500_000) + "\""
        let manyTables = (0..<20_000).map { "[[item]]\nv = \($0)" }.joined(separator: "\n")
        let start = Date()
        let doc = try TOML.parse(lines)
        XCTAssertEqual(doc.count, 50_000)
        XCTAssertEqual(doc.keyPosition("key49999"), pos(50_000, 1))
        let array = try TOML.parse(oneLineArray)["a"]?.value.arrayValue
        XCTAssertEqual(array?.count, 100_000)
        // Element k starts after "a = [" and the digits and commas before it: an independent sum.
        let lastColumn = 6 + (0..<99_999).reduce(0) { $0 + String($1).count + 1 }
        XCTAssertEqual(array?.last?.position, pos(1, lastColumn))
        XCTAssertEqual(try TOML.parse(longString)["s"]?.value.stringValue?.count, 500_000)
        XCTAssertEqual(try TOML.parse(manyTables)["item"]?.value.arrayValue?.count, 20_000)
        // Generous: linear work here is well under a second; a quadratic one would take minutes.
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    // MARK: Fuzzing

    /// SplitMix64: a small deterministic generator, so any failure reproduces.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Parses `bytes`; the only acceptable outcomes are a table or a `TOMLParseError` pointing
    /// inside the document (or just past its end).
    func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try TOML.parse(bytes: bytes)
        } catch let error as TOMLParseError {
            let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            XCTAssert(error.position.line >= 1 && error.position.line <= lineCount, "\(error)", file: file, line: line)
            XCTAssert(
                error.position.column >= 1 && error.position.column <= bytes.count + 1, "\(error)",
                file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
    }

    func testRandomBytes() {
        var rng = SplitMix64(state: 0x5EED)
        // Mostly characters that matter to TOML, so the parser gets past the first byte.
        let alphabet = Array("[]{}=\"'.,#\n\r\t _-+:0123456789abcdefxobTZeinf\\uU".utf8) + [0xC3, 0xA9, 0xFF, 0x00]
        for _ in 0..<3_000 {
            let count = Int.random(in: 0..<120, using: &rng)
            let bytes = (0..<count).map { _ -> UInt8 in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            check(bytes)
        }
    }

    func testMutatedValidDocuments() {
        var rng = SplitMix64(state: 0xF00D)
        let seeds = [
            PlaylistPositionTests.playlist,
            ReaderTests.show,
            "a = [1, [2.5, \"x\"], {b = 1979-05-27T07:32:00Z}]\n[t.u]\nv = '''\nraw\n'''\n[[t.w]]\nx = 0x1F\n",
            "s = \"\"\"\nline \\\n  next \\u00E9\"\"\"\nd = 07:32:00.5\nf = -inf\n\"quoted key\" = { y.z = true }\n"
        ].map { Array($0.utf8) }
        let fragments = [
            "[", "]", "[[", "]]", "{", "}", "\"", "'''", "\"\"\"", "=", ".", ",", "\n", "\\", "#",
            "a.b", "1_0", "0x", "1979-05-27", "\r", "\u{7F}", "é"
        ].map { Array($0.utf8) }
        for iteration in 0..<3_000 {
            var bytes = seeds[iteration % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(contentsOf: fragments.randomElement(using: &rng)!, at: at)
                case 3:
                    let end = min(bytes.count, at + Int.random(in: 1...40, using: &rng))
                    bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &rng))
                default:
                    bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...20, using: &rng)))
                }
            }
            check(bytes)
        }
    }
}
