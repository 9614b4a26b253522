import XCTest
import VitrineGraphics
@testable import VitrineAnimation

final class InterpolationTests: XCTestCase {
    // MARK: Path morphing (seed 004)

    func roundedRect() -> Path {
        var p = Path()
        p.addRoundedRect(Rect(x: 100, y: 300, width: 120, height: 40), cornerRadius: 20)
        return p
    }

    func circle() -> Path {
        var p = Path()
        p.addArc(
            center: Point(x: 160, y: 320), radius: 20, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: true)
        return p
    }

    func points(_ path: Path) -> [Point] { path.flattened(tolerance: 0.01).flatMap(\.points) }

    func testMorphEndpointsAreExact() {
        let a = roundedRect(), b = circle()
        XCTAssertFalse(PathMorph.sameStructure(a, b))
        XCTAssertEqual(a.interpolated(to: b, fraction: 0), a)
        XCTAssertEqual(a.interpolated(to: b, fraction: 1), b)
    }

    func testNormalisedPathsShareStructureAndKeepTheirShapes() {
        let a = roundedRect(), b = circle()
        let (na, nb) = PathMorph.matched(a, b)
        XCTAssertTrue(PathMorph.sameStructure(na, nb))
        XCTAssertEqual(na.elements.count, nb.elements.count)
        // Same outlines as the originals: every normalised point lies on the original shape.
        for (normal, original) in [(na, a), (nb, b)] {
            let ob = original.bounds, nbds = normal.bounds
            XCTAssertEqual(nbds.minX, ob.minX, accuracy: 0.05); XCTAssertEqual(nbds.maxX, ob.maxX, accuracy: 0.05)
            XCTAssertEqual(nbds.minY, ob.minY, accuracy: 0.05); XCTAssertEqual(nbds.maxY, ob.maxY, accuracy: 0.05)
        }
        for p in points(nb) {
            XCTAssertEqual(p.distance(to: Point(x: 160, y: 320)), 20, accuracy: 0.01, "on the circle")
        }
        for p in points(na) {
            // On the rounded rect: distance to the inner segment (120…200, 320) is the radius 20.
            let q = Point(x: min(max(p.x, 120), 200), y: 320)
            XCTAssertEqual(p.distance(to: q), 20, accuracy: 0.01, "on the rounded rect")
        }
    }

    func testRoundedRectToCircleMidpointIsSensible() {
        let mid = roundedRect().interpolated(to: circle(), fraction: 0.5)
        let b = mid.bounds
        XCTAssertEqual(b.midX, 160, accuracy: 0.5)
        XCTAssertEqual(b.midY, 320, accuracy: 0.5)
        XCTAssertEqual(b.width, 80, accuracy: 2, "halfway between 120 and 40 wide")
        XCTAssertEqual(b.height, 40, accuracy: 1)
        // A sensible morph stays a simple convex-ish blob: every point keeps its side of the centre
        // consistent with its partner's (no crossing through the middle).
        let (na, nb) = PathMorph.matched(roundedRect(), circle())
        let c = Point(x: 160, y: 320)
        for (e, f) in zip(na.elements, nb.elements) {
            guard let p = e.endPoint, let q = f.endPoint else { continue }
            XCTAssertGreaterThan((p - c).dot(q - c), 0, "matched points lie on the same side")
        }
    }

    func testQuarterToHalfCircle() {
        let center = Point(x: 200, y: 200)
        var quarter = Path(), half = Path()
        quarter.addArc(center: center, radius: 100, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        half.addArc(center: center, radius: 100, startAngle: -.pi / 2, endAngle: .pi / 2, clockwise: true)
        let mid = quarter.interpolated(to: half, fraction: 0.5)
        let (nq, nh) = PathMorph.matched(quarter, half)
        XCTAssertTrue(PathMorph.sameStructure(nq, nh))
        guard case .move(let start)? = mid.elements.first else { return XCTFail() }
        assertPoint(start, 200, 100, accuracy: 1e-9, "both start at the top")
        assertPoint(mid.currentPoint!, 250, 250, accuracy: 1e-6, "end halfway between (300, 200) and (200, 300)")
        for p in points(mid) {
            let r = p.distance(to: center)
            XCTAssertLessThanOrEqual(r, 100 + 1e-6)
            XCTAssertGreaterThan(r, 65, "no collapse toward the centre")
            XCTAssertGreaterThanOrEqual(p.x, 200 - 1e-6, "stays on the right side")
        }
    }

    func testDifferentSubpathCountsGrowFromAPoint() {
        var one = Path(), two = Path()
        one.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        two.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        two.addEllipse(in: Rect(x: 50, y: 50, width: 20, height: 20))
        let mid = one.interpolated(to: two, fraction: 0.5)
        XCTAssertEqual(mid.flattened().count, 2)
        let second = mid.flattened()[1].points
        let xs = second.map(\.x)
        XCTAssertEqual(xs.max()! - xs.min()!, 10, accuracy: 0.2, "the new circle is half grown around its centre")
    }

    func testSameStructureInterpolatesPointByPoint() {
        var a = Path(), b = Path()
        a.move(to: Point(x: 0, y: 0)); a.addQuadCurve(to: Point(x: 10, y: 0), control: Point(x: 5, y: 5))
        b.move(to: Point(x: 0, y: 10)); b.addQuadCurve(to: Point(x: 20, y: 10), control: Point(x: 5, y: 25))
        var expected = Path()
        expected.move(to: Point(x: 0, y: 5)); expected.addQuadCurve(to: Point(x: 15, y: 5), control: Point(x: 5, y: 15))
        XCTAssertEqual(a.interpolated(to: b, fraction: 0.5), expected)
    }

    func testPathAnimationOnAShapeLayer() {
        let shape = ShapeLayer()
        shape.path = circle()
        let engine = Engine(root: shape)
        let a = BasicAnimation(keyPath: "path")
        a.duration = 3
        a.fromValue = roundedRect()
        shape.add(a, forKey: nil)
        engine.tick(at: 0)
        XCTAssertEqual((engine.presentationTree(at: 0) as! ShapeLayer).path, roundedRect() as Path?)
        XCTAssertEqual((engine.presentationTree(at: 1.5) as! ShapeLayer).path!.bounds.width, 80, accuracy: 2)
    }

    // MARK: Transforms

    func testDecompositionRoundTrips() {
        let t = VitrineGraphics.Transform2D(a: 1.2, b: 0.7, c: -0.3, d: -0.9, tx: 5, ty: -7)
        let back = TransformComponents(t).transform
        for (x, y) in [(back.a, t.a), (back.b, t.b), (back.c, t.c), (back.d, t.d), (back.tx, t.tx), (back.ty, t.ty)] {
            XCTAssertEqual(x, y, accuracy: 1e-12)
        }
        let r = TransformComponents(VitrineGraphics.Transform2D(rotationAngle: 0.4).scaledBy(x: 2, y: 3))
        XCTAssertEqual(r.rotation, 0.4, accuracy: 1e-12)
        XCTAssertEqual(r.scaleX, 2, accuracy: 1e-12); XCTAssertEqual(r.scaleY, 3, accuracy: 1e-12)
        XCTAssertEqual(r.shear, 0, accuracy: 1e-12)
    }

    func testTransformTakesTheShortWayRound() {
        let a = VitrineGraphics.Transform2D(rotationAngle: 170 * .pi / 180)
        let b = VitrineGraphics.Transform2D(rotationAngle: -170 * .pi / 180)
        let mid = TransformComponents(a.interpolated(to: b, fraction: 0.5)).rotation
        XCTAssertEqual(abs(mid), .pi, accuracy: 1e-9, "through 180°, not through 0°")
        let grow = VitrineGraphics.Transform2D.identity.interpolated(
            to: VitrineGraphics.Transform2D(translationX: 10, y: 0).scaledBy(x: 3, y: 3), fraction: 0.5)
        XCTAssertEqual(TransformComponents(grow).scaleX, 2, accuracy: 1e-12)
        XCTAssertEqual(grow.tx, 5, accuracy: 1e-12)
    }

    func testTransformKeyPathsWorkOnTheDecomposedValue() {
        let layer = Layer()
        layer.transform = Transform3D(VitrineGraphics.Transform2D(scaleX: 2, y: 2))
        let engine = Engine(root: layer)
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 1
        layer.add(spin, forKey: "spin")
        let slide = BasicAnimation(keyPath: "transform.translation.x")
        slide.fromValue = 0.0
        slide.toValue = 40.0
        slide.duration = 1
        layer.add(slide, forKey: "slide")
        engine.tick(at: 0)
        let c = TransformComponents(engine.presentationTree(at: 0.75).transform.affine)
        XCTAssertEqual(c.rotation, -.pi / 2, accuracy: 1e-9, "3/4 of a full turn (as −90°)")
        XCTAssertEqual(c.scaleX, 2, accuracy: 1e-12, "the model's scale is kept")
        XCTAssertEqual(c.translationX, 30, accuracy: 1e-12)
        XCTAssertEqual(layer.value(forKeyPath: "transform.scale") as? Double, 2)
        XCTAssertTrue(layer.setValue(0.5, forKeyPath: "transform.scale.y"))
        XCTAssertEqual(TransformComponents(layer.transform.affine).scaleY, 0.5, accuracy: 1e-12)
    }

    func testSubKeyPaths() {
        let layer = Layer()
        layer.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        XCTAssertEqual(layer.value(forKeyPath: "bounds.size.width") as? Double, 100)
        XCTAssertTrue(layer.setValue(30.0, forKeyPath: "bounds.size.height"))
        XCTAssertEqual(layer.bounds.size.height, 30)
        XCTAssertTrue(layer.setValue(7.0, forKeyPath: "position.x"))
        XCTAssertEqual(layer.position.x, 7)
        XCTAssertFalse(layer.setValue(Point.zero, forKeyPath: "position.x"), "wrong type")
        XCTAssertFalse(layer.setValue(1.0, forKeyPath: "bounds.nothing"))
        XCTAssertNil(layer.value(forKeyPath: "frame"))
    }

    // MARK: Other values

    func testColoursInterpolatePremultiplied() {
        let clear = Color(red: 0, green: 0, blue: 0, alpha: 0), white = Color.white
        let mid = clear.interpolated(to: white, fraction: 0.5)
        XCTAssertEqual(mid.alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(mid.red, 1, accuracy: 1e-12, "no grey fringe")
        let faded = (nil as Color?).interpolated(to: Color(red: 1, green: 0, blue: 0), fraction: 0.25)
        XCTAssertEqual(faded, Color(red: 1, green: 0, blue: 0, alpha: 0.25))
    }

    func testDashPatternsOfDifferentLengths() {
        let a: [Double] = [4, 2], b: [Double] = [1, 2, 3]
        let mid = a.interpolated(to: b, fraction: 0.5)
        XCTAssertEqual(mid, [2.5, 2, 3.5, 1.5, 3, 2.5])  // [4,2,4,2,4,2] and [1,2,3,1,2,3]
        XCTAssertEqual(a.interpolated(to: b, fraction: 0), a)
        XCTAssertEqual(a.interpolated(to: b, fraction: 1), b)
    }

    /// The engine's comparison of slot values (`isSame(as:)`) agrees with `==`, optionals
    /// included (they have their own), and the generic path it is called through gives the same.
    func testIsSameIsEquality() {
        func generic<T: Interpolatable>(_ a: T, _ b: T) -> Bool { a.isSame(as: b) }
        let colors: [Color?] = [nil, .redColor, Color(red: 1, green: 0, blue: 0, alpha: 0.5), .redColor]
        for a in colors {
            for b in colors {
                XCTAssertEqual(a.isSame(as: b), a == b)
                XCTAssertEqual(generic(a, b), a == b)
            }
        }
        let paths: [Path?] = [nil, roundedRect(), circle(), roundedRect()]
        for a in paths {
            for b in paths { XCTAssertEqual(generic(a, b), a == b) }
        }
        let numbers: [Double?] = [nil, 0, -0.0, 1, .nan]
        for a in numbers {
            for b in numbers {
                XCTAssertEqual(generic(a, b), a == b, "\(String(describing: a)) \(String(describing: b))")
            }
        }
    }
}
