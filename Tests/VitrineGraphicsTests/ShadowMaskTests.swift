import XCTest
@testable import VitrineGraphics

/// A shadow path's mask made straight from the path's coverage is the mask a capture of the
/// path filled black makes, bit for bit: curves, a self-crossing star, overlapping contours,
/// scaled, offset, clipped by the region and blurred or not.
final class ShadowMaskTests: XCTestCase {
    func testAShadowPathsMaskIsItsCapturedFill() {
        var card = Path()
        card.addRoundedRect(Rect(x: 20.3, y: 15.7, width: 150, height: 110), cornerRadius: 18)
        var star = Path()
        for i in 0..<5 {
            let angle = Double(i) * 4 * .pi / 5 - .pi / 2
            let point = Point(x: 100 + 70 * cos(angle), y: 90 + 70 * sin(angle))
            if i == 0 { star.move(to: point) } else { star.addLine(to: point) }
        }
        star.closeSubpath()
        var twice = Path()
        twice.addEllipse(in: Rect(x: 30, y: 30, width: 120.5, height: 80))
        twice.addEllipse(in: Rect(x: 30, y: 30, width: 120.5, height: 80))
        let cases: [(String, Path, Transform2D, Shadow, IntRect)] = [
            (
                "card", card, .identity, Shadow(offset: Point(x: 0, y: 6), radius: 18),
                IntRect(x: 0, y: 0, width: 320, height: 240)
            ),
            (
                "card unblurred", card, .identity, Shadow(offset: Point(x: 3.5, y: 2), radius: 0),
                IntRect(x: 0, y: 0, width: 320, height: 240)
            ),
            (
                "star at 2x", star, Transform2D(scaleX: 1.5, y: 1.5), Shadow(offset: Point(x: -4, y: 5), radius: 6),
                IntRect(x: 0, y: 0, width: 320, height: 240)
            ),
            (
                "overlapping contours, cut by the region", twice, .identity, Shadow(radius: 4),
                IntRect(x: 40, y: 50, width: 90, height: 40)
            )
        ]
        for (name, path, transform, shadow, region) in cases {
            let context = GraphicsContext(bitmap: Bitmap(width: 320, height: 240))
            context.concatenate(transform)
            let direct = context.renderShadowMask(shadow, over: region, filling: path)
            let captured = context.renderShadowMask(shadow, over: region) { context.fill(path, color: .black) }
            XCTAssertEqual(direct.bounds, captured.bounds, name)
            XCTAssertFalse(direct.bounds.isEmpty, name)
            var differing = 0, covered = 0
            for y in direct.bounds.y..<direct.bounds.maxY {
                let a = direct.deviceRow(y), b = captured.deviceRow(y)
                for x in direct.bounds.x..<direct.bounds.maxX {
                    if a[x] != b[x] { differing += 1 }
                    if a[x] != 0 { covered += 1 }
                }
            }
            XCTAssertEqual(differing, 0, name)
            XCTAssertGreaterThan(covered, 1000, name)
        }
    }
}
