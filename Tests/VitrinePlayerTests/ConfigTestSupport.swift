import VitrineTOML
import XCTest
@testable import VitrineConfig
@testable import VitrinePlayer

/// Paths of the repository and of the broken-config fixtures, found from this file.
enum ConfigPaths {
    static let testsDirectory: String = {
        let file = "\(#filePath)"
        return String(file[..<file.lastIndex(of: "/")!])
    }()
    static let fixtures = testsDirectory + "/Fixtures"
    static let repository: String = {
        var dir = testsDirectory
        for _ in 0..<2 { dir = String(dir[..<dir.lastIndex(of: "/")!]) }
        return dir
    }()
    static let defaultConfig = repository + "/config/default.toml"
}

/// Loads config text as if it were the file `file` (relative paths resolve from its directory).
func loadPlaylist(
    _ text: String, file: String = ConfigPaths.repository + "/config/test.toml",
    registry: LayerTypeRegistry = .standard
) throws -> Playlist {
    try PlaylistLoader.parse(bytes: Array(text.utf8), file: file, registry: registry)
}

/// The error lines a config produces, in source order, with the file name shortened to `test.toml`.
func configErrors(
    _ text: String, registry: LayerTypeRegistry = .standard,
    file: StaticString = #filePath, line: UInt = #line
) -> [String] {
    let path = ConfigPaths.repository + "/config/test.toml"
    do {
        _ = try loadPlaylist(text, file: path, registry: registry)
        XCTFail("expected errors", file: file, line: line)
    } catch let errors as TOMLFieldErrors {
        return errors.sorted.map { $0.description.replacingOccurrences(of: path, with: "test.toml") }
    } catch {
        XCTFail("unexpected \(error)", file: file, line: line)
    }
    return []
}

/// A one-scene config around some layer tables.
func oneScene(_ layers: String, duration: String = "4") -> String {
    "[[scene]]\nname = \"s\"\nduration = \(duration)\n\n" + layers
}
