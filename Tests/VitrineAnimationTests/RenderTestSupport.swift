import Foundation
import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A small rendered scene: a 200 × 200 root filling the bitmap, an engine on a manual clock,
/// and a frame renderer over a white background.
final class RenderScene {
    let root = Layer()
    let clock = ManualClock()
    let engine: Engine
    let frames: FrameRenderer

    init(width: Int = 200, height: Int = 200, background: Color = .white) {
        engine = Engine(root: root, clock: clock)
        root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.position = Point(x: Double(width) / 2, y: Double(height) / 2)
        frames = FrameRenderer(engine: engine, size: (width, height), background: background)
    }

    var bitmap: Bitmap { frames.bitmap }

    /// Moves the clock to `t` and renders that frame.
    @discardableResult
    func frame(at t: Double) -> FrameResult {
        clock.set(to: t)
        return frames.renderFrame()
    }
}

/// Where rendered frames are written for looking at.
let renderOutputDirectory: String = {
    let dir = NSTemporaryDirectory() + "vitrine-render-tests"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}()

/// Writes the bitmap to `<tmp>/vitrine-render-tests/<name>.png`.
func savePNG(_ bitmap: Bitmap, _ name: String) {
    try? bitmap.writePNG(to: renderOutputDirectory + "/" + name + ".png")
}

/// A solid opaque image.
func solidImage(_ color: Color, width: Int, height: Int) -> Image {
    Image(width: width, height: height,
          premultipliedPixels: Array(repeating: color.premultipliedPixel, count: width * height))!
}

/// The pixel containing `p`, as a straight-alpha colour.
func color(_ bitmap: Bitmap, at p: Point) -> Color {
    Color(premultipliedPixel: bitmap[Int(p.x.rounded(.down)), Int(p.y.rounded(.down))])
}

/// The point at `radius` and `angle` (radians, clockwise on screen from +x) around `center`.
func polar(_ center: Point, _ radius: Double, _ angle: Double) -> Point {
    Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
}

/// Asserts the pixel at `p` has `expected`'s colour, each component within `tolerance`.
func assertColor(_ bitmap: Bitmap, _ p: Point, _ expected: Color, tolerance: Double = 2.5 / 255,
                 _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
    let c = color(bitmap, at: p)
    let ok = abs(c.red - expected.red) <= tolerance && abs(c.green - expected.green) <= tolerance
        && abs(c.blue - expected.blue) <= tolerance && abs(c.alpha - expected.alpha) <= tolerance
    XCTAssertTrue(ok, "pixel at \(p) is \(c), expected \(expected) \(message())", file: file, line: line)
}

/// The number of pixels of `bitmap` (inside `rect`, default all) for which `test` holds.
func countPixels(_ bitmap: Bitmap, in rect: IntRect? = nil, where test: (Color) -> Bool) -> Int {
    let r = rect ?? IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
    var n = 0
    for y in r.y..<r.maxY { for x in r.x..<r.maxX where test(Color(premultipliedPixel: bitmap[x, y])) { n += 1 } }
    return n
}

/// Whether two bitmaps hold the same pixels.
func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 { return false }
    return true
}

/// A linear basic animation of `key` from `from` to `to` over `duration` seconds.
func linearAnimation(_ key: String, from: Double, to: Double, duration: Double) -> BasicAnimation {
    let a = BasicAnimation(keyPath: key)
    a.fromValue = from
    a.toValue = to
    a.duration = duration
    a.timingFunction = .linear
    return a
}

extension Color {
    static let redColor = Color(red: 1, green: 0, blue: 0)
    static let greenColor = Color(red: 0, green: 1, blue: 0)
    static let blueColor = Color(red: 0, green: 0, blue: 1)
}
