import VitrineAnimation
import VitrineGraphics
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// A layer class the library does not know, to show that registering it is all it takes.
final class WobbleLayer: Layer {
    enum Flavour: String, CaseIterable { case plain, spicy }
    @Animatable var wobble: Double = 3
    @LayerProperty var flavour: Flavour = .plain
}

/// The registry: every property of every type can be written in TOML and read back from the
/// built layer; the reference lists what the registry holds.
final class LayerRegistryTests: XCTestCase {
    /// A TOML value for a property of `type`, different from `current`, and the Swift value it
    /// must produce — written here independently of the loader.
    func sample(for type: PropertyType, key: String, current: Any) -> (toml: String, expected: Any)? {
        switch type.name {
        case "number": return ("12.5", 12.5)
        case "bool": return ((current as! Bool) ? "false" : "true", !(current as! Bool))
        case "string": return ("\"hello\"", "hello")
        case "font family": return ("\"monospace\"", "monospace")
        case "[x, y]": return ("[3, 4]", Point(x: 3, y: 4))
        case "[width, height]": return ("[5, 6]", Size(width: 5, height: 6))
        case "[x, y, width, height]": return ("[1, 2, 30, 40]", Rect(x: 1, y: 2, width: 30, height: 40))
        case "colour", "colour | \"none\"":
            return ("\"#336699\"", Color(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0))
        case "[number, …]": return ("[4, 2]", [4.0, 2.0])
        case "[colour, …]":
            return ("[\"#ff0000\", \"#0000ff\"]", [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)])
        case "transform":
            // Scale first, then rotation, then translation.
            let scale = VitrineGraphics.Transform2D(scaleX: 2, y: 2)
            let turn = VitrineGraphics.Transform2D(rotationAngle: 0.5)
            let move = VitrineGraphics.Transform2D(translationX: 10, y: 20)
            let t = scale.concatenating(turn).concatenating(move)
            return ("{ rotation = 0.5, scale = 2, translation = [10, 20] }", t)
        case "path":
            var p = Path()
            p.move(to: Point(x: 0, y: 0)); p.addLine(to: Point(x: 10, y: 0)); p.addLine(to: Point(x: 10, y: 10))
            p.closeSubpath()
            return ("\"M0 0 L10 0 L10 10 Z\"", p)
        case "image file": return ("\"images/lake.png\"", Size(width: 800, height: 800))
        case "integer": return ("7", 7)
        case "[[emitterCell]] tables":
            var cell = EmitterCell()
            cell.birthRate = 5
            cell.lifetime = 2
            cell.color = Color(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0)
            return ("[{ birthRate = 5, lifetime = 2, color = \"#336699\" }]", [cell])
        case "transition":
            return (
                "{ type = \"push\", subtype = \"fromBottom\", duration = 0.5 }",
                LayerTransition(kind: .push, subtype: .fromBottom, duration: 0.5)
            )
        case "gradient":
            let gradient = Gradient(
                kind: .radial, colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)],
                locations: [0.25, 1], start: Point(x: 5, y: 5), end: Point(x: 9, y: 9))
            return (
                "{ type = \"radial\", colors = [\"#ff0000\", \"#0000ff\"], locations = [0.25, 1], start = [5, 5], end = [9, 9] }",
                gradient
            )
        default:
            guard let cases = type.cases, let other = cases.first(where: { $0 != type.formatted(current) }) else {
                return nil
            }
            return ("\"\(other)\"", other)
        }
    }

    func same(_ value: Any, _ expected: Any, type: PropertyType) -> Bool {
        guard let v = unwrapOptional(value) else { return false }
        switch v {
        case let c as any LayerContents: return c.contentsSize == expected as? Size
        case let t as Transform3D:
            guard let e = expected as? VitrineGraphics.Transform2D else { return false }
            return zip(t.entries, Transform3D(e).entries).allSatisfy { abs($0 - $1) < 1e-12 }
        case let t as VitrineGraphics.Transform2D:
            guard let e = expected as? VitrineGraphics.Transform2D else { return false }
            let differences: [Double] = [t.a - e.a, t.b - e.b, t.c - e.c, t.d - e.d, t.tx - e.tx, t.ty - e.ty]
            return differences.allSatisfy { abs($0) < 1e-12 }
        case let p as Path: return p == expected as? Path
        case let list as ColorList: return list.colors == expected as? [Color]
        case let g as Gradient: return g == expected as? Gradient
        case let t as LayerTransition: return t == expected as? LayerTransition
        case let cells as [EmitterCell]: return cells == expected as? [EmitterCell]
        case let h as AnyHashable:
            if type.cases != nil { return type.formatted(v) == expected as? String }
            return h == expected as? AnyHashable
        default: return false
        }
    }

    /// The cells of `key`'s row in the text reference's table of `type` (columns are separated
    /// by two spaces or more).
    func row(_ key: String, of type: String, in text: String) -> [String] {
        guard let start = text.range(of: "type = \"\(type)\"\n") else { return [] }
        let section = text[start.upperBound...].prefix { _ in true }
        for line in section.split(separator: "\n") {
            if line.hasPrefix("type = ") { break }
            let cells = line.split(separator: "  ", omittingEmptySubsequences: true).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if cells.first == key { return cells.filter { !$0.isEmpty } }
        }
        return []
    }

    func testEveryPropertyOfEveryTypeRoundTrips() throws {
        for type in LayerTypeRegistry.standard.types {
            for property in type.properties {
                guard
                    var (toml, expected) = sample(for: property.type, key: property.key, current: property.defaultValue)
                else {
                    XCTFail("no sample for \(type.name).\(property.key) of type \(property.type.name)")
                    continue
                }
                if case .range(let range) = property.limit, property.type.name == "number" {
                    (toml, expected) = ("\(range.upperBound / 2)", range.upperBound / 2)
                }
                var extra = ""
                for required in type.requiredKeys where required != property.key {
                    extra += "\(required) = \"images/lake.png\"\n"
                }
                let text = oneScene(
                    "[[scene.layer]]\nid = \"x\"\ntype = \"\(type.name)\"\n\(extra)\(property.key) = \(toml)\n")
                let playlist = try loadPlaylist(text)
                let scene = try SceneInstance(playlist.scenes[0], playlist: playlist)
                let layer = try XCTUnwrap(scene.layer(withID: "x"))
                XCTAssertTrue(type.layerClass == Swift.type(of: layer), "\(type.name)")
                let value = try XCTUnwrap(
                    layer.storedValue(forKey: property.propertyKey), "\(type.name).\(property.key)")
                XCTAssertTrue(
                    same(value, expected, type: property.type), "\(type.name).\(property.key): \(value) ≠ \(expected)")
            }
        }
    }

    func testShapeKeysStandForThePath() throws {
        let playlist = try loadPlaylist(
            oneScene(
                """
                [[scene.layer]]
                id = "r"
                type = "shape"
                roundedRect = [10, 20, 100, 50]
                cornerRadius = 12

                [[scene.layer]]
                id = "a"
                type = "shape"
                arc = [50, 50, 40, 0, 3.14159265358979, true]
                cornerRadius = 7
                """))
        let scene = try SceneInstance(playlist.scenes[0], playlist: playlist)
        let rounded = try XCTUnwrap(scene.layer(withID: "r") as? ShapeLayer)
        var expected = Path()
        expected.addRoundedRect(Rect(x: 10, y: 20, width: 100, height: 50), cornerRadius: 12)
        XCTAssertEqual(rounded.path, expected)
        XCTAssertEqual(rounded.cornerRadius, 0, "with roundedRect, cornerRadius is the rectangle's")
        let arc = try XCTUnwrap(scene.layer(withID: "a") as? ShapeLayer)
        XCTAssertEqual(arc.cornerRadius, 7, "without roundedRect, cornerRadius is the layer's")
        let bounds = try XCTUnwrap(arc.path?.bounds)
        XCTAssertEqual(bounds.minX, 10, accuracy: 1e-6)
        XCTAssertEqual(bounds.maxX, 90, accuracy: 1e-6)
        XCTAssertEqual(bounds.maxY, 90, accuracy: 1e-6)
    }

    func testStandardTypesAreFullyConfigurableAndDocumented() {
        let registry = LayerTypeRegistry.standard
        XCTAssertEqual(
            registry.names,
            [
                "layer", "image", "shape", "text", "arrow", "gradient", "transformLayer", "replicator", "emitter",
                "sector",
                "progress",
                "pie"
            ])
        for type in registry.types {
            XCTAssertEqual(type.unconfigurableKeys, [], type.name)
            // Every declared property but `name` (the id) is a key.
            XCTAssertEqual(
                Set(type.properties.map(\.propertyKey)), Set(type.makeLayer().propertyKeys).subtracting(["name"]),
                type.name)
            for p in type.properties { XCTAssertFalse(p.doc.isEmpty, "\(type.name).\(p.key) has no doc") }
        }
        let arrow = registry.type(named: "arrow")!
        XCTAssertEqual(
            Set(arrow.properties.filter(\.isAnimatable).map(\.key)).isSuperset(
                of: ArrowLayer.customPropertyKeys
                    .subtracting(["lineJoin"])), true)
        XCTAssertEqual(arrow.property("lineJoin")?.isAnimatable, false)
        XCTAssertEqual(arrow.property("lineJoin")?.type.cases, ["miter", "round", "bevel"])
        XCTAssertEqual(registry.type(named: "shape")?.property("fillColor")?.formattedDefault, "\"#000000\"")
        XCTAssertEqual(registry.type(named: "shape")?.property("strokeColor")?.formattedDefault, "none")
        XCTAssertEqual(registry.type(named: "layer")?.property("anchorPoint")?.formattedDefault, "[0.5, 0.5]")
        XCTAssertEqual(registry.type(named: "text")?.property("font")?.type.name, "font family")
    }

    func testAReferenceOfEveryTypeAndItsProperties() {
        let text = ConfigReference.render(.text)
        for type in LayerTypeRegistry.standard.types {
            XCTAssertTrue(text.contains("type = \"\(type.name)\""), type.name)
        }
        XCTAssertEqual(
            row("lengthRadians", of: "arrow", in: text),
            ["lengthRadians", "number", "0", "yes", "Angle from tail to tip; negative runs counter-clockwise."])
        XCTAssertEqual(
            row("fillRule", of: "shape", in: text),
            ["fillRule", "nonZero | evenOdd", "nonZero", "no", "Which regions are inside when filling."])
        let markdown = ConfigReference.render(.markdown)
        XCTAssertTrue(markdown.contains("### type = \"sector\""))
        XCTAssertTrue(
            markdown.contains("| lineCap | butt \\| round \\| square | butt | no | Shape of open ends. |"), markdown)
    }

    func testRegisteringATypeMakesItConfigurableAndListed() throws {
        var registry = LayerTypeRegistry.standard
        registry.register(
            "wobbler", WobbleLayer.self, summary: "Wobbles.",
            docs: ["wobble": "How much it wobbles.", "flavour": "Its flavour."])
        let reference = ConfigReference.render(.text, registry: registry)
        XCTAssertTrue(reference.contains("type = \"wobbler\""))
        XCTAssertEqual(
            row("wobble", of: "wobbler", in: reference), ["wobble", "number", "3", "yes", "How much it wobbles."])
        XCTAssertEqual(
            row("flavour", of: "wobbler", in: reference), ["flavour", "plain | spicy", "plain", "no", "Its flavour."])
        XCTAssertFalse(ConfigReference.render(.text).contains("wobbler"))

        let playlist = try loadPlaylist(
            oneScene(
                """
                [[scene.layer]]
                id = "w"
                type = "wobbler"
                wobble = 5
                flavour = "spicy"

                [[scene.layer.animation]]
                keyPath = "wobble"
                from = 0
                to = 10
                duration = 2
                """), registry: registry)
        let (scene, frame) = try SceneInstance.evaluate(playlist.scenes[0], playlist: playlist, at: 0.5)
        let w = try XCTUnwrap(scene.layer(withID: "w") as? WobbleLayer)
        XCTAssertEqual(w.wobble, 5)
        XCTAssertEqual(w.flavour, .spicy)
        let shown = try XCTUnwrap(frame.presentation.sublayers.first as? WobbleLayer)
        XCTAssertEqual(shown.wobble, 2.5, accuracy: 1e-9)
        XCTAssertEqual(
            configErrors(oneScene("[[scene.layer]]\ntype = \"wobbler\"\nflavour = \"sour\"\n"), registry: registry),
            [
                "test.toml:7:11: scene 's' › layer 1 › flavour: 'sour' is not one of 'plain', 'spicy'"
            ])
    }
}
