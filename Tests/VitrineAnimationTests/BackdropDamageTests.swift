import VitrineGraphics
import XCTest

@testable import VitrineAnimation

/// A background drawn over the same colour changes no pixel where nothing else lies under it,
/// at any opacity: a group fading in with the stage's colour under it (the player's dissolve)
/// damages where the scenes draw, not the whole frame, and the frames are the same pixels as
/// whole repaints.
final class BackdropDamageTests: XCTestCase {
    private static let stageColor = Color(red: 0x14 / 255.0, green: 0x18 / 255.0, blue: 0x1d / 255.0, alpha: 1)

    /// The player's tree: a stage of one colour, a plain viewport, an outgoing holder with a
    /// square and a shadowed disc, and an incoming holder with the stage's colour fading in over
    /// it, holding a shadowed tile and a title of its own.
    private final class Dissolve {
        let scene: RenderScene
        let incoming = Layer()

        init() {
            scene = RenderScene(width: 320, height: 180, background: .black)
            let stage = scene.root
            stage.backgroundColor = BackdropDamageTests.stageColor
            let viewport = Layer()
            viewport.frame = stage.bounds
            viewport.masksToBounds = true
            stage.addSublayer(viewport)
            let outgoing = Layer()
            outgoing.frame = stage.bounds
            viewport.addSublayer(outgoing)
            let square = Layer()
            square.frame = Rect(x: 20.5, y: 30.25, width: 40, height: 40)
            square.backgroundColor = Color(red: 0.24, green: 0.5, blue: 1, alpha: 1)
            outgoing.addSublayer(square)
            let disc = Layer()
            disc.frame = Rect(x: 90, y: 100, width: 30, height: 30)
            disc.cornerRadius = 15
            disc.backgroundColor = .white
            disc.shadowOpacity = 0.6
            disc.shadowRadius = 4
            disc.shadowColor = .black
            outgoing.addSublayer(disc)

            incoming.frame = stage.bounds
            incoming.backgroundColor = BackdropDamageTests.stageColor
            let tile = Layer()
            tile.frame = Rect(x: 230, y: 110, width: 50, height: 30)
            tile.backgroundColor = Color(red: 1, green: 0.6, blue: 0.04, alpha: 1)
            // Its shadow fades with it.
            tile.shadowOpacity = 0.8
            tile.shadowRadius = 3
            tile.shadowOffset = Size(width: 0, height: 6)
            tile.shadowColor = .black
            incoming.addSublayer(tile)
            let title = Layer()
            title.frame = Rect(x: 200, y: 10, width: 100, height: 12)
            title.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.86, alpha: 0.8)
            incoming.addSublayer(title)
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 1.0
            fade.duration = 1
            fade.beginTime = 1
            fade.fillMode = .backwards
            incoming.add(fade, forKey: "fade")
            viewport.addSublayer(incoming)
        }
    }

    func testAFadeOverTheStagesColourDamagesOnlyWhereTheScenesDraw() {
        let tracked = Dissolve(), whole = Dissolve()
        whole.scene.frames.damageTracking = false
        tracked.scene.frame(at: 0)
        whole.scene.frame(at: 0)
        var t = 1.0
        while t <= 2.05 {
            let result = tracked.scene.frame(at: t)
            whole.scene.frame(at: t)
            XCTAssertTrue(samePixels(tracked.scene.bitmap, whole.scene.bitmap), "t = \(t)")
            if t > 1 && t < 2 {
                let repainted = result.dirty
                // Under the square, the disc and its shadow, the tile and its shadow, the title;
                // not the empty middle.
                for p in [(40, 50), (105, 115), (105, 126), (255, 125), (255, 144), (250, 15)] {
                    XCTAssertTrue(repainted.contains { $0.contains(x: p.0, y: p.1) }, "\(p) at t = \(t)")
                }
                XCTAssertFalse(repainted.contains { $0.contains(x: 160, y: 60) }, "t = \(t): \(repainted)")
                XCTAssertLessThan(result.pixelsRedrawn, 320 * 180 / 3, "t = \(t)")
            }
            if abs(t - 1.5) < 0.01 {
                // Halfway, the outgoing square is half covered by the stage's colour.
                let mid = color(tracked.scene.bitmap, at: Point(x: 40, y: 50))
                XCTAssertEqual(mid.blue, (1 + 0x1d / 255.0) / 2, accuracy: 0.03)
            }
            t += 0.1
        }
    }

    /// Without the stage's colour under it (a different colour, or a translucent one), the
    /// background shows everywhere it is, and a fade of it repaints all of it.
    func testABackgroundOfAnotherColourStillDamagesAllOfItself() {
        for background in [
            Color(red: 0.2, green: 0.1, blue: 0.1, alpha: 1), Color(red: 0.08, green: 0.09, blue: 0.11, alpha: 0.5)
        ] {
            let dissolve = Dissolve()
            dissolve.incoming.backgroundColor = background
            dissolve.scene.frame(at: 0)
            let result = dissolve.scene.frame(at: 1.5)
            XCTAssertEqual(result.pixelsRedrawn, 320 * 180, "\(background)")
        }
    }

    /// A colour drawn at an opacity over itself is itself again, whether it is filled directly
    /// at that opacity or composited as a group at it (the rule above depends on it).
    func testAColourAtAnyOpacityOverItselfIsItself() {
        let colors = [
            BackdropDamageTests.stageColor, Color(red: 1, green: 0.5, blue: 0.25, alpha: 1),
            Color(red: 0.01, green: 0.99, blue: 0.5, alpha: 1)
        ]
        for c in colors {
            let bitmap = Bitmap(width: 8, height: 2)
            let ctx = GraphicsContext(bitmap: bitmap)
            for step in 0...64 {
                let alpha = Double(step) / 64
                ctx.fill(Rect(x: 0, y: 0, width: 8, height: 2), color: c)
                ctx.saveGState()
                ctx.setAlpha(alpha)
                ctx.fill(Rect(x: 0, y: 0, width: 4, height: 2), color: c)
                ctx.restoreGState()
                ctx.beginTransparencyLayer(alpha: alpha)
                ctx.fill(Rect(x: 4, y: 0, width: 4, height: 1), color: c)
                ctx.endTransparencyLayer()
                for y in 0..<2 {
                    for x in 0..<8 {
                        XCTAssertEqual(bitmap[x, y], c.premultipliedPixel, "\(c) at \(alpha), (\(x), \(y))")
                    }
                }
            }
        }
    }

    private func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 { return false }
        return true
    }
}

extension IntRect {
    fileprivate func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}
