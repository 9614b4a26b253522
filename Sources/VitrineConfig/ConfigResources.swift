import Glibc
import VitrineAnimation
import VitrineGraphics
import VitrineSystem

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
        let image = try DecodedImages.image(at: path)
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

/// Images decoded by earlier loads that something still holds (the playlist playing), by file
/// identity: reloading a config whose images did not change shares them instead of decoding a
/// second copy of each while the old playlist still plays. Holds no image itself.
enum DecodedImages {
    /// A file as `stat` sees it: a replaced or rewritten file is a new identity.
    private struct Identity: Hashable {
        let path: String
        let device: UInt, inode: UInt, size: Int, modifiedSeconds: Int, modifiedNanoseconds: Int
    }

    private final class WeakImage {
        weak var image: Image?
        init(_ image: Image) { self.image = image }
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var table: [Identity: WeakImage] = [:]

    /// The image at `path`, shared with an earlier load when the file is unchanged.
    static func image(at path: String) throws -> Image {
        var info = stat()
        guard stat(path, &info) == 0 else { return try Image(contentsOfFile: path) }  // it says why
        let identity = Identity(
            path: path, device: UInt(info.st_dev), inode: UInt(info.st_ino), size: Int(info.st_size),
            modifiedSeconds: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec)
        lock.lock()
        let known = table[identity]?.image
        lock.unlock()
        if let known { return known }
        let image = try Image(contentsOfFile: path)
        lock.lock()
        table = table.filter { $0.value.image != nil }
        table[identity] = WeakImage(image)
        lock.unlock()
        return image
    }
}
