import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A sublayer's superlayer, a mask's owner and a presentation copy's model are held as weak
/// references are: they keep nothing alive and read nil once the layer is gone.
final class LayerReferenceTests: XCTestCase {
    func testReferencesReadNilOnceTheLayerIsGone() throws {
        let child = Layer(), mask = Layer()
        weak var gone: Layer?
        do {
            let parent = Layer()
            parent.addSublayer(child)
            parent.mask = mask
            XCTAssertTrue(child.superlayer === parent && mask.maskOwner === parent)
            gone = parent
        }
        XCTAssertNil(gone, "a sublayer and a mask do not keep their superlayer or owner alive")
        XCTAssertNil(child.superlayer)
        XCTAssertNil(mask.maskOwner)

        var copy: Layer?
        weak var model: Layer?
        do {
            let root = Layer()
            root.opacity = 0.5
            let engine = Engine(root: root)
            copy = engine.tick(at: 0).presentation
            XCTAssertTrue(copy?.model() === root)
            model = root
        }
        XCTAssertNil(model, "a presentation copy does not keep its model alive")
        let kept = try XCTUnwrap(copy)
        XCTAssertNil(kept.modelLayer)
        XCTAssertTrue(kept.model() === kept, "a copy whose model is gone answers for itself")
        XCTAssertEqual(kept.opacity, 0.5)
    }

    /// The renderer's kept drawing of a layer does not keep the layer alive, and goes with it.
    func testBackingStoresDoNotKeepTheirLayers() {
        let scene = RenderScene()
        weak var gone: Layer?
        do {
            let sector = SectorLayer()
            sector.frame = Rect(x: 20, y: 20, width: 160, height: 160)
            sector.progress = 0.25
            sector.fillColor = .blueColor
            scene.root.addSublayer(sector)
            scene.frame(at: 0)
            XCTAssertEqual(scene.frames.renderer.backingStoreCount, 1)
            sector.removeFromSuperlayer()
            gone = sector
        }
        // The engine lets go of a layer taken out when it makes the next frame.
        scene.frame(at: 0.1)
        XCTAssertNil(gone)
        XCTAssertEqual(scene.frames.renderer.backingStoreCount, 0)
    }
}
