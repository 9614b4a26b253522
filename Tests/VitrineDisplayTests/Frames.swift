import VitrineGraphics

/// Test frames whose every pixel is known from its coordinates, so a screenshot is checked
/// against arithmetic, not against the code under test.
enum Frames {
    /// An opaque pixel that differs for every (x, y, seed) in a test-sized frame.
    static func pixel(x: Int, y: Int, seed: UInt32) -> UInt32 {
        let r = UInt32(truncatingIfNeeded: x &* 7 &+ Int(seed) &* 31) & 0xFF
        let g = UInt32(truncatingIfNeeded: y &* 5 &+ Int(seed) &* 17) & 0xFF
        let b = UInt32(truncatingIfNeeded: (x ^ y) &+ Int(seed) &* 57) & 0xFF
        return 0xFF00_0000 | r << 16 | g << 8 | b
    }

    /// A `width` × `height` bitmap of `pixel(x:y:seed:)`.
    static func pattern(width: Int, height: Int, seed: UInt32) -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        fill(bitmap, seed: seed)
        return bitmap
    }

    /// Overwrites every pixel of `bitmap` with the pattern for `seed`.
    static func fill(_ bitmap: Bitmap, seed: UInt32) {
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width { bitmap[x, y] = pixel(x: x, y: y, seed: seed) }
        }
    }

    /// The RGB of every pixel of `bitmap`, row by row (alpha dropped, as on a depth-24 screen).
    static func rgb(_ bitmap: Bitmap) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(bitmap.width * bitmap.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width { result.append(bitmap[x, y] & 0x00FF_FFFF) }
        }
        return result
    }
}
