import Foundation
import Glibc
import VitrineSystem
import XCTest

/// What the libraries use in place of Foundation (JSON, printf formats, locks, threads), checked
/// against Foundation's own where there is one, and the executable checked to link none of it.
final class FoundationFreeTests: XCTestCase {
    // MARK: - The executable

    func testTheExecutableLinksNoFoundation() throws {
        let path = try PlayProcess.executable()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Foundation's symbols are named in a dynamic build's imports and a static build's
        // symbol table, and a static build carries ICU's data. (Not the library's name: a
        // sanitizer build lists libraries it takes nothing from.)
        for marker in ["$s10Foundation", "icudt"] {
            XCTAssertNil(bytes.range(of: Data(marker.utf8)), "\(path) holds \(marker)")
        }
    }

    // MARK: - JSON

    func testEncodingSortsKeysAndReadsBackAsFoundationDoes() throws {
        let value: [String: Any] = [
            "ok": true, "generation": 3, "uptime": 12.25, "scene": "pie \"chart\"\n\u{1}é😀",
            "errors": ["a", "b"], "nested": ["z": JSON.null, "a": [1, -2.5e-7] as [Any]] as [String: Any]
        ]
        let line = try JSON.encode(value)
        XCTAssertEqual(
            line,
            #"{"errors":["a","b"],"generation":3,"nested":{"a":[1,-2.5e-07],"z":null},"ok":true,"#
                + #""scene":"pie \"chart\"\n\u0001é😀","uptime":12.25}"#)
        let foundation = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(foundation["scene"] as? String, "pie \"chart\"\n\u{1}é😀")
        XCTAssertEqual(foundation["uptime"] as? Double, 12.25)
        XCTAssertEqual(foundation["generation"] as? Int, 3)
    }

    func testDecodingFoundationsOutput() throws {
        let object: [String: Any] = [
            "framesPresented": 2610, "sceneTime": 1.5, "ok": false, "path": "/tmp/a b/ü.png",
            "list": [1, "two", ["three": 3]] as [Any], "escaped": "tab\tslash/quote\"\u{7f}"
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        let decoded = try XCTUnwrap(try JSON.decode(String(decoding: data, as: UTF8.self)) as? [String: Any])
        XCTAssertEqual(decoded["framesPresented"] as? Int, 2610)
        XCTAssertEqual(decoded["sceneTime"] as? Double, 1.5)
        XCTAssertEqual(decoded["ok"] as? Bool, false)
        XCTAssertEqual(decoded["path"] as? String, "/tmp/a b/ü.png")
        XCTAssertEqual(decoded["escaped"] as? String, "tab\tslash/quote\"\u{7f}")
        let list = try XCTUnwrap(decoded["list"] as? [Any])
        XCTAssertEqual(list[0] as? Int, 1)
        XCTAssertEqual(list[1] as? String, "two")
        XCTAssertEqual((list[2] as? [String: Any])?["three"] as? Int, 3)
    }

    func testDecodingNumbersEscapesAndLiterals() throws {
        XCTAssertEqual(try JSON.decode(" -0 ") as? Int, 0)
        XCTAssertEqual(try JSON.decode("9223372036854775807") as? Int, Int.max)
        XCTAssertEqual(try JSON.decode("9223372036854775808") as? Double, 9_223_372_036_854_775_808)
        XCTAssertEqual(try JSON.decode("1E3") as? Double, 1000)
        XCTAssertEqual(try JSON.decode("-0.125e+1") as? Double, -1.25)
        XCTAssertEqual(try JSON.decode(#""\ud83d\ude00\u00e9\/""#) as? String, "😀é/")
        XCTAssertEqual(
            try JSON.decode("[true,false,null]") as? [AnyHashable], [true, false, JSON.null] as [AnyHashable])
        XCTAssertEqual((try JSON.decode("{}") as? [String: Any])?.count, 0)
        XCTAssertEqual((try JSON.decode("[ ]") as? [Any])?.count, 0)
    }

    func testMalformedTextIsRefusedAtItsByteOffset() {
        let cases: [(String, Int, String)] = [
            ("", 0, "a value was expected, the text ended"),
            (#"{"a":1,}"#, 7, "a key was expected"),
            ("[1 2]", 3, "']' was expected"),
            ("01", 0, "a number with a leading zero"),
            ("1.", 2, "a digit was expected after '.'"),
            ("-", 1, "a digit was expected"),
            (#""abc"#, 4, "the string is not closed"),
            ("\"a\u{1}\"", 2, "a control character in a string"),
            (#""\x""#, 2, "an unknown escape in a string"),
            (#""\ud83d""#, 7, "a lone high surrogate"),
            (#""\ude00""#, 7, "a lone low surrogate"),
            ("tru", 0, "'true' was expected"),
            ("[1, -1e400]", 4, "a number out of range"),
            ("{} x", 3, "text after the value"),
            (String(repeating: "[", count: 300), 256, "nested more than 256 deep")
        ]
        for (text, offset, reason) in cases {
            XCTAssertThrowsError(try JSON.decode(text), text) { error in
                XCTAssertEqual((error as? JSON.SyntaxError)?.offset, offset, text)
                XCTAssertEqual((error as? JSON.SyntaxError)?.reason, reason, text)
            }
        }
        XCTAssertThrowsError(try JSON.decode([0x22, 0xFF, 0x22])) { error in
            XCTAssertEqual((error as? JSON.SyntaxError)?.reason, "not UTF-8")
        }
    }

    func testValuesJSONCannotHoldAreRefused() {
        XCTAssertThrowsError(try JSON.encode(["a": Double.infinity]))
        XCTAssertThrowsError(try JSON.encode(["a": Double.nan]))
        XCTAssertThrowsError(try JSON.encode(["a": Date()]))
    }

    // MARK: - printf formats

    func testCFormatMatchesFoundation() {
        for value in [0.0, 1.005, -3.14159, 123_456.789, 1e-9] {
            for format in ["%.2f", "%8.3f", "%.4f", "%.1f"] {
                XCTAssertEqual(String(cFormat: format, value), String(format: format, value), format)
            }
        }
        XCTAssertEqual(String(cFormat: "%02lx|%ld", 10, -7), "0a|-7")
        XCTAssertEqual(String(cFormat: "no arguments"), "no arguments")
        XCTAssertEqual(String(cFormat: ""), "")
        XCTAssertEqual(String(cFormat: "%0300d", 1).count, 300)
    }

    // MARK: - Threads

    func testThreadsRunNamedAndCountUnderTheLock() throws {
        let lock = Lock()
        let done = CountingSemaphore()
        var total = 0
        var names: [String] = []
        for index in 0..<4 {
            try SystemThread.start(name: "vitrine-test-thread-\(index)", stackSize: 1 << 20) {
                let name = Files.readProcFile("/proc/thread-self/comm") ?? ""
                for _ in 0..<10_000 { lock.withLock { total += 1 } }
                lock.withLock { names.append(String(name.dropLast())) }
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        XCTAssertEqual(total, 40_000)
        // The kernel keeps 15 bytes of a name.
        XCTAssertEqual(Set(names), Set((0..<4).map { String("vitrine-test-thread-\($0)".prefix(15)) }))
    }

    func testTryTakesAFreeLockOnly() {
        let lock = Lock()
        XCTAssertTrue(lock.try())
        let done = CountingSemaphore()
        var takenElsewhere = true
        try? SystemThread.start(name: "try") {
            takenElsewhere = lock.try()
            done.signal()
        }
        done.wait()
        XCTAssertFalse(takenElsewhere)
        lock.unlock()
        XCTAssertTrue(lock.try())
        lock.unlock()
    }

    /// A recursive lock is taken again by its holder (once per `lock`, as many `unlock`s), and
    /// stays closed to other threads until the last `unlock`.
    func testARecursiveLockIsTakenAgainByItsHolderOnly() {
        let lock = Lock(recursive: true)
        lock.lock()
        XCTAssertTrue(lock.try(), "its holder takes it again")
        func takenElsewhere() -> Bool {
            let done = CountingSemaphore()
            var taken = true
            try? SystemThread.start(name: "try") {
                taken = lock.try()
                if taken { lock.unlock() }
                done.signal()
            }
            done.wait()
            return taken
        }
        lock.unlock()
        XCTAssertFalse(takenElsewhere(), "held once more")
        lock.unlock()
        XCTAssertTrue(takenElsewhere(), "free after the last unlock")
    }

    func testAnImpossibleStackIsAnError() {
        XCTAssertThrowsError(try SystemThread.start(name: "tiny", stackSize: 1) {}) { error in
            XCTAssertEqual((error as? SystemError)?.code, EINVAL)
        }
    }

    func testProcessorCountFollowsTheAffinityMask() {
        XCTAssertEqual(availableProcessorCount(), ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertGreaterThanOrEqual(availableProcessorCount(), 1)
    }
}
