import Foundation
import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// The keys of the newer layer classes in the TOML contract: bad values name their key,
/// extreme ones are refused by `check` (or clamped where drawing bounds them), and a MSG line
/// plays the message layer's transition.
final class LayerClassKeysTests: XCTestCase {
    func testBadValuesOfTheNewKeysNameTheirKey() {
        let errors = configErrors(
            """
            [[scene]]
            name = "s"
            duration = 1

            [[scene.layer]]
            id = "spinner"
            type = "replicator"
            instanceCount = 1000000000
            instanceDelay = "soon"
            instanceTransform = { spin = 2 }

            [[scene.layer]]
            id = "copies"
            type = "replicator"
            instanceCount = 2.5

            [[scene.layer]]
            id = "label"
            type = "text"
            truncationMode = "ellipsis"
            transition = { type = "dissolve", duration = -1 }
            contentsRect = [0, 0, 1]

            [[scene.layer]]
            id = "confetti"
            type = "emitter"
            birthRate = 100

            [[scene.layer.emitterCell]]
            birthRate = 1e9
            lifetime = 5

            [[scene.layer.emitterCell]]
            lifetime = -1

            [[scene.layer.emitterCell]]
            colour = "#fff"

            [[scene.layer]]
            id = "box"
            type = "layer"
            transition = "fade"
            contentsCenter = "middle"
            """
        ).joined(separator: "\n")
        for expected in [
            "layer 'spinner' › instanceCount: too large: 1000000000 is out of range: from 0 to 10000",
            "layer 'spinner' › instanceDelay: ",
            "layer 'spinner' › instanceTransform",
            "layer 'copies' › instanceCount: expected a whole number, found 2.5",
            "layer 'label' › truncationMode: 'ellipsis' is not one of 'none', 'start', 'middle', 'end'",
            "layer 'label' › transition",
            "'dissolve' is not one of 'fade', 'push', 'moveIn', 'reveal'",
            "layer 'label' › contentsRect: ",
            "layer 'box' › transition: expected a table { type, subtype, duration }",
            "layer 'box' › contentsCenter: ",
            "layer 'confetti' › birthRate: too large: 100 is out of range: from 0 to 10",
            "layer 'confetti' › emitterCell 1 › birthRate: ",
            "layer 'confetti' › emitterCell 2 › lifetime: ",
            "layer 'confetti' › emitterCell 3 › colour: unknown key (did you mean 'color'?)"
        ] {
            XCTAssertTrue(errors.contains(expected), "missing \(expected) in\n\(errors)")
        }
        XCTAssertTrue(
            errors.range(
                of: #"test\.toml:\d+:\d+: scene 's' › layer 'spinner' › instanceCount"#, options: .regularExpression)
                != nil, errors)
    }

    /// A MSG line changes the message layer's string: its push transition runs, so half way
    /// through both the old and the new text show, each moved by half the layer's height.
    func testAMessagePlaysTheMessageLayersTransition() throws {
        let playlist = try loadPlaylist(
            """
            [player]
            canvas = [400, 200]
            background = "#000000"

            [[scene]]
            name = "s"
            duration = 60

            [[scene.layer]]
            id = "message"
            type = "text"
            frame = [0, 50, 400, 100]
            fontSize = 80
            string = "AAAA"
            foregroundColor = "#ffffff"
            transition = { type = "push", subtype = "fromBottom", duration = 1 }
            """)
        let instance = try SceneInstance(playlist.scenes[0], playlist: playlist)
        let engine = Engine(root: instance.root)
        instance.attach(to: engine)
        let frames = FrameRenderer(engine: engine, size: (400, 200), background: .black)
        instance.start(at: 0)
        frames.renderFrame(at: 0)
        frames.renderFrame(at: 1)
        let before = frames.bitmap.inkRows()
        instance.setMessage("BBBB")
        frames.renderFrame(at: 1.5)
        let during = frames.bitmap.inkRows()
        frames.renderFrame(at: 2.5)
        let after = frames.bitmap.inkRows()
        // The text sits in the layer's top part; half way the old one has moved up 50 px (its
        // top rows cut at the layer's top edge) and the new one is 50 px below where it ends.
        XCTAssertEqual(after, before, "the new text ends where the old one was")
        XCTAssertTrue(during.contains { $0 >= before.lowerBound + 45 }, "new text below: \(during) vs \(before)")
        XCTAssertTrue(during.lowerBound >= 50, "clipped to the layer: \(during)")
    }
}

extension Bitmap {
    /// The rows holding any pixel that is not black.
    fileprivate func inkRows() -> ClosedRange<Int> {
        var rows: [Int] = []
        for y in 0..<height where (0..<width).contains(where: { row(y)[$0] & 0xFF_FFFF != 0 }) { rows.append(y) }
        return (rows.first ?? 0)...(rows.last ?? 0)
    }
}
