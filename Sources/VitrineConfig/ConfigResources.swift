import Glibc
import VitrineAnimation
import VitrineGraphics
import VitrineSystem
import VitrineTOML

/// The files a config refers to, resolved against the config's directory and loaded once per
/// load (two layers showing the same image share it).
final class ConfigResources {
    /// The directory of the config file ("." for a bare file name).
    let directory: String
    private var images: [String: Image] = [:]
    private var fonts: [String: Bool] = [:]
    /// Whether an image not decoded by an earlier load is only read and its header checked,
    /// and decoded later (`deferred`): a player's start decodes its first scene's images first.
    let defersDecoding: Bool
    /// The index of the scene whose layers are being loaded; nil outside scenes.
    var sceneBeingLoaded: Int?
    /// The images read but not decoded, in the order first met (`defersDecoding`).
    private(set) var deferred: [DeferredDecoding] = []
    private var deferredByPath: [String: Int] = [:]

    /// Resources for the config at `file`.
    init(configFile file: String, defersDecoding: Bool = false) {
        self.defersDecoding = defersDecoding
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

    /// The decoded image at `name` (relative to the config). When decoding is deferred, the
    /// image is decoded later and `failure` makes the error to report at the referring key if
    /// it does not decode then.
    func image(named name: String, failure: @escaping (any Error) -> TOMLFieldError) throws -> Image {
        let path = resolve(name)
        if let index = deferredByPath[path] {
            deferred[index].show(inScene: sceneBeingLoaded, failure: failure)
            return deferred[index].file.image
        }
        if let cached = images[path] { return cached }
        let image = try defersDecoding ? deferredImage(at: path, failure: failure) : DecodedImages.image(at: path)
        images[path] = image
        return image
    }

    /// The image an earlier load decoded from the file at `path` as it is now; else the file
    /// read and its header checked, to decode later (`deferred`).
    private func deferredImage(at path: String, failure: @escaping (any Error) -> TOMLFieldError) throws -> Image {
        let identity = DecodedImages.identity(of: path)
        if let known = identity.flatMap(DecodedImages.known) { return known }
        let file = try DeferredImage(contentsOfFile: path)
        var decoding = DeferredDecoding(file: file, identity: identity)
        decoding.show(inScene: sceneBeingLoaded, failure: failure)
        deferredByPath[path] = deferred.count
        deferred.append(decoding)
        return file.image
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
    struct Identity: Hashable {
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
        guard let identity = identity(of: path) else { return try Image(contentsOfFile: path) }  // it says why
        if let known = known(identity) { return known }
        let image = try Image(contentsOfFile: path)
        remember(image, as: identity)
        return image
    }

    /// The file at `path` as it is now; nil when `stat` fails.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(
            path: path, device: UInt(info.st_dev), inode: UInt(info.st_ino), size: Int(info.st_size),
            modifiedSeconds: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec)
    }

    /// The image an earlier load decoded from the file `identity` names, if something still
    /// holds it.
    static func known(_ identity: Identity) -> Image? {
        lock.withLock { table[identity]?.image }
    }

    /// Shares `image`, decoded from the file `identity` names, with later loads.
    static func remember(_ image: Image, as identity: Identity) {
        lock.withLock {
            table = table.filter { $0.value.image != nil }
            table[identity] = WeakImage(image)
        }
    }
}

/// An image read at load time and decoded later (`ConfigResources.defersDecoding`): the scenes
/// that show it, and for each key naming it the error to report there if it does not decode.
struct DeferredDecoding {
    let file: DeferredImage
    /// The file as it was read, to share the decoded image with later loads; nil if unknown.
    let identity: DecodedImages.Identity?
    private(set) var scenes: Set<Int> = []
    /// Whether something outside every scene shows it (it is then decoded with the first).
    private(set) var isShownOutsideScenes = false
    private(set) var failures: [(any Error) -> TOMLFieldError] = []

    init(file: DeferredImage, identity: DecodedImages.Identity?) {
        self.file = file
        self.identity = identity
    }

    mutating func show(inScene scene: Int?, failure: @escaping (any Error) -> TOMLFieldError) {
        if let scene { scenes.insert(scene) } else { isShownOutsideScenes = true }
        failures.append(failure)
    }

    /// Decodes the image; the errors to report at each key naming it when it does not decode.
    func decode() -> [TOMLFieldError] {
        do {
            try file.decode()
        } catch {
            return failures.map { $0(error) }
        }
        if let identity { DecodedImages.remember(file.image, as: identity) }
        return []
    }
}
