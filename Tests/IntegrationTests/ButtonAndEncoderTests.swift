import Foundation
import Testing

extension Integration {
/// Buttons and encoders from a real client: liblo's `oscsend` sends what a
/// TouchOSC push button sends (f 1.0 on press, f 0.0 on release) and relative
/// steps, to the real `crosspoint serve` under a real `jackd`.
@Suite struct ButtonAndEncoderTests {
    typealias A = SignalAnalysis

    /// One message from liblo's `oscsend`, which exits once it is sent.
    /// (It sends from a port of its own and cannot hear replies: what the
    /// rig answers is checked from the suite's client, which can.)
    private func oscsend(_ rig: CrosspointRig, _ address: String, _ types: String, _ values: String...) async throws {
        let client = try ChildProcess(executable: "oscsend",
                                      arguments: ["localhost", "\(rig.oscPort)", address, types] + values)
        #expect(try await client.waitForExit() == .exited(0), "oscsend \(address) \(types) \(values)")
    }

    /// A parameter's value, queried from the suite's client.
    private func query(_ rig: CrosspointRig, _ address: String) async throws -> Float? {
        try rig.osc.send(address)
        return try await rig.osc.waitFor(address: address).argument(0)?.floatValue
    }

    @Test func buttonsActOnPressOnlyAndStepsMoveTheLevel() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            rig.source.setSignal(.silence, playPort: 2)

            // A recall to undo: crosspoint 1 → 1 at 0.25 live, 0.5 in the preset.
            try await rig.sendAndSettle("/matrix/1/1", .float(0.5))
            try rig.osc.send("/preset/save", .string("half"))
            _ = try await rig.osc.waitFor(address: "/preset/saved")
            try await rig.sendAndSettle("/matrix/1/1", .float(0.25))
            try rig.osc.send("/preset/recall", .string("half"), .float(0))
            _ = try await rig.osc.waitFor(address: "/preset/recalled")
            #expect(try await query(rig, "/matrix/1/1") == 0.5)

            // An undo button pressed and released: undone once, not redone.
            try await oscsend(rig, "/preset/undo", "f", "1.0")
            try await oscsend(rig, "/preset/undo", "f", "0.0")
            try await rig.ping()
            #expect(try await query(rig, "/matrix/1/1") == 0.25, "undone exactly once")

            // /ping as a button: the press answers, the release answers nothing.
            try rig.osc.send("/ping", .float(1))
            _ = try await rig.osc.waitFor(address: "/pong")
            try rig.osc.send("/ping", .float(0))
            let afterRelease = try await rig.osc.collect(for: .milliseconds(400))
            #expect(afterRelease.isEmpty, "no /pong and no /error: \(afterRelease.map(\.address))")
            try await oscsend(rig, "/ping", "f", "0.0")
            try await oscsend(rig, "/status", "f", "0.0")

            // An encoder: +3 dB, then +3 dB more on the linear address.
            try await oscsend(rig, "/source/1/db/delta", "f", "3")
            try await rig.ping()
            let once = try #require(try await query(rig, "/source/1/db"))
            #expect(abs(once - 3) < 1e-3, "moved by 3 dB: \(once)")
            try await oscsend(rig, "/source/1/volume/delta", "f", "3")
            try await rig.ping()
            let twice = try #require(try await query(rig, "/source/1/db"))
            #expect(abs(twice - 6) < 1e-3, "moved by 3 dB more: \(twice)")

            // And the audio follows: 0.5 · 0.25 · +6 dB on out_1, once the
            // undo's 1 s fade (the button's 1.0) is over.
            try await Task.sleep(for: .milliseconds(1200))
            let recording = try await rig.record(seconds: 0.2)
            let out1 = A.fitSine(recording.channels[0], frequency: 1000, sampleRate: Double(rig.sampleRate), in: 0..<9600)
            let expected = Float(0.5 * 0.25 * pow(10, 6.0 / 20))
            #expect(abs(out1.amplitude - expected) < 1e-3, "out_1 \(out1.amplitude), expected \(expected)")

            // Nothing above was refused.
            try await rig.ping()
            let rejected = rig.crosspoint.standardError.split(separator: "\n").filter { $0.contains("rejected") }
            #expect(rejected.isEmpty, "\(rejected)")
        }
    }
}
}
