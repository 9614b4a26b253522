import ArgumentParser
import Glibc
import VitrineConfig
import VitrineGraphics
import VitrinePlayer

struct DrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw",
        abstract: "Render a static draw spec (TOML shapes and text) to a PNG file.",
        discussion:
            "The spec's keys are those of shared/tools/skia-reference.py: width, height, background, [[shape]] and [[text]] tables. \(ExitStatus.summary)"
    )

    @Argument(help: "The draw spec (TOML).")
    var spec: String

    @Option(name: .shortAndLong, help: "Where to write the PNG.")
    var output: String

    func run() throws {
        let drawSpec: DrawSpec
        do { drawSpec = try DrawSpec.load(file: spec) } catch {
            printError(error)
            throw ExitStatus.invalidConfig.exit
        }
        do { try drawSpec.render().writePNG(to: output) } catch {
            printError(error)
            throw ExitStatus.cannotCreateOutput.exit
        }
    }
}
