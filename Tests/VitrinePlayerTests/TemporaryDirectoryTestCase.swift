import Foundation
import XCTest

/// A test case with a fresh directory of its own (`directory`), removed after each test.
class TemporaryDirectoryTestCase: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = try temporaryDirectory()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
