import VitrineGraphics
import VitrineTOML
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// Broken configs: every error names the file, the line and column of the offending key or
/// value, the scene, the layer and the key.
final class ConfigErrorTests: XCTestCase {
    func fixtureErrors(_ name: String) -> [String] {
        let path = ConfigPaths.fixtures + "/" + name
        do {
            _ = try PlaylistLoader.load(file: path)
            XCTFail("\(name) loaded")
        } catch let errors as TOMLFieldErrors {
            return errors.sorted.map { $0.description.replacingOccurrences(of: ConfigPaths.fixtures + "/", with: "") }
        } catch {
            XCTFail("unexpected \(error)")
        }
        return []
    }

    func testSyntaxError() {
        let found = fixtureErrors("syntax-error.toml")
        XCTAssertEqual(found.count, 1)
        // `[[scene]` on line 4: the single `]` in column 8 is where the header goes wrong.
        XCTAssertTrue(found.first?.hasPrefix("syntax-error.toml:4:8: ") ?? false, "\(found)")
        XCTAssertTrue(found.first?.contains("']]'") ?? false, "\(found)")
    }

    func testUnknownKey() {
        XCTAssertEqual(
            fixtureErrors("unknown-key.toml"),
            [
                "unknown-key.toml:8:1: scene 'arrow' › layer 'ring' › lenghtRadians: unknown key (did you mean 'lengthRadians'?)"
            ])
    }

    func testWrongType() {
        XCTAssertEqual(
            fixtureErrors("wrong-type.toml"),
            [
                "wrong-type.toml:11:12: scene 'pie' › layer 'pie' › position: expected an array of numbers, found a string"
            ])
    }

    func testMissingImage() {
        XCTAssertEqual(
            fixtureErrors("missing-image.toml"),
            [
                // The resolved path is the fixture directory's (shortened like the file name).
                "missing-image.toml:9:12: scene 'photo' › layer 'photo' › contents: cannot load image 'images/missing.png': "
                    + "images/missing.png: cannot open: no such file or directory"
            ])
    }

    func testBadPathData() {
        // "M0 0 L0 400 Q207 600" is 20 bytes; the quadratic's third number is missing at its end.
        let data = "M0 0 L0 400 Q207 600"
        var reason = ""
        do { _ = try Path(svgPathData: data) } catch let e as PathDataError {
            XCTAssertEqual(e.offset, 20)
            reason = e.message
        } catch { XCTFail("\(error)") }
        XCTAssertEqual(
            fixtureErrors("bad-path-data.toml"),
            [
                "bad-path-data.toml:9:8: scene 'wave' › layer 'wave' › path: bad path data at byte 20: \(reason)"
            ])
    }

    func testUnknownKeyPath() {
        XCTAssertEqual(
            fixtureErrors("unknown-keypath.toml"),
            [
                "unknown-keypath.toml:11:11: scene 'sector' › layer 'sector' › animation 1 › keyPath: "
                    + "'progres' is not an animatable key path of layer type 'sector' (did you mean 'progress'?)"
            ])
    }

    func testDuplicateSceneName() {
        XCTAssertEqual(
            fixtureErrors("duplicate-scene.toml"),
            [
                "duplicate-scene.toml:10:8: scene 'intro' › name: duplicate scene name 'intro' (first at line 2)"
            ])
    }

    // MARK: More semantic errors, all reported at once

    func testEveryErrorOfAConfigAtOnce() {
        let found = configErrors(
            """
            [player]
            fps = 0
            transition = "slide"

            [[scene]]
            name = "a"
            duration = "soon"

            [[scene.layer]]
            id = "x"
            type = "shap"

            [[scene.layer]]
            id = "y"
            type = "shape"
            rect = [0, 0, 10, 10]
            oval = [0, 0, 5, 5]
            frame = [0, 0, 10, 10]
            bounds = [0, 0, 10, 10]
            lineCap = "rounded"
            """)
        XCTAssertEqual(
            found,
            [
                "test.toml:2:7: player › fps: must be from 1 to 240",
                "test.toml:3:14: player › transition: 'slide' is not one of 'none', 'fade', 'push'",
                "test.toml:7:12: scene 'a' › duration: expected a number of seconds or \"progress\", found a string",
                "test.toml:11:8: scene 'a' › layer 'x' › type: 'shap' is not one of 'layer', 'image', 'shape', 'text', 'arrow', 'gradient', 'transformLayer', 'replicator', 'emitter', 'sector', 'progress', 'pie' (did you mean 'shape'?)",
                "test.toml:17:1: scene 'a' › layer 'y' › oval: a layer takes one of rect, oval, roundedRect, arc; 'rect' is already given",
                "test.toml:18:1: scene 'a' › layer 'y' › frame: frame sets the bounds and the position; give either frame or bounds",
                "test.toml:20:11: scene 'a' › layer 'y' › lineCap: 'rounded' is not one of 'butt', 'round', 'square' (did you mean 'round'?)"
            ])
    }

    func testReferencesBetweenLayers() {
        let found = configErrors(
            oneScene(
                """
                [[scene.layer]]
                id = "a"
                type = "layer"
                parent = "b"

                [[scene.layer]]
                id = "b"
                type = "layer"
                parent = "a"

                [[scene.layer]]
                id = "a"
                type = "layer"

                [[scene.layer]]
                id = "photo"
                type = "layer"
                mask = "ring"
                parent = "phot"

                [[scene.layer]]
                id = "ring"
                type = "arrow"
                parent = "b"

                [[scene.layer]]
                id = "self"
                type = "layer"
                mask = "self"
                """))
        XCTAssertEqual(
            found,
            [
                "test.toml:8:10: scene 's' › layer 'a' › parent: cycle of parents and masks: a → b → a",
                "test.toml:16:6: scene 's' › layer 'a' › id: duplicate layer id 'a' (first at line 6)",
                "test.toml:23:10: scene 's' › layer 'photo' › parent: no layer with id 'phot' in this scene (did you mean 'photo'?)",
                "test.toml:28:1: scene 's' › layer 'ring' › parent: this layer is the mask of 'photo'; a mask is not placed in the tree, so it takes no parent",
                "test.toml:33:8: scene 's' › layer 'self' › mask: a layer cannot be its own mask"
            ])
    }

    func testMaskCycleIsReportedOnce() {
        let found = configErrors(
            oneScene(
                """
                [[scene.layer]]
                id = "a"
                type = "shape"
                mask = "b"

                [[scene.layer]]
                id = "b"
                type = "shape"
                mask = "a"
                """))
        XCTAssertEqual(found, ["test.toml:13:8: scene 's' › layer 'b' › mask: cycle of parents and masks: a → b → a"])
    }

    func testAnimationValuesHaveTheKeyPathsType() {
        let found = configErrors(
            oneScene(
                """
                [[scene.layer]]
                id = "box"
                type = "shape"

                [[scene.layer.animation]]
                keyPath = "position.x"
                from = [1, 2]

                [[scene.layer.animation]]
                keyPath = "fillColor"
                values = ["#fff", "blue", "none"]
                keyTimes = [0, 1]

                [[scene.layer.animation]]
                keyPath = "lineCap"
                to = "round"

                [[scene.layer.animation]]
                keyPath = "transform.rotation.z"
                by = 1
                timingFunction = [1.5, 0, 0.5, 1]
                fillMode = "forward"
                repeatCount = "forever"

                [[scene.layer.animation]]
                type = "spring"
                keyPath = "bounds.size.width"
                to = 100
                stiffness = 0
                values = [1]
                """))
        XCTAssertEqual(
            found,
            [
                "test.toml:11:8: scene 's' › layer 'box' › animation 1 › from: expected a number, found an array",
                "test.toml:15:19: scene 's' › layer 'box' › animation 2 › values: item 2: 'blue' is not a colour: expected \"#rgb\", \"#rrggbb\", \"#rrggbbaa\" or \"none\"",
                "test.toml:16:12: scene 's' › layer 'box' › animation 2 › keyTimes: expected 3 key times (one per value), found 2",
                "test.toml:19:11: scene 's' › layer 'box' › animation 3 › keyPath: 'lineCap' is not animatable (layer type 'shape')",
                "test.toml:25:18: scene 's' › layer 'box' › animation 4 › timingFunction: control point x values must be within 0…1",
                "test.toml:26:12: scene 's' › layer 'box' › animation 4 › fillMode: 'forward' is not one of 'removed', 'forwards', 'backwards', 'both' (did you mean 'forwards'?)",
                "test.toml:27:15: scene 's' › layer 'box' › animation 4 › repeatCount: expected a number, found a string",
                "test.toml:33:13: scene 's' › layer 'box' › animation 5 › stiffness: must be positive",
                "test.toml:34:1: scene 's' › layer 'box' › animation 5 › values: unknown key"
            ])
    }

    func testImageFontAndTransformTables() {
        let found = configErrors(
            oneScene(
                """
                [[scene.layer]]
                id = "photo"
                type = "image"

                [[scene.layer]]
                id = "t"
                type = "text"
                transform = { rotation = 1, scael = 2 }
                """))
        XCTAssertEqual(
            found,
            [
                "test.toml:5:1: scene 's' › layer 'photo' › contents: missing required key (layer type 'image')",
                "test.toml:12:29: scene 's' › layer 't' › transform › scael: unknown key (did you mean 'scale'?)"
            ])
    }

    func testProgressDurationNeedsASource() {
        XCTAssertEqual(
            configErrors(oneScene("", duration: "\"progress\"")),
            [
                "test.toml:3:12: scene 's' › duration: duration = \"progress\" needs a progressSource"
            ])
        XCTAssertEqual(
            configErrors("[[scene]]\nname = \"s\"\nduration = 1\nprogressSource = \"pipe:/x\"\n"),
            [
                "test.toml:4:18: scene 's' › progressSource: 'pipe:/x' is not \"fifo:/path\" or \"file:/path\""
            ])
    }
}
