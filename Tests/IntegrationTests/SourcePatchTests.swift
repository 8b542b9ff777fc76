import Foundation
import Testing

/// Sources that come and go (issue 23, first part): a source's input patch
/// follows a JACK client that starts after the rig, quits and comes back;
/// presence says which sources are fed; `/jack/ports` lists what can be
/// patched; `--connect-inputs` connects ports that appear later. Real jackd,
/// the real rig, a real second JACK client (`player`, a JackProbe with two
/// tones), recorded audio. docs/sources.md.
extension Integration {
@Suite struct SourcePatchTests {
    typealias A = SignalAnalysis

    /// Waits until `body` holds, polling every 20 ms; the time it took, or nil.
    static func within(_ limit: Duration, _ body: () throws -> Bool) async throws -> Duration? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < limit {
            if try body() { return ContinuousClock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    static func query(_ rig: CrosspointRig, _ address: String) async throws -> OSCTestClient.Argument? {
        try await Integration.PageTests.query(rig, address)
    }

    /// A 4x2 rig whose sources 3 and 4 nothing feeds (the test rig's own
    /// player is taken off them), routed 3 → out 1 and 4 → out 2 alone, with
    /// a subscriber past its full state.
    static func withOpenInputs(_ arguments: [String] = [], _ body: (CrosspointRig) async throws -> Void) async throws {
        try await withRig(inputs: 4, outputs: 2, arguments: arguments) { rig in
            for n in 3...4 { try rig.source.disconnect(from: rig.source.playPort(n), to: "crosspoint:in_\(n)") }
            for (address, value) in [("/matrix/1/1", 0), ("/matrix/2/2", 0), ("/matrix/3/1", 1), ("/matrix/4/2", 1)] {
                try rig.osc.send(address, .float(Float(value)))
            }
            try rig.osc.send("/subscribe")
            try await Task.sleep(for: .seconds(1))
            _ = try rig.osc.drain()
            try await body(rig)
        }
    }

    /// The issue's own case: a linked pair 3-4 patched to "player:.*", and a
    /// stereo player that starts after the rig, quits and comes back.
    @Test func aPatchFollowsAPlayerThatStartsLateQuitsAndComesBack() async throws {
        try await Self.withOpenInputs { rig in
            #expect(try await Self.query(rig, "/source/3/present") == .int32(0))
            try rig.osc.send("/source/3/link", .int32(1))
            try rig.osc.send("/source/3/patch", .string("player:.*"))
            #expect(try await Self.query(rig, "/source/3/patch") == .string("player:.*"))

            // The player starts after the rig: connected within a second.
            var player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            defer { player.close() }
            player.setSignal(.sine(frequency: 440, amplitude: 0.5), playPort: 1)
            player.setSignal(.sine(frequency: 1000, amplitude: 0.25), playPort: 2)
            let connected = try await Self.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == ["player:play_1"]
                    && rig.recorder.connections(of: "crosspoint:in_4") == ["player:play_2"]
            }
            #expect(connected != nil, "in_3 \((try? rig.recorder.connections(of: "crosspoint:in_3")) ?? [])")
            for n in 3...4 {
                let sent = try await rig.osc.waitFor(address: "/source/\(n)/present", timeout: .seconds(2)) { $0.argument(0) == .int32(1) }
                #expect(sent.argument(0) == .int32(1))
            }
            #expect(try await Self.query(rig, "/source/3/present") == .int32(1))

            // Each tone reaches its own side only.
            let heard = try await rig.record(seconds: 0.3)
            let rate = Double(rig.sampleRate)
            let range = 2400..<12000
            #expect(abs(A.fitSine(heard.channels[0], frequency: 440, sampleRate: rate, in: range).amplitude - 0.5) < 1e-3)
            #expect(A.fitSine(heard.channels[0], frequency: 1000, sampleRate: rate, in: range).amplitude < 1e-3)
            #expect(abs(A.fitSine(heard.channels[1], frequency: 1000, sampleRate: rate, in: range).amplitude - 0.25) < 1e-3)
            #expect(A.fitSine(heard.channels[1], frequency: 440, sampleRate: rate, in: range).amplitude < 1e-3)

            // It quits: absent; it comes back: connected again, and heard.
            player.close()
            let gone = try await rig.osc.waitFor(address: "/source/3/present", timeout: .seconds(2)) { $0.argument(0) == .int32(0) }
            #expect(gone.argument(0) == .int32(0))
            player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            player.setSignal(.sine(frequency: 440, amplitude: 0.5), playPort: 1)
            let back = try await Self.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == ["player:play_1"]
            }
            #expect(back != nil, "reconnected after the restart")
            _ = try await rig.osc.waitFor(address: "/source/3/present", timeout: .seconds(2)) { $0.argument(0) == .int32(1) }
            let again = try await rig.record(seconds: 0.3)
            #expect(abs(A.fitSine(again.channels[0], frequency: 440, sampleRate: rate, in: range).amplitude - 0.5) < 1e-3)
        }
    }

    @Test func aChangedPatchTakesAwayOnlyTheConnectionItMade() async throws {
        try await Self.withOpenInputs { rig in
            let player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            defer { player.close() }
            try rig.osc.send("/source/3/patch", .string("^player:play_1$"))
            // By hand: play_2 into in_3 too.
            try player.connect(from: "player:play_2", to: "crosspoint:in_3")
            #expect(try await Self.within(.seconds(1)) {
                Set(try rig.recorder.connections(of: "crosspoint:in_3")) == ["player:play_1", "player:play_2"]
            } != nil)
            // Now the patch names play_2, which is connected by hand already: play_1 goes.
            try rig.osc.send("/source/3/patch", .string("^player:play_2$"))
            #expect(try await Self.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == ["player:play_2"]
            } != nil, "\((try? rig.recorder.connections(of: "crosspoint:in_3")) ?? [])")
            // Cleared: the hand-made connection stays.
            try rig.osc.send("/source/3/patch", .string(""))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try rig.recorder.connections(of: "crosspoint:in_3") == ["player:play_2"])
            #expect(try await Self.query(rig, "/source/3/present") == .int32(1))
        }
    }

    /// A linked pair's patch, set on either member: its first two matching
    /// ports feed the left and the right member.
    @Test func aLinkedPairsPatchFeedsItsFirstTwoPortsLeftAndRight() async throws {
        try await Self.withOpenInputs { rig in
            try rig.osc.send("/source/3/link", .int32(1))
            try rig.osc.send("/source/4/patch", .string("^player:"))
            let player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            defer { player.close() }
            let connected = try await Self.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == ["player:play_1"]
                    && rig.recorder.connections(of: "crosspoint:in_4") == ["player:play_2"]
            }
            #expect(connected != nil, "in_3 \((try? rig.recorder.connections(of: "crosspoint:in_3")) ?? []), in_4 \((try? rig.recorder.connections(of: "crosspoint:in_4")) ?? [])")
            // Unlinked, each member goes by its own patch: source 4's first match, play_1.
            try rig.osc.send("/source/3/link", .int32(0))
            let apart = try await Self.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_4") == ["player:play_1"]
                    && rig.recorder.connections(of: "crosspoint:in_3").isEmpty
            }
            #expect(apart != nil, "in_4 \((try? rig.recorder.connections(of: "crosspoint:in_4")) ?? [])")
        }
    }

    @Test func jackPortsListsWhatCanBePatchedAndSubscribersHearOfChanges() async throws {
        try await Self.withOpenInputs { rig in
            try rig.osc.send("/jack/ports")
            let before = try await rig.osc.waitFor(address: "/jack/ports", timeout: .seconds(2))
            let listed = before.arguments.compactMap(\.stringValue)
            #expect(listed == listed.sorted())
            #expect(listed.contains("xp-source:play_1"))
            #expect(!listed.contains { $0.hasPrefix("crosspoint:") }, "not our own ports")
            #expect(!listed.contains { $0.hasPrefix("xp-recorder:") }, "output ports only: \(listed)")
            let player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            defer { player.close() }
            let sent = try await rig.osc.waitFor(address: "/jack/ports", timeout: .seconds(2)) {
                $0.arguments.compactMap(\.stringValue).contains("player:play_2")
            }
            #expect(sent.arguments.compactMap(\.stringValue).contains("player:play_1"))
        }
    }

    @Test func connectInputsAlsoConnectsPortsThatAppearLater() async throws {
        try await withRig(inputs: 4, outputs: 2, arguments: ["--connect-inputs", "late:.*"]) { rig in
            let late = try JackProbe(server: rig.jack, clientName: "late", playPorts: 2, recordPorts: 0)
            defer { late.close() }
            let connected = try await Self.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_1").contains("late:play_1")
                    && rig.recorder.connections(of: "crosspoint:in_2").contains("late:play_2")
            }
            #expect(connected != nil, "in_1 \((try? rig.recorder.connections(of: "crosspoint:in_1")) ?? [])")
            #expect(try rig.recorder.connections(of: "crosspoint:in_1").contains("xp-source:play_1"), "nothing disconnected")
        }
    }

    /// The other way round: a client whose input ports match
    /// `--connect-outputs` and that starts after the rig (a network link's
    /// send ports coming back, a recorder) is fed by out_1, out_2 within a
    /// second, and hears them; the rig's first connections stay.
    @Test func connectOutputsAlsoConnectsPortsThatAppearLater() async throws {
        try await withRig(arguments: ["--connect-outputs", "^late:rec_"]) { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 500, amplitude: 0.25)
            let late = try JackProbe(server: rig.jack, clientName: "late", playPorts: 0, recordPorts: 2)
            defer { late.close() }
            let connected = try await Self.within(.seconds(1)) {
                try late.connections(of: "late:rec_1") == ["crosspoint:out_1"]
                    && late.connections(of: "late:rec_2") == ["crosspoint:out_2"]
            }
            #expect(connected != nil, "rec_1 \((try? late.connections(of: "late:rec_1")) ?? [])")
            #expect(try late.connections(of: "crosspoint:out_1").contains("xp-recorder:rec_1"), "nothing disconnected")
            try await late.startRecording()
            try await late.waitForRecordedFrames(rig.sampleRate / 2)
            let take = try await late.stopRecording()
            for (port, frequency, amplitude) in [(1, 1000.0, Float(0.5)), (2, 500.0, Float(0.25))] {
                let fit = SignalAnalysis.fitSine(take.samples(ofPort: port), frequency: frequency,
                                                 sampleRate: Double(rig.sampleRate))
                #expect(abs(fit.amplitude - amplitude) < 0.01, "out_\(port) heard by the late client: \(fit)")
            }
        }
    }

    @Test func badPatchesAndASetPresenceAreRefusedAndChangeNothing() async throws {
        try await Self.withOpenInputs { rig in
            try rig.osc.send("/source/3/patch", .string("^player:play_1$"))
            let refused: [(String, OSCTestClient.Argument, String)] = [
                ("/source/3/patch", .string("player:(play"), "not a regular expression"),
                ("/source/3/patch", .string(String(repeating: "a", count: 257)), "patch longer than 256"),
                ("/source/3/patch", .string("player:\nplay_1"), "patch with a control character"),
                ("/source/9/patch", .string("player"), "out of range"),
                ("/source/3/present", .int32(1), "read-only"),
                ("/jack/ports", .string("x"), "expected a button value"),
                ("/preset/unreadable", .string("x"), "expected a button value"),
            ]
            for (address, argument, reason) in refused {
                _ = try rig.osc.drain()
                try rig.osc.send(address, argument)
                let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(2))
                #expect(error.argument(1)?.stringValue?.contains(reason) == true, "\(address): \(error)")
            }
            #expect(try await Self.query(rig, "/source/3/patch") == .string("^player:play_1$"))
            #expect(try await Self.query(rig, "/source/3/present") == .int32(0))
            // OSCQuery: presence is read-only (ACCESS 1), the patch and link read-write.
            let discovery = Integration.DiscoveryTests()
            for (leaf, access) in [("present", 1), ("patch", 3), ("link", 3)] {
                let (status, body) = try await discovery.get(rig, "/source/3/\(leaf)?ACCESS")
                #expect(status == 200 && (body as? [String: Any])?["ACCESS"] as? Int == access, "\(leaf): \(String(describing: body))")
            }
        }
    }

    @Test func patchesLiveInTheStateFileNotInPresets() async throws {
        try await Self.withOpenInputs { rig in
            try rig.osc.send("/source/3/patch", .string("^player:play_1$"))
            try rig.osc.send("/preset/save", .string("song"))
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(5))
            let preset = try String(contentsOf: rig.presets.appendingPathComponent("song.json"), encoding: .utf8)
            #expect(!preset.contains("patch") && !preset.contains("present"), "a preset holds no wiring")
            #expect(try await Self.query(rig, "/preset/current") == .string("song"))
            try rig.osc.send("/source/3/patch", .string("^player:play_2$"))
            try rig.osc.send("/preset/current")
            let current = try await rig.osc.waitFor(address: "/preset/current", timeout: .seconds(2))
            #expect(current.argument(1) == .int32(0), "a patch change does not mark the scene modified")
            try rig.osc.send("/preset/recall", .string("song"), .float(0))
            _ = try await rig.osc.waitFor(address: "/preset/recalled", timeout: .seconds(5))
            #expect(try await Self.query(rig, "/source/3/patch") == .string("^player:play_2$"), "a recall never rewires")
            // The state file has it.
            let kept = try await Self.within(.seconds(3)) {
                (try? String(contentsOf: rig.stateFile, encoding: .utf8))?.contains(#""patch": "^player:play_2$""#) == true
            }
            #expect(kept != nil, "the state file keeps the patch")
        }
    }
}
}

extension Integration.SourcePatchTests {
    /// The page: absent sources dimmed and marked, and each strip's patch
    /// picker listing the player's ports by client; choosing one sets the
    /// rig's patch, which connects it.
    @Test func thePageShowsPresenceAndItsPickerSetsThePatch() async throws {
        try await Self.withOpenInputs { rig in
            let player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            defer { player.close() }
            let page = try await Integration.PageTests.runPage("patch-picker", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("before", "strips", "1") == "1", "\(page)")
            #expect(page.string("before", "strips", "3") == "0")
            #expect(page.string("before", "dimmed").flatMap(Double.init).map { $0 < 1 } == true, "an absent strip is dimmed")
            let options = (page["before", "options"] as? [[String]]) ?? []
            #expect(options.first == ["", "", "none"], "\(options)")
            #expect(options.contains(["player", "^player:play_1$", "play_1"]), "\(options)")
            #expect(options.contains(["player", "^player:play_2$", "play_2"]))
            #expect(page.string("rig") == "^player:play_1$")
            #expect(page.string("after", "strips", "3") == "1", "present once connected: \(page)")
            #expect(page.string("after", "value") == "^player:play_1$")
            #expect(try rig.recorder.connections(of: "crosspoint:in_3") == ["player:play_1"])
        }
    }
}

extension Integration.SourcePatchTests {
    /// A restart keeps links and patches (the state file), and the new
    /// rig's supervisor connects a player that starts after it.
    @Test func aRestartKeepsLinksAndPatches() async throws {
        try await Self.withOpenInputs { rig in
            try rig.osc.send("/source/3/link", .int32(1))
            try await rig.sendAndSettle("/source/3/patch", .string("^player:"))
            let saved = try await Self.within(.seconds(5)) {
                let text = (try? String(contentsOf: rig.stateFile, encoding: .utf8)) ?? ""
                return text.contains(#""patch": "^player:""#) && text.contains(#""link": true"#)
            }
            #expect(saved != nil, "the state file has them")
            let restarted = try await rig.restart(arguments: ["--inputs", "\(rig.inputs)", "--outputs", "\(rig.outputs)"])
            defer { restarted.terminate() }
            #expect(try await Self.query(rig, "/source/4/link") == .int32(1))
            #expect(try await Self.query(rig, "/source/3/patch") == .string("^player:"))
            let player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            defer { player.close() }
            let connected = try await Self.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == ["player:play_1"]
                    && rig.recorder.connections(of: "crosspoint:in_4") == ["player:play_2"]
            }
            #expect(connected != nil, "the restarted rig patches the player")
        }
    }
}
