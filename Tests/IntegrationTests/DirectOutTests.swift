import Foundation
import Testing

/// Direct outs (issue 24): a source's own signal on a JACK port of its own,
/// recorded from that port beside the tone that feeds the source.
extension Integration {
@Suite struct DirectOutTests {
    typealias A = SignalAnalysis

    /// Records source 1's tone (rec_1) and `crosspoint:direct_1` (rec_2) in the same cycles.
    static func tap(_ rig: CrosspointRig) throws -> JackProbe {
        try ResizeTests.tap(rig, name: "xp-direct-tap", [rig.source.playPort(1), "crosspoint:direct_1"])
    }

    static func record(_ tap: JackProbe, seconds: Double) async throws -> Recording {
        try await tap.startRecording()
        try await tap.waitForRecordedFrames(Int(seconds * 48_000))
        return try await tap.stopRecording()
    }

    @Test func preAndPostTapsFollowTheirPartOfTheStripAndNoSolo() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            rig.playSine(input: 1, frequency: 997, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 1499, amplitude: 0.4)
            let (refused, _) = try await rig.send(["/source/1/direct", "sideways"])
            #expect(refused.contains("/error") && refused.contains("off, pre or post"), "an unknown tap: \(refused)")
            #expect(try rig.source.ports(matching: "crosspoint:direct").isEmpty, "no port while off")

            // pre: after polarity, before level and mute; another source's solo changes nothing.
            for message in [["/source/1/direct", "pre"], ["/source/1/invert", "1"], ["/source/1/volume", "0.25"],
                            ["/source/1/mute", "1"], ["/source/2/solo", "1"]] {
                _ = try await rig.send(message, wait: 0)
            }
            _ = try await rig.source.waitForPorts(matching: "crosspoint:direct_1", count: 1, timeout: .seconds(5))
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(100)) // past the 20 ms ramps
            let tap = try Self.tap(rig)
            defer { tap.close() }
            let pre = try await Self.record(tap, seconds: 0.3)
            let preMatch = ResizeTests.worstError(pre, output: 1, tone: 0, gain: -1, period: 64)
            #expect(preMatch.error == 0, "pre is the input with its polarity, bit for bit: \(preMatch)")

            // post: after level and mute; the solo still changes nothing.
            _ = try await rig.send(["/source/1/direct", "post"], wait: 0)
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(50))
            let muted = try await Self.record(tap, seconds: 0.2)
            #expect(A.peak(muted.channels[1]) == 0, "post is silent while the source is muted")
            _ = try await rig.send(["/source/1/mute", "0"], wait: 0)
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(100))
            let post = try await Self.record(tap, seconds: 0.3)
            let postMatch = ResizeTests.worstError(post, output: 1, tone: 0, gain: -0.25, period: 64)
            #expect(postMatch.error <= 1e-6, "post is the input at its level and polarity, source 2 soloed: \(postMatch)")
            let mix = try await rig.record(seconds: 0.2)
            #expect(A.peak(mix.channels[0]) == 0, "while source 2 is soloed, source 1 is silent in the mix")

            let (query, _) = try await rig.send(["/source/1/direct"])
            #expect(query.contains("/source/1/direct ,s post"), "\(query)")
            _ = try await rig.send(["/source/1/direct", "off"], wait: 0)
            try await ResizeTests.waitUntil("direct_1 leaves JACK") {
                try rig.source.ports(matching: "crosspoint:direct").isEmpty
            }
        }
    }
}
}
