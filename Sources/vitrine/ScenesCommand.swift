import ArgumentParser
import VitrineConfig
import VitrinePlayer

struct ScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "List every layer type with its properties, types, defaults and which animate.",
        discussion:
            "Generated from the registry the config loader uses; --markdown gives the README's config reference.")

    @Flag(help: "Print Markdown tables instead of aligned text.")
    var markdown = false

    func run() {
        print(ConfigReference.render(markdown ? .markdown : .text), terminator: "")
    }
}
