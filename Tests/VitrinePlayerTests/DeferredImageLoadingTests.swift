import Foundation
import VitrineConfig
import VitrineGraphics
import VitrinePlayer
import VitrineTOML
import VitrineTestSupport
import XCTest

/// A player's start decodes its first scene's images before the first frame and the others'
/// after it (`PlaylistLoader.ImageDecoding.firstScene`): the frames are the same, and an image
/// that does not decode is still a config error at its key.
final class DeferredImageLoadingTests: TemporaryDirectoryTestCase {
    /// Two scenes, each showing one image (files in the temporary directory).
    private func writeConfig(first: String, second: String, firstDuration: Int = 1) throws -> String {
        let config = directory + "/playlist.toml"
        try writeFile(
            config,
            """
            [player]
            canvas = [32, 24]
            transition = "none"

            [[scene]]
            name = "first"
            duration = \(firstDuration)

            [[scene.layer]]
            type = "image"
            contents = "\(first)"
            frame = [0, 0, 32, 24]

            [[scene]]
            name = "second"
            duration = 1

            [[scene.layer]]
            type = "image"
            contents = "\(second)"
            frame = [0, 0, 32, 24]
            """)
        return config
    }

    /// A 32 × 24 PNG of translucent stripes in `directory`, different for each `seed`.
    private func writeImage(_ name: String, seed: UInt32) throws {
        let bitmap = Bitmap(width: 32, height: 24)
        for y in 0..<24 {
            for x in 0..<32 {
                let a = UInt32(128 + (x * 3 + y + Int(seed)) % 128)
                let r = min(seed &* 40 % 256, a), g = min(UInt32(y * 9), a), b = min(UInt32(x * 7), a)
                bitmap[x, y] = a << 24 | r << 16 | g << 8 | b
            }
        }
        try bitmap.writePNG(to: directory + "/" + name)
    }

    /// A PNG whose header is sound and whose data is not (IDAT's checksum broken).
    private func writeCorruptImage(_ name: String) throws {
        try writeImage(name, seed: 9)
        let path = directory + "/" + name
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func still(_ playlist: Playlist, scene: Int) throws -> [UInt32] {
        let frame = try SceneInstance.renderStill(
            playlist.scenes[scene], playlist: playlist, at: 0.5, width: 32, height: 24)
        return (0..<24).flatMap { y in (0..<32).map { x in frame[x, y] } }
    }

    /// (Each load below reads files no earlier load decoded: a load shares the images an
    /// earlier one decoded while something holds them, and decodes nothing then.)
    func testOnlyTheFirstScenesImagesAreDecodedBeforeTheLoadReturns() throws {
        for (name, seed) in [("a", 1), ("b", 2), ("c", 1), ("d", 2)] as [(String, UInt32)] {
            try writeImage(name + ".png", seed: seed)
        }
        let started = try PlaylistLoader.load(
            file: try writeConfig(first: "a.png", second: "b.png"), decoding: .firstScene(named: nil))
        let pending = try XCTUnwrap(started.pendingImages)
        try pending.waitForImages(ofScene: 0)  // decoded at load: nothing to wait for, nothing started
        XCTAssertNil(pending.outcome)
        let firstStill = try still(started, scene: 0)
        try pending.waitForImages(ofScene: 1)
        XCTAssertEqual(pending.outcome, TOMLFieldErrors())
        let secondStill = try still(started, scene: 1)

        // `vitrine play --scene second` shows the second first: the first scene's image waits.
        let config = try writeConfig(first: "c.png", second: "d.png")
        let second = try PlaylistLoader.load(file: config, decoding: .firstScene(named: "second"))
        XCTAssertEqual(try still(second, scene: 1), secondStill)
        try XCTUnwrap(second.pendingImages).waitForImages(ofScene: 0)
        XCTAssertEqual(try still(second, scene: 0), firstStill)
        // A player asks no more once all decoded.
        let player = Player(playlist: second, screenSize: Size(width: 32, height: 24), onlyScene: "second")
        XCTAssertNotNil(player.playlist.pendingImages)
        try player.frameWillRender(at: 0)
        XCTAssertNil(player.playlist.pendingImages)

        // The same as decoded at once (sharing the images decoded above).
        let whole = try PlaylistLoader.load(file: config)
        XCTAssertNil(whole.pendingImages)
        XCTAssertEqual(try still(whole, scene: 0), firstStill)
        XCTAssertEqual(try still(whole, scene: 1), secondStill)
        XCTAssertNotEqual(firstStill, secondStill)

        // An image the first scene shows too is decoded at load.
        try writeImage("e.png", seed: 3)
        let shared = try PlaylistLoader.load(
            file: try writeConfig(first: "e.png", second: "e.png"), decoding: .firstScene(named: nil))
        XCTAssertNil(shared.pendingImages)
    }

    /// The image of the second scene does not decode: a full load refuses the config; the
    /// start's load does not, and the error comes when the image is decoded, the same at the
    /// same key; the player stops with it (no scene is skipped over it).
    func testALaterScenesImageThatDoesNotDecodeIsTheLoadsError() throws {
        try writeImage("a.png", seed: 1)
        try writeCorruptImage("b.png")
        let config = try writeConfig(first: "a.png", second: "b.png")
        var refusal = ""
        XCTAssertThrowsError(try PlaylistLoader.load(file: config)) { refusal = "\($0)" }
        XCTAssertTrue(refusal.hasPrefix(config + ":20:12: scene 'second' › layer 1 › contents: "), refusal)
        XCTAssertTrue(refusal.contains("cannot load image 'b.png': \(directory)/b.png: not a valid PNG: "), refusal)

        let started = try PlaylistLoader.load(file: config, decoding: .firstScene(named: nil))
        let pending = try XCTUnwrap(started.pendingImages)
        let player = Player(playlist: started, screenSize: Size(width: 32, height: 24))
        XCTAssertEqual(try player.frameWillRender(at: 0), [.sceneStarted(index: 0, name: "first")])
        player.startDecodingImages()  // as the session does once the first frame is on screen
        let deadline = Date().addingTimeInterval(10)
        while pending.outcome == nil && Date() < deadline { usleep(1000) }
        XCTAssertEqual(pending.outcome.map { "\($0)" }, refusal)
        XCTAssertThrowsError(try player.frameWillRender(at: 0.2)) { error in
            XCTAssertEqual("\(error)", refusal)
            guard case PlayerError.imagesNotDecoded? = error as? PlayerError else { return XCTFail("\(error)") }
        }
        // Had the second scene come first, its build would have waited and thrown the same.
        XCTAssertThrowsError(try pending.waitForImages(ofScene: 1)) { XCTAssertEqual("\($0)", refusal) }
    }

    /// Whoever starts the decoding hears when every image was tried (a session wakes its loop
    /// with it), and one asking after that hears it at once; then the player has the errors.
    func testStartingTheDecodingSaysWhenEveryImageWasTried() throws {
        try writeImage("a.png", seed: 1)
        try writeCorruptImage("b.png")
        let started = try PlaylistLoader.load(
            file: try writeConfig(first: "a.png", second: "b.png"), decoding: .firstScene(named: nil))
        let player = Player(playlist: started, screenSize: Size(width: 32, height: 24))
        _ = try player.frameWillRender(at: 0)
        XCTAssertNoThrow(try player.checkPendingImages())  // not tried yet
        let tried = expectation(description: "every image tried")
        player.startDecodingImages(whenTried: { tried.fulfill() })
        wait(for: [tried], timeout: 10)
        XCTAssertThrowsError(try player.checkPendingImages()) { error in
            guard case PlayerError.imagesNotDecoded? = error as? PlayerError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("cannot load image 'b.png'"), "\(error)")
        }
        let triedBefore = expectation(description: "told at once")
        player.startDecodingImages(whenTried: { triedBefore.fulfill() })
        wait(for: [triedBefore], timeout: 0)
    }

    /// A real `vitrine play`: the first scene is on screen (READY=1), then the image of the
    /// second fails to decode and the player exits 78 with the error, as a config error.
    func testThePlayerExitsWithTheConfigStatusWhenALaterImageDoesNotDecode() throws {
        try writeImage("a.png", seed: 1)
        try writeCorruptImage("b.png")
        let config = try writeConfig(first: "a.png", second: "b.png")
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "headless", "--output", directory + "/frames", "--fps", "5"],
            environment: ["NOTIFY_SOCKET": notify.listener.name])
        XCTAssertTrue(notify.wait(for: "READY=1"), player.standardError)
        XCTAssertEqual(player.waitForExit(seconds: 10), 78, player.standardError)
        XCTAssertTrue(
            player.standardError.contains(
                "playlist.toml:20:12: scene 'second' › layer 1 › contents: cannot load image 'b.png': "),
            player.standardError)
    }

    /// The same on a real X server with a first scene that holds still for a minute: a player
    /// on a screen draws no frame until it ends (headless, every frame is written), and does
    /// not wait for one to stop with the error.
    func testAStillFirstSceneDoesNotDelayTheErrorOfALaterImage() throws {
        try writeImage("a.png", seed: 1)
        try writeCorruptImage("b.png")
        let config = try writeConfig(first: "a.png", second: "b.png", firstDuration: 60)
        let xvfb = try XvfbServer(width: 32, height: 24)
        let notify = try NotifyLog()
        let player = try PlayProcess(
            arguments: ["play", config, "--backend", "x11", "--display", xvfb.name],
            environment: ["NOTIFY_SOCKET": notify.listener.name])
        XCTAssertTrue(notify.wait(for: "READY=1"), player.standardError)
        XCTAssertEqual(player.waitForExit(seconds: 10), 78, player.standardError)
        XCTAssertTrue(player.standardError.contains("cannot load image 'b.png': "), player.standardError)
    }
}
