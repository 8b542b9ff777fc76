import Catalogue
import ControlPage
import Foundation
import Testing

/// The page sends the rig's commands through the command table
/// `catalogue.json` carries (`PageDescription`, `catalogue.js`
/// `commandAddress`), never writing a command's address itself.
@Suite struct PageCommandTests {
    /// `catalogue.json`'s `commands`, by name.
    static func table() throws -> [String: [String: Any]] {
        let json = PageDescription.json(Catalogue())
        let description = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(description["commands"] as? [String: [String: Any]])
    }

    /// The page's JavaScript modules, by path, as the binary serves them.
    static var modules: [(path: String, text: String)] {
        ControlPage.files.filter { $0.key.hasSuffix(".js") }.map { ($0.key, $0.value.text) }.sorted { $0.path < $1.path }
    }

    @Test func theTableHoldsEveryCommandWithItsAddressAndRanges() throws {
        let table = try Self.table()
        #expect(Set(table.keys) == Set(Command.Name.allCases.map { String(describing: $0) }))
        for name in Command.Name.allCases {
            #expect(table[String(describing: name)]?["address"] as? String == name.address, "\(name)")
        }
        let inputs = try #require(table["rigInputs"])
        #expect(inputs["types"] as? String == "i")
        #expect(inputs["range"] as? [[Double]] == [[1, 512]])
        #expect(table["metersRate"]?["range"] as? [[Double]] == [[1, 60]])
        // The channel map's form follows the rig's size: no form given, the address only.
        #expect(table["matrixMap"]?.keys.sorted() == ["address"])
        #expect(table["presetSave"]?["types"] as? String == "s")
        #expect(table["presetSave"]?["range"] == nil)
    }

    /// Every command the page looks up (`commandAddress('NAME')`,
    /// `command('NAME')`) is in the table the rig emits.
    @Test func everyCommandThePageUsesIsInTheTable() throws {
        let table = try Self.table()
        var used: Set<String> = []
        for (path, name) in Self.lookups(/\bcommand(?:Address)?\('([A-Za-z]+)'\)/) {
            used.insert(name)
            #expect(table[name] != nil, "\(path) looks up \(name), which the table does not have")
        }
        // The lookups are found at all: the ones the page cannot work without.
        #expect(used.isSuperset(of: ["subscribeForms", "status", "rigInputs", "rigOutputs", "presetList", "login", "jackPorts"]),
                "\(used.sorted())")
    }

    /// No module writes, in its code, an address the table provides: a
    /// string literal that is a command's address, or starts with it and a
    /// part filled in (`/preset/recall/${name}`). Comments may name them.
    @Test func noPageModuleWritesACommandAddress() throws {
        let addresses = try Self.table().values.compactMap { $0["address"] as? String }
        #expect(addresses.count == Command.Name.allCases.count)
        for (path, text) in Self.modules {
            for (number, line) in Self.code(text).enumerated() {
                for address in addresses {
                    for quote in ["'", "\"", "`"] where line.contains(quote + address + quote)
                        || line.contains(quote + address + "/${") {
                        Issue.record("\(path):\(number + 1) writes \(address): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
    }

    /// Every name the page's modules (but `catalogue.js`, which defines
    /// the lookups) pass to a lookup, as `pattern` captures it.
    static func lookups(_ pattern: Regex<(Substring, Substring)>) -> [(path: String, name: String)] {
        modules.filter { $0.path != "catalogue.js" }.flatMap { path, text in
            text.matches(of: pattern).map { (path, String($0.output.1)) }
        }
    }

    /// A module's lines without comments: lines that are comments, and a
    /// line's trailing `// …`, blanked (line numbers kept).
    static func code(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") || trimmed.hasPrefix("/*") || trimmed.hasPrefix("*") { return "" }
            return String(line.ranges(of: " // ").first.map { line[..<$0.lowerBound] } ?? line[...])
        }
    }
}
