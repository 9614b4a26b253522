import CFreeType
import Glibc
import VitrineSystem

/// The process's single FreeType library instance. FreeType lets faces of one library be used
/// on several threads only when creating and destroying faces is serialised: `lock` does that.
final class FreeTypeLibrary: @unchecked Sendable {
    let handle: FT_Library
    let lock = Lock()

    private init(handle: FT_Library) { self.handle = handle }

    /// Created on first use (Swift runs a static initialiser once, thread-safely) and kept for
    /// the life of the process, as the faces it owns are.
    static let shared: Result<FreeTypeLibrary, FontError> = {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else { return .failure(.freeTypeUnavailable(code: error)) }
        return .success(FreeTypeLibrary(handle: library))
    }()
}
