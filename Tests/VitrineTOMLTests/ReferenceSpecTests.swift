import Foundation
import XCTest
@testable import VitrineTOML

/// Every draw spec of the shared reference set parses, and its shapes are where the text says.
final class ReferenceSpecTests: XCTestCase {
    func testAllReferenceSpecsParse() throws {
        // Tests/VitrineTOMLTests/ThisFile.swift → Tests/Data/reference/specs.
        let specs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/reference/specs")
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: specs.path))?
            .filter { $0.hasSuffix(".toml") }.sorted() ?? []
        if names.isEmpty { throw XCTSkip("no reference specs at \(specs.path)") }
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: specs.appendingPathComponent(name)))
            let text = String(decoding: bytes, as: UTF8.self)
            let doc: TOMLTable
            do {
                doc = try TOML.parse(bytes: bytes, file: name)
            } catch {
                XCTFail("\(error)")
                continue
            }
            // Independent check: each [[shape]] header in the text is one element, at its line.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let headerLines = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces) == "[[shape]]" }
                .map { $0 + 1 }
            let shapes = doc["shape"]?.value.arrayValue ?? []
            XCTAssertEqual(shapes.map(\.position.line), headerLines, name)
            XCTAssertNotNil(doc["width"]?.value.integerValue, name)
        }
    }
}
