import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A shadow is not painted under the part of its layer that paints opaque as it begins (the
/// ring scene's card: a blurred shadow under an opaque rounded gradient). The frame must be the
/// same to the bit as painting it all, and the shadow must still be painted wherever it could
/// show.
final class HiddenShadowTests: XCTestCase {
    /// A card casting a soft shadow on a patterned background, with `change` applied to the
    /// card and its first sublayer; the frame drawn with and without leaving the hidden shadow
    /// out, and the pixels left out.
    private func frames(
        _ change: (_ card: Layer, _ face: GradientLayer, _ root: Layer) -> Void
    )
        -> (skipping: Bitmap, painting: Bitmap, hidden: Int)
    {
        let frames = RenderScene.framesWithAndWithout(
            \.skipsHiddenShadows, counting: \.hiddenShadowPixels, width: 200, height: 160,
            background: Color(red: 0.9, green: 0.85, blue: 0.7)
        ) { render in
            addStripes(to: render.root, height: 160)
            let card = Layer()
            let face = makeShadowedCard(card)
            render.root.addSublayer(card)
            change(card, face, render.root)
        }
        return (frames.on, frames.off, frames.count)
    }

    func testTheShadowUnderAnOpaqueRoundedFaceIsNotPaintedAndTheFrameIsTheSame() {
        for path in [false, true] {
            let (skipping, painting, hidden) = frames { card, _, _ in
                if path {
                    var outline = Path()
                    outline.addRoundedRect(card.bounds, cornerRadius: 16)
                    card.shadowPath = outline
                }
            }
            XCTAssertEqual(maximumChannelDifference(skipping, painting), 0, "shadow path: \(path)")
            // 110 × 90 inset by 0.3 × 16 on each side, whole pixels.
            XCTAssertGreaterThan(hidden, 95 * 75, "shadow path: \(path)")
        }
    }

    func testAnOpaqueBackgroundHidesItsShadowToo() {
        let (skipping, painting, hidden) = frames { card, face, _ in
            face.removeFromSuperlayer()
            card.backgroundColor = Color(red: 0.3, green: 0.3, blue: 0.9)
            card.cornerRadius = 30
        }
        XCTAssertEqual(maximumChannelDifference(skipping, painting), 0)
        XCTAssertGreaterThan(hidden, 0)
    }

    /// Where the body could let the shadow through, all of it is painted.
    func testTheShadowIsPaintedWhereverItCouldShow() {
        let cases: [(String, (Layer, GradientLayer, Layer) -> Void)] = [
            (
                "translucent face",
                { _, face, _ in
                    face.colors = ColorList([Color(red: 0.2, green: 0.25, blue: 0.35, alpha: 0.7), .black])
                }
            ),
            ("no face", { _, face, _ in face.removeFromSuperlayer() }),
            ("face faded", { _, face, _ in face.opacity = 0.6 }),
            ("face hidden", { _, face, _ in face.isHidden = true }),
            ("card turned", { card, _, _ in card.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1) }),
            (
                "face masked",
                { _, face, _ in
                    let mask = ShapeLayer()
                    var oval = Path()
                    oval.addEllipse(in: face.bounds)
                    mask.path = oval
                    face.mask = mask
                }
            ),
            (
                "under a rounded clip",
                { card, _, root in
                    let clip = Layer()
                    clip.frame = Rect(x: 20, y: 10, width: 170, height: 140)
                    clip.cornerRadius = 25
                    clip.masksToBounds = true
                    card.removeFromSuperlayer()
                    card.frame = card.frame.offsetBy(dx: -20, dy: -10)
                    clip.addSublayer(card)
                    root.addSublayer(clip)
                }
            )
        ]
        for (name, change) in cases {
            let (skipping, painting, hidden) = frames(change)
            XCTAssertEqual(maximumChannelDifference(skipping, painting), 0, name)
            XCTAssertEqual(hidden, 0, name)
        }
    }

    /// The card faded as a group: the shadow and the face are composited together, and inside
    /// the group the face still covers the shadow.
    func testInsideAFadedGroupTheShadowIsStillHidden() {
        let (skipping, painting, hidden) = frames { card, _, root in
            let group = Layer()
            group.frame = root.bounds
            group.opacity = 0.5
            card.removeFromSuperlayer()
            group.addSublayer(card)
            let other = Layer()
            other.frame = Rect(x: 5, y: 5, width: 30, height: 30)
            other.backgroundColor = .white
            group.addSublayer(other)
            root.addSublayer(group)
        }
        XCTAssertEqual(maximumChannelDifference(skipping, painting), 0)
        XCTAssertGreaterThan(hidden, 0)
    }
}
