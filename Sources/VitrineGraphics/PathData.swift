import Glibc

/// Why SVG path data could not be read, and where.
public struct PathDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset of the offending token in the UTF-8 input (the input's length when the
    /// data ended too early).
    public let offset: Int
    /// What was wrong there.
    public let message: String

    public init(offset: Int, message: String) { self.offset = offset; self.message = message }

    public var description: String { "path data, byte \(offset): \(message)" }
}

extension Path {
    /// Reads SVG path data (the `d` attribute): every command, absolute and relative, with
    /// implicit repeats; elliptical arcs become cubics of at most 45° each. Empty data is an
    /// empty path. Throws `PathDataError` at the first malformed token.
    public init(svgPathData: String) throws {
        var parser = PathDataParser(Array(svgPathData.utf8))
        self = try parser.parse()
    }
}

/// A single pass over the bytes of path data, building the path as it reads.
///
/// Grammar (SVG 1.1 §8.3.9): a number is `[+-]? (digits ('.' digits?)? | '.' digits)
/// ([eE] [+-]? digits)?` and ends where the next character cannot extend it, so `-1-2` and
/// `.5.5` are two numbers each. Arguments are separated by optional whitespace with at most one
/// comma; arc flags are the single characters `0` and `1` and need no separator.
/// Control-point reflection for S and T follows the previous command only when it was of the
/// same family (C/S for S, Q/T for T), otherwise the current point is the control point.
struct PathDataParser {
    private let bytes: [UInt8]
    private var index = 0
    private var path = Path()

    private var current = Point.zero
    private var subpathStart = Point.zero
    /// Set by Z: the next drawing command first moves to `subpathStart`, as in SVG.
    private var needsMoveAfterClose = false
    /// Second control point of the previous C or S, for S's reflection.
    private var lastCubicControl: Point?
    /// Control point of the previous Q or T, for T's reflection.
    private var lastQuadControl: Point?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func parse() throws -> Path {
        var command: UInt8?
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if Self.isLetter(byte) {
                guard Self.isCommand(byte) else {
                    throw error("unknown command '\(Character(Unicode.Scalar(byte)))'")
                }
                if command == nil && byte != UInt8(ascii: "M") && byte != UInt8(ascii: "m") {
                    throw error("path data must begin with a move-to (M or m)")
                }
                index += 1
                command = byte
                try execute(byte)
                // After a move-to, further coordinate pairs are line-tos of the same kind.
                if byte == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
                if byte == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
            } else {
                guard let repeated = command else {
                    throw error("path data must begin with a move-to (M or m)")
                }
                if repeated == UInt8(ascii: "Z") || repeated == UInt8(ascii: "z") {
                    throw error("expected a command after Z")
                }
                // A comma may separate one argument set from the next.
                if byte == UInt8(ascii: ",") { index += 1; skipWhitespace() }
                try execute(repeated)
            }
        }
        return path
    }

    // MARK: - Commands

    private mutating func execute(_ command: UInt8) throws {
        let relative = command >= UInt8(ascii: "a")
        let origin = relative ? current : .zero
        switch command | 0x20 {  // lower-cased
        case UInt8(ascii: "m"):
            let p = try point(first: true, origin: origin)
            path.move(to: p)
            current = p; subpathStart = p
            needsMoveAfterClose = false
            forgetControls()
        case UInt8(ascii: "l"):
            let p = try point(first: true, origin: origin)
            startDrawing()
            path.addLine(to: p)
            current = p
            forgetControls()
        case UInt8(ascii: "h"):
            let x = try number(first: true) + origin.x
            startDrawing()
            current = Point(x: x, y: current.y)
            path.addLine(to: current)
            forgetControls()
        case UInt8(ascii: "v"):
            let y = try number(first: true) + origin.y
            startDrawing()
            current = Point(x: current.x, y: y)
            path.addLine(to: current)
            forgetControls()
        case UInt8(ascii: "c"):
            let c1 = try point(first: true, origin: origin)
            let c2 = try point(first: false, origin: origin)
            let p = try point(first: false, origin: origin)
            startDrawing()
            path.addCurve(to: p, control1: c1, control2: c2)
            current = p
            lastCubicControl = c2; lastQuadControl = nil
        case UInt8(ascii: "s"):
            let c2 = try point(first: true, origin: origin)
            let p = try point(first: false, origin: origin)
            let c1 = lastCubicControl.map { current * 2 - $0 } ?? current
            startDrawing()
            path.addCurve(to: p, control1: c1, control2: c2)
            current = p
            lastCubicControl = c2; lastQuadControl = nil
        case UInt8(ascii: "q"):
            let c = try point(first: true, origin: origin)
            let p = try point(first: false, origin: origin)
            startDrawing()
            path.addQuadCurve(to: p, control: c)
            current = p
            lastQuadControl = c; lastCubicControl = nil
        case UInt8(ascii: "t"):
            let p = try point(first: true, origin: origin)
            let c = lastQuadControl.map { current * 2 - $0 } ?? current
            startDrawing()
            path.addQuadCurve(to: p, control: c)
            current = p
            lastQuadControl = c; lastCubicControl = nil
        case UInt8(ascii: "a"):
            let rx = try number(first: true)
            let ry = try number(first: false)
            let rotation = try number(first: false)
            let largeArc = try flag()
            let sweep = try flag()
            let p = try point(first: false, origin: origin)
            startDrawing()
            path.addSVGArc(
                to: p, radiusX: rx, radiusY: ry, rotationDegrees: rotation,
                largeArc: largeArc, sweep: sweep)
            current = p
            forgetControls()
        default:  // z
            path.closeSubpath()
            current = subpathStart
            needsMoveAfterClose = true
            forgetControls()
        }
    }

    /// A drawing command right after Z begins a new subpath at the closed one's start.
    private mutating func startDrawing() {
        if needsMoveAfterClose {
            path.move(to: subpathStart)
            needsMoveAfterClose = false
        }
    }

    private mutating func forgetControls() {
        lastCubicControl = nil
        lastQuadControl = nil
    }

    // MARK: - Tokens

    private mutating func point(first: Bool, origin: Point) throws -> Point {
        let x = try number(first: first)
        let y = try number(first: false)
        return Point(x: x + origin.x, y: y + origin.y)
    }

    /// Reads one number. Arguments after the first of a set may be preceded by a comma.
    private mutating func number(first: Bool) throws -> Double {
        if first { skipWhitespace() } else { skipCommaWhitespace() }
        let start = index
        guard index < bytes.count else { throw error("expected a number") }
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerDigits = skipDigits()
        var fractionDigits = 0
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = skipDigits()
        }
        guard integerDigits + fractionDigits > 0 else {
            let bare = index == start
            index = start
            throw error(bare ? "expected a number" : "malformed number")
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard skipDigits() > 0 else {
                index = start
                throw error("malformed number: exponent without digits")
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number out of range")
        }
        return value
    }

    /// An arc flag: exactly one character, `0` or `1`.
    private mutating func flag() throws -> Bool {
        skipCommaWhitespace()
        guard index < bytes.count else { throw error("expected an arc flag (0 or 1)") }
        switch bytes[index] {
        case UInt8(ascii: "0"): index += 1; return false
        case UInt8(ascii: "1"): index += 1; return true
        default: throw error("arc flag must be 0 or 1")
        }
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index - start
    }

    private mutating func skipWhitespace() {
        while index < bytes.count && Self.isWhitespace(bytes[index]) { index += 1 }
    }

    private mutating func skipCommaWhitespace() {
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
        }
    }

    private func error(_ message: String) -> PathDataError {
        PathDataError(offset: index, message: message)
    }

    private static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
    }

    private static func isCommand(_ b: UInt8) -> Bool {
        switch b | 0x20 {
        case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"),
            UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"),
            UInt8(ascii: "a"), UInt8(ascii: "z"):
            return true
        default:
            return false
        }
    }
}

extension Path {
    /// Appends an SVG elliptical arc from the current point to `end` as cubics of at most 45°
    /// (as `Path.addArc`, so arcs stay within 4·10⁻⁶ of the true radius)
    /// (SVG 1.1 implementation notes F.6.5–F.6.6): radii too small to reach `end` are scaled
    /// up, a zero radius draws a line, and an arc ending where it starts draws nothing.
    mutating func addSVGArc(
        to end: Point, radiusX: Double, radiusY: Double, rotationDegrees: Double,
        largeArc: Bool, sweep: Bool
    ) {
        let start = currentPoint ?? end
        if start == end { return }
        var rx = abs(radiusX), ry = abs(radiusY)
        if rx == 0 || ry == 0 { addLine(to: end); return }

        let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        // The half chord, rotated into the ellipse's axes and scaled so the ellipse is a unit
        // circle: working there keeps huge radii from overflowing the textbook formulas.
        let hx = (start.x - end.x) / 2, hy = (start.y - end.y) / 2
        var a = (cosPhi * hx + sinPhi * hy) / rx
        var b = (-sinPhi * hx + cosPhi * hy) / ry
        let lambda = a * a + b * b
        guard lambda > 0, lambda.isFinite else { addLine(to: end); return }
        if lambda > 1 {
            let s = lambda.squareRoot()
            rx *= s; ry *= s; a /= s; b /= s
        }
        // Centre offset from the chord's midpoint, perpendicular to the chord.
        let k = ((max(0, 1 - a * a - b * b)) / (a * a + b * b)).squareRoot() * (largeArc == sweep ? -1 : 1)
        let ncx = k * b, ncy = -k * a
        let ux = a - ncx, uy = b - ncy, vx = -a - ncx, vy = -b - ncy
        let startAngle = atan2(uy, ux)
        var delta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        if sweep && delta < 0 { delta += 2 * .pi }
        if !sweep && delta > 0 { delta -= 2 * .pi }

        let mid = Point(x: (start.x + end.x) / 2, y: (start.y + end.y) / 2)
        let center = Point(
            x: cosPhi * ncx * rx - sinPhi * ncy * ry + mid.x,
            y: sinPhi * ncx * rx + cosPhi * ncy * ry + mid.y)
        guard center.isFinite, rx.isFinite, ry.isFinite, delta.isFinite, startAngle.isFinite else {
            addLine(to: end); return
        }
        func map(_ x: Double, _ y: Double) -> Point {
            Point(
                x: center.x + rx * x * cosPhi - ry * y * sinPhi,
                y: center.y + rx * x * sinPhi + ry * y * cosPhi)
        }
        let segments = max(1, min(8, Int((abs(delta) / (.pi / 4) - 1e-9).rounded(.up))))
        let step = delta / Double(segments)
        let handle = 4.0 / 3.0 * tan(step / 4)
        var angle0 = startAngle
        for i in 0..<segments {
            let angle1 = angle0 + step
            let c0 = cos(angle0), s0 = sin(angle0), c1 = cos(angle1), s1 = sin(angle1)
            let control1 = map(c0 - handle * s0, s0 + handle * c0)
            let control2 = map(c1 + handle * s1, s1 - handle * c1)
            // The last cubic ends exactly on the requested point, not on its rounded image.
            addCurve(to: i == segments - 1 ? end : map(c1, s1), control1: control1, control2: control2)
            angle0 = angle1
        }
    }
}
