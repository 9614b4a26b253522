import Foundation
import VitrineGraphics
import XCTest
@testable import VitrinePlayer

/// Screenshots written off the frame loop: each from a copy of the frame on screen when it was
/// asked for (drawing goes on meanwhile), the requests that arrive while one is written served
/// by the next copy, and a stopping player waiting for the file being written.
final class ScreenshotWriterTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "vitrine-shots-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static let red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00, blue: UInt32 = 0xFF00_00FF

    private func frame(_ pixel: UInt32, width: Int = 40, height: Int = 30) -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        bitmap.fill(pixel)
        return bitmap
    }

    /// The colour of the written picture's middle pixel.
    private func colour(of file: String) throws -> UInt32 {
        let image = try Image(contentsOfFile: directory + "/" + file)
        return image[image.width / 2, image.height / 2]
    }

    func testEachRequestGetsTheFrameOfItsTimeOrALaterOne() throws {
        let writer = try ScreenshotWriter<Int>()
        let screen = frame(Self.red)
        writer.request(directory + "/a.png", from: 1, frame: screen)
        XCTAssertTrue(writer.isWriting)
        // Drawing goes on while it is written; two more clients ask meanwhile.
        screen.fill(Self.green)
        writer.request(directory + "/b.png", from: 2, frame: screen)
        writer.request(directory + "/c.png", from: 3, frame: screen)
        XCTAssertTrue(waitReadable(writer.fileDescriptor, milliseconds: 5000))
        let first = try XCTUnwrap(writer.takeFinished(frame: screen))
        XCTAssertEqual(first.map(\.0.client), [1])
        XCTAssertNil(first[0].1)
        XCTAssertTrue(writer.isWriting, "the two that waited, from a copy of the frame on screen now")
        screen.fill(Self.blue)
        XCTAssertTrue(waitReadable(writer.fileDescriptor, milliseconds: 5000))
        let second = try XCTUnwrap(writer.takeFinished(frame: screen))
        XCTAssertEqual(second.map(\.0.client), [2, 3])
        XCTAssertTrue(second.allSatisfy { $0.1 == nil })
        XCTAssertFalse(writer.isWriting)
        XCTAssertNil(writer.takeFinished(frame: screen), "nothing more")
        XCTAssertEqual(try colour(of: "a.png"), Self.red)
        XCTAssertEqual(try colour(of: "b.png"), Self.green)
        XCTAssertEqual(try colour(of: "c.png"), Self.green)
    }

    func testAFileThatCannotBeWrittenIsReported() throws {
        let writer = try ScreenshotWriter<Int>()
        writer.request(directory + "/missing/shot.png", from: 7, frame: frame(Self.red))
        XCTAssertTrue(waitReadable(writer.fileDescriptor, milliseconds: 5000))
        let done = try XCTUnwrap(writer.takeFinished(frame: nil))
        XCTAssertEqual(done.map(\.0.client), [7])
        XCTAssertNotNil(done[0].1)
    }

    /// A player stopping waits for the file being written (never left half written); the
    /// requests waiting for the next copy are handed back to be refused.
    func testStoppingWaitsForTheFileBeingWritten() throws {
        let writer = try ScreenshotWriter<Int>()
        let screen = frame(Self.red, width: 1920, height: 1080)
        writer.request(directory + "/a.png", from: 1, frame: screen)
        writer.request(directory + "/b.png", from: 2, frame: screen)
        writer.waitUntilWritten()
        XCTAssertEqual(try Image(contentsOfFile: directory + "/a.png").width, 1920)
        let done = try XCTUnwrap(writer.takeFinished(frame: nil))
        XCTAssertEqual(done.map(\.0.client), [1])
        XCTAssertEqual(writer.dropWaiting().map(\.client), [2])
        XCTAssertFalse(writer.isWriting)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/b.png"))
        // Nothing being written: it returns at once, however many copies were written before.
        writer.waitUntilWritten()
        writer.request(directory + "/c.png", from: 3, frame: screen)
        writer.waitUntilWritten()
        XCTAssertEqual(try XCTUnwrap(writer.takeFinished(frame: nil)).map(\.0.client), [3])
    }
}
