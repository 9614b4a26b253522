/// Checks that `bytes` are well-formed UTF-8 (no overlong forms, no surrogates, nothing past
/// U+10FFFF) and throws at the first offending byte, with its line and column.
func validateUTF8(_ bytes: [UInt8]) throws {
    var index = 0
    var line = 1
    var column = 1
    let count = bytes.count
    while index < count {
        let lead = bytes[index]
        if lead < 0x80 {
            index += 1
            if lead == 0x0A { line += 1; column = 1 } else { column += 1 }
            continue
        }
        // The length of the sequence and the range its second byte must be in (this range is
        // what excludes overlong encodings, surrogates and values past U+10FFFF).
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: length = 0
        }
        var valid = length > 0 && index + length <= count
        if valid {
            valid = secondRange.contains(bytes[index + 1])
            var k = 2
            while valid && k < length {
                valid = (0x80...0xBF).contains(bytes[index + k])
                k += 1
            }
        }
        guard valid else {
            let hex = String(lead, radix: 16, uppercase: true)
            throw TOMLParseError(
                position: SourcePosition(line: line, column: column),
                message: "invalid UTF-8 (byte 0x\(hex.count == 1 ? "0" + hex : hex))")
        }
        index += length
        column += 1
    }
}
