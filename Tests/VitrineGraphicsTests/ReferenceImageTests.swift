import Foundation
import VitrineGraphics
import VitrineConfig
import XCTest

/// Every draw spec rendered through `vitrine draw`'s code path (DrawSpec.load → render) and
/// compared with what Skia's CPU rasterizer renders for it, within the tolerance that holds
/// between trusted rasterizers (shared/reference/README.md): over the RGB channels of the whole
/// image, mean absolute difference ≤ 1.0, 99.9th percentile ≤ 48, maximum ≤ 128.
final class ReferenceImageTests: XCTestCase {
    struct Difference: CustomStringConvertible {
        var mean: Double, p999: Int, max: Int
        var passes: Bool { mean <= 1.0 && p999 <= 48 && max <= 128 }
        var description: String { String(format: "mean %.3f, p99.9 %d, max %d", mean, p999, max) }
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shared reference specs and Skia's images (the copy in Tests/Data), then our own.
    func testSharedReferenceSpecs() throws {
        try compareAll(in: Self.repository.appendingPathComponent("Tests/Data/reference"))
    }

    /// The shared effects specs: gradient fills and strokes (axial, radial with translucent
    /// stops, conic, on dashes and trimmed strokes), drop shadows, and perspective.
    func testSharedEffectsSpecs() throws {
        try compareAll(
            in: Self.repository.appendingPathComponent("Tests/Data/reference/effects"),
            only: ["19-gradients-axial-radial", "20-gradients-conic-stroke", "21-shadows", "22-perspective"])
    }

    /// Cases the shared specs do not cover: curved even-odd fills, thick strokes on tight curves,
    /// translucent self-overlapping strokes, skewed dashes, hairlines, huge and clipped geometry.
    /// References made with shared/tools/skia-reference.py.
    func testProjectReferenceSpecs() throws {
        try compareAll(in: Self.repository.appendingPathComponent("Tests/VitrineGraphicsTests/References"))
    }

    func compareAll(in root: URL, only names: Set<String>? = nil) throws {
        let specs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("specs").path)
            .filter { $0.hasSuffix(".toml") && names?.contains(String($0.dropLast(5))) != false }.sorted()
        XCTAssertEqual(specs.count, names?.count ?? specs.count)
        XCTAssertFalse(specs.isEmpty)
        for spec in specs {
            let name = String(spec.dropLast(5))
            let rendered = try DrawSpec.load(file: root.appendingPathComponent("specs/\(spec)").path).render()
            let reference = try Image(contentsOfFile: root.appendingPathComponent("png/\(name).png").path)
            let difference = try XCTUnwrap(Self.compare(rendered, reference), "\(name): sizes differ")
            XCTAssertTrue(difference.passes, "\(name): \(difference)")
            print("reference \(name): \(difference)")
        }
    }

    /// Channel differences of two opaque images, premultiplied values compared as stored.
    static func compare(_ bitmap: Bitmap, _ image: Image) -> Difference? {
        guard bitmap.width == image.width, bitmap.height == image.height else { return nil }
        var histogram = [Int](repeating: 0, count: 256)
        var total = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let a = bitmap[x, y], b = image[x, y]
                for shift: UInt32 in [0, 8, 16] {
                    let d = abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff))
                    histogram[d] += 1
                    total += d
                }
            }
        }
        let count = bitmap.width * bitmap.height * 3
        // The 99.9th percentile as numpy's default (linear) would land between two ranks; the
        // upper of them is the stricter reading.
        let rank = Int((Double(count - 1) * 0.999).rounded(.up))
        var seen = 0, p999 = 0
        for (value, n) in histogram.enumerated() {
            seen += n
            if seen > rank { p999 = value; break }
        }
        let max = histogram.lastIndex { $0 > 0 } ?? 0
        return Difference(mean: Double(total) / Double(count), p999: p999, max: max)
    }

    /// The comparison itself must be able to fail: a shape moved by two pixels is caught.
    func testComparisonCatchesAShiftedShape() throws {
        func draw(_ x: Double) -> Bitmap {
            let bitmap = Bitmap(width: 100, height: 100)
            let context = GraphicsContext(bitmap: bitmap)
            context.clear(.white)
            var path = Path()
            path.addEllipse(in: Rect(x: x, y: 20, width: 60, height: 60))
            context.fill(path, color: .black)
            return bitmap
        }
        let same = try XCTUnwrap(Self.compare(draw(20), Image(bitmap: draw(20))))
        XCTAssertEqual(same.max, 0)
        let shifted = try XCTUnwrap(Self.compare(draw(20), Image(bitmap: draw(22))))
        XCTAssertFalse(shifted.passes, "\(shifted)")
    }
}
