import Foundation
import Testing

/// The engineer's listen (issue 37), through the real binary and JACK:
/// `serve --listen` makes `listen_1` and `listen_2`; a source put in it is
/// its input sample for sample (PFL: before its level and mutes), an output
/// is what leaves its port sample for sample (AFL: after its level, delay
/// and limiter).
extension Integration {
@Suite struct ListenTests {
    typealias A = SignalAnalysis

    @Test func pflIsTheSourceBeforeItsFaderAndAflIsTheOutputAsItLeaves() async throws {
        try await withRig(inputs: 2, outputs: 4, arguments: ["--listen"]) { rig in
            rig.playSine(input: 1, frequency: 997, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 1499, amplitude: 0.4)
            // Source 1 pulled down, muted and its DCA muted: none of it reaches the PFL.
            for message in [["/source/1/db", "-20"], ["/source/1/mute", "1"], ["/source/1/dca/1", "1"], ["/dca/1/mute", "1"],
                            ["/matrix/2/3", "0.5"], ["/output/3/delay", "1"], ["/output/3/db", "-3"],
                            ["/source/1/listen", "1"]] {
                let (output, _) = try await rig.send(message, wait: 0)
                #expect(!output.contains("/error"), "\(message): \(output)")
            }
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(100))
            let tap = try ResizeTests.tap(rig, name: "xp-listen-tap",
                                          [rig.source.playPort(1), "crosspoint:out_3", "crosspoint:listen_1", "crosspoint:listen_2"])
            defer { tap.close() }
            let pfl = try await DirectOutTests.record(tap, seconds: 0.3)
            for side in [2, 3] {
                let match = ResizeTests.worstError(pfl, output: side, tone: 0, gain: 1, period: 64)
                #expect(match.error == 0, "PFL on listen_\(side - 1) is source 1's input, bit for bit: \(match)")
            }

            // Output 3 instead (exclusive): what leaves out_3, on the left only (a pair's left).
            try await rig.sendAndSettle("/output/3/listen", .int32(1))
            try await Task.sleep(for: .milliseconds(100))
            let afl = try await DirectOutTests.record(tap, seconds: 0.3)
            let match = ResizeTests.worstError(afl, output: 2, tone: 1, gain: 1, period: 64)
            #expect(match.error == 0 && match.lag == 0, "AFL is out_3 sample for sample: \(match)")
            #expect(A.peak(afl.channels[3]) == 0, "nothing on the right")
            #expect(A.peak(afl.channels[1]) > 0.1, "output 3 played")
            let (query, _) = try await rig.send(["/listen/output"])
            #expect(query.contains("/listen/output ,s 3"), "\(query)")
        }
    }

    /// The rest of the listen's rules in recorded audio: a source's PFL
    /// after its polarity; in additive mode two outputs summed exactly,
    /// each pair in stereo; with nothing selected, the default pair; while
    /// a talkback talks, the listen dimmed by `/listen/dim_db`.
    @Test func theListenSumsFollowsPolarityCarriesTheDefaultAndDimsForTalk() async throws {
        try await withRig(inputs: 2, outputs: 4, arguments: ["--listen"]) { rig in
            rig.playSine(input: 1, frequency: 997, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 1499, amplitude: 0.4)
            func send(_ messages: [[String]]) async throws {
                for message in messages {
                    let (output, _) = try await rig.send(message, wait: 0)
                    #expect(!output.contains("/error"), "\(message): \(output)")
                }
                try await rig.ping()
                try await Task.sleep(for: .milliseconds(150)) // past the crossfades
            }
            // Source 1 into outputs 1 and 4, source 2 into output 3 alone (output 2 silent).
            try await send([["/matrix/1/1", "1"], ["/matrix/2/2", "0"], ["/matrix/2/3", "0.5"], ["/matrix/1/4", "0.25"],
                            ["/source/2/invert", "1"], ["/source/2/listen", "1"]])
            // in_2 as played, out_1, out_3, out_4, listen_1, listen_2.
            let tap = try ResizeTests.tap(rig, name: "xp-listen-rules", [rig.source.playPort(2), "crosspoint:out_1", "crosspoint:out_3",
                                                                          "crosspoint:out_4", "crosspoint:listen_1", "crosspoint:listen_2"])
            defer { tap.close() }
            let pfl = try await DirectOutTests.record(tap, seconds: 0.3)
            for side in [4, 5] {
                let match = ResizeTests.worstError(pfl, output: side, tone: 0, gain: -1, period: 64)
                #expect(match.error == 0, "PFL on listen_\(side - 3) is source 2's input inverted, bit for bit: \(match)")
            }

            // Additive: outputs 1 and 3, the left of their pairs: out_1 + out_3 on the left, out_2 + out_4 on the right.
            try await send([["/listen/clear"], ["/listen/mode", "additive"], ["/output/1/listen", "1"], ["/output/3/listen", "1"]])
            let sum = try await DirectOutTests.record(tap, seconds: 0.3)
            func worst(_ recording: Recording, _ listen: Int, _ expected: (Int) -> Float) -> Float {
                var worst: Float = 0
                for range in recording.continuousRanges {
                    for k in range { worst = max(worst, abs(recording.channels[listen][k] - expected(k))) }
                }
                return worst
            }
            #expect(worst(sum, 4) { sum.channels[1][$0] + sum.channels[2][$0] } == 0, "listen_1 is out_1 + out_3 exactly")
            #expect(worst(sum, 5) { sum.channels[3][$0] } == 0, "listen_2 is out_4 (out_2 is silent) exactly")
            #expect(A.peak(sum.channels[1]) > 0.1 && A.peak(sum.channels[2]) > 0.1, "both outputs play")

            // Nothing selected: the default pair, outputs 3 and 4.
            try await send([["/listen/clear"], ["/listen/default", "3"]])
            let fallback = try await DirectOutTests.record(tap, seconds: 0.3)
            #expect(worst(fallback, 4) { fallback.channels[2][$0] } == 0, "listen_1 is out_3")
            #expect(worst(fallback, 5) { fallback.channels[3][$0] } == 0, "listen_2 is out_4")

            // A talkback talks (to no output): the listen drops by its dim, −20 dB.
            try await send([["/talkback/1/talk", "1"]])
            let dimmed = try await DirectOutTests.record(tap, seconds: 0.3)
            let whole = dimmed.longestContinuousRange
            let rate = Double(rig.sampleRate)
            let heard = A.fitSine(dimmed.channels[4], frequency: 1499, sampleRate: rate, in: whole).amplitude
            let played = A.fitSine(dimmed.channels[2], frequency: 1499, sampleRate: rate, in: whole).amplitude
            #expect(abs(A.decibels(heard / played) + 20) < 0.1, "dimmed by \(A.decibels(heard / played)) dB")
            try await send([["/talkback/1/talk", "0"]])
        }
    }

    /// `--connect-listen` connects the listen to headphones whose client
    /// appears after the rig has started, side for side, and what is
    /// selected is heard there.
    @Test func theListenConnectsToHeadphonesThatAppearLater() async throws {
        try await withRig(inputs: 1, outputs: 2, arguments: ["--listen", "--connect-listen", "^xp-phones:"]) { rig in
            rig.playSine(input: 1, frequency: 997, amplitude: 0.5)
            let phones = try JackProbe(server: rig.jack, clientName: "xp-phones", playPorts: 0, recordPorts: 2)
            defer { phones.close() }
            _ = try await rig.crosspoint.waitForOutput(containing: "(--connect-listen)", timeout: .seconds(5))
            // (Both sides are connected in one pass; the first line may come before the second connection.)
            for _ in 0..<100 where try phones.connections(of: phones.recordPort(2)).isEmpty {
                try await Task.sleep(for: .milliseconds(20))
            }
            for side in 1...2 {
                #expect(try phones.connections(of: phones.recordPort(side)) == ["crosspoint:listen_\(side)"], "side \(side)")
            }
            try await rig.sendAndSettle("/source/1/listen", .int32(1))
            try await Task.sleep(for: .milliseconds(100))
            let heard = try await DirectOutTests.record(phones, seconds: 0.3)
            for side in 0..<2 {
                let level = A.fitSine(heard.channels[side], frequency: 997, sampleRate: Double(rig.sampleRate),
                                      in: 0..<heard.frameCount).amplitude
                #expect(abs(level - 0.5) < 1e-3, "source 1 in the middle, on side \(side + 1): \(level)")
            }
        }
    }
}
}
