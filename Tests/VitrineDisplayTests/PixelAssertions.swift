import XCTest

/// Fails with the first differing pixel and the number of differences, not two huge arrays.
func assertPixelsEqual(
    _ actual: [UInt32], _ expected: [UInt32], width: Int, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    guard actual.count == expected.count else {
        XCTFail("\(message): \(actual.count) pixels, expected \(expected.count)", file: file, line: line)
        return
    }
    let differing = zip(actual, expected).enumerated().filter { $0.element.0 != $0.element.1 }
    guard let first = differing.first else { return }
    XCTFail(
        "\(message): \(differing.count) pixels differ; first at (\(first.offset % width), \(first.offset / width)): "
            + "0x\(String(first.element.0, radix: 16)) instead of 0x\(String(first.element.1, radix: 16))",
        file: file, line: line)
}
