import ArgumentParser

@main
struct Vitrine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitrine",
        abstract: "A kiosk animation player: Core Animation for Linux displays.",
        subcommands: [DrawCommand.self, BenchCommand.self, CheckCommand.self, ScenesCommand.self, RenderCommand.self])
}
