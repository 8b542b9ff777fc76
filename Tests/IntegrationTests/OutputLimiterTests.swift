import Foundation
import Testing

/// The outputs' brickwall limiters on a real rig (issue 36), from audio
/// recorded off JACK: no sample above the ceiling whatever comes in, a
/// delay of exactly the lookahead that JACK is told of, a stereo pair
/// limited together, and the gain it takes off on `/meters/limiter`.
extension Integration {
@Suite struct OutputLimiterTests {
    typealias A = SignalAnalysis

    static func send(_ rig: CrosspointRig, _ messages: [(String, OSCTestClient.Argument)]) async throws {
        for (address, argument) in messages { try rig.osc.send(address, argument) }
        try await rig.ping()
        try await Task.sleep(for: .milliseconds(60))
    }

    /// Impulses of +20 dBFS from silence, a full-scale sine and +6 dBFS of
    /// DC: the largest recorded sample is at most the ceiling, at 0, −1 and
    /// −20 dBFS.
    @Test(arguments: [0.0, -1, -20])
    func noRecordedSampleIsAboveTheCeiling(ceiling: Double) async throws {
        try await withRig(inputs: 3, outputs: 3, arguments: ["--mono-outputs", "1,2,3"]) { rig in
            try await Self.send(rig, (1...3).flatMap { m in
                [("/output/\(m)/limiter/ceiling", OSCTestClient.Argument.float(Float(ceiling))),
                 ("/output/\(m)/limiter/on", .int32(1))]
            })
            rig.source.setSignal(.impulses(every: 997, amplitude: 10), playPort: 1)
            rig.source.setSignal(.sine(frequency: 441, amplitude: 1), playPort: 2)
            rig.source.setSignal(.constant(2), playPort: 3)
            try await Task.sleep(for: .milliseconds(100))
            let recording = try await rig.record(seconds: 1)
            let limit = Float(pow(10, ceiling / 20))
            for m in 0..<3 {
                let largest = A.peak(recording.channels[m])
                #expect(largest <= limit, "output \(m + 1): \(largest) above the ceiling \(limit)")
                #expect(largest > limit * 0.5, "output \(m + 1) is heard: \(largest)")
            }
        }
    }

    /// The output is the input exactly the lookahead later, and its JACK
    /// port says so; with the limiter off, neither.
    @Test func theDelayIsTheLookaheadAndJackIsTold() async throws {
        try await withRig(inputs: 2, outputs: 2, arguments: ["--mono-outputs", "1,2"]) { rig in
            try await Self.send(rig, [("/output/1/limiter/lookahead", .float(2)), ("/output/1/limiter/on", .int32(1))])
            rig.source.setSignal(.impulses(every: 4_800, amplitude: 0.25), playPort: 1)
            let tap = try ResizeTests.tap(rig, name: "xp-limiter-tap", [rig.source.playPort(1), "crosspoint:out_1"])
            defer { tap.close() }
            try await tap.startRecording()
            try await tap.waitForRecordedFrames(24_000)
            let recording = try await tap.stopRecording()
            let played = recording.channels[0], heard = recording.channels[1]
            let first = try #require(played.firstIndex(of: 0.25).flatMap { k in k + 200 < heard.count ? k : nil })
            #expect(heard[first + 96] == 0.25, "2 ms at 48 kHz is 96 frames: \(heard[(first + 90)...(first + 100)])")
            #expect(heard[first..<(first + 96)].allSatisfy { $0 == 0 })

            try await ResizeTests.waitUntil("JACK is told of the lookahead") {
                try rig.source.latency(of: "crosspoint:out_1", capture: true)?.max == 96
            }
            #expect(try rig.source.latency(of: "crosspoint:out_2", capture: true)?.max == 0, "output 2 is not late")
            try await Self.send(rig, [("/output/1/limiter/on", .int32(0))])
            try await ResizeTests.waitUntil("JACK is told the limiter is off") {
                try rig.source.latency(of: "crosspoint:out_1", capture: true)?.max == 0
            }
        }
    }

    /// A transient on the left of a stereo pair lowers the right by the same
    /// gain; `/meters/limiter` shows what was taken off.
    @Test func aStereoPairLimitsTogetherAndTheMeterShowsIt() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            try await Self.send(rig, [("/matrix/2/1", .float(0)), ("/matrix/1/2", .float(0)),
                                      ("/source/1/pan", .float(-1)), ("/source/2/pan", .float(1)),
                                      ("/output/1/limiter/on", .int32(1)), ("/output/2/limiter/on", .int32(1))])
            // Far enough apart (0.5 s) for the 50 ms release to come back between.
            rig.source.setSignal(.impulses(every: 24_000, amplitude: 4), playPort: 1)
            rig.playSine(input: 2, frequency: 997, amplitude: 0.1)
            try await Task.sleep(for: .milliseconds(100))
            let recording = try await rig.record(seconds: 1.2)
            let right = recording.channels[1]
            // Around each transient the right side dips with the left.
            let quietest = stride(from: 0, to: right.count - 480, by: 48).map { A.peak(Array(right[$0..<($0 + 48)])) }.min() ?? 1
            let loudest = stride(from: 0, to: right.count - 480, by: 48).map { A.peak(Array(right[$0..<($0 + 48)])) }.max() ?? 0
            #expect(loudest > 0.099, "the right side's sine, at its level between transients: \(loudest)")
            #expect(quietest < 0.05, "lowered with the left's transient: \(quietest)")
            #expect(A.peak(recording.channels[0]) <= Float(pow(10, -1.0 / 20)))

            // The most taken off over the meters of half a second (a transient in it).
            let received = try await GroupTests.meters(rig).filter { $0.address == "/meters/limiter" }
            let frames = received.map { $0.arguments.compactMap(\.floatValue) }
            #expect(!frames.isEmpty && frames.allSatisfy { $0.count == 2 })
            let most = (0..<2).map { m in frames.compactMap { $0.count == 2 ? $0[m] : nil }.min() ?? 0 }
            #expect(most.allSatisfy { $0 < -6 }, "both sides taken down by the left's need (4 to -1 dBFS): \(most)")
        }
    }
}
}
