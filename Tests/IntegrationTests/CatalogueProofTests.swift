import Foundation
import Testing

/// The two parameters added as one catalogue entry each, end to end: OSC
/// in, audio out of the real binary in a real JACK server, queries,
/// feedback and presets.
extension Integration {
@Suite struct CatalogueProofTests {
    typealias A = SignalAnalysis

    @Test func invertingASourceFlipsItWithoutAClick() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            // The same sine on both inputs: output 2 is the uninverted reference.
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 1000, amplitude: 0.5)
            try await rig.ping()
            let recording = try await rig.record(seconds: 0.4) { _ in
                try await rig.sendAndSettle("/source/1/invert", .int32(1))
            }
            let (out, reference) = (recording.channels[0], recording.channels[1])
            let limit = A.maximumSineStep(frequency: 1000, amplitude: 0.5, sampleRate: 48_000) + 1.0 / 960 + 1e-3
            #expect(A.maxAbsoluteStep(out) <= limit, "largest step \(A.maxAbsoluteStep(out)), limit \(limit)")
            func phase(_ signal: [Float], _ range: Range<Int>) -> Double {
                Double(A.fitSine(signal, frequency: 1000, sampleRate: 48_000, in: range).phase)
            }
            let first = 0..<960, last = (out.count - 4800)..<out.count
            #expect(abs(remainder(phase(out, first) - phase(reference, first), 2 * .pi)) < 0.01, "before: in phase")
            #expect(abs(abs(remainder(phase(out, last) - phase(reference, last), 2 * .pi)) - .pi) < 0.01, "after: inverted")
            #expect(abs(A.fitSine(out, frequency: 1000, sampleRate: 48_000, in: last).amplitude - 0.5) < 1e-3)
            let (reply, _) = try await rig.send(["/source/1/invert"])
            #expect(reply.contains("/source/1/invert ,i 1"), "query: \(reply)")
        }
    }

    @Test func anOutputDelayDelaysTheAudioByThatManySamples() async throws {
        try await withRig(inputs: 1, outputs: 2) { rig in
            rig.playSine(input: 1, frequency: 40, amplitude: 0.5)
            _ = try await rig.send(["/matrix/1/2", "1"], wait: 0)
            try await rig.sendAndSettle("/output/1/delay", .float(12.5))
            try await Task.sleep(for: .milliseconds(100))
            let recording = try await rig.record(seconds: 0.5)
            // 40 Hz: 1,200 samples a period, so a 600-sample delay is half a turn and unambiguous.
            let range = 2400..<(recording.channels[0].count - 100)
            let delayed = A.fitSine(recording.channels[0], frequency: 40, sampleRate: 48_000, in: range)
            let direct = A.fitSine(recording.channels[1], frequency: 40, sampleRate: 48_000, in: range)
            var turn = Double(direct.phase - delayed.phase) / (2 * .pi)
            turn -= turn.rounded(.down)
            let samples = turn * 1200
            #expect(abs(samples - 600) <= 1, "delayed by \(samples) samples")
            #expect(abs(delayed.amplitude - 0.5) < 1e-3 && delayed.residualRMS < 1e-3)

            let (reply, _) = try await rig.send(["/output/1/delay"])
            #expect(reply.contains("/output/1/delay ,f 12.5"), "query: \(reply)")
            // Beyond the longest delay: clamped to it (500 ms by default).
            _ = try await rig.send(["/output/1/delay", "900"], wait: 0)
            let (after, _) = try await rig.send(["/output/1/delay"])
            #expect(after.contains("/output/1/delay ,f 500"), "query: \(after)")
        }
    }

    @Test func aDelayChangeDuringAToneNeverSteps() async throws {
        try await withRig(inputs: 1, outputs: 1) { rig in
            rig.playSine(input: 1, frequency: 500, amplitude: 0.5)
            try await rig.sendAndSettle("/output/1/delay", .float(4))
            try await Task.sleep(for: .milliseconds(100))
            let recording = try await rig.record(seconds: 0.4) { _ in
                try await rig.sendAndSettle("/output/1/delay", .float(9))
            }
            let out = recording.channels[0]
            let limit = A.maximumSineStep(frequency: 500, amplitude: 0.5, sampleRate: 48_000) * 1.05
            #expect(A.maxAbsoluteStep(out) <= limit, "largest step \(A.maxAbsoluteStep(out)), limit \(limit)")
            #expect(out.allSatisfy { $0.isFinite })
        }
    }

    /// Raised from 0 (5 ms, and 0.02 ms: one sample), the output fades out
    /// whole, then the delayed tone fades in: no sample-to-sample cut, and no
    /// third difference (which shows a kink even at a zero crossing) beyond
    /// three times a clean tone's.
    @Test(arguments: [5.0, 0.02])
    func aDelayRaisedFromZeroNeverClicks(milliseconds: Double) async throws {
        try await withRig(inputs: 1, outputs: 1) { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            try await rig.ping()
            let recording = try await rig.record(seconds: 0.3) { _ in
                try await rig.sendAndSettle("/output/1/delay", .float(Float(milliseconds)))
            }
            let out = recording.channels[0]
            let clean = A.maximumThirdDifference(A.sine(frequency: 1000, amplitude: 0.5, sampleRate: 48_000, count: 4800))
            let largest = A.maximumThirdDifference(out)
            #expect(largest < clean * 3, "largest third difference \(largest), a clean tone's \(clean)\n\(rig.diagnostics)")
            let limit = A.maximumSineStep(frequency: 1000, amplitude: 0.5, sampleRate: 48_000) * 1.05
            #expect(A.maxAbsoluteStep(out) <= limit, "largest step \(A.maxAbsoluteStep(out)), limit \(limit)")
        }
    }

    @Test func bothAreKeptInPresetsAndDescribedForDiscovery() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            try await rig.sendAndSettle("/source/2/invert", .true)
            try await rig.sendAndSettle("/output/2/delay", .float(3.5))
            let (saved, _) = try await rig.send(["/preset/save", "aligned"])
            #expect(saved.contains("/preset/saved"), "save: \(saved)")
            let file = try String(contentsOf: rig.presets.appendingPathComponent("aligned.json"), encoding: .utf8)
            #expect(file.contains("\"invert\": true") && file.contains("\"delay\": 3.5"), "\(file)")
            try await rig.sendAndSettle("/source/2/invert", .false)
            try await rig.sendAndSettle("/output/2/delay", .float(0))
            _ = try await rig.send(["/preset/recall", "aligned"])
            let (invert, _) = try await rig.send(["/source/2/invert"])
            let (delay, _) = try await rig.send(["/output/2/delay"])
            #expect(invert.contains(",i 1") && delay.contains(",f 3.5"), "\(invert) \(delay)")
            let curl = try ChildProcess(executable: "curl", arguments: ["-s", "http://127.0.0.1:\(rig.httpPort)/output/2/delay"])
            _ = try await curl.waitForExit()
            let node = try JSONSerialization.jsonObject(with: Data(curl.standardOutput.utf8)) as? [String: Any]
            #expect(node?["TYPE"] as? String == "f", "\(curl.standardOutput)")
            #expect((node?["VALUE"] as? [Double])?.first == 3.5, "\(curl.standardOutput)")
            #expect((node?["RANGE"] as? [[String: Double]])?.first?["MAX"] == 500, "\(curl.standardOutput)")
        }
    }
}
}
