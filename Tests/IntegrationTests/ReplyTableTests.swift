import Foundation
import Testing

extension Integration {
/// The replies the real rig describes in its page's `catalogue.json`
/// (`replies`: the catalogue's reply table) are the ones it sends: the same
/// addresses, with the type tags the table gives.
@Suite struct ReplyTableTests {
    /// `catalogue.json`'s replies, by name: address, types, and perChannel for a meter.
    static func replies(of rig: CrosspointRig) async throws -> [String: [String: String]] {
        let curl = try ChildProcess(executable: "curl", arguments: ["-sf", "http://127.0.0.1:\(rig.httpPort)/page/catalogue.json"])
        _ = try await curl.waitForExit()
        let description = try #require(try JSONSerialization.jsonObject(with: Data(curl.standardOutput.utf8)) as? [String: Any])
        return try #require(description["replies"] as? [String: [String: String]], "catalogue.json has replies")
    }

    @Test func everyReplyTheRigDescribesIsSentAsDescribed() async throws {
        try await withRig(inputs: 3, outputs: 2) { rig in
            let table = try await Self.replies(of: rig)
            func entry(_ name: String) throws -> (address: String, types: String) {
                let reply = try #require(table[name], "the table has \(name)")
                return (try #require(reply["address"]), try #require(reply["types"]))
            }

            // /status: exactly the table's status fields, each with its types.
            try rig.osc.send("/status")
            let fields = table.filter { $0.value["address"]?.hasPrefix("/status/") == true }
            #expect(fields.count >= 15, "\(fields.keys.sorted())")
            var seen: Set<String> = []
            for (name, reply) in fields {
                let address = try #require(reply["address"])
                let message = try await rig.osc.waitFor(address: address)
                #expect(message.typeTags == reply["types"], "\(name): \(message)")
                seen.insert(address)
            }
            let others = try await rig.osc.collect(for: .milliseconds(300)).filter { $0.address.hasPrefix("/status/") }
            #expect(others.isEmpty, "/status sent fields the table does not describe: \(others)")
            #expect(seen.count == fields.count)

            try rig.osc.send("/ping")
            #expect(try await rig.osc.waitFor(address: try entry("pong").address).typeTags == (try entry("pong").types))
            try rig.osc.send("/source/99/mute", .int32(1))
            #expect(try await rig.osc.waitFor(address: try entry("error").address).typeTags == (try entry("error").types))

            // The preset events, each as the table types it.
            for (send, name) in [(["/preset/save", "a"], "presetSaved"), (["/preset/rename", "a", "b"], "presetRenamed"),
                                 (["/preset/recall", "b"], "presetRecalled"), (["/preset/delete", "b"], "presetDeleted")] {
                try rig.osc.send(send[0], arguments: send.dropFirst().map { .string($0) })
                let reply = try await rig.osc.waitFor(address: try entry(name).address, timeout: .seconds(5))
                #expect(reply.typeTags == (try entry(name).types), "\(name): \(reply)")
            }

            // The meters: one value per channel of their side (3 sources, 2 outputs).
            try rig.osc.send("/meters/subscribe")
            for (name, reply) in table where reply["perChannel"] != nil {
                let count = reply["perChannel"] == "output" ? 2 : 3
                let message = try await rig.osc.waitFor(address: try entry(name).address)
                #expect(message.typeTags == String(repeating: try entry(name).types, count: count), "\(name): \(message)")
            }
            try rig.osc.send("/meters/unsubscribe")
        }
    }
}
}
