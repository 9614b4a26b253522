import XCTest
@testable import VitrineTOML

final class ReaderTests: XCTestCase {
    static let show = """
        [player]
        fps = "60"
        loop = 1
        transition = "fdae"
        canvas = [1920, "1080"]

        [[scene]]
        name = "arrow"
        duration = 4

        [[scene.layer]]
        id = "ring"
        thickness = "wide"
        lenghtRadians = 0
        frame = [0, 0, 800]
        FillColor = "#ffffff"
        """

    enum Transition: String, CaseIterable { case none, fade, push }

    /// Loads the document the way a config loader would, collecting every error.
    func load(_ text: String) throws -> TOMLFieldErrors {
        let root = TOMLReader(try TOML.parse(text, file: "show.toml"), file: "show.toml")
        var errors = TOMLFieldErrors()
        if let player = try errors.collect({ try root.table("player") }) {
            let p = player.within("player")
            _ = try errors.collect { try p.int("fps") }
            _ = try errors.collect { try p.bool("loop") }
            _ = try errors.collect { try p.oneOf("transition", as: Transition.self) }
            _ = try errors.collect { try p.doubleArray("canvas", count: 2) }
        }
        for scene in try errors.collect({ try root.arrayOfTables("scene") }) ?? [] {
            let s = scene.within("scene '\(try errors.collect { try scene.requiredString("name") } ?? "?")'")
            XCTAssertEqual(try errors.collect { try s.double("duration") }, 4)
            for layer in try errors.collect({ try s.arrayOfTables("layer") }) ?? [] {
                let l = layer.within("layer '\(try errors.collect { try layer.requiredString("id") } ?? "?")'")
                try errors.collect {
                    try l.rejectUnknownKeys(allowed: ["id", "thickness", "lengthRadians", "frame", "fillColor"])
                }
                _ = try errors.collect { try l.double("thickness") }
                _ = try errors.collect { try l.doubleArray("frame", count: 4) }
                _ = try errors.collect { try l.requiredString("type") }
            }
        }
        return errors
    }

    func testEveryErrorIsReportedWithFileLineColumnContextAndKey() throws {
        let errors = try load(Self.show)
        XCTAssertEqual(
            errors.description,
            """
            show.toml:2:7: player › fps: expected an integer, found a string
            show.toml:3:8: player › loop: expected a boolean, found an integer
            show.toml:4:14: player › transition: 'fdae' is not one of 'none', 'fade', 'push' (did you mean 'fade'?)
            show.toml:5:17: player › canvas: item 2: expected a number, found a string
            show.toml:11:1: scene 'arrow' › layer 'ring' › type: missing required key
            show.toml:13:13: scene 'arrow' › layer 'ring' › thickness: expected a number, found a string
            show.toml:14:1: scene 'arrow' › layer 'ring' › lenghtRadians: unknown key (did you mean 'lengthRadians'?)
            show.toml:15:9: scene 'arrow' › layer 'ring' › frame: expected 4 numbers, found 3
            show.toml:16:1: scene 'arrow' › layer 'ring' › FillColor: unknown key (did you mean 'fillColor'?)
            """)
        XCTAssertEqual(errors.errors.count, 9)
        XCTAssertThrowsError(try errors.throwIfAny())
    }

    func testValuesOfTheRightType() throws {
        let doc = try TOML.parse(
            """
            n = 2
            x = 2.5
            s = "a"
            b = true
            v = [1, 2.5, -3]
            names = ["a", "b"]
            t = { k = 1 }
            tables = [{ k = 1 }, { k = 2 }]
            mode = "push"
            """)
        let r = TOMLReader(doc, file: "f.toml")
        XCTAssertEqual(try r.double("n"), 2)  // integers are numbers
        XCTAssertEqual(try r.requiredDouble("x"), 2.5)
        XCTAssertEqual(try r.requiredInt("n"), 2)
        XCTAssertEqual(try r.requiredString("s"), "a")
        XCTAssertEqual(try r.requiredBool("b"), true)
        XCTAssertEqual(try r.doubleArray("v"), [1, 2.5, -3])
        XCTAssertEqual(try r.stringArray("names", count: 2), ["a", "b"])
        XCTAssertEqual(try r.table("t")?.int("k"), 1)
        XCTAssertEqual(try r.arrayOfTables("tables")?.map { try $0.requiredInt("k") }, [1, 2])
        XCTAssertEqual(try r.oneOf("mode", as: Transition.self), .push)
        XCTAssertNil(try r.double("absent"))
        XCTAssertNil(try r.table("absent"))
        XCTAssertEqual(r.keys.count, 9)
        XCTAssertTrue(r.contains("mode"))
        XCTAssertNoThrow(try r.rejectUnknownKeys(allowed: Set(r.keys)))
        // An optional accessor inside collect yields a flat optional.
        var errors = TOMLFieldErrors()
        let absent = try errors.collect { try r.double("absent") }
        XCTAssertTrue(type(of: absent) == Double?.self)
        XCTAssertNil(absent)
        XCTAssertTrue(errors.isEmpty)
    }

    func testSingleErrorsAndTheirDescription() throws {
        let doc = try TOML.parse("fps = 60.0\nscene = 3\nlayers = [1]\nname = \"x\"\n")
        let r = TOMLReader(doc, file: "cfg.toml")
        XCTAssertThrowsError(try r.int("fps")) { error in
            XCTAssertEqual("\(error)", "cfg.toml:1:7: fps: expected an integer, found a float")
        }
        XCTAssertThrowsError(try r.arrayOfTables("scene")) { error in
            XCTAssertEqual("\(error)", "cfg.toml:2:9: scene: expected an array of tables, found an integer")
        }
        XCTAssertThrowsError(try r.arrayOfTables("layers")) { error in
            XCTAssertEqual("\(error)", "cfg.toml:3:11: layers: item 1: expected a table, found an integer")
        }
        XCTAssertThrowsError(try r.within("scene 'x'").requiredDouble("duration")) { error in
            XCTAssertEqual("\(error)", "cfg.toml:1:1: scene 'x' › duration: missing required key")
        }
        XCTAssertEqual(
            r.within("scene 'x'").error(nil, "duplicate scene name").description,
            "cfg.toml:1:1: scene 'x': duplicate scene name")
        XCTAssertEqual(
            r.valueError("name", "must not be empty").description,
            "cfg.toml:4:8: name: must not be empty")
        XCTAssertEqual(r.error("name", "bad").position, pos(4, 1))
    }

    func testSyntaxErrorsJoinTheSameList() throws {
        var errors = TOMLFieldErrors()
        let table = try errors.collect { try TOML.parse("a = 01", file: "bad.toml") }
        XCTAssertNil(table)
        XCTAssertEqual(errors.description, "bad.toml:1:5: leading zeros are not allowed")
        XCTAssertEqual(
            TOMLFieldError(TOMLParseError(position: pos(2, 3), message: "m"), file: "x.toml").description,
            "x.toml:2:3: m")
    }

    func testErrorsAreListedInSourceOrder() {
        var errors = TOMLFieldErrors()
        errors.append(TOMLFieldError(file: "a.toml", position: pos(9, 1), key: "late", message: "m"))
        errors.append(TOMLFieldError(file: "a.toml", position: pos(2, 4), key: "early", message: "m"))
        errors.append(TOMLFieldError(file: "a.toml", position: pos(2, 1), key: "first", message: "m"))
        XCTAssertEqual(errors.sorted.map(\.key), ["first", "early", "late"])
        XCTAssertEqual(errors.errors.map(\.key), ["late", "early", "first"])
    }

    func testCollectPassesOtherErrorsThrough() {
        struct Other: Error {}
        var errors = TOMLFieldErrors()
        XCTAssertThrowsError(try errors.collect { () throws -> Int in throw Other() })
        XCTAssertTrue(errors.isEmpty)
    }

    func testSuggestions() {
        let keys = ["lengthRadians", "startRadians", "headLengthRadians", "fillColor", "thickness", "fps"]
        XCTAssertEqual(suggestion(for: "lenghtRadians", among: keys), "lengthRadians")
        XCTAssertEqual(suggestion(for: "FillColor", among: keys), "fillColor")
        XCTAssertEqual(suggestion(for: "FILLCOLOR", among: keys), "fillColor")
        XCTAssertEqual(suggestion(for: "thicknes", among: keys), "thickness")
        XCTAssertEqual(suggestion(for: "fillColour", among: keys), "fillColor")
        XCTAssertEqual(suggestion(for: "fsp", among: keys), "fps")
        XCTAssertNil(suggestion(for: "opacity", among: keys))
        XCTAssertNil(suggestion(for: "fps", among: keys + ["fbs"]))  // not unknown at all
        XCTAssertNil(suggestion(for: "", among: keys))
        XCTAssertEqual(suggestion(for: "ab", among: ["ax", "ay"]), "ax")  // ties go to the first
    }

    func testEditDistance() {
        func d(_ a: String, _ b: String) -> Int { editDistance(Array(a), Array(b)) }
        XCTAssertEqual(d("kitten", "sitting"), 3)
        XCTAssertEqual(d("ca", "ac"), 1)
        XCTAssertEqual(d("abc", ""), 3)
        XCTAssertEqual(d("", "ab"), 2)
        XCTAssertEqual(d("lenghtRadians", "lengthRadians"), 1)
        XCTAssertEqual(d("abcdef", "abcdef"), 0)
        XCTAssertEqual(d("ca", "abc"), 3)  // optimal string alignment, not unrestricted Damerau
    }
}
