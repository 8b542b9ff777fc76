import Foundation
import Shaping
import Testing

/// The EQ on a real rig (issue 36): impulses through a source's EQ and an
/// output's, recorded from JACK beside what went in, measured against the
/// Audio EQ Cookbook and Butterworth; what a bad value gets; what a recall
/// moves and what it leaves.
extension Integration {
@Suite struct EQTests {
    typealias A = SignalAnalysis
    static let length = 16_384

    /// The impulse responses of the channels after `input` in `recording`:
    /// from an impulse of `height` on `input` with `length` whole frames
    /// after it (no missed cycle), scaled to unit height.
    static func impulseResponse(_ recording: Recording, input: Int, outputs: [Int], height: Float) -> [ArraySlice<Float>]? {
        let gaps = recording.gaps.map(\.offset)
        let played = recording.channels[input]
        for k in played.indices where played[k] == height && k + length <= played.count {
            guard !gaps.contains(where: { $0 > k && $0 <= k + length }) else { continue }
            return outputs.map { recording.channels[$0][k..<(k + length)].map { $0 / height }[...] }
        }
        return nil
    }

    static func send(_ rig: CrosspointRig, _ messages: [(String, OSCTestClient.Argument)]) async throws {
        for (address, argument) in messages { try rig.osc.send(address, argument) }
        try await rig.ping()
    }

    @Test func aSourceAndAnOutputEQMeasureAsTheCookbookSays() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            try await Self.send(rig, [
                ("/source/1/hpf/on", .int32(1)), ("/source/1/hpf/freq", .float(80)),
                ("/source/1/eq/2/freq", .float(1_000)), ("/source/1/eq/2/gain", .float(6)), ("/source/1/eq/2/q", .float(2)),
                ("/source/1/eq/2/on", .int32(1)),
                ("/source/1/eq/4/freq", .float(8_000)), ("/source/1/eq/4/gain", .float(-4)), ("/source/1/eq/4/q", .float(0.7)),
                ("/source/1/eq/4/on", .int32(1)),
                ("/output/2/lpf/on", .int32(1)), ("/output/2/lpf/freq", .float(5_000)), ("/output/2/lpf/slope", .float(12)),
                ("/output/2/eq/3/freq", .float(3_000)), ("/output/2/eq/3/gain", .float(-9)), ("/output/2/eq/3/q", .float(1.5)),
                ("/output/2/eq/3/on", .int32(1)),
                ("/output/2/eq/1/freq", .float(200)), ("/output/2/eq/1/gain", .float(12)), ("/output/2/eq/1/on", .int32(1)),
            ])
            rig.source.setSignal(.impulses(every: 20_000, amplitude: 0.25), playPort: 1)
            rig.source.setSignal(.impulses(every: 20_000, amplitude: 0.25), playPort: 2)
            try await Task.sleep(for: .milliseconds(100)) // past the 20 ms ramps
            let tap = try ResizeTests.tap(rig, name: "xp-eq-tap", [rig.source.playPort(1), rig.source.playPort(2),
                                                                   "crosspoint:out_1", "crosspoint:out_2"])
            defer { tap.close() }
            try await tap.startRecording()
            try await tap.waitForRecordedFrames(70_000)
            let recording = try await tap.stopRecording()
            let source = try #require(Self.impulseResponse(recording, input: 0, outputs: [2], height: 0.25)?.first)
            let output = try #require(Self.impulseResponse(recording, input: 1, outputs: [3], height: 0.25)?.first)
            let rate = Double(rig.sampleRate)
            let sourceBands = Band.cut(.highPass, frequency: 80, slope: .twentyFour)
                + [Band(.peak, frequency: 1_000, gain: 6, q: 2), Band(.highShelf, frequency: 8_000, gain: -4, q: 0.7)]
            let outputBands = Band.cut(.lowPass, frequency: 5_000, slope: .twelve)
                + [Band(.peak, frequency: 3_000, gain: -9, q: 1.5), Band(.lowShelf, frequency: 200, gain: 12, q: 1)]
            for f in Cookbook.thirdOctaves(below: 16_001) where f >= 40 {
                let expected = Cookbook.response(of: sourceBands, at: f, sampleRate: rate)
                let measured = Cookbook.measured(source, at: f, sampleRate: rate)
                #expect(abs(measured - expected) < 0.1, "source 1 at \(f) Hz: \(measured) dB, the cookbook \(expected)")
                let out = Cookbook.response(of: outputBands, at: f, sampleRate: rate)
                let heard = Cookbook.measured(output, at: f, sampleRate: rate)
                #expect(abs(heard - out) < 0.1, "output 2 at \(f) Hz: \(heard) dB, the cookbook \(out)")
            }
            // The low cut alone is Butterworth's.
            let butterworth = Cookbook.butterworth(at: 80, cutoff: 80, order: 4, highPass: true, sampleRate: rate)
            #expect(abs(butterworth + 3.01) < 0.01)
        }
    }

    /// EQ off, or every band on at 0 dB, is the source as it is, bit for bit.
    @Test func aFlatEQIsBitExact() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            rig.playSine(input: 1, frequency: 997, amplitude: 0.5)
            try await Self.send(rig, (1...4).map { ("/source/1/eq/\($0)/on", .int32(1)) } + [
                ("/source/1/eq/3/gain", .float(9)), ("/source/1/eq/on", .int32(0)),
                ("/output/1/eq/2/on", .int32(1)), ("/output/1/hpf/on", .int32(0)),
            ])
            try await Task.sleep(for: .milliseconds(100))
            let tap = try ResizeTests.tap(rig, name: "xp-eq-flat", [rig.source.playPort(1), "crosspoint:out_1"])
            defer { tap.close() }
            try await tap.startRecording()
            try await tap.waitForRecordedFrames(14_400)
            let recording = try await tap.stopRecording()
            let match = ResizeTests.worstError(recording, output: 1, tone: 0, gain: 1, period: 64)
            #expect(match.error == 0, "the source as it is, bit for bit: \(match)")
        }
    }

    /// A bad value gets /error and changes nothing; one out of range is clamped.
    @Test func badValuesAreRefusedAndOutOfRangeOnesClamped() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            for (address, argument, reason) in [
                ("/source/1/eq/2/freq", OSCTestClient.Argument.string("loud"), ""),
                ("/source/1/eq/2/q", .float(.nan), ""),
                ("/source/1/hpf/slope", .float(18), "12 or 24"),
                ("/source/1/eq/1/type", .string("notch"), "peak, lowshelf or highshelf"),
                ("/source/1/eq/5/gain", .float(3), ""),
                ("/source/1/hpf/slope/delta", .float(-1), "12 or 24"),
            ] {
                _ = try rig.osc.drain()
                try rig.osc.send(address, argument)
                let refusal = try await rig.osc.waitFor(address: "/error", timeout: .seconds(3)).arguments
                #expect(refusal.first == .string(address), "\(address): \(refusal)")
                #expect(reason.isEmpty || "\(refusal)".contains(reason), "\(address): \(refusal)")
            }
            #expect(try await AccessTests.value(rig, "/source/1/eq/2/freq") == .float(500), "unchanged")
            #expect(try await AccessTests.value(rig, "/source/1/eq/2/q") == .float(1))
            #expect(try await AccessTests.value(rig, "/source/1/hpf/slope") == .float(24))
            #expect(try await AccessTests.value(rig, "/source/1/eq/1/type") == .string("lowshelf"))
            try await Self.send(rig, [("/source/1/eq/2/freq", .float(30_000)), ("/source/1/eq/2/q", .float(0))])
            #expect(try await AccessTests.value(rig, "/source/1/eq/2/freq") == .float(20_000), "clamped")
            #expect(try await AccessTests.value(rig, "/source/1/eq/2/q") == .float(0.3), "clamped")
        }
    }

    /// A recall crossfades the sources' EQ and leaves the outputs' EQ and
    /// limiters, the rig's tuning; the `eq` scope recalls the EQ alone; a
    /// restart keeps all of it.
    @Test func aRecallMovesSourceEQAndLeavesTheRigsTuning() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            try await Self.send(rig, [("/source/1/eq/2/gain", .float(6)), ("/source/1/volume", .float(0.5)),
                                      ("/output/1/eq/1/gain", .float(3)), ("/output/1/limiter/on", .int32(1))])
            _ = try await rig.send(["/preset/save", "tuned"])
            try await Self.send(rig, [("/source/1/eq/2/gain", .float(-6)), ("/source/1/volume", .float(1)),
                                      ("/output/1/eq/1/gain", .float(-3)), ("/output/1/limiter/on", .int32(0))])
            _ = try await rig.send(["/preset/recall", "tuned", "0", "eq"])
            #expect(try await AccessTests.value(rig, "/source/1/eq/2/gain") == .float(6), "the eq scope recalls the EQ")
            #expect(try await AccessTests.value(rig, "/source/1/volume") == .float(1), "and nothing else")
            try await Self.send(rig, [("/source/1/eq/2/gain", .float(-6))])
            try rig.osc.send("/preset/recall", .string("tuned"), .float(1))
            try await Task.sleep(for: .milliseconds(300))
            let moving = try await AccessTests.value(rig, "/source/1/eq/2/gain/current")
            #expect(moving.flatMap(\.floatValue).map { $0 > -6 && $0 < 6 } == true, "crossfading: \(String(describing: moving))")
            try await Task.sleep(for: .milliseconds(900))
            #expect(try await AccessTests.value(rig, "/source/1/eq/2/gain") == .float(6))
            #expect(try await AccessTests.value(rig, "/output/1/eq/1/gain") == .float(-3), "the rig's tuning stays")
            #expect(try await AccessTests.value(rig, "/output/1/limiter/on") == .int32(0), "the limiter too")
            _ = try await rig.send(["/preset/undo"])
            #expect(try await AccessTests.value(rig, "/output/1/eq/1/gain") == .float(-3), "and through an undo")

            let restarted = try await rig.restart()
            defer { restarted.terminate() }
            #expect(try await AccessTests.value(rig, "/output/1/eq/1/gain") == .float(-3), "kept in the state file")
            #expect(try await AccessTests.value(rig, "/source/1/eq/2/gain") == .float(-6), "the undone scene")
        }
    }

    /// A performer's role, though it holds outputs, may not change their EQ
    /// or limiter: they protect ears.
    @Test func aRoleWithOutputsMayNotChangeTheirEQOrLimiter() async throws {
        let path = try AccessTests.accessFile(AccessTests.rules())
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", path]) { rig in
            let drums = try AccessTests.client(rig, from: "127.0.0.4")
            defer { drums.close() }
            for address in ["/output/5/eq/2/gain", "/output/5/limiter/ceiling", "/output/5/limiter/on", "/output/5/lpf/on"] {
                try drums.send(address, .float(0))
                #expect(try await AccessTests.refusal(drums) == [.string(address), .string("not permitted for role drums")])
            }
            try drums.send("/output/5/volume", .float(0.5))
            try await rig.ping()
            #expect(try await AccessTests.value(rig, "/output/5/volume") == .float(0.5), "their own mix they may")
            #expect(try await AccessTests.value(rig, "/output/5/limiter/ceiling") == .float(-1), "nothing changed")
        }
    }
}
}
