import ArgumentParser
import Catalogue

/// `--inputs` and `--outputs`, one option group for `serve` and `bench`,
/// bounded by what the mixer itself takes (the catalogue's source and output
/// kinds, `1...Mixer.channelLimit`): a count
/// past it is a usage error (exit status 64), never a trap further on.
struct ChannelCounts: ParsableArguments {
    @Option(help: "Sources (input ports in_1 …), 1-512. serve: by default the size the saved state had, else 8 (/rig/inputs changes it while the rig plays); bench: with --outputs, one configuration instead of the sweep.")
    var inputs: Int?

    @Option(help: "Outputs (output ports out_1 …), 1-512. serve: by default the size the saved state had, else 8 (/rig/outputs changes it while the rig plays); bench: with --inputs, one configuration instead of the sweep.")
    var outputs: Int?

    func validate() throws {
        for (flag, count) in [("--inputs", inputs), ("--outputs", outputs)] {
            if let count, let problem = Catalogue.countProblem(flag: flag, count) { throw ValidationError(problem) }
        }
    }
}
