import Foundation
import Testing

/// Stereo sources (issue 23): sources 1-2, 3-4, … link into one control,
/// crosspoints mirror, the pan becomes a balance. Real jackd, the real rig
/// with the constant-power pan law (so that a link's balance differs from
/// the law), outputs 1-2 a stereo pair and 3 mono; recorded audio.
extension Integration {
@Suite struct SourceLinkTests {
    typealias A = SignalAnalysis

    static func withLinkRig(_ body: (CrosspointRig) async throws -> Void) async throws {
        try await withRig(inputs: 4, outputs: 3, arguments: ["--pan-law", "constant-power", "--mono-outputs", "3"]) { rig in
            try await body(rig)
        }
    }

    static func query(_ rig: CrosspointRig, _ address: String) async throws -> Float? {
        try await Integration.PageTests.query(rig, address)?.floatValue
    }

    @Test func aLinkedPairActsAsOneControlOverOSCAndInTheSound() async throws {
        try await Self.withLinkRig { rig in
            // A tablet of its own hears the feedback: the queries below drain
            // rig.osc, and would take a feedback message that arrived first.
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            try await Task.sleep(for: .milliseconds(500))
            try await rig.sendAndSettle("/source/2/link", .int32(1))
            #expect(try await Self.query(rig, "/source/1/link") == 1, "linked from either member")
            _ = try tablet.drain()
            try await rig.sendAndSettle("/source/2/db", .float(-6))
            #expect(try await Self.query(rig, "/source/1/db").map { abs($0 + 6) < 1e-3 } == true)
            let fed = try await tablet.waitFor(address: "/source/1/db", timeout: .seconds(2)) {
                $0.argument(0)?.floatValue.map { abs($0 + 6) < 1e-3 } == true
            }
            #expect(fed.argument(0)?.floatValue.map { abs($0 + 6) < 1e-3 } == true, "subscribers are sent both members")
            for address in ["mute", "solo", "invert"] {
                try await rig.sendAndSettle("/source/1/\(address)", .int32(1))
                #expect(try await Self.query(rig, "/source/2/\(address)") == 1, "\(address)")
                try await rig.sendAndSettle("/source/2/\(address)", .int32(0))
                #expect(try await Self.query(rig, "/source/1/\(address)") == 0, "\(address)")
            }
            try await rig.sendAndSettle("/safe/source/2", .int32(1))
            #expect(try await Self.query(rig, "/safe/source/1") == 1)
            // Sources 3-4 are not linked: theirs stay their own.
            try await rig.sendAndSettle("/source/3/db", .float(-20))
            #expect(try await Self.query(rig, "/source/4/db").map { abs($0) < 1e-3 } == true)

            // In the sound: both members at -6 dB, at b = 0 into their own outputs.
            rig.playSine(input: 1, frequency: 440, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 1000, amplitude: 0.5)
            try await Task.sleep(for: .milliseconds(100))
            let heard = try await rig.record(seconds: 0.3)
            let rate = Double(rig.sampleRate), range = 2400..<12000
            let expected: Float = 0.5 * powf(10, -6 / 20)
            #expect(abs(A.fitSine(heard.channels[0], frequency: 440, sampleRate: rate, in: range).amplitude - expected) < 1e-3)
            #expect(abs(A.fitSine(heard.channels[1], frequency: 1000, sampleRate: rate, in: range).amplitude - expected) < 1e-3)
        }
    }

    @Test func crosspointsMirrorToTheStereoPairAndToAMonoOutputButRecallsAndMapsDoNot() async throws {
        try await Self.withLinkRig { rig in
            try await rig.sendAndSettle("/source/1/link", .int32(1))
            try await rig.sendAndSettle("/matrix/1/2", .float(0.5))
            #expect(try await Self.query(rig, "/matrix/2/1") == 0.5, "1→2 mirrored as 2→1 on the stereo pair")
            try await rig.sendAndSettle("/matrix/2/3/db", .float(-12))
            #expect(try await Self.query(rig, "/matrix/1/3/db").map { abs($0 + 12) < 1e-3 } == true, "a mono output: the same output")
            try await rig.sendAndSettle("/matrix/1/1/delta", .float(-6)) // in dB
            #expect(try await Self.query(rig, "/matrix/2/2/db").map { abs($0 + 6) < 1e-3 } == true, "deltas mirror too")
            // Unlinked sources and maps set what they are given.
            try await rig.sendAndSettle("/matrix/3/1", .float(1))
            #expect(try await Self.query(rig, "/matrix/4/2") == 0)
            try await rig.sendAndSettle("/matrix/map", .int32(1), .int32(0), .int32(0))
            #expect(try await Self.query(rig, "/matrix/1/1") == 1)
            #expect(try await Self.query(rig, "/matrix/2/2") == 0, "/matrix/map is not mirrored")
        }
    }

    @Test func theBalanceOfALinkedPairIsMinOfOneAndOneMinusB() async throws {
        try await Self.withLinkRig { rig in
            try await rig.sendAndSettle("/source/1/link", .int32(1))
            rig.source.setSignal(.constant(0.5), playPort: 1)
            rig.source.setSignal(.constant(0.5), playPort: 2)
            for b: Float in [-1, -0.5, 0, 0.5, 1] {
                try await rig.sendAndSettle(b < 0 ? "/source/2/pan" : "/source/1/pan", .float(b), .float(0))
                #expect(try await Self.query(rig, "/source/2/pan") == b, "both members read the balance")
                try await Task.sleep(for: .milliseconds(60))
                let heard = try await rig.record(seconds: 0.1)
                let (left, right) = (A.mean(heard.channels[0], in: 480..<4800), A.mean(heard.channels[1], in: 480..<4800))
                let (wantLeft, wantRight) = (0.5 * min(1, 1 - b), 0.5 * min(1, 1 + b))
                for (got, want, side) in [(left, wantLeft, "left"), (right, wantRight, "right")] {
                    if want == 0 {
                        #expect(abs(got) < 1e-6, "b \(b) \(side): \(got)")
                    } else {
                        #expect(abs(A.decibels(got / want)) < 0.1, "b \(b) \(side): \(got), want \(want)")
                    }
                }
                if b == 0 {
                    // Bit-exact: no pan law on a linked pair.
                    #expect(heard.channels[0][480..<4800].allSatisfy { $0 == 0.5 }, "left bit-exact at b = 0")
                    #expect(heard.channels[1][480..<4800].allSatisfy { $0 == 0.5 }, "right bit-exact at b = 0")
                }
            }
        }
    }

    @Test func aRecallThatUnlinksAndRelinksMakesNoStepAndLinksAreKept() async throws {
        try await Self.withLinkRig { rig in
            try await rig.sendAndSettle("/source/1/link", .int32(1))
            try rig.osc.send("/preset/save", .string("linked"))
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(5))
            try await rig.sendAndSettle("/source/1/link", .int32(0))
            try await rig.sendAndSettle("/source/1/pan", .float(-1))
            try await rig.sendAndSettle("/source/2/pan", .float(1))
            try rig.osc.send("/preset/save", .string("apart"))
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(5))
            let linked = try String(contentsOf: rig.presets.appendingPathComponent("linked.json"), encoding: .utf8)
            #expect(linked.contains(#""link": true"#), "presets hold the link")

            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            try await Task.sleep(for: .milliseconds(100))
            let heard = try await rig.record(seconds: 2.6) { _ in
                try rig.osc.send("/preset/recall", .string("linked"), .float(1))
                try await Task.sleep(for: .milliseconds(1200))
                try rig.osc.send("/preset/recall", .string("apart"), .float(1))
            }
            // A 1 kHz tone at 0.5 moves at most 0.0654 a sample; a click is a step past it.
            let natural: Float = 0.5 * 2 * .pi * 1000 / Float(rig.sampleRate)
            let step = A.maxAbsoluteStep(heard.channels[0])
            #expect(step < natural * 1.05, "largest step \(step), the tone's own \(natural)")
            #expect(try await Self.query(rig, "/source/1/link") == 0)

            // The state file keeps the link.
            try await rig.sendAndSettle("/source/3/link", .int32(1))
            let kept = try await SourcePatchTests.within(.seconds(3)) {
                let text = (try? String(contentsOf: rig.stateFile, encoding: .utf8)) ?? ""
                return text.contains(#""link": true"#)
            }
            #expect(kept != nil, "the state file keeps links")
        }
    }

    /// A finger on one member's fader holds feedback of both members: the
    /// partner's fader moves with it, so it must not be pulled either.
    @Test func aTouchOnOneMemberHoldsBoth() async throws {
        try await Self.withLinkRig { rig in
            try await rig.sendAndSettle("/source/1/link", .int32(1))
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            let other = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close(); other.close() }
            try tablet.send("/subscribe")
            _ = try await tablet.collect(for: .milliseconds(400))
            try tablet.send("/source/1/fader/z", .float(1))
            try await Task.sleep(for: .milliseconds(100))
            try other.send("/source/2/volume", .float(0.5))
            let held = try await tablet.collect(for: .milliseconds(300))
            let levels = ["volume", "db", "fader"].flatMap { ["/source/1/\($0)", "/source/2/\($0)"] }
            #expect(!held.contains { levels.contains($0.address) }, "fed back under the finger: \(held)")
            try tablet.send("/source/1/fader/z", .float(0))
            #expect(try await tablet.waitFor(address: "/source/2/volume").arguments == [.float(0.5)], "released: once")
            #expect(try await tablet.waitFor(address: "/source/1/volume").arguments == [.float(0.5)])
        }
    }

    /// A performer who holds output 5 alone sets a crosspoint of a linked
    /// pair into it: its mirror would land in output 6, someone else's
    /// mix, so it does not.
    @Test func aMirrorGoesOnlyWhereTheSendersRoleMayChange() async throws {
        let rules = """
        { "version": 1, "roles": { "engineer": { "control": "all" }, "vocal": { "control": { "outputs": [5] } } },
          "clients": [ { "from": "127.0.0.0/8", "role": "engineer" }, { "from": "127.0.0.4/32", "role": "vocal" } ] }
        """
        let file = try Integration.AccessTests.accessFile(rules)
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", file]) { rig in
            try await rig.sendAndSettle("/source/1/link", .int32(1))
            let singer = try Integration.AccessTests.client(rig, from: "127.0.0.4")
            defer { singer.close() }
            try singer.send("/matrix/1/5", .float(0.5))
            try singer.send("/ping")
            _ = try await singer.waitFor(address: "/pong", timeout: .seconds(2))
            #expect(try await Self.query(rig, "/matrix/1/5") == 0.5, "the singer's own output")
            #expect(try await Self.query(rig, "/matrix/2/6") == 0, "not the mirror into output 6")
            try await rig.sendAndSettle("/matrix/1/5", .float(0.25))
            #expect(try await Self.query(rig, "/matrix/2/6") == 0.25, "the engineer's is mirrored")
        }
    }

    @Test func aLinkWithoutAPairIsRefused() async throws {
        try await withRig(inputs: 3, outputs: 2) { rig in
            try rig.osc.send("/source/3/link", .int32(1))
            let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(2))
            #expect(error.argument(1)?.stringValue?.contains("no pair") == true, "\(error)")
            #expect(try await Self.query(rig, "/source/3/link") == 0)
        }
    }
}
}

extension Integration.SourceLinkTests {
    /// The page: a linked pair is one strip (the right member's folded
    /// away) with a two-bar meter; link switches on odd strips; its fader
    /// and balance move both members in the rig.
    @Test func thePageShowsALinkedPairAsOneStereoStrip() async throws {
        try await withRig(inputs: 4, outputs: 2) { rig in
            try await rig.sendAndSettle("/source/1/link", .int32(1))
            let page = try await Integration.PageTests.runPage("stereo-strip", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page["seen", "linked"] as? [String?] == ["1", "1", "0"], "\(page)")
            #expect(page["seen", "visible"] as? [Bool] == [true, false, true], "the right member folded into the left")
            #expect(page.string("seen", "label") == "Sources 1 and 2, linked")
            #expect(page["seen", "meters"] as? [String] == ["1", "2"], "a two-bar meter")
            #expect(page["seen", "link_switches"] as? [Bool] == [true, false, true, false], "link switches on odd strips")
            #expect(page.string("seen", "link_role") == "switch")
            let rig = page["rig"] as? [Double] ?? []
            #expect(rig.count == 4, "\(page)")
            if rig.count == 4 {
                #expect(abs(rig[0] - 0.70) < 1e-4 && abs(rig[1] - 0.70) < 1e-4, "one fader, both members: \(rig)")
                #expect(abs(rig[2] - 0.2) < 1e-4 && abs(rig[3] - 0.2) < 1e-4, "one balance: \(rig)")
            }
        }
    }
}
