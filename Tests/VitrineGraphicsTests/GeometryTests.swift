import Foundation
import VitrineGraphics
import XCTest

final class GeometryTests: XCTestCase {
    func assertPoint(
        _ p: Point, _ q: Point, accuracy: Double = 1e-12, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(p.x, q.x, accuracy: accuracy, "x of \(p) vs \(q)", file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: accuracy, "y of \(p) vs \(q)", file: file, line: line)
    }

    func testConcatenationOrderIsCoreGraphics() {
        // Scale then translate: (1, 1) → (2, 3) → (12, 23).
        let t = Transform2D(scaleX: 2, y: 3).concatenating(Transform2D(translationX: 10, y: 20))
        assertPoint(t.apply(to: Point(1, 1)), Point(12, 23))
        // translatedBy applies the translation first (CGAffineTransformTranslate).
        let u = Transform2D(scaleX: 2, y: 3).translatedBy(x: 10, y: 20)
        assertPoint(u.apply(to: Point(1, 1)), Point(22, 63))
    }

    func testRotationIsClockwiseOnScreen() {
        // y grows downward: +x rotated by +90° points to +y (down), i.e. clockwise on screen.
        assertPoint(Transform2D(rotationAngle: .pi / 2).apply(to: Point(1, 0)), Point(0, 1), accuracy: 1e-15)
        assertPoint(Transform2D.identity.rotated(by: .pi).apply(to: Point(2, 3)), Point(-2, -3), accuracy: 1e-15)
    }

    func testInverse() throws {
        let t = Transform2D(a: 1.5, b: 0.3, c: -0.7, d: 2, tx: 11, ty: -4)
        let inverse = try XCTUnwrap(t.inverted())
        let p = Point(3.25, -8.5)
        assertPoint(inverse.apply(to: t.apply(to: p)), p, accuracy: 1e-12)
        let product = t.concatenating(inverse)
        XCTAssertEqual(product.a, 1, accuracy: 1e-12); XCTAssertEqual(product.b, 0, accuracy: 1e-12)
        XCTAssertEqual(product.tx, 0, accuracy: 1e-12); XCTAssertEqual(product.ty, 0, accuracy: 1e-12)
        XCTAssertNil(Transform2D(scaleX: 0, y: 1).inverted())
        XCTAssertNil(Transform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted())
    }

    func testTransformedRectIsTheBoundingBoxOfItsCorners() {
        let r = Rect(x: 0, y: 0, width: 10, height: 20)
        let rotated = Transform2D(rotationAngle: .pi / 4).apply(to: r)
        let s = 1 / 2.0.squareRoot()
        XCTAssertEqual(rotated.minX, -20 * s, accuracy: 1e-12)
        XCTAssertEqual(rotated.maxX, 10 * s, accuracy: 1e-12)
        XCTAssertEqual(rotated.minY, 0, accuracy: 1e-12)
        XCTAssertEqual(rotated.maxY, 30 * s, accuracy: 1e-12)
        XCTAssertEqual(Transform2D(translationX: 5, y: -5).apply(to: r), Rect(x: 5, y: -5, width: 10, height: 20))
        XCTAssertTrue(Transform2D.identity.apply(to: Rect.null).isNull)
    }

    func testMaxScaleIsTheLargestStretch() {
        XCTAssertEqual(Transform2D(scaleX: 3, y: -0.5).maxScale, 3, accuracy: 1e-12)
        XCTAssertEqual(Transform2D(rotationAngle: 1).scaledBy(x: 2, y: 2).maxScale, 2, accuracy: 1e-12)
    }

    func testRectOperations() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10), b = Rect(x: 5, y: -5, width: 10, height: 10)
        XCTAssertEqual(a.union(b), Rect(x: 0, y: -5, width: 15, height: 15))
        XCTAssertEqual(a.intersection(b), Rect(x: 5, y: 0, width: 5, height: 5))
        XCTAssertTrue(a.intersection(Rect(x: 20, y: 20, width: 1, height: 1)).isNull)
        XCTAssertEqual(Rect.null.union(a), a)
        XCTAssertEqual(Rect(x: 10, y: 10, width: -4, height: -6).standardized, Rect(x: 6, y: 4, width: 4, height: 6))
        XCTAssertEqual(Rect(x: 0.5, y: 1.2, width: 2, height: 2).integral, Rect(x: 0, y: 1, width: 3, height: 3))
        XCTAssertEqual(
            IntRect(enclosing: Rect(x: -0.5, y: 2.25, width: 1, height: 1)), IntRect(x: -1, y: 2, width: 2, height: 2))
        XCTAssertTrue(IntRect(enclosing: Rect(x: .nan, y: 0, width: 1, height: 1)).isEmpty)
    }

    func testColourParsing() throws {
        XCTAssertEqual(try Color(hex: "#fff"), Color(red: 1, green: 1, blue: 1))
        XCTAssertEqual(try Color(hex: "#FF8000"), Color(r8: 255, g8: 128, b8: 0))
        XCTAssertEqual(try Color(hex: "#ff800080").alpha, 128.0 / 255, accuracy: 1e-12)
        for bad in ["fff", "#ff", "#fffff", "#gggggg", "#ff80008", "", "#"] {
            XCTAssertThrowsError(try Color(hex: bad), bad)
        }
        XCTAssertEqual(try Color(hex: "#336699").hexString, "#336699")
    }

    func testPremultipliedPixelsInX11ByteOrder() throws {
        // Bytes B, G, R, A in memory: the value is A<<24 | R<<16 | G<<8 | B.
        XCTAssertEqual(try Color(hex: "#ff8000").premultipliedPixel, 0xFFFF_8000)
        // Half-transparent white: every channel premultiplied to 128.
        XCTAssertEqual(Color(red: 1, green: 1, blue: 1, alpha: 0.5).premultipliedPixel, 0x8080_8080)
        XCTAssertEqual(Color(red: .nan, green: 2, blue: -1, alpha: .nan).premultipliedPixel, 0)
        let back = Color(premultipliedPixel: 0x8040_2000)
        XCTAssertEqual(back.red, 0x40 / 255.0 / (0x80 / 255.0), accuracy: 1e-12)
    }
}
