import Glibc

/// An sRGB colour with straight (non-premultiplied) alpha; components in 0…1.
/// Bitmaps store premultiplied pixels: convert with `premultipliedPixel`.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// 8-bit components, straight alpha.
    public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
        self.init(
            red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255,
            alpha: Double(a8) / 255)
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Each component times `other`'s: the colour seen through a tint (Core Animation's
    /// instance colour multiplies what an instance draws).
    public func multiplied(by other: Color) -> Color {
        Color(red: red * other.red, green: green * other.green, blue: blue * other.blue, alpha: alpha * other.alpha)
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self {
            case .malformed(let s): return "'\(s)' is not a colour: expected #rgb, #rrggbb or #rrggbbaa"
            }
        }
    }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is required).
    public init(hex: String) throws {
        guard hex.hasPrefix("#") else { throw ParseError.malformed(hex) }
        var digits = Array(hex.utf8.dropFirst())
        guard [3, 6, 8].contains(digits.count) else { throw ParseError.malformed(hex) }
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        if digits.count == 6 { digits += [UInt8(ascii: "f"), UInt8(ascii: "f")] }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 8, by: 2) {
            guard let hi = Color.hexValue(digits[i]), let lo = Color.hexValue(digits[i + 1]) else {
                throw ParseError.malformed(hex)
            }
            bytes.append(hi << 4 | lo)
        }
        self.init(r8: bytes[0], g8: bytes[1], b8: bytes[2], a8: bytes[3])
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    public var hexString: String {
        func byte(_ v: Double) -> String {
            let value = Int((min(max(v, 0), 1) * 255).rounded())
            return (value < 16 ? "0" : "") + String(value, radix: 16)
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }

    public var description: String { hexString }

    /// The same colour with its alpha multiplied by `factor`.
    public func withAlphaMultiplied(by factor: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    /// Component-wise interpolation of straight-alpha components.
    public func lerp(to other: Color, _ t: Double) -> Color {
        Color(
            red: red + (other.red - red) * t, green: green + (other.green - green) * t,
            blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    /// The premultiplied 32-bit pixel: bytes B, G, R, A in memory on little-endian, so the
    /// UInt32 value is A<<24 | R<<16 | G<<8 | B (an X11 TrueColor ZPixmap with depth 24/32).
    /// Components outside 0…1 are clamped; NaN counts as 0.
    public var premultipliedPixel: UInt32 {
        let a = Color.unit(alpha)
        func channel(_ v: Double) -> UInt32 { UInt32((Color.unit(v) * a * 255).rounded()) }
        let a8 = UInt32((a * 255).rounded())
        return a8 << 24 | channel(red) << 16 | channel(green) << 8 | channel(blue)
    }

    /// `v` clamped to 0…1, NaN as 0 (min/max would pass NaN through).
    @inline(__always)
    static func unit(_ v: Double) -> Double { v > 0 ? (v < 1 ? v : 1) : 0 }

    /// Reads a premultiplied pixel back into a straight-alpha colour.
    public init(premultipliedPixel p: UInt32) {
        let a = Double(p >> 24) / 255
        if a == 0 { self = .clear; return }
        self.init(
            red: Double((p >> 16) & 0xff) / 255 / a, green: Double((p >> 8) & 0xff) / 255 / a,
            blue: Double(p & 0xff) / 255 / a, alpha: a)
    }
}
