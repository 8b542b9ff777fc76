import JSON
import Foundation
import SceneModel
import Presets
import Testing

/// The state file is read field by field (issue 32): one bad field is
/// skipped and named, the rest of the scene kept; a strict reading (what a
/// preset gets) stops at the same field.
@Suite struct RigStateReadingTests {
    static func state() -> RigState {
        var scene = Scene(inputs: 3, outputs: 2)
        scene.sources[1].name = "Vox"
        scene.sources[2].pan = 0.5
        scene.crosspoints[2, 1] = 0.5
        scene.crosspoints[3, 2] = 0.25
        scene.outputs[1].volume = 0.5
        var state = RigState(scene: scene, preset: "show")
        state.safes[.source] = [2]
        return state
    }

    static func text() -> String { String(decoding: state().encoded(), as: UTF8.self) }

    static func read(_ text: String) throws(FileError) -> (state: RigState, skipped: [FileError]) {
        try RigState.read(Data(text.utf8), file: "state.json")
    }

    @Test func aGoodFileSkipsNothing() throws {
        let (state, skipped) = try Self.read(Self.text())
        #expect(skipped.isEmpty)
        #expect(state == Self.state())
    }

    @Test func aBadFieldIsSkippedAndNamedTheRestKept() throws {
        let long = "\"patch\": \"^\(String(repeating: "x", count: 300))$\""
        let text = Self.text().replacingOccurrences(of: "\"pan\": 0.5", with: "\"pan\": 7")
            .replacingOccurrences(of: "\"patch\": \"\"", with: long)
        let (state, skipped) = try Self.read(text)
        let fields = skipped.map(\.field)
        #expect(fields.contains("sources[2].pan"), "\(skipped)")
        #expect(fields.contains("sources[0].patch"), "\(skipped)")
        #expect(skipped.allSatisfy { $0.file == "state.json" })
        var expected = Self.state()
        expected.scene.sources[2].pan = 0
        #expect(state == expected, "everything else kept")
        // Strictly, the first of them is the error.
        #expect(throws: FileError.self) { try RigState.decode(Data(text.utf8), file: "state.json") }
    }

    @Test func unknownFieldsBadEntriesAndBadListsAreSkipped() throws {
        let text = Self.text()
            .replacingOccurrences(of: "\"in\": 3, \"out\": 2", with: "\"in\": 9, \"out\": 2")
            .replacingOccurrences(of: "\"name\": \"Vox\"", with: "\"name\": \"Vox\", \"later\": 1")
            .replacingOccurrences(of: "\"master\": false", with: "\"master\": \"yes\"")
        let (state, skipped) = try Self.read(text)
        #expect(Set(skipped.map(\.field)) == ["crosspoints[3].in", "sources[1].later", "safes.master"], "\(skipped)")
        var expected = Self.state()
        expected.scene.crosspoints[3, 2] = 0
        #expect(state == expected)
    }

    @Test func whatCannotBeReadAtAllIsStillAnError() {
        let text = Self.text()
        #expect(throws: FileError.self) { try Self.read(String(text.prefix(text.count / 2))) }
        #expect(throws: FileError.self) {
            try Self.read(text.replacingOccurrences(of: "\"inputs\": 3", with: "\"inputs\": 0"))
        }
        #expect(throws: FileError.self) {
            try Self.read(text.replacingOccurrences(of: "crosspoint-state", with: "crosspoint-preset"))
        }
    }
}

/// `preset show`'s tables: every row's columns line up under its header's,
/// the mute groups' too (issue 34: "mutegroup" was wider than its column).
@Suite struct SceneTableTests {
    @Test func everyColumnLinesUpWithItsHeader() {
        var scene = Scene(inputs: 2, outputs: 2, dcas: 2, muteGroups: 2)
        scene.muteGroups[1].name = "drums"
        let lines = SceneTable(preset: Preset(name: "x", scene: scene)).text.split(separator: "\n", omittingEmptySubsequences: false)
        for title in ["source", "output", "dca", "mutegroup"] {
            guard let header = lines.firstIndex(where: { $0.hasPrefix(title + " ") }) else {
                Issue.record("no \(title) table")
                continue
            }
            // Where each column starts: after a run of spaces.
            func starts(_ line: Substring) -> [Int] {
                let characters = Array(line)
                return characters.indices.filter { $0 > 0 && characters[$0] != " " && characters[$0 - 1] == " " }
            }
            let first = lines[header + 1]
            #expect(starts(lines[header]).prefix(2) == starts(first).prefix(2), "\(lines[header])\n\(first)")
        }
    }
}
