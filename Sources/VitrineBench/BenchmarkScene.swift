import Glibc
import VitrineAnimation
import VitrineGraphics

/// Seed scenes as the default playlist shows them, laid out on a canvas of any size, for timing
/// the engine (`tick(at:)`) and whole frames (`renderFrame(at:)`) with `FrameCost.measure`.
public final class BenchmarkScene {
    /// The scenes.
    public enum Kind: String, CaseIterable, Sendable {
        /// Seed 000: an 800 × 800 photo masked by the ring arrow, growing and shrinking (2 s each way).
        case arrowMask
        /// Seed 001: a five-slice pie growing from the top for 1 s, rebuilt every second.
        case pie
        /// Seed 002: the wavy progress bar with its label, 0 → 100 % in 4 s, repeating.
        case waveProgress
        /// The arrow-masked photo with nothing animating.
        case still
    }

    /// Which scene this is.
    public let kind: Kind
    /// The renderer of the scene, and through it the engine and the tree.
    public let frames: FrameRenderer
    /// The engine running the scene's tree.
    public var engine: Engine { frames.engine }

    private var pie: (layer: PieLayer, observer: Int, cycle: Int)?

    /// The scene on a `width × height` canvas over black.
    public init(_ kind: Kind, width: Int = 1920, height: Int = 1080) {
        self.kind = kind
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        frames = FrameRenderer(engine: Engine(root: root), size: (width, height), background: .black)
        let center = Point(x: Double(width) / 2, y: Double(height) / 2)
        switch kind {
        case .arrowMask, .still:
            root.addSublayer(BenchmarkScene.maskedPhoto(center: center, animated: kind == .arrowMask))
        case .waveProgress:
            root.addSublayer(BenchmarkScene.progressBar(center: center))
        case .pie:
            break
        }
    }

    /// Brings the scene to scene time `t` (rebuilding the pie at each whole second) and ticks the
    /// engine.
    @discardableResult
    public func tick(at t: Double) -> FrameUpdate {
        prepare(at: t)
        return engine.tick(at: t)
    }

    /// Brings the scene to scene time `t` and renders the frame.
    @discardableResult
    public func renderFrame(at t: Double) -> FrameResult {
        prepare(at: t)
        return frames.renderFrame(at: t)
    }

    private func prepare(at t: Double) {
        engine.beginFrame(at: t)
        guard kind == .pie else { return }
        let cycle = Int(t.rounded(.down))
        if let pie, pie.cycle == cycle { return }
        if let pie {
            engine.removeFrameObserver(pie.observer)
            pie.layer.removeFromSuperlayer()
        }
        let root = engine.root
        let layer = PieLayer()
        layer.frame = Rect(x: root.bounds.midX - 300, y: root.bounds.midY - 300, width: 600, height: 600)
        root.addSublayer(layer)
        let observer = layer.attach(to: engine)
        layer.setValues(
            [3, 1, 4, 1, 5],
            colors: [
                Color(r8: 0xE6, g8: 0x4B, b8: 0x3C), Color(r8: 0x3C, g8: 0xB4, b8: 0x4B),
                Color(r8: 0x43, g8: 0x63, b8: 0xD8),
                Color(r8: 0xF5, g8: 0x82, b8: 0x31), Color(r8: 0x91, g8: 0x1E, b8: 0xB4)
            ])
        pie = (layer, observer, cycle)
    }

    private static func maskedPhoto(center: Point, animated: Bool) -> Layer {
        let photo = Layer()
        photo.frame = Rect(x: center.x - 400, y: center.y - 400, width: 800, height: 800)
        photo.contents = stripedImage(width: 800, height: 800)
        let ring = ArrowLayer()
        ring.bounds = Rect(x: 0, y: 0, width: 800, height: 800)
        ring.position = Point(x: 400, y: 400)
        ring.thickness = 60
        ring.startRadians = -Double.pi / 2
        ring.headLengthRadians = Double.pi / 16
        ring.lengthRadians = animated ? 0 : 1.5 * Double.pi
        ring.fillColor = .white
        photo.mask = ring
        if animated {
            let grow = BasicAnimation(keyPath: "lengthRadians")
            grow.fromValue = 0.0
            grow.toValue = 2 * Double.pi
            grow.duration = 2
            grow.autoreverses = true
            grow.repeatCount = .infinity
            grow.timingFunction = .linear
            ring.add(grow, forKey: "grow")
        }
        return photo
    }

    private static func progressBar(center: Point) -> Layer {
        let bar = ProgressLayer()
        bar.frame = Rect(x: center.x - 500, y: center.y - 150, width: 1000, height: 300)
        bar.origin = Point(x: 50, y: 150)
        bar.maxLength = 900
        bar.maxOffset = 60
        bar.lineWidth = 12
        bar.textRect = Rect(x: 10, y: 175, width: 80, height: 30)
        for key in ["progress", "strokeEnd"] {
            let a = BasicAnimation(keyPath: key)
            a.fromValue = 0.0
            a.toValue = 1.0
            a.duration = 4
            a.repeatCount = .infinity
            a.timingFunction = .linear
            bar.add(a, forKey: key)
        }
        return bar
    }

    /// Diagonal colour bands: an opaque photo stand-in that is the same on every run.
    private static func stripedImage(width: Int, height: Int) -> Image {
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let band = ((x + y) / 40) % 3
                let shade = Double(y) / Double(height)
                let c = Color(
                    red: band == 0 ? 0.9 : 0.2 * shade, green: band == 1 ? 0.8 : 0.3, blue: band == 2 ? 0.9 : shade)
                pixels.append(c.premultipliedPixel)
            }
        }
        return Image(width: width, height: height, premultipliedPixels: pixels)!
    }
}
