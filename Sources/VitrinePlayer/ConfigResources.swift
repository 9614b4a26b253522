import Glibc
import VitrineAnimation
import VitrineGraphics

/// The files a config refers to, resolved against the config's directory and loaded once per
/// load (two layers showing the same image share it).
final class ConfigResources {
    /// The directory of the config file ("." for a bare file name).
    let directory: String
    private var images: [String: Image] = [:]
    private var fonts: [String: Bool] = [:]

    /// Resources for the config at `file`.
    init(configFile file: String) {
        if let slash = file.lastIndex(of: "/") {
            let dir = String(file[..<slash])
            directory = dir.isEmpty ? "/" : dir
        } else {
            directory = "."
        }
    }

    /// `name` if absolute, else `name` inside the config's directory.
    func resolve(_ name: String) -> String {
        name.hasPrefix("/") ? name : directory + "/" + name
    }

    /// The decoded image at `name` (relative to the config).
    func image(named name: String) throws -> Image {
        let path = resolve(name)
        if let cached = images[path] { return cached }
        let image = try Image(contentsOfFile: path)
        images[path] = image
        return image
    }

    /// Whether fontconfig finds a font that loads for `family` (a size is needed to load one;
    /// any valid size answers the question).
    func isUsableFont(_ family: String) -> Bool {
        if let known = fonts[family] { return known }
        let usable = (try? Font(family: family, size: 12)) != nil
        fonts[family] = usable
        return usable
    }
}
