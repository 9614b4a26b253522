import Glibc
import Logging
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

final class StandardErrorLogHandlerTests: XCTestCase {
    func testJournalLinesCarryTheSyslogPriorityOnEveryLine() {
        let text = StandardErrorLogHandler.format(
            level: .error, message: "a.toml:3:1: bad\na.toml:7:5: worse",
            metadata: [:], journal: true)
        // sd-daemon.h: SD_ERR is <3>; each line is its own journal entry.
        XCTAssertEqual(text, "<3>a.toml:3:1: bad\n<3>a.toml:7:5: worse\n")
        XCTAssertEqual(
            StandardErrorLogHandler.format(level: .warning, message: "w", metadata: [:], journal: true), "<4>w\n")
        XCTAssertEqual(
            StandardErrorLogHandler.format(level: .info, message: "i", metadata: [:], journal: true), "<6>i\n")
    }

    func testTerminalLinesNameTheProgramAndLevelWithoutATimestamp() {
        let text = StandardErrorLogHandler.format(
            level: .info, message: "scene 'arrow'", metadata: ["b": "2", "a": "1"],
            journal: false)
        XCTAssertEqual(text, "vitrine: info: scene 'arrow' a=1 b=2\n")
    }

    func testJournalStreamMustNameStandardErrorItself() {
        var st = stat()
        XCTAssertEqual(fstat(2, &st), 0)
        XCTAssertTrue(StandardErrorLogHandler.standardErrorIsJournal("\(st.st_dev):\(st.st_ino)"))
        XCTAssertFalse(StandardErrorLogHandler.standardErrorIsJournal("\(st.st_dev):\(st.st_ino &+ 1)"))
        XCTAssertFalse(StandardErrorLogHandler.standardErrorIsJournal("garbage"))
        XCTAssertFalse(StandardErrorLogHandler.standardErrorIsJournal(nil))
    }
}
