import XCTest
@testable import VitrineTOML

/// Parses `text`, failing the test (and returning an empty table) on error.
func parseOrFail(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> TOMLTable {
    do {
        return try TOML.parse(text)
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return TOMLTable()
    }
}

/// Asserts that `text` fails to parse at exactly `line`:`column` with a message containing `message`.
func assertParseError(
    _ text: String, at errorLine: Int, _ errorColumn: Int, _ message: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    assertParseError(bytes: Array(text.utf8), at: errorLine, errorColumn, message, file: file, line: line)
}

func assertParseError(
    bytes: [UInt8], at errorLine: Int, _ errorColumn: Int, _ message: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    do {
        let table = try TOML.parse(bytes: bytes)
        XCTFail("expected an error, parsed \(table)", file: file, line: line)
    } catch let error as TOMLParseError {
        XCTAssertEqual(
            error.position, SourcePosition(line: errorLine, column: errorColumn),
            "message: \(error.message)", file: file, line: line)
        XCTAssertTrue(
            error.message.contains(message), "'\(error.message)' lacks '\(message)'",
            file: file, line: line)
    } catch {
        XCTFail("unexpected error type: \(error)", file: file, line: line)
    }
}

extension TOMLTable {
    /// The value at a dotted path of plain keys, for brevity in tests.
    func value(_ path: String) -> TOMLValue? {
        var table = self
        let parts = path.split(separator: ".").map(String.init)
        for part in parts.dropLast() {
            guard let next = table[part]?.value.tableValue else { return nil }
            table = next
        }
        return table[parts.last!]?.value
    }
}

func pos(_ line: Int, _ column: Int) -> SourcePosition {
    SourcePosition(line: line, column: column)
}
