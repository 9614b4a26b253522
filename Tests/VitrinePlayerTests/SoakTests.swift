import Foundation
import VitrineAnimation
import VitrineGraphics
import VitrineTOML
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// Slow runs, off by default: `VITRINE_SOAK=1 swift test --filter SoakTests`
/// (`VITRINE_SOAK_MINUTES` sets the virtual playing time, default 60).
final class SoakTests: XCTestCase {
    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["VITRINE_SOAK"] == "1" else {
            throw XCTSkip("slow soak and fuzz runs: set VITRINE_SOAK=1")
        }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    /// The default playlist played for an hour of virtual time (every scene, every transition,
    /// many loops) must not grow: resident memory after the first loops and at the end stay
    /// within a few megabytes.
    func testDefaultPlaylistPlaysForAnHourWithoutGrowing() throws {
        let minutes = Double(ProcessInfo.processInfo.environment["VITRINE_SOAK_MINUTES"] ?? "") ?? 60
        let playlist = try PlaylistLoader.load(file: Self.repository.appendingPathComponent("config/default.toml").path)
        let player = Player(playlist: playlist, screenSize: Size(480, 270))
        let frames = FrameRenderer(engine: player.engine, size: (480, 270), background: playlist.settings.background)
        let start = 1000.0, step = 1.0 / 30
        var t = start
        var scenesStarted = 0
        var settledRSS: Int?
        while t < start + minutes * 60 {
            for case .sceneStarted in try player.frameWillRender(at: t) { scenesStarted += 1 }
            frames.renderFrame(at: t)
            t += step
            // After three minutes every scene has played at least once and pools are warm.
            if settledRSS == nil, t - start >= 180 { settledRSS = Self.residentBytes() }
        }
        let finalRSS = Self.residentBytes()
        XCTAssertGreaterThan(scenesStarted, playlist.scenes.count * 3)
        let growth = finalRSS - (settledRSS ?? finalRSS)
        print(
            "soak: \(minutes) min, \(scenesStarted) scenes, RSS \(Double(settledRSS ?? 0) / 1e6) MB → \(Double(finalRSS) / 1e6) MB"
        )
        XCTAssertLessThan(growth, 4 << 20, "resident memory grew by \(growth) bytes")
    }

    /// Every parser fed a few hundred thousand mutated inputs only returns or throws.
    func testParsersSurviveLongFuzzing() throws {
        var rng = SoakRandom(seed: 0x5EED)
        let svgSeeds = [
            "M 10 10 L 20 20 Z", "m1 2c3 4 5 6 7 8s1 2 3 4q1 2 3 4t5 6a1 1 0 01 5 5z", "M0,0 H10 V10 h-5 v-5"
        ]
        let tomlSeeds = [
            try String(contentsOf: Self.repository.appendingPathComponent("config/default.toml"), encoding: .utf8),
            "a = 1\n[b]\nc = [1, 2, {d = \"e\"}]\n[[f.g]]\nh = 1979-05-27T07:32:00Z\n"
        ]
        let progressSeeds = ["PROGRESS 50\n", "MSG hello\n", "QUIT\n"]
        for _ in 0..<200_000 {
            _ = try? Path(svgPathData: rng.mutate(svgSeeds[rng.below(svgSeeds.count)]))
            var parser = ProgressLineParser()
            _ = parser.feed(Array(rng.mutate(progressSeeds[rng.below(progressSeeds.count)]).utf8))
        }
        for _ in 0..<2_000 {
            _ = try? TOML.parse(bytes: Array(rng.mutate(tomlSeeds[rng.below(tomlSeeds.count)]).utf8))
        }
    }
}

/// SplitMix64 with text mutations: flips, inserts, deletes and duplications of bytes.
struct SoakRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    mutating func mutate(_ text: String) -> String {
        var bytes = Array(text.utf8)
        for _ in 0...below(4) {
            let i = below(bytes.count + 1)
            switch below(4) {
            case 0 where i < bytes.count: bytes[i] = UInt8(truncatingIfNeeded: next())
            case 1: bytes.insert(UInt8(truncatingIfNeeded: next() % 128), at: i)
            case 2 where i < bytes.count: bytes.remove(at: i)
            default: bytes += bytes.prefix(below(16))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SoakTests {
    /// VmRSS of this process, in bytes.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kB = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kB * 1024
    }
}
