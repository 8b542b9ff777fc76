import Foundation
import Testing

/// Names from JACK are data, never a threat to the state (issue 32): a
/// client with a 60-character name and 100-character ports, and one whose
/// name holds a tab, are claimed by `--auto-sources` with patches the rig
/// would take over OSC, connected, and kept across a restart: same size,
/// names, patches and mix (before, the long patch was written unchecked,
/// the state file refused at the next start, and the rig came back 8x8).
extension Integration {
@Suite struct HostileNameTests {
    typealias Patch = SourcePatchTests

    static func query(_ rig: CrosspointRig, _ address: String) async throws -> OSCTestClient.Argument? {
        try await Integration.PageTests.query(rig, address)
    }

    static let longClient = "L" + String(repeating: "ong-client-", count: 6).prefix(59)
    static let longPort = String(repeating: "a-port-of-a-pipewire-node-", count: 4).prefix(98) + "_"

    @Test func longAndControlNamesAreClaimedAndSurviveARestart() async throws {
        try await withRig(inputs: 12, outputs: 2, arguments: ["--auto-sources", "^(Long|tab)"]) { rig in
            // Sources 1-4 free (nothing connected, no patch).
            for n in 1...4 { try rig.source.disconnect(from: rig.source.playPort(n), to: "crosspoint:in_\(n)") }
            try await rig.ping()
            let long = try JackProbe(server: rig.jack, clientName: Self.longClient, playPorts: 2, recordPorts: 0,
                                     playPrefix: String(Self.longPort))
            defer { long.close() }
            #expect(long.clientName.count == 60 && long.playPortNames[0].count == 161, "\(long.playPortNames)")
            #expect(try await Patch.within(.seconds(2)) {
                try rig.recorder.connections(of: "crosspoint:in_1") == [long.playPortNames[0]]
                    && rig.recorder.connections(of: "crosspoint:in_2") == [long.playPortNames[1]]
            } != nil, "the long client on the first free pair")
            let tab = try JackProbe(server: rig.jack, clientName: "tab\tname", playPorts: 1, recordPorts: 0)
            defer { tab.close() }
            #expect(try await Patch.within(.seconds(2)) {
                try rig.recorder.connections(of: "crosspoint:in_3") == [tab.playPortNames[0]]
            } != nil, "the client with a tab in its name on the next free source")

            let patch = try await Self.query(rig, "/source/1/patch")?.stringValue ?? ""
            #expect(!patch.isEmpty && patch.utf8.count <= 256 && !patch.unicodeScalars.contains { $0.value < 0x20 },
                    "a patch the rig would take over OSC: \(patch)")
            #expect(try await Self.query(rig, "/source/1/name") == .string(long.clientName))
            let tabPatch = try await Self.query(rig, "/source/3/patch")?.stringValue ?? ""
            #expect(!tabPatch.isEmpty && !tabPatch.unicodeScalars.contains { $0.value < 0x20 }, "\(tabPatch)")
            #expect(try await Self.query(rig, "/source/3/name") == .string("tab name"), "the tab is a space")

            // A mix to keep.
            try rig.osc.send("/matrix/1/2", .float(0.5))
            try rig.osc.send("/source/3/db", .float(-6))
            try await rig.sendAndSettle("/master/db", .float(-3))
            let saved = try await Patch.within(.seconds(5)) {
                let text = (try? String(contentsOf: rig.stateFile, encoding: .utf8)) ?? ""
                return text.contains("\"tab name\"") && text.contains("\"in\": 1, \"out\": 2")
            }
            #expect(saved != nil, "the state file has them")

            // Restarted without size flags: the size comes from the state file.
            let restarted = try await rig.restart(arguments: ["--auto-sources", "^(Long|tab)"])
            defer { restarted.terminate() }
            #expect(!restarted.standardError.contains("unreadable"), "\(restarted.diagnostics())")
            #expect(try await Self.query(rig, "/rig/inputs") == .int32(12), "the size kept")
            #expect(try await Self.query(rig, "/source/1/patch") == .string(patch))
            #expect(try await Self.query(rig, "/source/1/name") == .string(long.clientName))
            #expect(try await Self.query(rig, "/source/3/name") == .string("tab name"))
            #expect(try await Self.query(rig, "/matrix/1/2")?.floatValue.map { abs($0 - 0.5) < 1e-6 } == true)
            #expect(try await Self.query(rig, "/source/3/db")?.floatValue.map { abs($0 + 6) < 1e-3 } == true)
            #expect(try await Self.query(rig, "/master/db")?.floatValue.map { abs($0 + 3) < 1e-3 } == true)
            #expect(try await Patch.within(.seconds(2)) {
                try rig.recorder.connections(of: "crosspoint:in_1") == [long.playPortNames[0]]
                    && rig.recorder.connections(of: "crosspoint:in_3") == [tab.playPortNames[0]]
            } != nil, "the restarted rig patches them again")
        }
    }
}
}
