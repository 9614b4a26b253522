import XCTest
import VitrineGraphics
@testable import VitrineAnimation

/// Every row of ../shared/timing-vectors.tsv (what Core Animation's documented timing model
/// gives), evaluated through the public API: layers, animations, the engine.
final class TimingVectorsTests: XCTestCase {
    struct Row { let id: String, what: String, params: [String: String], time: String, expected: String }

    static func loadRows() throws -> [Row] {
        let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(
            contentsOf: repoRoot.appendingPathComponent("Tests/Data/timing-vectors.tsv"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5 else { return nil }
            var params: [String: String] = [:]
            for pair in f[2].split(separator: " ") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { params[kv[0]] = kv[1] }
            }
            return Row(id: f[0], what: f[1], params: params, time: f[3], expected: f[4])
        }
    }

    static func timingFunction(_ name: String) -> TimingFunction? {
        TimingFunction.Name(rawValue: name).map(TimingFunction.init(name:))
    }

    static func fillMode(_ name: String) -> FillMode {
        name == "none" ? .removed : FillMode(rawValue: name) ?? .removed
    }

    /// Applies `prefix`-ed timing parameters to an animation.
    static func configure(_ a: Animation, _ p: [String: String], prefix: String = "") {
        func d(_ k: String) -> Double? { p[prefix + k].flatMap(Double.init) }
        if let v = d("duration") { a.duration = v }
        if let v = d("beginTime") { a.beginTime = v }
        if let v = d("speed") { a.speed = v }
        if let v = d("timeOffset") { a.timeOffset = v }
        if let v = d("repeatCount") { a.repeatCount = v }
        if let v = d("repeatDuration") { a.repeatDuration = v }
        if let v = p[prefix + "autoreverses"] { a.autoreverses = v == "true" }
        if let v = p[prefix + "fillMode"] { a.fillMode = fillMode(v) }
        if let v = p[prefix + "removedOnCompletion"] { a.isRemovedOnCompletion = v == "true" }
        if let v = p[prefix + "timingFunction"] { a.timingFunction = timingFunction(v) }
    }

    /// Adds `animation` to a root layer whose model zPosition is `model`, commits it at scene
    /// time 0, applies the layer's timing, and returns the presented zPosition at `time`.
    static func present(
        _ animation: Animation, model: Double, layerParams p: [String: String], at time: Double
    ) -> Double {
        let layer = Layer()
        layer.zPosition = model
        let engine = Engine(root: layer)
        layer.add(animation, forKey: "a")
        engine.tick(at: 0)
        if let v = p["layer.speed"].flatMap(Double.init) { layer.speed = v }
        if let v = p["layer.timeOffset"].flatMap(Double.init) { layer.timeOffset = v }
        if let v = p["layer.beginTime"].flatMap(Double.init) { layer.beginTime = v }
        return engine.presentationTree(at: time).zPosition
    }

    static func numbers(_ s: String?) -> [Double]? { s.map { $0.split(separator: ",").compactMap { Double($0) } } }

    func testEveryRow() throws {
        let rows = try TimingVectorsTests.loadRows()
        XCTAssertGreaterThan(rows.count, 40)
        var checked = 0, skipped: [String] = []
        for row in rows {
            let p = row.params
            let model = 7.0
            var actual: Double
            switch row.what {
            case "function":
                let cp = TimingVectorsTests.numbers(p["cp"]) ?? []
                XCTAssertEqual(cp.count, 4, row.id)
                actual = TimingFunction(controlPoints: cp[0], cp[1], cp[2], cp[3]).value(at: Double(row.time)!)
            case "timing":
                let a = BasicAnimation(keyPath: "zPosition")
                a.fromValue = 0.0; a.toValue = 1.0
                TimingVectorsTests.configure(a, p)
                actual = TimingVectorsTests.present(a, model: model, layerParams: p, at: Double(row.time)!)
            case "group":
                let child = BasicAnimation(keyPath: "zPosition")
                child.fromValue = 0.0; child.toValue = 1.0
                TimingVectorsTests.configure(child, p, prefix: "child.")
                let group = AnimationGroup()
                TimingVectorsTests.configure(group, p, prefix: "group.")
                group.animations = [child]
                actual = TimingVectorsTests.present(group, model: model, layerParams: p, at: Double(row.time)!)
            case "value":
                let a = BasicAnimation(keyPath: "zPosition")
                a.duration = 1
                a.fromValue = p["from"].flatMap(Double.init)
                a.toValue = p["to"].flatMap(Double.init)
                a.byValue = p["by"].flatMap(Double.init)
                a.isAdditive = p["additive"] == "true"
                actual = TimingVectorsTests.present(
                    a, model: Double(p["model"]!)!, layerParams: p, at: Double(row.time)!)
            case "keyframe":
                let a = KeyframeAnimation(keyPath: "zPosition")
                a.duration = 1
                a.values = TimingVectorsTests.numbers(p["values"])
                a.keyTimes = TimingVectorsTests.numbers(p["keyTimes"])
                a.calculationMode = p["calculationMode"].flatMap(CalculationMode.init(rawValue:)) ?? .linear
                a.timingFunctions = p["timingFunctions"].map {
                    $0.split(separator: ",").compactMap { TimingVectorsTests.timingFunction(String($0)) }
                }
                actual = TimingVectorsTests.present(a, model: model, layerParams: p, at: Double(row.time)!)
            case "stroke":
                // strokeStart/strokeEnd trimming is measured on paths by the graphics helper's
                // PathMeasure; this target only stores the two properties.
                skipped.append(row.id)
                continue
            default:
                XCTFail("unknown row kind \(row.what) in \(row.id)")
                continue
            }
            if row.expected == "model" {
                XCTAssertEqual(actual, model, accuracy: 1e-4, "\(row.id): expected the model value")
            } else {
                XCTAssertEqual(actual, Double(row.expected)!, accuracy: 1e-4, row.id)
            }
            checked += 1
        }
        XCTAssertEqual(skipped, ["S1"])
        XCTAssertEqual(checked, rows.count - skipped.count)
    }
}
