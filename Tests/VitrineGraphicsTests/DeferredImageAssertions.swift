import XCTest
@testable import VitrineGraphics

/// The image file at `path` passes `DeferredImage`'s header check and fails its decoding with
/// the words `Image(contentsOfFile:)` fails with, which say `what` about the file.
func assertDecodingLaterFailsAsAtOnce(
    _ path: String, _ what: String, file: StaticString = #filePath, line: UInt = #line
) throws {
    let deferred = try DeferredImage(contentsOfFile: path)
    var later = "", now = ""
    XCTAssertThrowsError(try deferred.decode(), file: file, line: line) { later = "\($0)" }
    XCTAssertThrowsError(try Image(contentsOfFile: path), file: file, line: line) { now = "\($0)" }
    XCTAssertEqual(later, now, file: file, line: line)
    XCTAssertTrue(now.hasPrefix("\(path): \(what): "), now, file: file, line: line)
}
