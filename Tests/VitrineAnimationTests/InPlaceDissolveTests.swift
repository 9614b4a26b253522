import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// A layer's fade transition between two looks that both paint all of their box opaque (a
/// status panel with its own background) is drawn with one offscreen level instead of three:
/// the old look in place, the new one composited over it at the fade's progress. The frames
/// are those of the three-level dissolve up to the rounding of translucent drawing, and the
/// same to the bit where the fade is not drawn so.
final class InPlaceDissolveTests: XCTestCase {
    /// A 120 × 80 panel at (40, 30) over a white root: an opaque background under a
    /// translucent image, a translucent rounded badge and an opaque bar. `change` sets it up
    /// first; at 1 s its look changes (`changeLook`), and its fade (1 s) plays until 2 s.
    private func panel(_ change: (Layer, Layer) -> Void = { _, _ in }) -> (RenderScene, Layer, Layer) {
        let scene = RenderScene(width: 200, height: 140, background: .white)
        let panel = Layer()
        panel.frame = Rect(x: 40, y: 30, width: 120, height: 80)
        panel.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.6)
        panel.contents = solidImage(Color(red: 0, green: 0.5, blue: 0, alpha: 0.5), width: 4, height: 4)
        let badge = Layer()
        badge.frame = Rect(x: 10.3, y: 8.6, width: 50, height: 30)
        badge.cornerRadius = 9
        badge.backgroundColor = Color(red: 0.2, green: 0.9, blue: 0.3, alpha: 0.55)
        let bar = Layer()
        bar.frame = Rect(x: 70, y: 50.5, width: 40.7, height: 12)
        bar.backgroundColor = Color(red: 0.95, green: 0.8, blue: 0.1)
        panel.addSublayer(badge)
        panel.addSublayer(bar)
        panel.transition = LayerTransition(kind: .fade, duration: 1)
        scene.root.addSublayer(panel)
        change(panel, badge)
        scene.frame(at: 0)
        scene.frame(at: 1)
        return (scene, panel, badge)
    }

    /// The new look: another image (a change of contents plays the transition), and other
    /// colours for the panel's background, where it has one, and its badge.
    private func changeLook(_ panel: Layer, _ badge: Layer) {
        panel.contents = solidImage(Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5), width: 4, height: 4)
        if let background = panel.backgroundColor {
            panel.backgroundColor = Color(red: 0.7, green: 0.15, blue: 0.1, alpha: background.alpha)
        }
        badge.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.95, alpha: 0.7)
    }

    /// Each frame of the fade drawn in place and as the three-level dissolve; the largest channel
    /// difference and how many fades the first renderer drew in place.
    private func compare(
        _ change: (Layer, Layer) -> Void = { _, _ in }, tracked: Bool = true
    ) -> (difference: Int, inPlace: Int) {
        let (inPlace, a, badgeA) = panel(change)
        let (grouped, b, badgeB) = panel(change)
        grouped.frames.renderer.dissolvesOpaqueLooksInPlace = false
        inPlace.frames.damageTracking = tracked
        changeLook(a, badgeA)
        changeLook(b, badgeB)
        var difference = 0
        for i in 0...11 {
            let t = 1 + Double(i) * 0.1
            inPlace.frame(at: t)
            grouped.frame(at: t)
            difference = max(difference, maximumChannelDifference(inPlace.bitmap, grouped.bitmap))
        }
        return (difference, inPlace.frames.renderer.inPlaceDissolveCount)
    }

    func testOpaqueLooksDissolveInPlaceAsTheGroupsWould() {
        let (difference, inPlace) = compare()
        XCTAssertGreaterThan(inPlace, 0)
        // Translucent drawing rounds otherwise in the groups (drawn over transparent pixels, then
        // composited): a level for each translucent drawing a pixel holds (the image over the
        // background, a badge's edge over the image).
        XCTAssertLessThanOrEqual(difference, 2)
        let (whole, wholeInPlace) = compare(tracked: false)
        XCTAssertGreaterThan(wholeInPlace, 0)
        XCTAssertLessThanOrEqual(whole, 2)
    }

    func testHalfWayIsHalfOfEachLook() {
        let (scene, panel, badge) = panel()
        let spot = Point(x: 60, y: 100)  // between the badge and the bar
        let old = color(scene.bitmap, at: spot)
        changeLook(panel, badge)
        scene.frame(at: 1.5)
        let half = color(scene.bitmap, at: spot)
        scene.frame(at: 2.1)
        let new = color(scene.bitmap, at: spot)
        XCTAssertGreaterThan(scene.frames.renderer.inPlaceDissolveCount, 0)
        XCTAssertGreaterThan(abs(old.red - new.red), 0.2)
        // Half of each look, and nothing of the white around the panel.
        XCTAssertEqual(half.red, (old.red + new.red) / 2, accuracy: 2 / 255)
        XCTAssertEqual(half.green, (old.green + new.green) / 2, accuracy: 2 / 255)
        XCTAssertEqual(half.blue, (old.blue + new.blue) / 2, accuracy: 2 / 255)
        XCTAssertEqual(half.alpha, 1)
        assertColor(scene.bitmap, Point(x: 20, y: 60), .white)
    }

    func testWhatLetsTheBackdropShowKeepsTheGroups() {
        let cases: [(String, (Layer, Layer) -> Void)] = [
            ("rounded corners", { panel, _ in panel.cornerRadius = 10 }),
            (
                "edges inside pixels",
                { panel, _ in panel.frame = Rect(x: 40.5, y: 30.25, width: 120, height: 80) }
            ),
            (
                "a translucent background",
                { panel, _ in panel.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 0.8) }
            ),
            ("no background", { panel, _ in panel.backgroundColor = nil }),
            ("a translucent panel", { panel, _ in panel.opacity = 0.9 }),
            ("a turned panel", { panel, _ in panel.transform = Transform3D(rotationAngle: 0.1, x: 0, y: 0, z: 1) }),
            (
                "a mask",
                { panel, _ in
                    let mask = Layer()
                    mask.frame = Rect(x: 0, y: 0, width: 100, height: 80)
                    mask.backgroundColor = .white
                    panel.mask = mask
                }
            ),
            (
                "a shadow beyond the bounds",
                { panel, _ in
                    panel.shadowOpacity = 0.5
                    panel.shadowRadius = 4
                }
            ),
            (
                "a sublayer beyond the bounds",
                { _, badge in badge.frame = Rect(x: -20, y: -10, width: 50, height: 30) }
            )
        ]
        for (name, change) in cases {
            let (difference, inPlace) = compare(change)
            XCTAssertEqual(inPlace, 0, name)
            XCTAssertEqual(difference, 0, name)
        }
    }

    /// Frames repainting only their damage (the badge moving over the panel as it fades) equal
    /// whole repaints.
    func testDamageTrackedFramesEqualWholeRepaints() {
        func make() -> (RenderScene, Layer, Layer) {
            let (scene, panel, badge) = panel()
            let move = BasicAnimation(keyPath: "position")
            move.fromValue = Point(x: 35, y: 23)
            move.toValue = Point(x: 80, y: 50)
            move.beginTime = 1
            move.duration = 1
            badge.add(move, forKey: "move")
            return (scene, panel, badge)
        }
        let (tracked, a, badgeA) = make()
        let (full, b, badgeB) = make()
        full.frames.damageTracking = false
        changeLook(a, badgeA)
        changeLook(b, badgeB)
        for i in 0...24 {
            let t = 1 + Double(i) * 0.05
            tracked.frame(at: t)
            full.frame(at: t)
            XCTAssertEqual(maximumChannelDifference(tracked.bitmap, full.bitmap), 0, "t = \(t)")
        }
        XCTAssertGreaterThan(tracked.frames.renderer.inPlaceDissolveCount, 0)
    }
}
