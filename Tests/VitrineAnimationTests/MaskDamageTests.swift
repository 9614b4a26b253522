import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A mask shows its owner only where it has alpha, so a change of the mask alone damages the
/// mask's old and new extents (within the owner), not the whole owner.
final class MaskDamageTests: XCTestCase {
    /// A full-frame photo stand-in: vertical colour bands, scaled up from a small image.
    func bands() -> Image {
        var pixels: [UInt32] = []
        for _ in 0..<9 {
            for x in 0..<16 {
                pixels.append(Color(red: Double(x) / 15, green: 0.5, blue: 1 - Double(x) / 15).premultipliedPixel)
            }
        }
        return Image(width: 16, height: 9, premultipliedPixels: pixels)!
    }

    /// A 1920 × 1080 image masked by a 400 × 400 arrow centred on it; the arrow's length
    /// animates when `animated`.
    func maskedPhoto(animated: Bool) -> (RenderScene, photo: Layer, arrow: ArrowLayer) {
        let scene = RenderScene(width: 1920, height: 1080, background: .black)
        let photo = Layer()
        photo.frame = Rect(x: 0, y: 0, width: 1920, height: 1080)
        photo.contents = bands()
        let arrow = ArrowLayer()
        arrow.bounds = Rect(x: 0, y: 0, width: 400, height: 400)
        arrow.position = Point(x: 960, y: 540)
        arrow.thickness = 60
        arrow.startRadians = -.pi / 2
        arrow.headLengthRadians = .pi / 8
        arrow.lengthRadians = 1
        arrow.fillColor = .white
        photo.mask = arrow
        scene.root.addSublayer(photo)
        scene.frame(at: 0)
        if animated {
            arrow.add(linearAnimation("lengthRadians", from: 0.2, to: 2 * .pi, duration: 1), forKey: "grow")
        }
        return (scene, photo, arrow)
    }

    func testAnimatedMaskDamagesOnlyWhereItChanged() {
        let (tracked, _, _) = maskedPhoto(animated: true)
        let (full, _, _) = maskedPhoto(animated: true)
        full.frames.damageTracking = false
        // The arrow's bounds in the frame: x 760…1160, y 340…740; one pixel of outset.
        let box = IntRect(x: 759, y: 339, width: 402, height: 402)
        for i in 1...12 {
            let t = Double(i) / 12
            let a = tracked.frame(at: t), b = full.frame(at: t)
            XCTAssertFalse(a.dirty.isEmpty)
            for rect in a.dirty {
                XCTAssertEqual(
                    rect.intersection(box), rect, "frame \(i): within the arrow's box, not the 1920 × 1080 photo")
            }
            // Between the first frame (1 rad → 0.2 + 2π/12) and the last (the animation ends:
            // back to 1 rad), the arrow grows by a twelfth of a turn per frame: the wedge that
            // changed is well under half its box.
            if i > 1 && i < 12 { XCTAssertLessThan(a.pixelsRedrawn, 402 * 402 / 2, "frame \(i)") }
            XCTAssertEqual(b.pixelsRedrawn, 1920 * 1080)
            if !samePixels(tracked.bitmap, full.bitmap) {
                savePNG(tracked.bitmap, "mask-damage-tracked")
                savePNG(full.bitmap, "mask-damage-full")
                return XCTFail("frame \(i) differs between damage-tracked and full rendering")
            }
        }
        // The photo shows through the ring (back to its model length of 1 rad from the top): a
        // point in the band near the tail has the photo's colour, the ring's centre is black.
        let onRing = polar(Point(x: 960, y: 540), 170, -.pi / 2 + 0.3), offRing = Point(x: 960, y: 540)
        XCTAssertGreaterThan(color(tracked.bitmap, at: onRing).alpha, 0.99)
        XCTAssertNotEqual(color(tracked.bitmap, at: onRing), Color.black)
        assertColor(tracked.bitmap, offRing, .black)
        savePNG(tracked.bitmap, "mask-damage-end")
    }

    func testMovedMaskDamagesOldAndNewPlace() {
        let (tracked, _, arrow) = maskedPhoto(animated: false)
        let (full, _, fullArrow) = maskedPhoto(animated: false)
        full.frames.damageTracking = false
        Transaction.begin()
        Transaction.setDisableActions(true)
        arrow.position = Point(x: 400, y: 300)
        fullArrow.position = Point(x: 400, y: 300)
        Transaction.commit()
        let a = tracked.frame(at: 0.1)
        full.frame(at: 0.1)
        // Old box 760…1160 × 340…740, new 200…600 × 100…500: two rectangles, not the photo.
        XCTAssertEqual(
            Set(a.dirty),
            [
                IntRect(x: 759, y: 339, width: 402, height: 402),
                IntRect(x: 199, y: 99, width: 402, height: 402)
            ])
        XCTAssertTrue(samePixels(tracked.bitmap, full.bitmap))
    }

    func testRemovingOrReplacingTheMaskDamagesTheOwner() {
        let (tracked, photo, _) = maskedPhoto(animated: false)
        let (full, fullPhoto, _) = maskedPhoto(animated: false)
        full.frames.damageTracking = false
        photo.mask = nil
        fullPhoto.mask = nil
        let a = tracked.frame(at: 0.1)
        full.frame(at: 0.1)
        XCTAssertEqual(a.pixelsRedrawn, 1920 * 1080, "the whole photo shows now")
        XCTAssertTrue(samePixels(tracked.bitmap, full.bitmap))
        let small = Layer(), fullSmall = Layer()
        for l in [small, fullSmall] {
            l.frame = Rect(x: 100, y: 100, width: 50, height: 50)
            l.backgroundColor = .white
        }
        photo.mask = small
        fullPhoto.mask = fullSmall
        tracked.frame(at: 0.2)
        full.frame(at: 0.2)
        XCTAssertTrue(samePixels(tracked.bitmap, full.bitmap), "a new mask hides the rest of the photo")
        assertColor(tracked.bitmap, Point(x: 500, y: 500), .black)
    }
}
