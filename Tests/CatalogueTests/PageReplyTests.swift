import Catalogue
import ControlPage
import Foundation
import Testing

/// The page reads the messages the rig sends at addresses of their own
/// (`/status`'s fields, the preset events, `/error`, the meters) through
/// the reply table `catalogue.json` carries (`PageDescription`,
/// `catalogue.js` `replyAddress`), never writing one itself.
@Suite struct PageReplyTests {
    /// `catalogue.json`'s `replies`, by name.
    static func table() throws -> [String: [String: String]] {
        let json = PageDescription.json(Catalogue())
        let description = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(description["replies"] as? [String: [String: String]])
    }

    @Test func theTableHoldsEveryReplyWithItsAddressAndTypes() throws {
        let table = try Self.table()
        #expect(Set(table.keys) == Set(Reply.Name.allCases.map { String(describing: $0) }))
        for reply in Catalogue.replies {
            let entry = try #require(table[String(describing: reply.name)])
            #expect(entry["address"] == reply.address)
            #expect(entry["types"] == reply.typeTags(inputs: 1, outputs: 1), "\(reply.name)")
        }
        #expect(table["statusInputs"] == ["address": "/status/inputs", "types": "i"])
        #expect(table["presetRecalled"] == ["address": "/preset/recalled", "types": "sf"])
        #expect(table["metersOutputRMS"] == ["address": "/meters/output/rms", "types": "f", "perChannel": "output"])
        #expect(table["metersSource"]?["perChannel"] == "source")
    }

    /// `/status`'s fields are the replies under `/status/`, in the table's
    /// order, and every reply has a description.
    @Test func statusFieldsComeInTheTablesOrder() {
        #expect(Catalogue.statusFields.first?.name == .statusSampleRate)
        #expect(Catalogue.statusFields.last?.name == .statusAccess)
        #expect(Catalogue.statusFields.count == Reply.Name.allCases.filter(\.isStatus).count)
        #expect(Catalogue.replies.allSatisfy { !$0.description.isEmpty })
        #expect(Set(Catalogue.replies.map(\.name)).count == Reply.Name.allCases.count)
    }

    /// Every reply the page looks up (`replyAddress('NAME')`) is in the table.
    @Test func everyReplyThePageUsesIsInTheTable() throws {
        let table = try Self.table()
        var used: Set<String> = []
        for (path, name) in PageCommandTests.lookups(/\breplyAddress\('([A-Za-z]+)'\)/) {
            used.insert(name)
            #expect(table[name] != nil, "\(path) looks up \(name), which the table does not have")
        }
        #expect(used.isSuperset(of: ["statusInputs", "statusOutputs", "statusDCAs", "statusMuteGroups", "statusAccess",
                                     "error", "presetSaved", "metersInput", "metersOutputRMS"]), "\(used.sorted())")
    }

    /// No module writes, in its code, an address the reply table provides.
    @Test func noPageModuleWritesAReplyAddress() throws {
        let addresses = try Self.table().values.compactMap { $0["address"] }
        #expect(addresses.count == Reply.Name.allCases.count)
        for (path, text) in PageCommandTests.modules {
            for (number, line) in PageCommandTests.code(text).enumerated() {
                for address in addresses {
                    for quote in ["'", "\"", "`"] where line.contains(quote + address + quote) {
                        Issue.record("\(path):\(number + 1) writes \(address): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
                // A meter's address built from its parts.
                if line.contains("`/meters/${") { Issue.record("\(path):\(number + 1) builds a meter address: \(line)") }
            }
        }
    }
}
