import XCTest
@testable import VitrineTOML

/// The playlist of the player's contract, parsed with the position of every key and value.
final class PlaylistPositionTests: XCTestCase {
    static let playlist = """
        [player]
        fps = 60
        background = "#000000"
        loop = true
        transition = "fade"          # none | fade | push
        transitionDuration = 0.5
        canvas = [1920, 1080]        # design size; scaled to the screen keeping aspect, letterboxed with background

        [[scene]]
        name = "arrow"               # unique; used by --scene, logs, STATUS
        duration = 4.0               # seconds before the next scene ("progress" = until progress reaches 1)

        [[scene.layer]]
        id = "photo"
        type = "image"               # layer | shape | text | image | arrow | sector | progress | pie (the registry)
        contents = "images/lake.png" # relative to the config file
        frame = [560, 140, 800, 800] # or position + bounds + anchorPoint
        mask = "ring"                # id of another layer of this scene, used as the mask
        parent = "..."               # optional: id of the superlayer (default: the scene root)

        [[scene.layer]]
        id = "ring"
        type = "arrow"
        bounds = [0, 0, 800, 800]
        position = [400, 400]
        thickness = 60
        startRadians = -1.5708
        lengthRadians = 0
        headLengthRadians = 0.19635
        fillColor = "#ffffff"

        [[scene.layer.animation]]
        keyPath = "lengthRadians"
        from = 0                     # from / to / by; keyframes: values = [...], keyTimes = [...], calculationMode
        to = 6.283185
        duration = 2
        beginTime = 0                # seconds after the scene starts
        timingFunction = "linear"    # linear | easeIn | easeOut | easeInEaseOut | default | [c1x, c1y, c2x, c2y]
        autoreverses = true
        repeatCount = 0              # fractional allowed; "infinity"
        repeatDuration = 0
        speed = 1
        timeOffset = 0
        fillMode = "removed"         # removed | forwards | backwards | both
        removedOnCompletion = true
        additive = false

        [[scene]]
        name = "pie"
        duration = 3

        [[scene.layer]]
        id = "slices"
        type = "pie"

        [[scene.layer.animation]]
        keyPath = "strokeEnd"

        [[scene.layer.animation]]
        keyPath = "opacity"
        """

    /// The 1-based line of the first source line after line `after` containing `needle`, found by
    /// plain text search.
    func line(of needle: String, after: Int = 0) -> Int {
        let lines = Self.playlist.split(separator: "\n", omittingEmptySubsequences: false)
        return lines[after...].firstIndex { $0.contains(needle) }! + 1
    }

    func testDocumentShape() throws {
        let doc = try TOML.parse(Self.playlist)
        XCTAssertEqual(doc.keys, ["player", "scene"])
        let player = try XCTUnwrap(doc["player"]?.value.tableValue)
        XCTAssertEqual(player.keys, ["fps", "background", "loop", "transition", "transitionDuration", "canvas"])
        let scenes = try XCTUnwrap(doc["scene"]?.value.arrayValue?.compactMap(\.value.tableValue))
        XCTAssertEqual(scenes.map { $0["name"]?.value.stringValue }, ["arrow", "pie"])
        let layers = try XCTUnwrap(scenes[0]["layer"]?.value.arrayValue?.compactMap(\.value.tableValue))
        XCTAssertEqual(layers.map { $0["id"]?.value.stringValue }, ["photo", "ring"])
        // [[scene.layer.animation]] attaches to the last layer of the last scene so far.
        XCTAssertNil(layers[0]["animation"])
        let animations = try XCTUnwrap(layers[1]["animation"]?.value.arrayValue?.compactMap(\.value.tableValue))
        XCTAssertEqual(animations.count, 1)
        XCTAssertEqual(animations[0].keys.first, "keyPath")
        XCTAssertEqual(animations[0].keys.count, 14)
        let pieAnimations = scenes[1].value("layer")?.arrayValue?.first?.value.tableValue?["animation"]?.value
            .arrayValue
        XCTAssertEqual(
            pieAnimations?.compactMap { $0.value.tableValue?["keyPath"]?.value.stringValue },
            ["strokeEnd", "opacity"])
    }

    func testPositions() throws {
        let doc = try TOML.parse(Self.playlist)
        let player = try XCTUnwrap(doc["player"]?.value.tableValue)
        XCTAssertEqual(doc.keyPosition("player"), pos(1, 2))
        XCTAssertEqual(player.position, pos(1, 1))
        XCTAssertEqual(player.keyPosition("fps"), pos(2, 1))
        XCTAssertEqual(player["fps"]?.position, pos(2, 7))
        XCTAssertEqual(player["background"]?.position, pos(3, 14))
        XCTAssertEqual(player["transitionDuration"]?.position, pos(6, 22))
        let canvas = try XCTUnwrap(player["canvas"])
        XCTAssertEqual(canvas.position, pos(7, 10))
        XCTAssertEqual(canvas.value.arrayValue?.map(\.position), [pos(7, 11), pos(7, 17)])

        let sceneArray = try XCTUnwrap(doc["scene"])
        XCTAssertEqual(doc.keyPosition("scene"), pos(9, 3))
        XCTAssertEqual(sceneArray.position, pos(9, 1))
        let scenes = try XCTUnwrap(sceneArray.value.arrayValue)
        XCTAssertEqual(scenes.map(\.position), [pos(9, 1), pos(line(of: "name = \"pie\"") - 1, 1)])
        let arrow = try XCTUnwrap(scenes[0].value.tableValue)
        XCTAssertEqual(arrow.position, pos(9, 1))
        XCTAssertEqual(arrow.keyPosition("duration"), pos(11, 1))
        XCTAssertEqual(arrow["duration"]?.position, pos(11, 12))

        let layers = try XCTUnwrap(arrow["layer"]?.value.arrayValue)
        XCTAssertEqual(layers.map(\.position), [pos(13, 1), pos(21, 1)])
        XCTAssertEqual(arrow.keyPosition("layer"), pos(13, 9))
        let ring = try XCTUnwrap(layers[1].value.tableValue)
        XCTAssertEqual(ring.keyPosition("lengthRadians"), pos(28, 1))
        XCTAssertEqual(ring["startRadians"]?.position, pos(27, 16))
        XCTAssertEqual(ring["startRadians"]?.value, .float(-1.5708))

        let animation = try XCTUnwrap(ring["animation"]?.value.arrayValue?.first)
        XCTAssertEqual(animation.position, pos(32, 1))
        XCTAssertEqual(ring.keyPosition("animation"), pos(32, 15))
        let keys = try XCTUnwrap(animation.value.tableValue)
        XCTAssertEqual(keys.keyPosition("keyPath"), pos(33, 1))
        XCTAssertEqual(keys["keyPath"]?.position, pos(33, 11))
        XCTAssertEqual(keys.keyPosition("additive"), pos(46, 1))
        XCTAssertEqual(keys["removedOnCompletion"]?.position, pos(45, 23))
    }

    /// The hard-coded lines above agree with a plain text search of the source.
    func testLinesAgreeWithTextSearch() throws {
        let doc = try TOML.parse(Self.playlist)
        let ring = try XCTUnwrap(
            doc.value("scene")?.arrayValue?[0].value.tableValue?["layer"]?.value.arrayValue?[1]
                .value.tableValue)
        let animation = try XCTUnwrap(ring["animation"]?.value.arrayValue?[0].value.tableValue)
        XCTAssertEqual(animation.keyPosition("keyPath")?.line, line(of: "keyPath = \"lengthRadians\""))
        XCTAssertEqual(animation.position.line, line(of: "[[scene.layer.animation]]"))
        XCTAssertEqual(ring.keyPosition("fillColor")?.line, line(of: "fillColor"))
        XCTAssertEqual(ring.position.line, line(of: "id = \"ring\"") - 1)
        for key in animation.keys {
            XCTAssertEqual(animation.keyPosition(key)?.line, line(of: key + " = ", after: animation.position.line), key)
        }
    }
}
