import Glibc
import VitrineSystem
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

final class ProgressInputTests: XCTestCase {
    func testParsesPsplashVocabulary() {
        var parser = ProgressLineParser()
        let results = parser.feed(Array("PROGRESS 40\nMSG Updating firmware…\nQUIT\n".utf8))
        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(try results[0].get(), .progress(0.4))
        XCTAssertEqual(try results[1].get(), .message("Updating firmware…"))
        XCTAssertEqual(try results[2].get(), .quit)
    }

    func testLinesSplitAcrossReadsAndCRLF() {
        var parser = ProgressLineParser()
        XCTAssertTrue(parser.feed(Array("PROG".utf8)).isEmpty)
        let results = parser.feed(Array("RESS 12.5\r\n".utf8))
        XCTAssertEqual(try results.first?.get(), .progress(0.125))
    }

    func testMalformedLinesReportTheirByteOffset() {
        var parser = ProgressLineParser()
        let input = "PROGRESS 10\nPROGRESS abc\nHELLO\nPROGRESS 150\n"
        let results = parser.feed(Array(input.utf8))
        XCTAssertEqual(results.count, 4)
        XCTAssertEqual(try results[0].get(), .progress(0.1))
        // "PROGRESS abc" starts at byte 12; its argument at 21.
        XCTAssertEqual(results[1].failureOffset, 21)
        XCTAssertEqual(results[2].failureOffset, 25)
        XCTAssertEqual(results[3].failureOffset, 31 + 9)
    }

    func testOverlongLineIsBoundedAndSkipped() {
        var parser = ProgressLineParser()
        var results = parser.feed(Array(repeating: UInt8(ascii: "x"), count: 100_000))
        results += parser.feed(Array("\nPROGRESS 5\n".utf8))
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(results[0].failureOffset, 0)
        XCTAssertEqual(try results[1].get(), .progress(0.05))
    }

    func testInvalidUTF8IsAnErrorNotACrash() {
        let result = ProgressLineParser.parse(line: [0x4D, 0x53, 0x47, 0x20, 0xFF, 0xFE], at: 7)
        XCTAssertEqual(result.failureOffset, 7)
    }

    func testFIFOIsCreatedAndSurvivesWritersReopening() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/progress"
        let source = try ProgressSource(.fifo(path))
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(st.st_mode & 0o777, 0o620)

        for value in [10, 20] {
            // Each writer opens, writes, closes: the reader must not see end-of-file.
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            XCTAssertGreaterThanOrEqual(fd, 0)
            let line = Array("PROGRESS \(value)\n".utf8)
            XCTAssertEqual(write(fd, line, line.count), line.count)
            close(fd)
            XCTAssertTrue(waitReadable(source.fileDescriptor))
            XCTAssertEqual(try source.read().first?.get(), .progress(Double(value) / 100))
        }
        XCTAssertFalse(
            waitReadable(source.fileDescriptor, milliseconds: 20), "no spurious wake-ups after writers close")
    }

    func testExistingRegularFileIsNotTakenForAFIFO() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/plain"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        XCTAssertThrowsError(try ProgressSource(.fifo(path)))
    }

    func testStateFileIsReReadOnChange() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/state"
        let source = try ProgressSource(.file(path))
        try "PROGRESS 30\nMSG one\nPROGRESS 35\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(waitReadable(source.fileDescriptor))
        let commands = source.read().compactMap { try? $0.get() }
        XCTAssertEqual(commands, [.progress(0.35), .message("one")])
    }

    func testSourceSpecParsing() {
        XCTAssertEqual(ProgressSourceSpec("fifo:/run/vitrine/progress"), .fifo("/run/vitrine/progress"))
        XCTAssertEqual(ProgressSourceSpec("file:/tmp/p"), .file("/tmp/p"))
        XCTAssertNil(ProgressSourceSpec("pipe:/x"))
        XCTAssertNil(ProgressSourceSpec("fifo:"))
    }

    func testRateLimiterCountsWhatItDrops() {
        var limiter = RateLimiter(burst: 2, interval: 10)
        XCTAssertTrue(limiter.allow(at: 0))
        XCTAssertTrue(limiter.allow(at: 1))
        XCTAssertFalse(limiter.allow(at: 2))
        XCTAssertFalse(limiter.allow(at: 3))
        XCTAssertEqual(limiter.suppressed, 2)
        XCTAssertTrue(limiter.allow(at: 10.5))
    }
}

extension Result where Failure == ProgressInputError {
    var failureOffset: Int? {
        if case .failure(let e) = self { return e.offset }
        return nil
    }
}

func temporaryDirectory() throws -> String {
    var template = Array("/tmp/vitrine-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("create a temporary directory") }
    return String(cString: made)
}

func waitReadable(_ fd: Int32, milliseconds: Int32 = 2000) -> Bool {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&pfd, 1, milliseconds) == 1
}
