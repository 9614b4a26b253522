import XCTest
@testable import VitrineTOML

/// Every rejected document names the exact line and column of the offending character, key or value.
final class InvalidDocumentTests: XCTestCase {
    // MARK: Redefinition rules

    func testDuplicateKeys() {
        assertParseError("a = 1\na = 2", at: 2, 1, "duplicate key 'a' (first defined at line 1, column 1)")
        assertParseError("a.b = 1\na.b = 2", at: 2, 3, "duplicate key 'a.b'")
        assertParseError("[t]\nx = 1\n  x = 2", at: 3, 3, "duplicate key 'x'")
        assertParseError("\"a\" = 1\na = 2", at: 2, 1, "duplicate key 'a'")
        assertParseError("a = {x = 1, x = 2}", at: 1, 13, "duplicate key 'x'")
    }

    func testTableDefinedTwice() {
        assertParseError("[a]\nx = 1\n[a]", at: 3, 2, "table 'a' is defined twice (first defined at line 1, column 1)")
        assertParseError("[a.b]\n[a]\n[a]", at: 3, 2, "table 'a' is defined twice (first defined at line 2, column 1)")
        assertParseError("[a]\n[a.b]\n[a.b]", at: 3, 4, "table 'a.b' is defined twice")
        assertParseError("[[a]]\n[a.b]\n[a.b]", at: 3, 4, "table 'a.b' is defined twice")
    }

    func testExtendingAnInlineTable() {
        assertParseError("a = {x = 1}\n[a]", at: 2, 2, "inline table 'a' cannot be extended")
        assertParseError("a = {x = 1}\n[a.b]", at: 2, 2, "inline table 'a' cannot be extended")
        assertParseError("a = {x = 1}\na.y = 2", at: 2, 1, "inline table 'a' cannot be extended")
        assertParseError("a = {b = {}}\n[a.b.c]", at: 2, 2, "inline table 'a' cannot be extended")
    }

    func testValueUsedAsTable() {
        assertParseError(
            "a = 1\na.b = 2", at: 2, 1, "key 'a' already holds an integer (first defined at line 1, column 1)")
        assertParseError("[a]\nb = 1\n[a.b]", at: 3, 4, "key 'a.b' already holds an integer")
        assertParseError("a = [1]\n[a.b]", at: 2, 2, "key 'a' already holds an array")
        assertParseError("a = {b = 1, b.c = 2}", at: 1, 13, "key 'b' already holds an integer")
        assertParseError("s = \"x\"\n[[s.t]]", at: 2, 3, "key 's' already holds a string")
    }

    func testDottedKeysAndHeaders() {
        // A table made by dotted keys cannot be reopened by a header...
        assertParseError("a.b = 1\n[a]", at: 2, 2, "table 'a' is already defined by dotted keys")
        assertParseError("[fruit]\napple.color = 1\n[fruit.apple]", at: 3, 8, "already defined by dotted keys")
        // ...and a table defined by a header cannot be extended by dotted keys from elsewhere.
        assertParseError("[a.b.c]\nz = 9\n[a]\nb.c.t = 1", at: 4, 3, "table 'b.c' was defined by a [header]")
        assertParseError("[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 1", at: 4, 5, "table 'b.c.d' was defined by a [header]")
    }

    func testArraysOfTablesRules() {
        assertParseError("[a]\n[[a]]", at: 2, 3, "'a' is a table, not an array of tables")
        assertParseError("[a.b]\n[[a]]", at: 2, 3, "'a' is a table, not an array of tables")
        assertParseError(
            "[[a]]\n[a]", at: 2, 2, "'a' is an array of tables (first defined at line 1, column 1); use [[a]]")
        assertParseError("a = [1]\n[[a]]", at: 2, 3, "static array 'a' cannot be extended")
        assertParseError("x = [{a = 1}]\n[[x]]", at: 2, 3, "static array 'x' cannot be extended")
        assertParseError("[[a]]\nb.c = 1\n[[a.b]]", at: 3, 5, "'a.b' is a table, not an array of tables")
        assertParseError("[[t]]\n[t]\nx = 1", at: 2, 2, "is an array of tables")
        assertParseError(
            "[[a.b]]\n[a]\nb.y = 2", at: 3, 1,
            "'b' is an array of tables (first defined at line 1, column 1); dotted keys cannot add to it")
        assertParseError(
            "[[albums.songs]]\nname = \"x\"\n[[albums]]", at: 3, 3, "'albums' is a table, not an array of tables")
        assertParseError("[[tab.arr]]\n[tab]\narr = {}", at: 3, 1, "duplicate key 'arr'")
        assertParseError("a.b = 0\na = {}", at: 2, 1, "duplicate key 'a'")
        assertParseError("t = { f = { a.c = 1 }, f.a.t = { s = 1 } }", at: 1, 24, "inline table 'f' cannot be extended")
    }

    // MARK: Strings

    func testBadEscapes() {
        assertParseError(#"s = "\x""#, at: 1, 6, #"invalid escape sequence '\x'"#)
        assertParseError(#"s = "\e""#, at: 1, 6, #"invalid escape sequence '\e'"#)
        assertParseError(#"s = "a\ b""#, at: 1, 7, #"invalid escape sequence '\ '"#)
        assertParseError(#"s = "\u12""#, at: 1, 6, #"\u needs 4 hexadecimal digits"#)
        assertParseError(#"s = "\U0001F60""#, at: 1, 6, #"\U needs 8 hexadecimal digits"#)
        assertParseError(#"s = "\uD800""#, at: 1, 6, "U+D800 is not a Unicode scalar value")
        assertParseError(#"s = "\U00110000""#, at: 1, 6, "U+110000 is not a Unicode scalar value")
        assertParseError("s = \"\"\"\nab\\ c\"\"\"", at: 2, 3, "invalid escape sequence")
        assertParseError("s = \"a\\", at: 1, 7, "unterminated string: end of file after a backslash")
    }

    func testUnterminatedStrings() {
        assertParseError("s = \"abc", at: 1, 5, "unterminated string")
        assertParseError("x = 1\ns = \"ab\ncd\"", at: 2, 5, "unterminated string")
        assertParseError("s = 'abc\n'", at: 1, 5, "unterminated string")
        assertParseError("s = \"\"\"abc\n\ndef", at: 1, 5, "unterminated multi-line string")
        assertParseError("s = '''abc''", at: 1, 5, "unterminated multi-line string")
        assertParseError("\"key = 1", at: 1, 1, "unterminated string")
    }

    func testControlCharactersInStrings() {
        assertParseError("s = \"a\u{1}b\"", at: 1, 7, "control character U+0001 must be escaped")
        assertParseError("s = 'a\u{7F}'", at: 1, 7, "control character U+007F")
        assertParseError("s = \"\"\"\na\u{0}\"\"\"", at: 2, 2, "control character U+0000")
        assertParseError("s = \"\"\"a\rb\"\"\"", at: 1, 9, "carriage return must be followed by a line feed")
        assertParseError("s = \"\"\"a\"\"\"\"\"\"", at: 1, 14, "too many quotes")
    }

    func testMultilineStringsAreNotKeys() {
        assertParseError("\"\"\"a\"\"\" = 1", at: 1, 1, "a key cannot be a multi-line string")
        assertParseError("'''a''' = 1", at: 1, 1, "a key cannot be a multi-line string")
    }

    // MARK: Numbers

    func testBadIntegers() {
        assertParseError("a = 01", at: 1, 5, "leading zeros are not allowed")
        assertParseError("a = -01", at: 1, 6, "leading zeros are not allowed")
        assertParseError("a = 1__0", at: 1, 7, "an underscore must be between two digits")
        assertParseError("a = 1_", at: 1, 6, "an underscore must be between two digits")
        assertParseError("a = _1", at: 1, 5, "an underscore must be between two digits")
        assertParseError("a = 0x", at: 1, 7, "expected hexadecimal digits after '0x'")
        assertParseError("a = 0x_1", at: 1, 7, "an underscore must be between two digits")
        assertParseError("a = +0x1", at: 1, 5, "a sign is not allowed on a hexadecimal integer")
        assertParseError("a = -0b1", at: 1, 5, "a sign is not allowed on a binary integer")
        assertParseError("a = 0X1", at: 1, 6, "unexpected character 'X' in a number")
        assertParseError("a = 0o8", at: 1, 7, "expected octal digits")
        assertParseError("a = 0b102", at: 1, 9, "unexpected character '2' in a binary integer")
        assertParseError("a = 0xg", at: 1, 7, "expected hexadecimal digits")
        assertParseError("a = 9223372036854775808", at: 1, 5, "does not fit in 64 bits")
        assertParseError("a = -9223372036854775809", at: 1, 5, "does not fit in 64 bits")
        assertParseError("a = 0x8000000000000000", at: 1, 5, "does not fit in 64 bits")
        assertParseError("a = +", at: 1, 6, "expected digits after the sign")
        assertParseError("a = 1 2", at: 1, 7, "expected a newline after the value, found '2'")
    }

    func testBadFloats() {
        assertParseError("a = 1.", at: 1, 7, "expected a digit after the decimal point")
        assertParseError("a = .5", at: 1, 5, "a float needs a digit before the decimal point")
        assertParseError("a = 1e", at: 1, 7, "expected a digit in the exponent")
        assertParseError("a = 1e+", at: 1, 8, "expected a digit in the exponent")
        assertParseError("a = 1.5.3", at: 1, 8, "unexpected character '.' in a number")
        assertParseError("a = 00.5", at: 1, 5, "leading zeros are not allowed")
        assertParseError("a = 1_.5", at: 1, 6, "an underscore must be between two digits")
        assertParseError("a = 1._5", at: 1, 7, "an underscore must be between two digits")
        assertParseError("a = 1e400", at: 1, 5, "too large")
        assertParseError("a = infinity", at: 1, 5, "invalid value 'infinity' (strings must be quoted)")
        assertParseError("a = NaN", at: 1, 5, "invalid value 'NaN'")
    }

    func testBadBooleansAndBareWords() {
        assertParseError("a = True", at: 1, 5, "invalid value 'True' (strings must be quoted)")
        assertParseError("a = fade", at: 1, 5, "invalid value 'fade'")
        assertParseError("a = ", at: 1, 5, "expected a value, found end of file")
        assertParseError("a = # nothing", at: 1, 5, "expected a value, found '#'")
        assertParseError("a = \n1", at: 1, 5, "expected a value, found a newline")
    }

    // MARK: Dates and times

    func testBadDateTimes() {
        assertParseError("d = 1979-13-01", at: 1, 10, "month 13 does not exist")
        assertParseError("d = 1979-02-29", at: 1, 13, "day 29 does not exist in month 2 of 1979")
        assertParseError("d = 1979-04-31", at: 1, 13, "day 31 does not exist")
        assertParseError("d = 24:00:00", at: 1, 5, "hour 24 does not exist")
        assertParseError("d = 12:60:00", at: 1, 8, "minute 60 does not exist")
        assertParseError("d = 12:00:61", at: 1, 11, "second 61 does not exist")
        assertParseError("d = 1979-05-27T07:32", at: 1, 21, "expected ':' before the seconds")
        assertParseError("d = 1979-05-27 07:32", at: 1, 21, "expected ':' before the seconds")
        assertParseError("d = 1979-05-27T07:32:00+7:00", at: 1, 25, "expected 2 digits for the offset hours")
        assertParseError("d = 1979-05-27T07:32:00+07:60", at: 1, 28, "an offset of 60 minutes is out of range")
        assertParseError("d = 07:32:00Z", at: 1, 13, "unexpected character 'Z' after a time")
        assertParseError("d = 1979-05-27T07:32:00.", at: 1, 25, "expected a digit after the decimal point")
        assertParseError("d = 1979-5-27", at: 1, 10, "expected 2 digits for the month")
        assertParseError("d = 1979-05-27X", at: 1, 15, "unexpected character 'X' after a date")
        assertParseError("d = 1979-05-27T", at: 1, 16, "expected a time after 'T'")
        assertParseError("d = 1987-07-0517:45:00Z", at: 1, 15, "unexpected character '1' after a date")
        assertParseError("d = 2023-02-29T00:00:00", at: 1, 13, "day 29 does not exist in month 2 of 2023")
    }

    // MARK: Arrays and inline tables

    func testBadArrays() {
        assertParseError("a = [1, 2", at: 1, 5, "unterminated array")
        assertParseError("a = [1 2]", at: 1, 8, "expected ',' or ']' after an array element, found '2'")
        assertParseError("a = [,]", at: 1, 6, "expected a value, found ','")
        assertParseError("a = [1,,2]", at: 1, 8, "expected a value, found ','")
        assertParseError("a = [\n  1,\n  # c\n  x\n]", at: 4, 3, "invalid value 'x'")
    }

    func testBadInlineTables() {
        assertParseError("a = {x = 1,}", at: 1, 11, "a trailing comma is not allowed in an inline table")
        assertParseError("a = {x = 1, }", at: 1, 11, "a trailing comma is not allowed")
        assertParseError("a = {x = 1,\ny = 2}", at: 1, 12, "an inline table must be on one line")
        assertParseError("a = {\nx = 1}", at: 1, 6, "an inline table must be on one line")
        assertParseError("a = {x = 1 # c\n}", at: 1, 12, "an inline table must be on one line; comment found")
        assertParseError("a = {x = 1", at: 1, 5, "unterminated inline table")
        assertParseError("a = {x = 1 y = 2}", at: 1, 12, "expected ',' or '}' in the inline table, found 'y'")
        assertParseError("a = {,}", at: 1, 6, "expected a key, found ','")
    }

    // MARK: Keys, headers and lines

    func testBadKeysAndHeaders() {
        assertParseError("= 1", at: 1, 1, "expected a key, found '='")
        assertParseError("a b = 1", at: 1, 3, "expected '=' after the key, found 'b'")
        assertParseError("a", at: 1, 2, "expected '=' after the key, found end of file")
        assertParseError("a. = 1", at: 1, 4, "expected a key, found '='")
        assertParseError("é = 1", at: 1, 1, "expected a key, found 'é'")
        assertParseError("[a", at: 1, 3, "expected ']' to close the table header")
        assertParseError("[[a]", at: 1, 4, "expected ']]' to close the array of tables header")
        assertParseError("[[a] ]", at: 1, 4, "expected ']]'")
        assertParseError("[]", at: 1, 2, "expected a key, found ']'")
        assertParseError("[ [a] ]", at: 1, 3, "expected a key, found '['")
        assertParseError("[a] b = 1", at: 1, 5, "expected a newline after the table header, found 'b'")
        assertParseError("a = 1 b = 2", at: 1, 7, "expected a newline after the value")
    }

    func testLineEndingsAndComments() {
        assertParseError("a = 1\rb = 2", at: 1, 6, "a carriage return must be followed by a line feed")
        assertParseError("# ok\n# bad \u{7F}", at: 2, 7, "control character U+007F is not allowed in a comment")
        assertParseError("a = 1 # \u{1}", at: 1, 9, "control character U+0001")
        assertParseError("a = [ # \u{1}\n]", at: 1, 9, "control character U+0001")
    }

    // MARK: Encoding and columns

    func testInvalidUTF8() {
        assertParseError(bytes: Array("a = \"".utf8) + [0xFF, 0x22], at: 1, 6, "invalid UTF-8 (byte 0xFF)")
        assertParseError(
            bytes: Array("\"é\" = 1\nb = \"ok".utf8) + [0xC3, 0x28, 0x22], at: 2, 8, "invalid UTF-8 (byte 0xC3)")
        assertParseError(bytes: [0x61, 0x3D, 0xC0, 0x80], at: 1, 3, "invalid UTF-8")  // overlong NUL
        // A surrogate, then a code point above U+10FFFF:
        assertParseError(bytes: Array("s = \"".utf8) + [0xED, 0xA0, 0x80, 0x22], at: 1, 6, "invalid UTF-8")
        assertParseError(bytes: Array("s = \"".utf8) + [0xF4, 0x90, 0x80, 0x80], at: 1, 6, "invalid UTF-8")
        assertParseError(bytes: Array("s = \"".utf8) + [0xE2, 0x82], at: 1, 6, "invalid UTF-8")  // truncated
    }

    func testColumnsCountScalars() {
        // "ключ" is 4 scalars (8 bytes): the backslash is the 11th scalar of the line.
        assertParseError(#""ключ" = "\q""#, at: 1, 11, "invalid escape sequence")
        // An emoji is one scalar of four bytes.
        assertParseError("a = \"🎉\" x", at: 1, 9, "expected a newline after the value, found 'x'")
    }

    func testErrorDescriptionAndFile() {
        XCTAssertThrowsError(try TOML.parse("a = 01", file: "show.toml")) { error in
            XCTAssertEqual("\(error)", "show.toml:1:5: leading zeros are not allowed")
        }
        XCTAssertThrowsError(try TOML.parse("a = 01")) { error in
            XCTAssertEqual("\(error)", "1:5: leading zeros are not allowed")
        }
    }
}
