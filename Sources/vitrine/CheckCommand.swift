import ArgumentParser
import VitrineConfig
import VitrinePlayer

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a playlist config: everything `play` would load.",
        discussion:
            "Prints \"CONFIG: OK (N scenes)\", or every error as FILE:LINE:COLUMN: scene › layer › KEY: message on stderr and exits 78. \(ExitStatus.summary)"
    )

    @Argument(help: "The playlist config (TOML).")
    var config: String

    func run() throws {
        let playlist: Playlist
        do {
            playlist = try PlaylistBuilder.build(config)
        } catch {
            printError(error)
            throw ExitStatus.invalidConfig.exit
        }
        let count = playlist.scenes.count
        print("\(config): OK (\(count) scene\(count == 1 ? "" : "s"))")
    }
}
