import Foundation
import Testing

/// Sources that come and go by themselves (`serve --auto-sources RE`, issue
/// 23): a stereo `player` and a mono `laptop`, real JACK clients started
/// after the rig, take the first free pair (linked) and the next free
/// source, named after them; they leave and come back, in the other order,
/// to the same places, with the levels set meanwhile. docs/sources.md.
extension Integration {
@Suite struct AutoSourceTests {
    typealias Patch = SourcePatchTests

    static func query(_ rig: CrosspointRig, _ address: String) async throws -> OSCTestClient.Argument? {
        try await Integration.PageTests.query(rig, address)
    }

    @Test func clientsTakeFreeSourcesAndComeBackToThem() async throws {
        try await withRig(inputs: 5, outputs: 2, arguments: ["--auto-sources", "player|laptop"]) { rig in
            // Sources 1-4 free (nothing connected, no patch); 5 stays fed by the test's own player.
            for n in 1...4 { try rig.source.disconnect(from: rig.source.playPort(n), to: "crosspoint:in_\(n)") }
            try await rig.ping()
            var player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            var laptop: JackProbe? = nil
            defer { player.close(); laptop?.close() }
            #expect(try await Patch.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_1") == ["player:play_1"]
                    && rig.recorder.connections(of: "crosspoint:in_2") == ["player:play_2"]
            } != nil, "the player on the first free pair")
            laptop = try JackProbe(server: rig.jack, clientName: "laptop", playPorts: 1, recordPorts: 0)
            #expect(try await Patch.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == ["laptop:play_1"]
            } != nil, "the laptop on the next free source")
            #expect(try await Self.query(rig, "/source/1/link") == .int32(1))
            #expect(try await Self.query(rig, "/source/3/link") == .int32(0))
            #expect(try await Self.query(rig, "/source/1/name") == .string("player"))
            #expect(try await Self.query(rig, "/source/2/name") == .string("player"))
            #expect(try await Self.query(rig, "/source/3/name") == .string("laptop"))
            #expect(try await Self.query(rig, "/source/1/patch") == .string("^(player:play_1|player:play_2)$"))
            #expect(try await Self.query(rig, "/source/5/patch") == .string(""), "a fed source is not free")

            // Both leave; the engineer rides the levels meanwhile.
            player.close()
            laptop?.close()
            #expect(try await Patch.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_1").isEmpty
            } != nil)
            try await rig.sendAndSettle("/source/1/db", .float(-6))
            try await rig.sendAndSettle("/source/3/db", .float(-12))
            #expect(try await Patch.within(.seconds(1)) {
                try rig.osc.send("/source/1/present")
                return (try? rig.osc.drain())?.contains { $0.address == "/source/1/present" && $0.argument(0) == .int32(0) } == true
            } != nil, "absent once it left")

            // They come back the other way round: each to its own place.
            laptop = try JackProbe(server: rig.jack, clientName: "laptop", playPorts: 1, recordPorts: 0)
            player = try JackProbe(server: rig.jack, clientName: "player", playPorts: 2, recordPorts: 0)
            #expect(try await Patch.within(.seconds(1)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == ["laptop:play_1"]
                    && rig.recorder.connections(of: "crosspoint:in_1") == ["player:play_1"]
                    && rig.recorder.connections(of: "crosspoint:in_2") == ["player:play_2"]
            } != nil, "in_1 \((try? rig.recorder.connections(of: "crosspoint:in_1")) ?? []), in_3 \((try? rig.recorder.connections(of: "crosspoint:in_3")) ?? [])")
            #expect(try await Self.query(rig, "/source/4/patch") == .string(""), "nothing else taken")
            #expect(try await Self.query(rig, "/source/2/db")?.floatValue.map { abs($0 + 6) < 1e-3 } == true, "levels kept")
            #expect(try await Self.query(rig, "/source/3/db")?.floatValue.map { abs($0 + 12) < 1e-3 } == true)

            // A stereo client with no free pair left (4-5: 5 is fed): said once, nothing connected.
            let late = try JackProbe(server: rig.jack, clientName: "player2", playPorts: 2, recordPorts: 0)
            defer { late.close() }
            let said = "no free pair of sources for JACK client 'player2'"
            #expect(try await Patch.within(.seconds(1)) { rig.crosspoint.standardError.contains(said) } != nil,
                    "\(rig.crosspoint.diagnostics())")
            let other = try JackProbe(server: rig.jack, clientName: "xp-other", playPorts: 1, recordPorts: 0)
            defer { other.close() }
            try await Task.sleep(for: .milliseconds(300)) // another look, after another client came
            #expect(rig.crosspoint.standardError.components(separatedBy: said).count == 2, "logged once")
            #expect(try rig.recorder.connections(of: "crosspoint:in_4").isEmpty)
        }
    }

    @Test func aBadAutoSourcesPatternIsRefusedAtTheStart() async throws {
        let serve = try ChildProcess(executable: CrosspointRig.binary,
                                     arguments: ["serve", "--no-autostart", "--auto-sources", "player(", "--osc-port", "0"],
                                     label: "crosspoint serve")
        let status = try await serve.waitForExit(timeout: .seconds(10))
        #expect(status == .exited(64), "\(serve.diagnostics())")
        #expect(serve.standardError.contains("--auto-sources: not a regular expression"), "\(serve.diagnostics())")
    }
}
}
