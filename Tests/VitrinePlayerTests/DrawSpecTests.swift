import VitrineGraphics
import VitrineTOML
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

final class DrawSpecTests: XCTestCase {
    func parse(_ text: String) throws -> DrawSpec {
        try DrawSpec.parse(bytes: Array(text.utf8), file: "spec.toml")
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            XCTFail("expected errors")
            return []
        } catch let e as TOMLFieldErrors {
            return e.sorted.map(\.description)
        } catch {
            XCTFail("unexpected \(error)")
            return []
        }
    }

    func testDefaultsAreCAShapeLayers() throws {
        let spec = try parse("width = 10\nheight = 20\n[[shape]]\nrect = [1, 2, 3, 4]\n")
        XCTAssertEqual(spec.width, 10)
        XCTAssertEqual(spec.background, .white)
        guard case .shape(let shape) = spec.items.first else { return XCTFail() }
        XCTAssertEqual(shape.fillColor, .black)
        XCTAssertNil(shape.strokeColor)
        XCTAssertEqual(shape.strokeStyle, StrokeStyle(lineWidth: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 10))
        XCTAssertEqual(shape.path.bounds, Rect(x: 1, y: 2, width: 3, height: 4))
    }

    func testItemsKeepSourceOrderAcrossShapesAndTexts() throws {
        let spec = try parse(
            """
            width = 10
            height = 10
            [[text]]
            string = "a"
            position = [1, 5]
            [[shape]]
            oval = [0, 0, 4, 4]
            fillColor = "none"
            """)
        guard case .text = spec.items[0], case .shape(let s) = spec.items[1] else { return XCTFail() }
        XCTAssertNil(s.fillColor)
    }

    func testEveryErrorNamesFileLineAndKey() {
        let found = errors(
            """
            width = 100
            height = "tall"
            [[shape]]
            path = "M 0 0 L 10 10 Q"
            [[shape]]
            rect = [0, 0, 10]
            fillColour = "#fff"
            [[shape]]
            oval = [0, 0, 5, 5]
            lineCap = "rounded"
            strokeColor = "#12345"
            """)
        XCTAssertEqual(
            found,
            [
                "spec.toml:2:10: height: expected an integer, found a string",
                "spec.toml:4:8: shape 1 › path: bad path data at byte 15: " + pathError("M 0 0 L 10 10 Q"),
                "spec.toml:6:8: shape 2 › rect: expected 4 numbers, found 3",
                "spec.toml:7:1: shape 2 › fillColour: unknown key (did you mean 'fillColor'?)",
                "spec.toml:10:11: shape 3 › lineCap: " + oneOfMessage("rounded", ["butt", "round", "square"]),
                "spec.toml:11:15: shape 3 › strokeColor: '#12345' is not a colour: expected \"#rgb\", \"#rrggbb\", \"#rrggbbaa\" or \"none\""
            ])
    }

    /// Gradients and shadows: each bad value is named with its key inside the table.
    func testBadGradientsAndShadowsNameTheirKey() {
        let found = errors(
            """
            width = 100
            height = 100
            [[shape]]
            rect = [0, 0, 10, 10]
            fillGradient = { type = "diamond", colors = ["#fff"], start = [0, 0], end = [1, 1] }
            [[shape]]
            rect = [0, 0, 10, 10]
            strokeGradient = { type = "axial", colors = ["#fff", "red"], start = [0, 0], end = [1, 1] }
            [[shape]]
            rect = [0, 0, 10, 10]
            fillGradient = { type = "conic", colors = ["#fff", "#000"], locations = [0.5, 0.2], start = [0, 0], end = [1, 1] }
            shadow = { radius = -3, blur = 2 }
            """
        ).joined(separator: "\n")
        XCTAssertTrue(found.contains("shape 1 › fillGradient › type: 'diamond' is not one of"), found)
        XCTAssertTrue(found.contains("shape 2 › strokeGradient › colors: item 2: 'red' is not a colour"), found)
        XCTAssertTrue(
            found.contains("shape 3 › fillGradient › locations: must run from 0 to 1 without going back"), found)
        XCTAssertTrue(found.contains("shape 3 › shadow › blur: unknown key"), found)
    }

    func testSyntaxErrorsAndMissingKeys() {
        let syntax = errors("width = 1\nheight = 1\n[[shape]\n")
        XCTAssertEqual(syntax.count, 1)
        XCTAssertTrue(syntax[0].hasPrefix("spec.toml:3:"), syntax[0])
        let missing = errors("width = 5\n[[shape]]\nfillColor = \"#000\"\n")
        XCTAssertEqual(missing.count, 2)
        XCTAssertTrue(missing[0].hasPrefix("spec.toml:1:1: height:"), missing[0])
        XCTAssertTrue(missing[1].hasPrefix("spec.toml:2:1: shape 1:"), missing[1])
        XCTAssertTrue(missing[1].contains("needs one of path, rect, oval, roundedRect, arc"), missing[1])
    }

    func testOneGeometryPerShapeAndCanvasLimits() {
        let found = errors("width = 0\nheight = 100000\n[[shape]]\nrect = [0,0,1,1]\noval = [0,0,1,1]\n")
        XCTAssertEqual(found.count, 3)
        XCTAssertTrue(found[0].hasPrefix("spec.toml:1:9: width: must be from 1 to"), found[0])
        XCTAssertTrue(found[2].hasPrefix("spec.toml:5:1: shape 1 › oval: a shape takes one of"), found[2])
    }

    func testArcPrimitive() throws {
        let spec = try parse("width = 10\nheight = 10\n[[shape]]\narc = [50, 50, 10, 0, 3.141592653589793, true]\n")
        guard case .shape(let s) = spec.items.first else { return XCTFail() }
        let b = s.path.bounds
        XCTAssertEqual(b.minX, 40, accuracy: 1e-9)
        XCTAssertEqual(b.maxY, 60, accuracy: 1e-6)
        XCTAssertEqual(b.minY, 50, accuracy: 1e-9)
        XCTAssertEqual(errors("width = 10\nheight = 10\n[[shape]]\narc = [50, 50, 10, 0, 1]\n").count, 1)
    }

    func testEveryReferenceSpecLoads() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Data/reference/specs").standardized
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.filter { $0.hasSuffix(".toml") } ?? []
        XCTAssertGreaterThanOrEqual(files.count, 18, "the reference specs are in Tests/Data/reference/specs")
        for file in files {
            XCTAssertNoThrow(try DrawSpec.load(file: dir.appendingPathComponent(file).path), file)
        }
    }

    private func pathError(_ data: String) -> String {
        do { _ = try Path(svgPathData: data); return "" } catch let e as PathDataError { return e.message } catch {
            return ""
        }
    }

    private func oneOfMessage(_ value: String, _ choices: [String]) -> String {
        let r = TOMLReader(try! TOML.parse("k = \"\(value)\""), file: "f")
        do { _ = try r.oneOf("k", choices); return "" } catch let e as TOMLFieldError { return e.message } catch {
            return ""
        }
    }
}
