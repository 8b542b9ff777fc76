import Foundation
import Testing

/// Talkback (issue 37), through the real binary and JACK: a tone played
/// into `crosspoint:talk_1` (connected by `--connect-talkbacks` when the
/// talk mic's client appears) reaches the outputs it talks to at its level
/// and no other, dims their programme, follows an output's delay through
/// its mute, and never clicks.
extension Integration {
@Suite struct TalkbackTests {
    typealias A = SignalAnalysis

    /// The longest part of `range` without a gap in the recording.
    static func unbroken(_ recording: Recording, _ range: Range<Int>) -> Range<Int> {
        guard range.lowerBound < range.upperBound else { return range.lowerBound..<range.lowerBound }
        return recording.continuousRanges.map { $0.clamped(to: range) }.max { $0.count < $1.count } ?? range
    }

    /// The talk mic: a client `xp-talk` playing a 1 kHz tone, which the
    /// rig's `--connect-talkbacks ^xp-talk:` has connected to `talk_1`.
    static func talkMic(_ rig: CrosspointRig, amplitude: Float) async throws -> JackProbe {
        let talk = try JackProbe(server: rig.jack, clientName: "xp-talk", playPorts: 1, recordPorts: 0)
        talk.setSignal(.sine(frequency: 1000, amplitude: amplitude), playPort: 1)
        do {
            _ = try await rig.crosspoint.waitForOutput(containing: "(--connect-talkbacks)", timeout: .seconds(5))
        } catch {
            talk.close()
            throw error
        }
        return talk
    }

    @Test func aTalkReachesItsDestinationsDimsTheirProgrammeAndNeverClicks() async throws {
        try await withRig(inputs: 1, outputs: 6, arguments: ["--connect-talkbacks", "^xp-talk:"]) { rig in
            let rate = Double(rig.sampleRate)
            // The programme: source 1, 440 Hz, into every output at unity.
            rig.playSine(input: 1, frequency: 440, amplitude: 0.25)
            let talk = try await Self.talkMic(rig, amplitude: 0.5)
            defer { talk.close() }
            // Output 5 muted and delayed by a quarter of the talk's cycle.
            for message in [["/matrix/1/*", "1"], ["/talkback/1/output/3", "1"], ["/talkback/1/output/5", "1"],
                            ["/talkback/1/db", "-6"], ["/output/5/mute", "1"], ["/output/5/delay", "0.25"]] {
                let (output, _) = try await rig.send(message, wait: 0)
                #expect(!output.contains("/error"), "\(message): \(output)")
            }
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(100))

            let recording = try await rig.record(seconds: 1.7) { _ in
                try await Task.sleep(for: .milliseconds(300))
                try await rig.sendAndSettle("/talkback/1/talk", .int32(1))
                try await Task.sleep(for: .milliseconds(700))
                try await rig.sendAndSettle("/talkback/1/talk", .int32(0))
                try await Task.sleep(for: .milliseconds(300))
            }
            // The talk's edges, from the recording itself (a loaded machine's
            // clocks place a mark read beside the audio tens of ms off):
            // muted output 5 carries the talk alone, 0.25 at its height, so
            // it is above 0.05 from a fifth into the 20 ms ramp on to four
            // fifths into the ramp off. The windows keep 50 ms from each, and
            // each is the longest stretch of it without a gap (a cycle the
            // dummy driver skipped), where the tones run unbroken.
            let heard = recording.channels[4].indices.filter { abs(recording.channels[4][$0]) > 0.05 }
            guard let on = heard.first, let off = heard.last else {
                Issue.record("no talk on output 5")
                return
            }
            // Each window a whole number of 1/40 s, 11 cycles of the programme's
            // 440 Hz and 25 of the talk's 1 kHz: a fit of one tone reads none
            // of the other (over any other length a 0.25 talk leaks 3e-4 into
            // the 440 Hz fit, a tenth of a dB of the dimmed programme).
            let settle = Int(0.05 * rate), cycle = Int((rate / 40).rounded())
            func window(_ range: Range<Int>) -> Range<Int> {
                let unbroken = Self.unbroken(recording, range)
                return unbroken.lowerBound..<(unbroken.lowerBound + unbroken.count / cycle * cycle)
            }
            let before = window(Int(0.06 * rate)..<max(Int(0.06 * rate), on - settle))
            let talking = window((on + settle)..<max(on + settle, off - settle))
            let after = window((off + settle)..<recording.frameCount)
            let marks = [on, off]
            for range in [before, talking, after] {
                #expect(range.count > Int(0.1 * rate), "a window of \(range.count) frames: \(marks)")
            }
            guard [before, talking, after].allSatisfy({ $0.count > Int(0.1 * rate) }) else { return }
            func component(_ m: Int, _ frequency: Double, _ range: Range<Int>) -> A.SineFit {
                A.fitSine(recording.channels[m - 1], frequency: frequency, sampleRate: rate, in: range)
            }
            // What a tone at `frequency` leaves unexplained, as a sine's
            // amplitude: any other sound (a fit of the other tone alone
            // would read the window's leakage, 4e-5, not the signal).
            func besides(_ m: Int, _ frequency: Double, _ range: Range<Int>) -> Float {
                component(m, frequency, range).residualRMS * Float(2).squareRoot()
            }

            // Outputs 3 and 5 carry the talk at −6 dB, within 0.05 dB.
            for m in [3, 5] {
                let level = A.decibels(component(m, 1000, talking).amplitude / 0.5)
                #expect(abs(level + 6) < 0.05, "output \(m) carries the talk at \(level) dB")
            }
            // Output 3's programme drops by the dim (−20 dB) within 0.1 dB, and comes back.
            let programme = component(3, 440, before).amplitude
            let dimmed = A.decibels(component(3, 440, talking).amplitude / programme)
            let back = A.decibels(component(3, 440, after).amplitude / programme)
            #expect(abs(programme - 0.25) < 1e-4, "the programme before: \(programme)")
            #expect(abs(dimmed + 20) < 0.1, "dimmed by \(dimmed) dB")
            #expect(abs(back) < 0.1 && besides(3, 440, after) < 1e-6, "after: \(back) dB, \(besides(3, 440, after)) else")
            // Muted output 5 carries the talk alone, a quarter cycle later than output 3.
            #expect(besides(5, 1000, talking) < 1e-6, "output 5 is muted: only the talk, \(besides(5, 1000, talking)) else")
            var lag = component(3, 1000, talking).phase - component(5, 1000, talking).phase
            lag = lag < 0 ? lag + 2 * .pi : lag
            #expect(abs(lag - .pi / 2) < 0.05, "output 5's talk lags output 3's by \(lag) rad: its delay")

            // The other outputs carry none of it, below −120 dB, and are untouched sample for sample.
            for m in [1, 2, 4, 6] {
                let leak = besides(m, 440, talking)
                #expect(leak < 1e-6, "output \(m) carries more than its programme: \(A.decibels(leak)) dB")
                #expect(recording.channels[m - 1] == recording.channels[0], "output \(m) is output 1's programme")
            }
            #expect(abs(component(1, 440, talking).amplitude - 0.25) < 1e-4)

            // No click at talk on, off, nor the dim: the third difference of
            // output 3 stays within three times a clean tone's.
            let clean = A.maximumThirdDifference(A.sine(frequency: 440, amplitude: 0.25, sampleRate: rate, count: 4800))
                + A.maximumThirdDifference(A.sine(frequency: 1000, amplitude: 0.25, sampleRate: rate, count: 4800))
            var largest: [Float] = []
            for m in [3, 5] {
                largest.append(A.maximumThirdDifference(Array(recording.channels[m - 1][before.lowerBound...])))
                #expect(largest.last! < clean * 3, "output \(m): largest third difference \(largest.last!), a clean mix's \(clean)")
            }
            FileHandle.standardError.write(Data(("note: talkback: talk on outputs 3 and 5 at "
                + [3, 5].map { String(format: "%.3f", A.decibels(component($0, 1000, talking).amplitude / 0.5)) }.joined(separator: ", ")
                + String(format: " dB; programme dimmed by %.3f dB, back to %.3f dB; output 5's lag %.4f rad; ", dimmed, back, lag)
                + "else on other outputs \([1, 2, 4, 6].map { besides($0, 440, talking) }.max() ?? 0); "
                + "largest third differences \(largest) against a clean mix's \(clean)\n").utf8))
            #expect(recording.channels.allSatisfy { $0.allSatisfy(\.isFinite) })
        }
    }

    /// Talk joins an output before its limiter (docs/talkback.md): a
    /// full-scale talk at +10 dB on a programme near full scale, into an
    /// output limited at −1 dBFS, never leaves a recorded sample above the
    /// ceiling; the output beside it, not a destination, limited alike,
    /// carries its programme alone.
    @Test func aTalkIntoALimitedOutputNeverExceedsItsCeiling() async throws {
        try await withRig(inputs: 1, outputs: 2, arguments: ["--mono-outputs", "1,2", "--connect-talkbacks", "^xp-talk:"]) { rig in
            let rate = Double(rig.sampleRate)
            rig.playSine(input: 1, frequency: 440, amplitude: 0.8)
            let talk = try await Self.talkMic(rig, amplitude: 1)
            defer { talk.close() }
            for message in [["/matrix/1/*", "1"], ["/output/*/limiter/ceiling", "-1"], ["/output/*/limiter/on", "1"],
                            ["/talkback/1/output/1", "1"], ["/talkback/1/db", "10"], ["/talkback/1/dim_db", "0"],
                            ["/talkback/1/talk", "1"]] {
                let (output, _) = try await rig.send(message, wait: 0)
                #expect(!output.contains("/error"), "\(message): \(output)")
            }
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(200))
            let recording = try await rig.record(seconds: 1)
            let ceiling = Float(pow(10, -1.0 / 20))
            let largest = recording.channels.map { A.peak($0) }
            #expect(largest[0] <= ceiling, "output 1, talked into: \(largest[0]) above the ceiling \(ceiling)")
            #expect(largest[1] <= ceiling, "output 2: \(largest[1])")
            let whole = 0..<recording.frameCount
            let heard = A.fitSine(recording.channels[0], frequency: 1000, sampleRate: rate, in: whole).amplitude
            #expect(heard > 0.3, "the talk is heard on output 1, limited: \(heard)")
            // What output 2 carries besides its programme's tone (a fit of the
            // talk's tone alone would read the window's leakage of 440 Hz).
            let leak = A.fitSine(recording.channels[1], frequency: 440, sampleRate: rate, in: whole).residualRMS * Float(2).squareRoot()
            #expect(leak < 1e-5, "output 2 carries its programme alone: \(leak) else")
            FileHandle.standardError.write(Data("note: talkback into a limited output: largest samples \(largest) under the ceiling \(ceiling); the talk heard at \(heard)\n".utf8))
            #expect(recording.channels.allSatisfy { $0.allSatisfy(\.isFinite) })
        }
    }

    /// Live state through a restart of the real binary: a latched talk
    /// comes back not talking and nothing is in the listen; the rig's
    /// settings (the talkback's destinations, level, dim and latch, the
    /// listen's mode, default pair and level) are as they were.
    @Test func aRestartComesBackNotTalkingWithTheSettingsKept() async throws {
        try await withRig(inputs: 2, outputs: 4, arguments: ["--listen"]) { rig in
            for message in [["/talkback/1/output/3", "1"], ["/talkback/1/db", "-6"], ["/talkback/1/dim_db", "-30"],
                            ["/talkback/1/latch", "1"], ["/talkback/1/talk", "1"], ["/listen/mode", "additive"],
                            ["/listen/default", "3"], ["/listen/db", "-10"], ["/output/2/listen", "1"]] {
                let (output, _) = try await rig.send(message, wait: 0)
                #expect(!output.contains("/error"), "\(message): \(output)")
            }
            typealias P = PageTests
            #expect(try await P.query(rig, "/talkback/1/talk")?.intValue == 1, "latched on")
            #expect(try await P.query(rig, "/listen/output")?.stringValue == "2")

            let restarted = try await rig.restart(arguments: ["--listen"])
            defer { restarted.terminate() }
            #expect(try await P.query(rig, "/talkback/1/talk")?.intValue == 0, "a restart never comes back talking")
            #expect(try await P.query(rig, "/listen/output")?.stringValue == "", "nor listening")
            #expect(try await P.query(rig, "/output/2/listen")?.intValue == 0)
            #expect(try await P.query(rig, "/talkback/1/output/3")?.intValue == 1, "its destinations kept")
            #expect(try await P.query(rig, "/talkback/1/output/4")?.intValue == 0)
            #expect(P.close(try await P.query(rig, "/talkback/1/db")?.floatValue.map(Double.init), -6, 1e-3), "its level")
            #expect(try await P.query(rig, "/talkback/1/dim_db")?.floatValue == -30)
            #expect(try await P.query(rig, "/talkback/1/latch")?.intValue == 1)
            #expect(try await P.query(rig, "/listen/mode")?.stringValue == "additive")
            #expect(try await P.query(rig, "/listen/default")?.floatValue == 3)
            #expect(P.close(try await P.query(rig, "/listen/db")?.floatValue.map(Double.init), -10, 1e-3))
        }
    }
}
}
