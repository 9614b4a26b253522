import ArgumentParser

@main
struct Vitrine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitrine",
        abstract: "A kiosk animation player: Core Animation for Linux displays.",
        subcommands: [
            PlayCommand.self, RenderCommand.self, CheckCommand.self, ScenesCommand.self,
            DrawCommand.self, BenchCommand.self, ControlCommand.self
        ])
}
