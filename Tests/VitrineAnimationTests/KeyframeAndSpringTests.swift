import XCTest
import VitrineGraphics
@testable import VitrineAnimation

final class KeyframeAndSpringTests: XCTestCase {
    /// The presented value of `keyPath` with `animation` (duration 1) at progress `p`.
    func present(_ animation: PropertyAnimation, on layer: Layer = Layer(), at p: Double) -> Layer {
        let engine = Engine(root: layer)
        animation.duration = 1
        animation.isRemovedOnCompletion = false
        animation.fillMode = .forwards  // p = 1 shows the end value
        layer.add(animation, forKey: "k")
        engine.tick(at: 0)
        return engine.presentationTree(at: p)
    }

    func testCubicPassesThroughKeysAsCatmullRom() {
        let a = KeyframeAnimation(keyPath: "zPosition")
        a.values = [0.0, 10.0, 0.0, 10.0]
        a.calculationMode = .cubic
        for (i, v) in [0.0, 10, 0, 10].enumerated() {
            XCTAssertEqual(present(a, at: Double(i) / 3).zPosition, v, accuracy: 1e-9)
        }
        // Uniform Catmull-Rom on the middle segment (p0..p3 = 0, 10, 0, 10) at s = 0.25:
        // ½(2p1 + (−p0+p2)s + (2p0−5p1+4p2−p3)s² + (−p0+3p1−3p2+p3)s³)
        let s = 0.25
        let expected = 0.5 * (20 + 0 * s + (0 - 50 + 0 - 10) * s * s + (0 + 30 - 0 + 10) * s * s * s)
        XCTAssertEqual(present(a, at: (1 + s) / 3).zPosition, expected, accuracy: 1e-9)
    }

    func testCubicPacedMovesAtConstantSpeed() {
        let a = KeyframeAnimation(keyPath: "zPosition")
        a.values = [0.0, 10.0, 40.0]
        a.calculationMode = .cubicPaced
        for p in [0.0, 0.25, 0.5, 0.8, 1.0] {
            XCTAssertEqual(present(a, at: p).zPosition, 40 * p, accuracy: 0.05, "p=\(p)")
        }
    }

    func testPathWithAutoRotation() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: 100, y: 0))
        path.addLine(to: Point(x: 100, y: 100))
        let a = KeyframeAnimation(keyPath: "position")
        a.path = path
        a.rotationMode = .auto
        let first = present(a, at: 0.25)
        assertPoint(first.position, 50, 0, accuracy: 1e-9)
        XCTAssertEqual(TransformComponents(first.transform.affine).rotation, 0, accuracy: 1e-9)
        let second = present(a, at: 0.75)
        assertPoint(second.position, 100, 50, accuracy: 1e-9)
        XCTAssertEqual(TransformComponents(second.transform.affine).rotation, .pi / 2, accuracy: 1e-9)
        a.rotationMode = .autoReverse
        XCTAssertEqual(TransformComponents(present(a, at: 0.75).transform.affine).rotation, -.pi / 2, accuracy: 1e-9)
        // Paced: constant speed along the 200-long path.
        a.calculationMode = .paced
        assertPoint(present(a, at: 0.6).position, 100, 20, accuracy: 0.05)
        // Discrete: jumps between the path's points.
        a.calculationMode = .discrete
        a.rotationMode = nil
        assertPoint(present(a, at: 0.5).position, 100, 0, accuracy: 1e-9)
    }

    func testMismatchedValueTypesAreIgnored() {
        let layer = Layer()
        layer.zPosition = 3
        let a = KeyframeAnimation(keyPath: "zPosition")
        a.values = [0.0, Point(x: 1, y: 1)]
        XCTAssertEqual(present(a, on: layer, at: 0.5).zPosition, 3)
        let b = BasicAnimation(keyPath: "position")
        b.fromValue = 5.0
        let other = Layer()
        other.position = Point(x: 7, y: 8)
        assertPoint(present(b, on: other, at: 0.5).position, 7, 8)
        let c = BasicAnimation(keyPath: "no.such.key")
        c.fromValue = 1.0
        XCTAssertEqual(present(c, at: 0.5).opacity, 1)
    }

    // MARK: Spring

    /// m·x″ + c·x′ + k·(x − 1) = 0 from x = 0, x′ = v₀, integrated with RK4 (step 1e-4).
    func integrate(
        mass m: Double, stiffness k: Double, damping c: Double, velocity v0: Double,
        until end: Double
    ) -> [(t: Double, x: Double)] {
        var x = 0.0, v = v0, t = 0.0
        let h = 1e-4
        var out: [(Double, Double)] = []
        func accel(_ x: Double, _ v: Double) -> Double { (-c * v - k * (x - 1)) / m }
        var step = 0
        while t < end - 1e-12 {
            let k1x = v, k1v = accel(x, v)
            let k2x = v + h / 2 * k1v, k2v = accel(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = accel(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = accel(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += h; step += 1
            if step % 1000 == 0 { out.append((t, x)) }
        }
        return out
    }

    func testSpringClosedFormMatchesTheIntegratedODE() {
        let cases: [(m: Double, k: Double, c: Double, v: Double)] = [
            (1, 100, 10, 0),  // under-damped
            (1, 100, 20, 0),  // critical
            (1, 100, 50, 0),  // over-damped
            (2, 300, 8, 5),  // under-damped, pushed
            (1, 100, 20, -3),  // critical, pulled back
            (0.5, 50, 30, 2)  // over-damped, pushed
        ]
        for c in cases {
            let solution = SpringSolution(mass: c.m, stiffness: c.k, damping: c.c, initialVelocity: c.v)
            for sample in integrate(mass: c.m, stiffness: c.k, damping: c.c, velocity: c.v, until: 2) {
                XCTAssertEqual(solution.fraction(at: sample.t), sample.x, accuracy: 1e-6, "\(c) t=\(sample.t)")
            }
        }
    }

    func testSettlingDurationAndSpringAnimation() {
        let spring = SpringAnimation(keyPath: "zPosition")
        spring.fromValue = 0.0
        spring.toValue = 100.0
        spring.damping = 10  // ζ = 0.5, ω = 10
        // Under-damped envelope √(A² + B²)·e^(−ζωt) with A = −1, B = −ζω/ω_d.
        let wd = 10 * (1 - 0.25).squareRoot()
        let amplitude = (1 + pow(5 / wd, 2)).squareRoot()
        XCTAssertEqual(spring.settlingDuration, log(amplitude / SpringAnimation.settlingThreshold) / 5, accuracy: 1e-6)
        let solution = spring.solution
        for t in stride(from: spring.settlingDuration, to: spring.settlingDuration + 3, by: 0.01) {
            XCTAssertLessThan(abs(solution.displacement(at: t)), SpringAnimation.settlingThreshold)
        }
        spring.duration = 1
        let layer = Layer()
        let engine = Engine(root: layer)
        layer.add(spring, forKey: "s")
        engine.tick(at: 0)
        for t in [0.1, 0.3, 0.7] {
            XCTAssertEqual(engine.presentationTree(at: t).zPosition, 100 * solution.fraction(at: t), accuracy: 1e-9)
        }
        XCTAssertGreaterThan(solution.fraction(at: 0.3), 1, "an under-damped spring overshoots")
    }
}

/// Keyframe values whose distances add up past the largest Double (a config may hold them).
final class KeyframeOverflowTests: XCTestCase {
    func testPacedModesOfHugeValuesFallBackToEvenPacing() {
        for mode in [CalculationMode.paced, .cubicPaced] {
            for f in stride(from: 0.0, through: 1.0, by: 0.125) {
                let value = KeyframeAnimation.interpolate(
                    [0, 1e308, -1e308, 1], at: f, mode: mode, keyTimes: nil,
                    timingFunctions: nil)
                XCTAssertFalse(value.isNaN, "\(mode) at \(f)")
            }
        }
        XCTAssertEqual(
            KeyframeAnimation.interpolate(
                [0, 1e308, -1e308, 1], at: 1.0 / 3, mode: .paced, keyTimes: nil,
                timingFunctions: nil), 1e308)
    }
}
