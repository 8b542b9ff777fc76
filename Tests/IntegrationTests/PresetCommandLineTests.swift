import Foundation
import Testing

/// `crosspoint preset validate`, `show` and `diff` against what a real rig
/// wrote: every parameter of the catalogue is shown and compared (polarity
/// and delay included), and presets are read as the rig that saved them
/// reads them, its `--max-delay-ms` taken from its state file or the flag.
extension Integration {
@Suite struct PresetCommandLineTests {
    /// Runs `crosspoint preset WORDS…`; its output and exit status.
    static func preset(_ words: [String]) async throws -> (output: String, status: ChildProcess.Termination) {
        let tool = try ChildProcess(executable: CrosspointRig.binary, arguments: ["preset"] + words, label: "crosspoint preset")
        let status = try await tool.waitForExit(timeout: .seconds(20))
        return (tool.standardOutput + tool.standardError, status)
    }

    /// A longest delay out of range, from the flag or from the state file,
    /// stops the command with the flag or the file and field named.
    @Test func aLongestDelayOutOfRangeIsRefusedByName() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let presets = ["--presets", directory.path]
        let flag = try await Self.preset(["validate", "--max-delay-ms", "20000"] + presets)
        #expect(flag.status == .exited(64), "\(flag.output)")
        #expect(flag.output.contains("--max-delay-ms must be 0-10000"), "\(flag.output)")

        let state = directory.appendingPathComponent("state.json")
        try Data(#"{"format": "crosspoint-state", "max-delay-ms": -5}"#.utf8).write(to: state)
        let file = try await Self.preset(["list", "--state", state.path] + presets)
        #expect(file.status == .exited(1), "\(file.output)")
        #expect(file.output.contains("\(state.path): max-delay-ms:"), "\(file.output)")
    }

    @Test func presetsSavedWithALongDelayAreReadAsTheRigReadsThem() async throws {
        try await withRig(inputs: 2, outputs: 2, arguments: ["--max-delay-ms", "2000"]) { rig in
            try await rig.sendAndSettle("/source/1/invert", .int32(1))
            try await rig.sendAndSettle("/output/1/delay", .float(2000))
            let (long, _) = try await rig.send(["/preset/save", "long"])
            #expect(long.contains("/preset/saved"), "\(long)")
            try await rig.sendAndSettle("/source/1/invert", .int32(0))
            try await rig.sendAndSettle("/output/1/delay", .float(0))
            let (plain, _) = try await rig.send(["/preset/save", "plain"])
            #expect(plain.contains("/preset/saved"), "\(plain)")
            // The state keeper writes a second after the last change.
            let state = rig.directory.appendingPathComponent("state.json")
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline,
                  (try? String(contentsOf: state, encoding: .utf8))?.contains("\"max-delay-ms\": 2000") != true {
                try await Task.sleep(for: .milliseconds(100))
            }
            let presets = ["--presets", rig.presets.path]
            let fromState = presets + ["--state", state.path]

            let validated = try await Self.preset(["validate"] + fromState)
            #expect(validated.status == .exited(0), "\(validated.output)")
            #expect(validated.output.contains("long.json: ok"), "\(validated.output)")

            let shown = try await Self.preset(["show", "long"] + fromState)
            #expect(shown.status == .exited(0), "\(shown.output)")
            #expect(shown.output.contains("invert") && shown.output.contains("Ø"), "\(shown.output)")
            #expect(shown.output.contains("delay ms") && shown.output.contains("2000"), "\(shown.output)")

            let diff = try await Self.preset(["diff", "long", "plain"] + fromState)
            #expect(diff.status == .exited(0), "\(diff.output)")
            #expect(diff.output.contains("source 1 invert: Ø -> -"), "\(diff.output)")
            #expect(diff.output.contains("output 1 delay: 2000 -> 0"), "\(diff.output)")
            #expect(!diff.output.contains("no differences"))

            // Without the state file, the default 500 ms refuses it, naming
            // the file and the field; the flag accepts it.
            let nowhere = presets + ["--state", rig.directory.appendingPathComponent("none.json").path]
            let refused = try await Self.preset(["validate"] + nowhere)
            #expect(refused.status == .exited(1), "\(refused.output)")
            #expect(refused.output.contains("long.json: outputs[0].delay"), "\(refused.output)")
            let flagged = try await Self.preset(["validate", "--max-delay-ms", "2000"] + nowhere)
            #expect(flagged.status == .exited(0), "\(flagged.output)")
        }
    }
}
}
