import Foundation
import Testing

/// A rig that changes size while it plays (issue 24): the real binary in a
/// real JACK server, its outputs recorded from real ports beside the tones
/// that feed it, while real OSC clients change its size.
extension Integration {
@Suite struct ResizeTests {
    typealias A = SignalAnalysis

    /// Records the two tones the source plays (rec_1, rec_2) and the rig's
    /// out_1 and out_2 (rec_3, rec_4) in the same cycles.
    static func tap(_ rig: CrosspointRig) throws -> JackProbe {
        try tap(rig, name: "xp-tap", [rig.source.playPort(1), rig.source.playPort(2), "crosspoint:out_1", "crosspoint:out_2"])
    }

    /// A recorder of `ports`, one each, in order (rec_1, rec_2, …).
    static func tap(_ rig: CrosspointRig, name: String, _ ports: [String]) throws -> JackProbe {
        let tap = try JackProbe(server: rig.jack, clientName: name, playPorts: 0, recordPorts: ports.count)
        for (k, port) in ports.enumerated() { try tap.connect(from: port, to: tap.recordPort(k + 1)) }
        return tap
    }

    /// How closely an output follows its tone at `gain` in a recording
    /// (channel indices): the largest difference, the tone taken `lag`
    /// samples earlier (the best lag of 0…2 periods), within each run of
    /// recorded cycles longer than four periods. A missed cycle is the
    /// server's (the tone and the output miss it together), so a run ends
    /// there. Where less than half the take could be compared, the error is
    /// infinite.
    struct Match: CustomStringConvertible {
        var error: Float = 0, lag = 0, compared = 0, frames = 0
        var description: String { "worst \(error) at lag \(lag) over \(compared) of \(frames) frames" }
    }

    static func worstError(_ recording: Recording, output: Int, tone: Int, gain: Float, period: Int) -> Match {
        var match = Match(frames: recording.frameCount)
        for range in recording.continuousRanges where range.count > 4 * period {
            let (out, tone) = (recording.channels[output][range], recording.channels[tone][range])
            let (error, lag) = (0...(2 * period)).map { (lag: Int) -> (Float, Int) in
                var worst: Float = 0
                for k in (range.lowerBound + lag + period)..<range.upperBound {
                    worst = max(worst, abs(out[k] - gain * tone[k - lag]))
                }
                return (worst, lag)
            }.min { $0.0 < $1.0 } ?? (.infinity, 0)
            if error >= match.error { (match.error, match.lag) = (error, lag) }
            match.compared += range.count
        }
        if match.compared < match.frames / 2 { match.error = .infinity }
        return match
    }

    /// Tones through in_1 → out_1 (gain 1) and in_2 → out_2 (gain 0.5) on
    /// `jackd -R` where the machine allows it, while two clients at once
    /// take /rig/inputs and /rig/outputs 8 → 16 → 4 → 12 → 8, twenty times:
    /// both outputs equal their tones at their gains, sample for sample, in
    /// every cycle recorded, and with no more missed cycles (gaps in JACK's
    /// frame time) or xruns than the same time without resizes allows
    /// (within the machine's own noise: see `withinNoise`).
    @Test func tonesPlayOnSampleForSampleWhileTheRigResizes() async throws {
        try await withRig(inputs: 8, outputs: 8, arguments: ["--mono-outputs", "1,2"]) { rig in
            rig.playSine(input: 1, frequency: 997, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 1499, amplitude: 0.8)
            try await rig.sendAndSettle("/matrix/2/2", .float(0.5), .float(0))
            try await Task.sleep(for: .milliseconds(100))
            let tap = try Self.tap(rig)
            defer { tap.close() }
            // JACK2 itself may miss a cycle when a client unregisters a port
            // another is connected to (seen with plain clients: about one in a
            // hundred): the channels that come and go are left unconnected,
            // so that an xrun here would be the rig's own.
            for k in 3...8 {
                try rig.source.disconnect(from: rig.source.playPort(k), to: "crosspoint:in_\(k)")
                try rig.recorder.disconnect(from: "crosspoint:out_\(k)", to: rig.recorder.recordPort(k))
            }
            let frames = Int(2.5 * Double(rig.sampleRate))

            // Twice the time without resizes: the machine's own xruns.
            try await tap.startRecording()
            let quietStart = tap.xrunCount
            try await tap.waitForRecordedFrames(2 * frames)
            let quiet = try await tap.stopRecording()
            let quietXruns = tap.xrunCount - quietStart

            let clients = try (0..<2).map { _ in try OSCTestClient(target: .init(host: "127.0.0.1", port: rig.oscPort)) }
            defer { clients.forEach { $0.close() } }
            try await tap.startRecording()
            let busyStart = tap.xrunCount
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (client, address) in zip(clients, ["/rig/inputs", "/rig/outputs"]) {
                    group.addTask {
                        for _ in 0..<20 {
                            for size in [16, 4, 12, 8] {
                                try client.send(address, .int32(Int32(size)))
                                try await Task.sleep(for: .milliseconds(20))
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await rig.ping()
            try await tap.waitForRecordedFrames(frames)
            let recording = try await tap.stopRecording()
            let busyXruns = tap.xrunCount - busyStart

            let (size, _) = try await rig.send(["/rig/inputs"])
            #expect(size.contains("/rig/inputs ,i 8"), "back at 8 inputs: \(size)")
            // A missed cycle is the server's (every client misses it): the
            // tone and the output are compared within each run of cycles (worstError).
            let (gaps, quietGaps) = (recording.gaps.count, quiet.gaps.count)
            print("note: resizing: \(gaps) gaps and \(busyXruns) xruns in 2.5 s; without: \(quietGaps) and \(quietXruns) in 5 s")
            #expect(Self.withinNoise(gaps, quiet: quietGaps),
                    "\(gaps) gaps in 2.5 s while resizing, \(quietGaps) in 5 s without: \(recording.gaps)")
            for (output, tone, gain) in [(2, 0, Float(1)), (3, 1, Float(0.5))] {
                let match = Self.worstError(recording, output: output, tone: tone, gain: gain, period: rig.jack.periodSize)
                #expect(match.error <= 1e-6, "out_\(output - 1) against its tone: \(match)")
            }
            if rig.jack.xrunChecksApply(to: "no more xruns while resizing") {
                #expect(Self.withinNoise(busyXruns, quiet: quietXruns),
                        "\(busyXruns) xruns in 2.5 s while resizing, \(quietXruns) in 5 s without")
            }
        }
    }

    /// A 2 s fade on source 1 while the rig grows and shrinks under it: it
    /// follows the fader law and ends on time, on target.
    @Test func aFadeAcrossResizesEndsOnTimeAndOnTarget() async throws {
        try await withRig(inputs: 4, outputs: 4) { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            var sentAt = 0
            let recording = try await rig.record(seconds: 2.6) { mark in
                sentAt = rig.recorder.currentRecordingPosition() ?? mark
                try rig.osc.send("/source/1/volume", .float(0), .float(2))
                for size in [12, 2, 9, 4, 16, 4] {
                    try await Task.sleep(for: .milliseconds(250))
                    try rig.osc.send(size % 2 == 0 ? "/rig/inputs" : "/rig/outputs", .int32(Int32(size)))
                    try rig.osc.send("/rig/outputs", .int32(Int32(max(2, size / 2))))
                }
                try rig.osc.send("/rig/outputs", .int32(4))
            }
            let out = recording.channels[0]
            let fade = try #require(FadeMeasurement.twoSecondFade(out, frequency: 1000, amplitude: 0.5))
            #expect(abs(fade.levelAtHalfTime - -20) < 0.5, "level at half time: \(fade.levelAtHalfTime) dB")
            #expect(abs(fade.start - sentAt) < 12_000, "began when sent (\(fade.start) vs \(sentAt))")
            #expect(A.peak(out, in: (fade.start + 96_500)..<out.count) == 0, "silent after the fade's 2 s")
            let limit = A.maximumSineStep(frequency: 1000, amplitude: 0.5, sampleRate: 48_000) + 1e-3
            #expect(A.maxAbsoluteStep(out) <= limit, "no click")
        }
    }

    /// A source added is silent until routed, then heard; channels removed
    /// lose their ports and addresses; a restart comes back at the last size.
    @Test func newChannelsAreSilentUntilRoutedAndRemovedOnesAreGone() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            rig.source.setSignal(.silence, playPort: 2)
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            let (grown, _) = try await rig.send(["/rig/inputs", "3"])
            #expect(grown.contains("/rig/inputs ,i 3"))
            _ = try await rig.source.waitForPorts(matching: "crosspoint:in_3", count: 1, timeout: .seconds(5))
            try rig.source.connect(from: rig.source.playPort(1), to: "crosspoint:in_3")
            try await Task.sleep(for: .milliseconds(100))
            let before = try await rig.record(seconds: 0.2)
            #expect(A.peak(before.channels[1]) == 0, "in_3 is silent on out_2 until routed")
            try await rig.sendAndSettle("/matrix/3/2", .float(0.5), .float(0))
            try await Task.sleep(for: .milliseconds(50))
            let after = try await rig.record(seconds: 0.2)
            let heard = A.fitSine(after.channels[1], frequency: 1000, sampleRate: 48_000, in: 2400..<9600)
            #expect(abs(heard.amplitude - 0.25) < 1e-4, "in_3 heard on out_2 at 0.5: \(heard.amplitude)")

            _ = try await rig.send(["/rig/inputs", "1"])
            _ = try await rig.send(["/rig/outputs", "1"])
            try await Self.waitUntil("in_2, in_3 and out_2 leave JACK") {
                // The channels' ports (the talkbacks' talk_t stay).
                try rig.source.ports(matching: "crosspoint:(in|out)_").sorted() == ["crosspoint:in_1", "crosspoint:out_1"]
            }
            let (gone, _) = try await rig.send(["/source/3/volume"])
            #expect(gone.contains("/error"), "a removed source's address answers /error: \(gone)")
            let (stateNow, _) = try await rig.send(["/status"])
            #expect(stateNow.contains("/status/inputs ,i 1") && stateNow.contains("/status/outputs ,i 1"), "\(stateNow)")

            // The full state a subscriber gets: the size, and nothing of what is gone.
            let client = try OSCTestClient(target: .init(host: "127.0.0.1", port: rig.oscPort))
            defer { client.close() }
            try client.send("/subscribe")
            let state = try await client.collect(for: .milliseconds(500)).map(\.address)
            #expect(state.contains("/rig/inputs") && state.contains("/source/1/volume"), "\(state.prefix(20))")
            #expect(!state.contains { $0.hasPrefix("/source/2/") || $0.hasPrefix("/output/2/") }, "removed channels' state")

            // The state file keeps the size: a restart without --inputs comes back at it.
            try await Task.sleep(for: .milliseconds(1500)) // the state keeper writes 1 s after the last change
            rig.crosspoint.terminate()
            let again = try ChildProcess(
                executable: CrosspointRig.binary,
                arguments: ["serve", "--jack-server", rig.jack.name, "--no-autostart", "--osc-port", "0", "--http-port", "0",
                            "--jack-name", "crosspoint-again"] + CrosspointRig.fileArguments(rig.directory),
                label: "crosspoint serve (restarted)")
            defer { again.terminate() }
            let port = try await CrosspointRig.oscPort(of: again)
            let restarted = try OSCTestClient(target: .init(host: "127.0.0.1", port: port))
            defer { restarted.close() }
            try restarted.send("/rig/inputs")
            let inputs = try await restarted.waitFor(address: "/rig/inputs", timeout: .seconds(5))
            try restarted.send("/rig/outputs")
            let outputs = try await restarted.waitFor(address: "/rig/outputs", timeout: .seconds(5))
            #expect(inputs.arguments == [.int32(1)] && outputs.arguments == [.int32(1)], "restarted at \(inputs), \(outputs)")
        }
    }

    /// Whether `count` missed cycles (or xruns) in 2.5 s of resizing can be
    /// the machine's own, against `quiet` in 5 s without. JACK2's dummy
    /// backend misses a cycle now and then by itself (idle, about one in a
    /// few seconds here; a client registering and unregistering ports as
    /// fast, about as often), and a loaded machine more, in bursts: over the
    /// same time, the resizing run may exceed half the quiet count by three
    /// standard deviations and by one in ten of its 160 resizes. A fault that
    /// costs a cycle per resize (160) could not pass; a burst of the machine's
    /// (a quiet 5 s here, just after a browser test, once held 2 gaps and 17
    /// xruns) does.
    static func withinNoise(_ count: Int, quiet: Int) -> Bool {
        let expected = Double(quiet) / 2
        return Double(count) <= expected + 3 * (expected + 1).squareRoot() + 16
    }

    static func waitUntil(_ what: String, timeout: Duration = .seconds(5), _ condition: () throws -> Bool) async throws {
        let clock = ContinuousClock(), end = clock.now + timeout
        while clock.now < end {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("timed out waiting until \(what)")
    }
}
}
