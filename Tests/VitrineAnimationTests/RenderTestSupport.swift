import Foundation
import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A small rendered scene: a 200 × 200 root filling the bitmap, an engine on virtual time,
/// and a frame renderer over a white background.
final class RenderScene {
    let root = Layer()
    let engine: Engine
    let frames: FrameRenderer

    init(width: Int = 200, height: Int = 200, background: Color = .white) {
        engine = Engine(root: root)
        root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.position = Point(x: Double(width) / 2, y: Double(height) / 2)
        frames = FrameRenderer(engine: engine, size: (width, height), background: background)
    }

    var bitmap: Bitmap { frames.bitmap }

    /// Moves the clock to `t` and renders that frame.
    @discardableResult
    func frame(at t: Double) -> FrameResult {
        frames.renderFrame(at: t)
    }
}

extension RenderScene {
    /// The scene `build` makes, its first frame drawn with the renderer's shortcut `flag` on
    /// and again, built afresh, with it off; and `count` (what the shortcut did) of the first.
    static func framesWithAndWithout(
        _ flag: ReferenceWritableKeyPath<LayerRenderer, Bool>, counting count: KeyPath<LayerRenderer, Int>,
        width: Int, height: Int, background: Color, _ build: (RenderScene) -> Void
    ) -> (on: Bitmap, off: Bitmap, count: Int) {
        func make(_ on: Bool) -> (Bitmap, Int) {
            let render = RenderScene(width: width, height: height, background: background)
            build(render)
            render.frames.renderer[keyPath: flag] = on
            render.frame(at: 0)
            return (render.bitmap, render.frames.renderer[keyPath: count])
        }
        let (on, counted) = make(true)
        return (on, make(false).0, counted)
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
    Image(
        width: width, height: height,
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
func assertColor(
    _ bitmap: Bitmap, _ p: Point, _ expected: Color, tolerance: Double = 2.5 / 255,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    let c = color(bitmap, at: p)
    let ok =
        abs(c.red - expected.red) <= tolerance && abs(c.green - expected.green) <= tolerance
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

/// The largest difference of one channel of one pixel between two bitmaps of the same size
/// (Int.max when the sizes differ).
func maximumChannelDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
    guard a.width == b.width, a.height == b.height else { return .max }
    var worst = 0
    for y in 0..<a.height {
        for x in 0..<a.width where a[x, y] != b[x, y] {
            for shift in stride(from: 0, to: 32, by: 8) {
                worst = max(worst, abs(Int((a[x, y] >> UInt32(shift)) & 0xFF) - Int((b[x, y] >> UInt32(shift)) & 0xFF)))
            }
        }
    }
    return worst
}

/// Draws the frames at `times` in `tracked` and in `full` (a twin scene repainted whole), after
/// `prepare(i)` before the i-th; asserts each pair the same to the bit and returns the pixels
/// `tracked` repainted in each.
func repaintedPixels(
    _ tracked: RenderScene, against full: RenderScene, at times: [Double], prepare: (Int) -> Void = { _ in },
    file: StaticString = #filePath, line: UInt = #line
) -> [Int] {
    full.frames.damageTracking = false
    return times.enumerated().map { i, t in
        prepare(i)
        let redrawn = tracked.frame(at: t).pixelsRedrawn
        full.frame(at: t)
        XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "frame \(i)", file: file, line: line)
        return redrawn
    }
}

/// A copy of `bitmap`'s pixels, kept while later frames are drawn over it.
func snapshot(_ bitmap: Bitmap) -> Bitmap {
    let copy = Bitmap(width: bitmap.width, height: bitmap.height)
    copy.copy(from: bitmap, in: IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
    return copy
}

/// A patterned background: green stripes 17 px wide every 35 px across `root`, `height` tall.
func addStripes(to root: Layer, count: Int = 6, height: Double) {
    for i in 0..<count {
        let stripe = Layer()
        stripe.frame = Rect(x: Double(i) * 35, y: 0, width: 17, height: height)
        stripe.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.3)
        root.addSublayer(stripe)
    }
}

/// Makes `card` the ring scene's card: a soft shadow, offset down and right, under an opaque
/// gradient face with rounded corners (returned), off the pixel grid.
@discardableResult
func makeShadowedCard(_ card: Layer) -> GradientLayer {
    card.frame = Rect(x: 40.5, y: 30.25, width: 110, height: 90)
    card.shadowOpacity = 0.8
    card.shadowRadius = 9
    card.shadowOffset = Size(width: 3, height: 7)
    let face = GradientLayer()
    face.frame = card.bounds
    face.colors = ColorList([Color(red: 0.2, green: 0.25, blue: 0.35), Color(red: 0.1, green: 0.1, blue: 0.2)])
    face.cornerRadius = 16
    face.masksToBounds = true
    card.addSublayer(face)
    return face
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

/// Builds the same animated scene each time: an arrow masking an image, a growing pie, a
/// wavy progress bar, a moving half-transparent group, a rotating card with rounded clip.
func makeBusyScene() -> RenderScene {
    let scene = RenderScene(width: 400, height: 300, background: Color(red: 0.95, green: 0.95, blue: 0.9))
    let photo = Layer()
    photo.frame = Rect(x: 0, y: 0, width: 120, height: 120)
    photo.contents = solidImage(Color(red: 0.9, green: 0.4, blue: 0.1), width: 8, height: 8)
    let arrow = ArrowLayer()
    arrow.frame = Rect(x: 10, y: 10, width: 100, height: 100)
    arrow.thickness = 20
    arrow.headLengthRadians = .pi / 8
    arrow.startRadians = -.pi / 2
    arrow.fillColor = .black
    arrow.lengthRadians = 2 * .pi
    photo.mask = arrow
    scene.root.addSublayer(photo)
    let pie = PieLayer()
    pie.frame = Rect(x: 120, y: 0, width: 120, height: 120)
    scene.root.addSublayer(pie)
    pie.attach(to: scene.engine)
    pie.setValues([3, 1, 2], colors: [.redColor, .greenColor, .blueColor])
    let bar = ProgressLayer()
    bar.frame = Rect(x: 0, y: 120, width: 240, height: 80)
    bar.origin = Point(x: 10, y: 20)
    bar.maxLength = 200
    bar.textRect = Rect(x: -8, y: 30, width: 30, height: 12)
    scene.root.addSublayer(bar)
    let group = Layer()
    group.frame = Rect(x: 20, y: 130, width: 60, height: 40)
    group.opacity = 0.6
    let a = Layer(); a.frame = Rect(x: 0, y: 0, width: 40, height: 30); a.backgroundColor = .redColor
    let b = Layer(); b.frame = Rect(x: 20, y: 10, width: 40, height: 30); b.backgroundColor = .blueColor
    group.addSublayer(a); group.addSublayer(b)
    scene.root.addSublayer(group)
    let card = Layer()
    card.frame = Rect(x: 150, y: 130, width: 50, height: 50)
    card.cornerRadius = 12
    card.masksToBounds = true
    card.borderWidth = 3
    card.borderColor = .black
    let inner = Layer(); inner.frame = Rect(x: -10, y: 20, width: 70, height: 40); inner.backgroundColor = .greenColor
    card.addSublayer(inner)
    scene.root.addSublayer(card)

    scene.frame(at: 0)
    let l = linearAnimation("lengthRadians", from: 0, to: 2 * .pi, duration: 1.5)
    l.autoreverses = true
    arrow.add(l, forKey: "l")
    bar.add(linearAnimation("progress", from: 0, to: 1, duration: 2), forKey: "p")
    bar.add(linearAnimation("strokeEnd", from: 0, to: 1, duration: 2), forKey: "s")
    group.add(linearAnimation("position.x", from: 50, to: 170, duration: 1.7), forKey: "x")
    card.add(linearAnimation("transform.rotation.z", from: 0, to: .pi, duration: 2.2), forKey: "r")
    return scene
}
