import ArgumentParser

@main
struct CrosspointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crosspoint",
        abstract: "A live matrix mixer in JACK, controlled over OSC.",
        subcommands: [Serve.self, Send.self, PresetCommand.self, BenchCommand.self],
        defaultSubcommand: nil
    )
}
