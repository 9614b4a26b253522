import XCTest
@testable import VitrineTOML

final class ValidDocumentTests: XCTestCase {
    func testScalarsOfEveryKind() {
        let t = parseOrFail(
            """
            s = "text"
            i = 42
            f = 3.5
            yes = true
            no = false
            odt = 1979-05-27T07:32:00Z
            """)
        XCTAssertEqual(t.keys, ["s", "i", "f", "yes", "no", "odt"])
        XCTAssertEqual(t.value("s"), .string("text"))
        XCTAssertEqual(t.value("i"), .integer(42))
        XCTAssertEqual(t.value("f"), .float(3.5))
        XCTAssertEqual(t.value("yes"), .boolean(true))
        XCTAssertEqual(t.value("no"), .boolean(false))
        XCTAssertEqual(t.value("odt")?.dateTimeValue?.kind, .offsetDateTime)
    }

    func testCommentsAndBlankLinesAndCRLF() {
        let t = parseOrFail("# heading\r\n\r\n  a = 1 # trailing\r\n\t# tabbed comment\r\nb = 2")
        XCTAssertEqual(t.keys, ["a", "b"])
        XCTAssertEqual(t.value("b"), .integer(2))
    }

    func testEmptyDocument() {
        XCTAssertTrue(parseOrFail("").isEmpty)
        XCTAssertTrue(parseOrFail("\n\n# only a comment").isEmpty)
    }

    func testKeys() {
        let t = parseOrFail(
            """
            bare_key-1 = 1
            1234 = 2
            "quoted key é" = 3
            'literal \\d' = 4
            "" = 5
            "a.b" = 6
            site."google.com" = 7
            3.14159 = "pi"
            x . y . z = 8
            """)
        XCTAssertEqual(t.value("bare_key-1"), .integer(1))
        XCTAssertEqual(t.value("1234"), .integer(2))
        XCTAssertEqual(t["quoted key é"]?.value, .integer(3))
        XCTAssertEqual(t["literal \\d"]?.value, .integer(4))
        XCTAssertEqual(t[""]?.value, .integer(5))
        XCTAssertEqual(t["a.b"]?.value, .integer(6))
        XCTAssertEqual(t["site"]?.value.tableValue?["google.com"]?.value, .integer(7))
        XCTAssertEqual(t["3"]?.value.tableValue?["14159"]?.value, .string("pi"))
        XCTAssertEqual(t.value("x.y.z"), .integer(8))
    }

    func testBasicStringEscapes() {
        let t = parseOrFail(
            #"""
            s = "tab\there \"q\" back\\slash \b\f\n\r é\u00E9 \U0001F600 \u0041"
            """#)
        XCTAssertEqual(t.value("s"), .string("tab\there \"q\" back\\slash \u{8}\u{C}\n\r é\u{E9} \u{1F600} A"))
    }

    func testLiteralStrings() {
        let t = parseOrFail(
            #"""
            path = 'C:\Users\nodejs\templates'
            regex = '<\i\c*\s*>'
            quoted = 'Tom "Dubs" Preston-Werner'
            """#)
        XCTAssertEqual(t.value("path"), .string(#"C:\Users\nodejs\templates"#))
        XCTAssertEqual(t.value("regex"), .string(#"<\i\c*\s*>"#))
        XCTAssertEqual(t.value("quoted"), .string(#"Tom "Dubs" Preston-Werner"#))
    }

    func testMultilineBasicStrings() {
        let t = parseOrFail(
            "s1 = \"\"\"\nRoses are red\r\nViolets are blue\"\"\"\n"
                + "s2 = \"\"\"\nThe quick brown \\\n\n\n  fox jumps over \\\n    the lazy dog.\"\"\"\n"
                + "s3 = \"\"\"\\\n       The quick brown \\  \t\n       fox.\\\n       \"\"\"\n"
                + "s4 = \"\"\"Here are two quotation marks: \"\". Simple enough.\"\"\"\n"
                + "s5 = \"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"\n"
                + "s6 = \"\"\"two at the end\"\"\"\"\"\n"
                + "s7 = \"\"\"\"\"\"\n")
        XCTAssertEqual(t.value("s1"), .string("Roses are red\nViolets are blue"))
        XCTAssertEqual(t.value("s2"), .string("The quick brown fox jumps over the lazy dog."))
        XCTAssertEqual(t.value("s3"), .string("The quick brown fox."))
        XCTAssertEqual(t.value("s4"), .string("Here are two quotation marks: \"\". Simple enough."))
        XCTAssertEqual(t.value("s5"), .string("\"This,\" she said, \"is just a pointless statement.\""))
        XCTAssertEqual(t.value("s6"), .string("two at the end\"\""))
        XCTAssertEqual(t.value("s7"), .string(""))
    }

    func testMultilineLiteralStrings() {
        let t = parseOrFail(
            "regex2 = '''I [dw]on't need \\d{2} apples'''\n"
                + "lines = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''\n"
                + "quot15 = '''Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"'''\n"
                + "str = ''''That,' she said, 'is still pointless.''''\n")
        XCTAssertEqual(t.value("regex2"), .string("I [dw]on't need \\d{2} apples"))
        XCTAssertEqual(
            t.value("lines"),
            .string("The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"))
        XCTAssertEqual(
            t.value("quot15"), .string("Here are fifteen quotation marks: " + String(repeating: "\"", count: 15)))
        XCTAssertEqual(t.value("str"), .string("'That,' she said, 'is still pointless.'"))
    }

    func testIntegers() {
        let t = parseOrFail(
            """
            a = +99
            b = 42
            c = 0
            d = -17
            e = 1_000
            f = 5_349_221
            g = 1_2_3_4_5
            h = 0xDEADBEEF
            i = 0xdead_beef
            j = 0o01234567
            k = 0o755
            l = 0b11010110
            m = 9223372036854775807
            n = -9223372036854775808
            o = +0
            p = -0
            q = 0x7FFFFFFFFFFFFFFF
            r = 0x00
            """)
        let expected: [(String, Int64)] = [
            ("a", 99), ("b", 42), ("c", 0), ("d", -17), ("e", 1000), ("f", 5_349_221), ("g", 12345),
            ("h", 3_735_928_559), ("i", 3_735_928_559), ("j", 342_391), ("k", 493), ("l", 214),
            ("m", .max), ("n", .min), ("o", 0), ("p", 0), ("q", .max), ("r", 0)
        ]
        for (key, value) in expected {
            XCTAssertEqual(t.value(key), .integer(value), key)
        }
    }

    func testFloats() {
        let t = parseOrFail(
            """
            a = +1.0
            b = 3.1415
            c = -0.01
            d = 5e+22
            e = 1e06
            f = -2E-2
            g = 6.626e-34
            h = 224_617.445_991_228
            i = -0.0
            j = +0.0
            k = 0e0
            l = 1.7976931348623157e308
            """)
        let expected: [(String, Double)] = [
            ("a", 1), ("b", 3.1415), ("c", -0.01), ("d", 5e22), ("e", 1e6), ("f", -0.02), ("g", 6.626e-34),
            ("h", 224_617.445_991_228), ("i", 0), ("j", 0), ("k", 0), ("l", .greatestFiniteMagnitude)
        ]
        for (key, value) in expected {
            XCTAssertEqual(t.value(key), .float(value), key)
        }
        XCTAssertEqual(t.value("i")?.doubleValue?.sign, .minus)
    }

    func testSpecialFloats() {
        let t = parseOrFail("a = inf\nb = +inf\nc = -inf\nd = nan\ne = +nan\nf = -nan")
        XCTAssertEqual(t.value("a"), .float(.infinity))
        XCTAssertEqual(t.value("b"), .float(.infinity))
        XCTAssertEqual(t.value("c"), .float(-.infinity))
        for key in ["d", "e", "f"] {
            XCTAssertEqual(t.value(key)?.doubleValue?.isNaN, true, key)
        }
    }

    func testDateTimes() throws {
        let t = parseOrFail(
            """
            odt1 = 1979-05-27T07:32:00Z
            odt2 = 1979-05-27T00:32:00-07:00
            odt3 = 1979-05-27T00:32:00.999999+05:30
            odt4 = 1979-05-27 07:32:00z
            ldt1 = 1979-05-27T07:32:00
            ldt2 = 1979-05-27t00:32:00.5
            ld = 2024-02-29
            lt1 = 07:32:00
            lt2 = 00:32:00.123456789123
            leap = 2016-12-31T23:59:60Z
            """)
        let odt1 = try XCTUnwrap(t.value("odt1")?.dateTimeValue)
        XCTAssertEqual(odt1.kind, .offsetDateTime)
        XCTAssertEqual(odt1.date, TOMLDateTime.Date(year: 1979, month: 5, day: 27))
        XCTAssertEqual(odt1.time, TOMLDateTime.Time(hour: 7, minute: 32, second: 0))
        XCTAssertEqual(odt1.utcOffsetMinutes, 0)
        XCTAssertEqual(odt1.text, "1979-05-27T07:32:00Z")
        XCTAssertEqual(t.value("odt2")?.dateTimeValue?.utcOffsetMinutes, -420)
        let odt3 = try XCTUnwrap(t.value("odt3")?.dateTimeValue)
        XCTAssertEqual(odt3.utcOffsetMinutes, 330)
        XCTAssertEqual(odt3.time?.nanosecond, 999_999_000)
        XCTAssertEqual(t.value("odt4")?.dateTimeValue?.text, "1979-05-27 07:32:00z")
        XCTAssertEqual(t.value("odt4")?.dateTimeValue?.kind, .offsetDateTime)
        XCTAssertEqual(t.value("ldt1")?.dateTimeValue?.kind, .localDateTime)
        XCTAssertEqual(t.value("ldt2")?.dateTimeValue?.time?.nanosecond, 500_000_000)
        let ld = try XCTUnwrap(t.value("ld")?.dateTimeValue)
        XCTAssertEqual(ld.kind, .localDate)
        XCTAssertNil(ld.time)
        XCTAssertEqual(ld.date, TOMLDateTime.Date(year: 2024, month: 2, day: 29))
        XCTAssertEqual(t.value("lt1")?.dateTimeValue?.kind, .localTime)
        XCTAssertNil(t.value("lt1")?.dateTimeValue?.date)
        XCTAssertEqual(t.value("lt2")?.dateTimeValue?.time?.nanosecond, 123_456_789)
        XCTAssertEqual(t.value("leap")?.dateTimeValue?.time?.second, 60)
    }

    func testDateFollowedByCommentIsALocalDate() {
        let t = parseOrFail("d = 1979-05-27 # a comment")
        XCTAssertEqual(t.value("d")?.dateTimeValue?.kind, .localDate)
    }

    func testArrays() throws {
        let t = parseOrFail(
            """
            integers = [ 1, 2, 3 ]
            colors = [ "red", "yellow", "green" ]
            nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]
            nested_mixed_array = [ [ 1, 2 ], ["a", "b", "c"] ]
            numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]
            contributors = [
              "Foo Bar <foo@example.com>",  # a comment
              { name = "Baz Qux", email = "bazqux@example.com", url = "https://example.com/bazqux" }
            ]
            trailing = [
              1,
              2, # two
            ]
            empty = []
            blank = [  # nothing
            ]
            """)
        XCTAssertEqual(t.value("integers")?.arrayValue?.map(\.value), [.integer(1), .integer(2), .integer(3)])
        XCTAssertEqual(t.value("colors")?.arrayValue?.compactMap(\.value.stringValue), ["red", "yellow", "green"])
        let nested = try XCTUnwrap(t.value("nested_mixed_array")?.arrayValue)
        XCTAssertEqual(nested[1].value.arrayValue?.compactMap(\.value.stringValue), ["a", "b", "c"])
        XCTAssertEqual(t.value("numbers")?.arrayValue?.compactMap(\.value.doubleValue), [0.1, 0.2, 0.5, 1, 2, 5])
        let contributors = try XCTUnwrap(t.value("contributors")?.arrayValue)
        XCTAssertEqual(contributors[0].value, .string("Foo Bar <foo@example.com>"))
        XCTAssertEqual(contributors[1].value.tableValue?.keys, ["name", "email", "url"])
        XCTAssertEqual(t.value("trailing")?.arrayValue?.count, 2)
        XCTAssertEqual(t.value("empty"), .array([]))
        XCTAssertEqual(t.value("blank"), .array([]))
    }

    func testInlineTables() throws {
        let t = parseOrFail(
            """
            name = { first = "Tom", last = "Preston-Werner" }
            point = {x=1,y=2}
            animal = { type.name = "pug", type.legs = 4 }
            empty = {}
            nested = { a = { b = [ { c = 1 } ] } }
            """)
        XCTAssertEqual(t.value("name.first"), .string("Tom"))
        XCTAssertEqual(t.value("name")?.tableValue?.keys, ["first", "last"])
        XCTAssertEqual(t.value("point.y"), .integer(2))
        XCTAssertEqual(t.value("animal.type.name"), .string("pug"))
        XCTAssertEqual(t.value("animal.type.legs"), .integer(4))
        XCTAssertEqual(t.value("empty")?.tableValue?.isEmpty, true)
        let inner = try XCTUnwrap(t.value("nested.a.b")?.arrayValue?.first?.value.tableValue)
        XCTAssertEqual(inner["c"]?.value, .integer(1))
    }

    func testTablesAndDottedKeys() {
        let t = parseOrFail(
            """
            [table-1]
            key1 = "some string"
            key2 = 123

            [dog."tater.man"]
            type.name = "pug"

            [ j . "ʞ" . 'l' ]
            v = 1

            [x.y.z.w]   # super-tables created implicitly
            [x]         # and defined afterwards
            k = 2

            [fruit]
            apple.color = "red"
            apple.taste.sweet = true
            [fruit.apple.texture]  # a sub-table of a table made by dotted keys
            smooth = true
            """)
        XCTAssertEqual(t.value("table-1.key2"), .integer(123))
        XCTAssertEqual(
            t["dog"]?.value.tableValue?["tater.man"]?.value.tableValue?["type"]?.value.tableValue?["name"]?.value,
            .string("pug"))
        XCTAssertEqual(
            t["j"]?.value.tableValue?["ʞ"]?.value.tableValue?["l"]?.value.tableValue?["v"]?.value, .integer(1))
        XCTAssertEqual(t.value("x.k"), .integer(2))
        XCTAssertEqual(t.value("x")?.tableValue?.keys, ["y", "k"])
        XCTAssertEqual(t.value("fruit.apple.color"), .string("red"))
        XCTAssertEqual(t.value("fruit.apple.taste.sweet"), .boolean(true))
        XCTAssertEqual(t.value("fruit.apple.texture.smooth"), .boolean(true))
        XCTAssertEqual(t.keys, ["table-1", "dog", "j", "x", "fruit"])
    }

    func testArraysOfTablesAttachToTheLastParentElement() throws {
        let t = parseOrFail(
            """
            [[fruits]]
            name = "apple"

            [fruits.physical]
            color = "red"

            [[fruits.varieties]]
            name = "red delicious"

            [[fruits.varieties]]
            name = "granny smith"

            [[fruits]]
            name = "banana"

            [[fruits.varieties]]
            name = "plantain"

            [[fruits.varieties.notes]]
            text = "starchy"
            """)
        let fruits = try XCTUnwrap(t.value("fruits")?.arrayValue?.compactMap(\.value.tableValue))
        XCTAssertEqual(fruits.count, 2)
        XCTAssertEqual(fruits[0]["name"]?.value, .string("apple"))
        XCTAssertEqual(fruits[0].value("physical.color"), .string("red"))
        XCTAssertEqual(
            fruits[0].value("varieties")?.arrayValue?.compactMap { $0.value.tableValue?["name"]?.value.stringValue },
            ["red delicious", "granny smith"])
        XCTAssertEqual(fruits[1]["name"]?.value, .string("banana"))
        let plantain = try XCTUnwrap(fruits[1].value("varieties")?.arrayValue?.first?.value.tableValue)
        XCTAssertEqual(plantain["name"]?.value, .string("plantain"))
        XCTAssertEqual(plantain.value("notes")?.arrayValue?.first?.value.tableValue?["text"]?.value, .string("starchy"))
        XCTAssertNil(fruits[0].value("varieties")?.arrayValue?.first?.value.tableValue?["notes"])
    }

    func testDottedKeysMayCreateTablesInsideArrayElements() {
        let t = parseOrFail(
            """
            [[scene]]
            style.color = "red"
            [[scene]]
            style.color = "blue"
            """)
        let colors = t.value("scene")?.arrayValue?.compactMap { $0.value.tableValue?.value("style.color")?.stringValue }
        XCTAssertEqual(colors, ["red", "blue"])
    }

    func testSameKeyUnderDifferentParentsIsFine() {
        let t = parseOrFail("[[a]]\n[b]\na.x = 1\n[c.a]\nx = 2")
        XCTAssertEqual(t.value("b.a.x"), .integer(1))
        XCTAssertEqual(t.value("c.a.x"), .integer(2))
        XCTAssertEqual(t.value("a")?.arrayValue?.count, 1)
    }

    func testImplicitTablesMayBeDefinedOnceLater() {
        let t = parseOrFail(
            """
            [[parent.arr]]
            [[parent.arr]]
            [parent]
            notArr = 1

            [a.b.c]
            answer = 42
            [a]
            better = 43

            [true]
            [inf]
            k = "keyword-looking keys are bare keys"
            """)
        XCTAssertEqual(t.value("parent.arr")?.arrayValue?.count, 2)
        XCTAssertEqual(t.value("parent.notArr"), .integer(1))
        XCTAssertEqual(t.value("a.b.c.answer"), .integer(42))
        XCTAssertEqual(t.value("a.better"), .integer(43))
        XCTAssertEqual(t.value("true")?.tableValue?.isEmpty, true)
        XCTAssertNotNil(t.value("inf.k"))
    }

    func testTrickyComments() {
        let t = parseOrFail(
            """
            [section]#attached comment
            hash = "# not a comment" # a comment
            n = 1#no space
            s = '''#raw''' #c
            arr = [ # open
              1, # one
              # alone
              2 # two
            ] # close
            """)
        XCTAssertEqual(t.value("section.hash"), .string("# not a comment"))
        XCTAssertEqual(t.value("section.n"), .integer(1))
        XCTAssertEqual(t.value("section.s"), .string("#raw"))
        XCTAssertEqual(t.value("section.arr")?.arrayValue?.count, 2)
    }

    func testByteOrderMarkIsSkipped() throws {
        let t = try TOML.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("a = 1".utf8))
        XCTAssertEqual(t.value("a"), .integer(1))
        XCTAssertEqual(t.keyPosition("a"), pos(1, 1))
    }

    func testValidUTF8FromBytes() throws {
        let t = try TOML.parse(bytes: Array("k = \"日本語 🎉\"".utf8))
        XCTAssertEqual(t.value("k"), .string("日本語 🎉"))
    }
}
