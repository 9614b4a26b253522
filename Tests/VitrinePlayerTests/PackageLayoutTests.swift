import Foundation
import XCTest

/// The module layout the README describes, read from the package itself
/// (`swift package describe`): dependencies point one way, and benchmarks stay out of the
/// libraries.
final class PackageLayoutTests: XCTestCase {
    private struct Target: Decodable {
        let name: String
        let type: String
        let path: String
        let target_dependencies: [String]?
    }

    private struct Description: Decodable { let targets: [Target] }

    private func describePackage() throws -> [String: Target] {
        guard
            let swift = ["/usr/bin/swift", "/opt/swift/usr/bin/swift"].first(
                where: FileManager.default.isExecutableFile)
                ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
                .map({ "\($0)/swift" }).first(where: FileManager.default.isExecutableFile)
        else {
            throw XCTSkip("no swift executable on the PATH")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swift)
        // A scratch path of its own: `swift test` holds the lock of the package's .build.
        let scratch = NSTemporaryDirectory() + "vitrine-describe-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        process.arguments = [
            "package", "--package-path", ConfigPaths.repository, "--scratch-path", scratch,
            "describe", "--type", "json"
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let targets = try JSONDecoder().decode(Description.self, from: data).targets
        return Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
    }

    /// Every target `name` builds, itself included.
    private func closure(of name: String, in targets: [String: Target]) -> Set<String> {
        var seen: Set<String> = [], stack = [name]
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            stack += targets[next]?.target_dependencies ?? []
        }
        return seen
    }

    func testModulesDependOnlyOnTheOnesBelowThem() throws {
        let targets = try describePackage()
        let knowsNothingOf: [String: Set<String>] = [
            "VitrineSystem": [
                "VitrineGraphics", "VitrineTOML", "VitrineAnimation", "VitrineConfig", "VitrineDisplay", "VitrinePlayer"
            ],
            "VitrineTOML": ["VitrineGraphics", "VitrineAnimation", "VitrineConfig", "VitrineDisplay", "VitrinePlayer"],
            "VitrineGraphics": ["VitrineTOML", "VitrineAnimation", "VitrineConfig", "VitrineDisplay", "VitrinePlayer"],
            "VitrineAnimation": ["VitrineTOML", "VitrineConfig", "VitrineDisplay", "VitrinePlayer", "CX11"],
            // Building the config target alone builds no display and no player.
            "VitrineConfig": ["VitrineDisplay", "VitrinePlayer", "CX11", "CLinux"],
            // The display link and the presenter protocol; each display stack is its own target.
            "VitrineDisplay": [
                "VitrineTOML", "VitrineAnimation", "VitrineConfig", "VitrinePlayer", "CX11", "VitrineX11",
                "CWayland", "CWaylandProtocols", "VitrineWayland"
            ],
            // Each stack links only its own libraries.
            "VitrineX11": [
                "VitrineTOML", "VitrineAnimation", "VitrineConfig", "VitrinePlayer", "CWayland", "CWaylandProtocols",
                "VitrineWayland"
            ],
            "VitrineWayland": [
                "VitrineTOML", "VitrineAnimation", "VitrineConfig", "VitrinePlayer", "CX11", "VitrineX11"
            ],
            // The player knows presenters only through the protocol.
            "VitrinePlayer": ["CX11", "VitrineX11", "CWayland", "CWaylandProtocols", "VitrineWayland", "VitrineBench"],
            "VitrineGraphicsTests": ["VitrinePlayer", "VitrineDisplay"]
        ]
        for (name, forbidden) in knowsNothingOf {
            XCTAssertNotNil(targets[name], name)
            let reached = closure(of: name, in: targets)
            XCTAssertEqual(reached.intersection(forbidden), [], "\(name) depends on what it must not know")
        }
    }

    func testNoLibraryContainsBenchmarkCode() throws {
        let targets = try describePackage()
        let libraries = [
            "VitrineSystem", "VitrineTOML", "VitrineGraphics", "VitrineAnimation", "VitrineConfig",
            "VitrineDisplay", "VitrineX11", "VitrineWayland", "VitrinePlayer"
        ]
        for name in libraries {
            let target = try XCTUnwrap(targets[name])
            XCTAssertFalse(closure(of: name, in: targets).contains("VitrineBench"), name)
            let files = try FileManager.default.contentsOfDirectory(atPath: ConfigPaths.repository + "/" + target.path)
            XCTAssertEqual(files.filter { $0.contains("Bench") }, [], name)
        }
    }
}
