import Foundation
import Testing

/// The real binary in a real JACK server, heard through real ports.
extension Integration {
@Suite struct MixingTests {
    typealias A = SignalAnalysis

    @Test func defaultSceneRoutesEachInputToItsOutput() async throws {
        try await withRig(inputs: 3, outputs: 3) { rig in
            let frequencies: [Float] = [440, 1000, 2500], amplitudes: [Float] = [0.2, 0.4, 0.6]
            for n in 1...3 { rig.playSine(input: n, frequency: frequencies[n - 1], amplitude: amplitudes[n - 1]) }
            let recording = try await rig.record(seconds: 0.3)
            for m in 1...3 {
                let fit = A.fitSine(recording.channels[m - 1], frequency: Double(frequencies[m - 1]),
                                    sampleRate: Double(rig.sampleRate), in: 2400..<12000)
                #expect(abs(fit.amplitude - amplitudes[m - 1]) < 1e-4, "out_\(m) amplitude \(fit.amplitude)")
                #expect(fit.residualRMS < 1e-4, "out_\(m) carries something else: \(fit.residualRMS)")
            }
        }
    }

    @Test func oscsendChangesACrosspoint() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            let oscsend = try ChildProcess(executable: "oscsend",
                                           arguments: ["localhost", "\(rig.oscPort)", "/matrix/1/2", "f", "0.5"])
            #expect(try await oscsend.waitForExit() == .exited(0))
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(50)) // past the 20 ms ramp
            let recording = try await rig.record(seconds: 0.2)
            let out2 = A.fitSine(recording.channels[1], frequency: 1000, sampleRate: 48_000, in: 2400..<9600)
            let out1 = A.fitSine(recording.channels[0], frequency: 1000, sampleRate: 48_000, in: 2400..<9600)
            #expect(abs(out2.amplitude - 0.25) < 1e-4, "out_2 \(out2.amplitude)")
            #expect(abs(out1.amplitude - 0.5) < 1e-4, "out_1 \(out1.amplitude)")
            let (reply, status) = try await rig.send(["/matrix/1/2"])
            #expect(status == .exited(0))
            #expect(reply.contains("/matrix/1/2 ,f 0.5"), "query reply: \(reply)")
        }
    }

    @Test func crosspointSendPansASource() async throws {
        try await withRig(arguments: ["--pan-law", "constant-power"]) { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            rig.source.setSignal(.silence, playPort: 2)
            _ = try await rig.send(["/matrix/1/2", "1"], wait: 0)
            _ = try await rig.send(["/source/1/pan", "0.5"], wait: 0)
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(50))
            let recording = try await rig.record(seconds: 0.2)
            let theta = Float(1.5 * Double.pi / 4)
            let left = A.fitSine(recording.channels[0], frequency: 1000, sampleRate: 48_000, in: 2400..<9600)
            let right = A.fitSine(recording.channels[1], frequency: 1000, sampleRate: 48_000, in: 2400..<9600)
            #expect(abs(left.amplitude - 0.5 * cos(theta)) < 1e-4, "left \(left.amplitude)")
            #expect(abs(right.amplitude - 0.5 * sin(theta)) < 1e-4, "right \(right.amplitude)")
        }
    }

    @Test func aMuteRampsWithoutAClick() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.8)
            let recording = try await rig.record(seconds: 0.3) { _ in
                try await rig.sendAndSettle("/source/1/mute", .float(1))
            }
            let out = recording.channels[0]
            let limit = A.maximumSineStep(frequency: 1000, amplitude: 0.8, sampleRate: 48_000) + 0.8 / 960 + 1e-3
            #expect(A.maxAbsoluteStep(out) <= limit, "largest step \(A.maxAbsoluteStep(out)), limit \(limit)")
            #expect(A.peak(out, in: 0..<1200) > 0.79, "sound before the mute")
            #expect(A.peak(out, in: (out.count - 2400)..<out.count) == 0, "silence after it")
        }
    }

    @Test func aFadeFollowsTheFaderLaw() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            var sentAt = 0
            let recording = try await rig.record(seconds: 2.4) { mark in
                sentAt = rig.recorder.currentRecordingPosition() ?? mark
                try rig.osc.send("/source/1/volume", .float(0), .float(2))
            }
            let out = recording.channels[0]
            // Fader position 0.75 → 0 in 2 s: at 1 s it is 0.375, −20 dB by the law.
            let fade = try #require(FadeMeasurement.twoSecondFade(out, frequency: 1000, amplitude: 0.5))
            #expect(abs(fade.levelAtHalfTime - -20) < 0.5, "level at half time: \(fade.levelAtHalfTime) dB")
            // The send-time estimate is rough on a busy machine: within 250 ms.
            #expect(abs(fade.start - sentAt) < 12_000, "the fade began when the message was sent (\(fade.start) vs \(sentAt))")
            let quarter = fade.start + 24_000 // position 0.5625: 40·0.5625 − 30 = −7.5 dB
            let early = A.decibels(A.fitSine(out, frequency: 1000, sampleRate: 48_000,
                                             in: (quarter - 240)..<(quarter + 240)).amplitude / 0.5)
            #expect(abs(early - -7.5) < 0.5, "level at a quarter: \(early) dB")
            #expect(A.peak(out, in: (fade.start + 96_500)..<out.count) == 0, "silent after the fade")
            let limit = A.maximumSineStep(frequency: 1000, amplitude: 0.5, sampleRate: 48_000) + 1e-3
            #expect(A.maxAbsoluteStep(out) <= limit)
        }
    }

    @Test func aWildcardMutesEverySource() async throws {
        try await withRig(inputs: 3, outputs: 3) { rig in
            for n in 1...3 { rig.source.setSignal(.constant(0.25), playPort: n) }
            let (output, status) = try await rig.send(["/source/*/mute", "1"], wait: 0)
            #expect(status == .exited(0), "\(output)")
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(50))
            let recording = try await rig.record(seconds: 0.1)
            for m in 1...3 { #expect(A.peak(recording.channels[m - 1]) == 0, "out_\(m)") }
            let (reply, _) = try await rig.send(["/source/[1-2]/mute"])
            #expect(reply == "/source/1/mute ,i 1\n/source/2/mute ,i 1\n")
        }
    }

    @Test func aBundleTakesEffectInOnePeriod() async throws {
        try await withRig { rig in
            // The same level on both inputs: if both crosspoints start their
            // fade in the same period, both outputs are identical sample by sample.
            rig.source.setSignalOnAllPlayPorts(.constant(0.5))
            try await Task.sleep(for: .milliseconds(50))
            // 600 messages between the two crosspoints take the server longer
            // than a period to handle: only the bundle keeps them together.
            let filler = Array(repeating: OSCTestClient.Message("/output/2/name", arguments: [.string("x")]), count: 600)
            func bundle(_ level: Float, fade: Float) -> [OSCTestClient.Message] {
                [.init("/matrix/1/1", arguments: [.float(level), .float(fade)])] + filler
                    + [.init("/matrix/2/2", arguments: [.float(level), .float(fade)])]
            }
            let recording = try await rig.record(seconds: 0.6) { _ in
                for _ in 0..<5 {
                    try rig.osc.sendBundle(bundle(0, fade: 0.1))
                    try await Task.sleep(for: .milliseconds(40))
                    try rig.osc.sendBundle(bundle(1, fade: 0.05))
                    try await Task.sleep(for: .milliseconds(40))
                }
                try await rig.ping()
            }
            let (left, right) = (recording.channels[0], recording.channels[1])
            #expect(A.peak(left) == 0.5 && A.rms(left) < 0.45, "the fades happened")
            let differing = zip(left, right).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) samples differ between the two outputs")
        }
    }

    @Test func crosspointSendBundlesToo() async throws {
        try await withRig { rig in
            let (output, status) = try await rig.send(["--bundle", "/matrix/1/1 0", "/matrix/2/2 0.25", "/matrix/1/1"])
            #expect(status == .exited(0))
            #expect(output == "/matrix/1/1 ,f 0.0\n", "the query in the bundle sees the change before it")
            let (reply, _) = try await rig.send(["/matrix/2/2/db"])
            #expect(reply.hasPrefix("/matrix/2/2/db ,f -12.04"), "\(reply)")
        }
    }
}
}
