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

    /// Told where the caster paints (its path's bounds and its stroke's reach), a shadow is
    /// captured only there and draws the same pixels: strokes with miter joins and square
    /// caps, a fill, a shape partly off the picture casting into it, under a turn and a scale.
    func testAShadowCutToItsCastersBoundsIsTheSame() {
        var zigzag = Path()
        zigzag.move(to: Point(x: 20, y: 120))
        for i in 1...6 { zigzag.addLine(to: Point(x: 20 + Double(i) * 45, y: i % 2 == 0 ? 120 : 40)) }
        var card = Path()
        card.addRoundedRect(Rect(x: -60, y: 150, width: 140, height: 90), cornerRadius: 12)
        let miter = StrokeStyle(lineWidth: 9, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        let cases: [(String, Path, StrokeStyle?, Transform2D, Shadow)] = [
            ("zigzag stroked", zigzag, miter, .identity, Shadow(offset: Point(x: 5, y: 7), radius: 10)),
            (
                "zigzag turned and scaled", zigzag, miter,
                Transform2D(rotationAngle: 0.3).concatenating(Transform2D(scaleX: 1.3, y: 0.8)),
                Shadow(offset: Point(x: -6, y: 4), radius: 3)
            ),
            ("card off the edge", card, nil, .identity, Shadow(offset: Point(x: 30, y: -20), radius: 24))
        ]
        for (name, path, stroke, transform, shadow) in cases {
            func draw(cut: Bool) -> Bitmap {
                let bitmap = Bitmap(width: 320, height: 240)
                let context = GraphicsContext(bitmap: bitmap)
                context.clear(.white)
                context.concatenate(transform)
                let reach = stroke.map { path.strokeReach($0) } ?? 0
                let bounds = path.bounds.insetBy(dx: -reach, dy: -reach)
                context.drawWithShadow(shadow, casterBounds: cut ? bounds : nil) {
                    if let stroke {
                        context.stroke(path, color: Color(red: 0, green: 0, blue: 1), style: stroke)
                    } else {
                        context.fill(path, color: Color(red: 0, green: 0, blue: 1))
                    }
                }
                return bitmap
            }
            let whole = draw(cut: false), cut = draw(cut: true)
            var differing = 0, shaded = 0
            for y in 0..<240 {
                for x in 0..<320 {
                    if whole[x, y] != cut[x, y] { differing += 1 }
                    if whole[x, y] != Color.white.premultipliedPixel { shaded += 1 }
                }
            }
            XCTAssertEqual(differing, 0, name)
            XCTAssertGreaterThan(shaded, 2000, name)
        }
    }
}
