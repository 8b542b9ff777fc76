import Foundation
import Testing

/// DCAs and mute groups (issue 25), on recorded audio from a real jackd and
/// the real rig: a member's level is its own times its DCAs', a group's mute
/// silences its members without touching their own mutes, fades multiply,
/// recalls crossfade the groups and `/safe/dca/{g}` keeps one.
extension Integration {
@Suite struct GroupTests {
    typealias A = SignalAnalysis

    /// A rig of three sources on three outputs (identity), each playing its
    /// own tone at 0.5; source 3 also reaches output 1 at 0.5.
    static func withToneRig(_ arguments: [String] = [], _ body: (CrosspointRig) async throws -> Void) async throws {
        try await withRig(inputs: 3, outputs: 3, arguments: ["--mono-outputs", "1,2,3"] + arguments) { rig in
            for (n, frequency) in zip(1...3, tones) { rig.playSine(input: n, frequency: frequency, amplitude: 0.5) }
            try await rig.sendAndSettle("/matrix/3/1", .float(0.5))
            try await Task.sleep(for: .milliseconds(100))
            try await body(rig)
        }
    }

    static let tones: [Float] = [440, 1000, 1500]

    /// Half a second of meters at 20 Hz, once they have settled.
    static func meters(_ rig: CrosspointRig) async throws -> [OSCTestClient.ReceivedMessage] {
        let meter = try OSCTestClient(target: .init(port: rig.oscPort))
        defer { meter.close() }
        try meter.send("/meters/subscribe", .float(20))
        _ = try await meter.collect(for: .milliseconds(200))
        return try await meter.collect(for: .milliseconds(500))
    }

    /// The amplitude of source n's tone on output m, in a settled recording.
    static func level(_ recording: Recording, source n: Int, output m: Int) -> Float {
        A.fitSine(recording.channels[m - 1], frequency: Double(tones[n - 1]), sampleRate: 48_000, in: 2400..<14_400).amplitude
    }

    static func query(_ rig: CrosspointRig, _ address: String) async throws -> OSCTestClient.Argument? {
        try await Integration.PageTests.query(rig, address)
    }

    /// Sends `words` and waits past the smoothing time.
    static func set(_ rig: CrosspointRig, _ address: String, _ arguments: OSCTestClient.Argument...) async throws {
        try rig.osc.send(address, arguments: arguments)
        try await rig.ping()
        try await Task.sleep(for: .milliseconds(80))
    }

    /// Records source k's tone beside output m's, for `worstError`, while `during` runs.
    static func tapped(_ rig: CrosspointRig, _ pairs: [(source: Int, output: Int)],
                       during: () async throws -> Void) async throws -> Recording {
        let ports = pairs.flatMap { [rig.source.playPort($0.source), "crosspoint:out_\($0.output)"] }
        let tap = try ResizeTests.tap(rig, name: "xp-groups", ports)
        defer { tap.close() }
        try await tap.startRecording()
        try await tap.waitForRecordedFrames(4800)
        try await during()
        try await tap.waitForRecordedFrames(tap.currentRecordingPosition().map { $0 + 4800 } ?? 9600)
        return try await tap.stopRecording()
    }

    @Test func aDCARidesItsMembersAndNothingElse() async throws {
        try await Self.withToneRig { rig in
            let before = try await rig.record(seconds: 0.3)
            // Joining a DCA at 0 dB changes nothing, sample for sample; nor
            // does a DCA moving change a non-member.
            let joined = try await Self.tapped(rig, [(3, 3)]) {
                try await Self.set(rig, "/source/1/dca/1", .int32(1))
                try await Self.set(rig, "/source/3/dca/1", .int32(1))
            }
            let period = rig.jack.periodSize
            let unity = ResizeTests.worstError(joined, output: 1, tone: 0, gain: 1, period: period)
            #expect(unity.error == 0, "source 3 joining at 0 dB is bit-exact: \(unity)")
            let moved = try await Self.tapped(rig, [(2, 2)]) {
                try await Self.set(rig, "/dca/1/db", .float(-10))
            }
            let other = ResizeTests.worstError(moved, output: 1, tone: 0, gain: 1, period: period)
            #expect(other.error <= 1e-6, "source 2 is no member: its tone, sample for sample: \(other)")

            let down = try await rig.record(seconds: 0.3)
            for (n, m) in [(1, 1), (3, 3), (3, 1)] {
                let drop = A.decibels(Self.level(down, source: n, output: m) / Self.level(before, source: n, output: m))
                #expect(abs(drop + 10) < 0.1, "source \(n) on output \(m): \(drop) dB")
            }
            // Its own level is its own: the DCA leaves it alone.
            #expect(try await Self.query(rig, "/source/1/db").flatMap(\.floatValue).map { abs($0) < 1e-4 } == true)

            // Stacked: DCA 1 at −6 and DCA 2 at −4 make −10 for a member of both.
            try await Self.set(rig, "/dca/1/db", .float(-6))
            try await Self.set(rig, "/dca/2/db", .float(-4))
            try await Self.set(rig, "/source/1/dca/2", .int32(1))
            let stacked = try await rig.record(seconds: 0.3)
            let both = A.decibels(Self.level(stacked, source: 1, output: 1) / Self.level(before, source: 1, output: 1))
            let one = A.decibels(Self.level(stacked, source: 3, output: 3) / Self.level(before, source: 3, output: 3))
            #expect(abs(both + 10) < 0.1, "a member of both: \(both) dB")
            #expect(abs(one + 6) < 0.1, "a member of DCA 1 alone: \(one) dB")
        }
    }

    @Test func aDCAMuteLeavesTheMembersOwnMutes() async throws {
        try await Self.withToneRig { rig in
            try await Self.set(rig, "/source/1/dca/1", .int32(1))
            try await Self.set(rig, "/source/3/dca/1", .int32(1))
            try await Self.set(rig, "/source/3/mute", .int32(1))
            try await Self.set(rig, "/dca/1/mute", .int32(1))
            let muted = try await rig.record(seconds: 0.3)
            #expect(A.peak(muted.channels[0]) == 0 && A.peak(muted.channels[2]) == 0, "members silent")
            #expect(abs(Self.level(muted, source: 2, output: 2) - 0.5) < 1e-4, "source 2 plays on")
            #expect(try await Self.query(rig, "/source/1/mute") == .int32(0), "source 1's own mute is its own")
            #expect(try await Self.query(rig, "/source/3/mute") == .int32(1))
            try await Self.set(rig, "/dca/1/mute", .int32(0))
            let back = try await rig.record(seconds: 0.3)
            #expect(abs(Self.level(back, source: 1, output: 1) - 0.5) < 1e-4, "source 1 back")
            #expect(A.peak(back.channels[2]) == 0, "source 3 stays muted on its own")
            #expect(try await Self.query(rig, "/source/3/mute") == .int32(1))
        }
    }

    @Test func aMuteGroupSilencesItsMembersUntilEveryGroupIsOpen() async throws {
        try await Self.withToneRig { rig in
            for words in [("/source/1/mutegroup/1", 1), ("/source/1/mutegroup/2", 1), ("/source/3/mutegroup/1", 1),
                          ("/source/3/mute", 1), ("/mutegroup/1/mute", 1), ("/mutegroup/2/mute", 1)] {
                try await Self.set(rig, words.0, .int32(Int32(words.1)))
            }
            let muted = try await rig.record(seconds: 0.3)
            #expect(A.peak(muted.channels[0]) == 0 && A.peak(muted.channels[2]) == 0, "members silent")
            #expect(abs(Self.level(muted, source: 2, output: 2) - 0.5) < 1e-4, "source 2 plays on")
            #expect(try await Self.query(rig, "/source/1/mute") == .int32(0))
            try await Self.set(rig, "/mutegroup/1/mute", .int32(0))
            let one = try await rig.record(seconds: 0.3)
            #expect(A.peak(one.channels[0]) == 0, "source 1 is in group 2 as well: still silent")
            try await Self.set(rig, "/mutegroup/2/mute", .int32(0))
            let open = try await rig.record(seconds: 0.3)
            #expect(abs(Self.level(open, source: 1, output: 1) - 0.5) < 1e-4, "both open: source 1 back")
            #expect(A.peak(open.channels[2]) == 0, "source 3 stays muted on its own")
        }
    }

    /// A 2 s DCA fade to silence, while one member fades on its own from
    /// 0 dB to fader 0.5 (−10 dB) over the same 2 s: at half time the DCA's
    /// law says −20 dB (source 2 shows it), and source 1 adds its own −5 dB.
    @Test func aDCAFadeAndAMembersOwnFadeMultiply() async throws {
        try await Self.withToneRig { rig in
            // Output 1 carries source 1 alone: a window this short cannot tell 440 Hz from 1500 Hz at −45 dB.
            try await Self.set(rig, "/matrix/3/1", .float(0))
            try await Self.set(rig, "/source/1/dca/1", .int32(1))
            try await Self.set(rig, "/source/2/dca/1", .int32(1))
            let recording = try await rig.record(seconds: 2.6) { _ in
                try rig.osc.sendBundle([.init("/dca/1/volume", .float(0), .float(2)),
                                        .init("/source/1/fader", .float(0.5), .float(2))])
            }
            let fade = try #require(FadeMeasurement.twoSecondFade(recording.channels[1], frequency: 1000, amplitude: 0.5))
            #expect(abs(fade.levelAtHalfTime + 20) < 0.5, "the DCA at half time: \(fade.levelAtHalfTime) dB")
            let half = fade.start + 48_000
            let member = A.fitSine(recording.channels[0], frequency: 440, sampleRate: 48_000, in: (half - 240)..<(half + 240))
            let level = A.decibels(member.amplitude / 0.5)
            #expect(abs(level + 25) < 0.5, "the member at half time: \(level) dB")
            for (channel, frequency) in [(0, 440.0), (1, 1000.0)] {
                let limit = A.maximumSineStep(frequency: frequency, amplitude: 0.5, sampleRate: 48_000) + 1e-3
                #expect(A.maxAbsoluteStep(recording.channels[channel]) <= limit, "no click on output \(channel + 1)")
            }
            #expect(A.peak(recording.channels[1], in: (fade.start + 96_500)..<recording.channels[1].count) == 0,
                    "silent after the fade")
        }
    }

    /// Presets hold the groups and recalls crossfade them; a DCA made safe
    /// keeps its live level through a recall and an undo.
    @Test func recallsCrossfadeGroupsAndASafeDCAStays() async throws {
        try await Self.withToneRig { rig in
            for (address, argument) in [("/source/1/dca/1", OSCTestClient.Argument.int32(1)), ("/source/3/dca/2", .int32(1)),
                                        ("/dca/1/db", .float(-12)), ("/dca/2/db", .float(-12)), ("/dca/1/name", .string("Band"))] {
                try await Self.set(rig, address, argument)
            }
            _ = try await rig.send(["/preset/save", "low"])
            for (address, argument) in [("/dca/1/db", OSCTestClient.Argument.float(0)), ("/dca/2/db", .float(0)),
                                        ("/dca/1/name", .string("Vox"))] {
                try await Self.set(rig, address, argument)
            }
            try await Self.set(rig, "/safe/dca/2", .int32(1))
            // Recalled over 1 s: DCA 1 crossfades down; DCA 2 is safe and stays.
            let recording = try await rig.record(seconds: 1.6) { _ in
                try rig.osc.send("/preset/recall", .string("low"), .float(1))
            }
            let out1 = recording.channels[0]
            let env = FadeMeasurement.envelope(out1, frequency: 440)
            let start = try #require(FadeMeasurement.crossing(env, below: -0.5, of: 0.5), "source 1 moves")
            let end = try #require(FadeMeasurement.crossing(env, below: -11.5, of: 0.5), "and reaches −12 dB")
            #expect(end - start > 24_000, "crossfaded, not stepped: \(end - start) frames")
            #expect(abs(A.decibels(Self.levelAtEnd(out1, 440) / 0.5) + 12) < 0.1)
            #expect(abs(Self.levelAtEnd(recording.channels[2], 1500) - 0.5) < 1e-4, "DCA 2 is safe: source 3 unchanged")
            #expect(try await Self.query(rig, "/dca/1/name") == .string("Band"))
            #expect(try await Self.query(rig, "/dca/2/db").flatMap(\.floatValue).map { abs($0) < 1e-4 } == true)
            #expect(try await Self.query(rig, "/source/3/dca/2") == .int32(1))

            // Undo: DCA 1 back to 0 dB, DCA 2 still as it is live.
            try await Self.set(rig, "/dca/2/db", .float(-3))
            _ = try await rig.send(["/preset/undo", "0.05"])
            try await Task.sleep(for: .milliseconds(150))
            let undone = try await rig.record(seconds: 0.3)
            #expect(abs(Self.level(undone, source: 1, output: 1) - 0.5) < 1e-4, "DCA 1 back at 0 dB")
            let three = A.decibels(Self.level(undone, source: 3, output: 3) / 0.5)
            #expect(abs(three + 3) < 0.1, "DCA 2 kept its live −3 dB: \(three)")
            #expect(try await Self.query(rig, "/dca/1/name") == .string("Vox"))
        }
    }

    /// A member's meter at `/meters/source` shows it after its DCAs; its
    /// input meter shows the input as it arrives.
    @Test func aMembersSourceMeterShowsItAfterItsDCAs() async throws {
        try await Self.withToneRig { rig in
            try await Self.set(rig, "/source/1/dca/1", .int32(1))
            try await Self.set(rig, "/dca/1/db", .float(-10))
            try await Self.set(rig, "/source/3/mutegroup/1", .int32(1))
            try await Self.set(rig, "/mutegroup/1/mute", .int32(1))
            let received = try await Self.meters(rig)
            for address in ["/meters/source", "/meters/source/rms"] {
                let levels = try #require(received.last { $0.address == address }, "\(address)").arguments.compactMap(\.floatValue)
                #expect(levels.count == 3)
                #expect(abs(levels[0] - -16.02) < 0.3, "\(address): source 1 at −6 dBFS through its DCA's −10 dB: \(levels)")
                #expect(abs(levels[1] - -6.02) < 0.3, "\(address): source 2 as it is: \(levels)")
                #expect(levels[2] == -90, "\(address): source 3 muted by its group: \(levels)")
            }
            let input = try #require(received.last { $0.address == "/meters/input" }).arguments.compactMap(\.floatValue)
            #expect(input.allSatisfy { abs($0 - -6.02) < 0.3 }, "inputs as they arrive: \(input)")
        }
    }

    /// Soloing source 3 leaves sources 1 and 2 at their levels on
    /// `/meters/source` (issue 34: they read −90 while another was soloed),
    /// while the outputs hear the solo.
    @Test func sourceMetersDoNotFollowAnothersSolo() async throws {
        try await Self.withToneRig { rig in
            try await Self.set(rig, "/source/2/db", .float(-10))
            try await Self.set(rig, "/source/3/solo", .int32(1))
            let received = try await Self.meters(rig)
            let levels = try #require(received.last { $0.address == "/meters/source" }).arguments.compactMap(\.floatValue)
            #expect(levels.count == 3)
            #expect(abs(levels[0] - -6.02) < 0.3, "source 1 at its level while 3 is soloed: \(levels)")
            #expect(abs(levels[1] - -16.02) < 0.3, "source 2 after its own −10 dB: \(levels)")
            #expect(abs(levels[2] - -6.02) < 0.3, "the soloed source: \(levels)")
        }
    }

    /// A linked pair belongs to its groups as one source: linking gives the
    /// right member the left's, and a membership sent to either is both's.
    @Test func aLinkedPairsMembersShareTheirGroups() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            try await rig.sendAndSettle("/source/1/dca/2", .int32(1))
            try await rig.sendAndSettle("/source/2/mutegroup/3", .int32(1))
            try await rig.sendAndSettle("/source/2/link", .int32(1))
            #expect(try await Self.query(rig, "/source/2/dca/2") == .int32(1), "the left's DCA")
            #expect(try await Self.query(rig, "/source/2/mutegroup/3") == .int32(0), "the left's (no) mute group")
            try await rig.sendAndSettle("/source/2/dca/5", .int32(1))
            #expect(try await Self.query(rig, "/source/1/dca/5") == .int32(1), "sent to either, both's")
        }
    }

    static func levelAtEnd(_ signal: [Float], _ frequency: Float) -> Float {
        A.fitSine(signal, frequency: Double(frequency), sampleRate: 48_000, in: (signal.count - 4800)..<signal.count).amplitude
    }

    @Test func badGroupAddressesAndAPerformersRoleAreRefused() async throws {
        let path = try AccessTests.accessFile(AccessTests.rules())
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", path]) { rig in
            let engineer = try AccessTests.client(rig, from: "127.0.0.2")
            let drums = try AccessTests.client(rig, from: "127.0.0.4")
            defer { engineer.close(); drums.close() }
            for (address, argument, reason) in [("/dca/0/db", OSCTestClient.Argument.float(-10), "DCA 0 out of range (1-8)"),
                                                ("/dca/33/db", .float(-10), "DCA 33 out of range (1-8)"),
                                                ("/source/1/dca/99", .int32(1), "DCA 99 out of range (1-8)"),
                                                ("/mutegroup/9/mute", .int32(1), "mute group 9 out of range (1-8)")] {
                try engineer.send(address, argument)
                let refusal = try await AccessTests.refusal(engineer)
                #expect(refusal.first == .string(address), "\(address)")
                #expect(refusal.last.map { "\($0)".contains(reason) } == true, "\(address): \(refusal)")
            }
            for (address, argument) in [("/dca/1/db", OSCTestClient.Argument.float(-10)), ("/mutegroup/1/mute", .int32(1)),
                                        ("/source/1/dca/1", .int32(1))] {
                try drums.send(address, argument)
                #expect(try await AccessTests.refusal(drums) == [.string(address), .string("not permitted for role drums")])
            }
            #expect(try await AccessTests.value(rig, "/dca/1/db") == .float(0), "nothing changed")
            #expect(try await AccessTests.value(rig, "/mutegroup/1/mute") == .int32(0))
            #expect(try await AccessTests.value(rig, "/source/1/dca/1") == .int32(0))
        }
    }
}
}
