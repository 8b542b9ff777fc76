import Catalogue
import JSON
import Foundation
import MixCore
import SceneModel
import Presets
import Testing

private func decode(_ json: String) throws(FileError) -> Preset {
    try PresetCoding.decode(Data(json.utf8), file: "p.json")
}

private let header = #""format": "crosspoint-preset", "version": 1, "channels": {"inputs": 2, "outputs": 2}"#
private let groupHeader =
    #""format": "crosspoint-preset", "version": 1, "channels": {"inputs": 2, "outputs": 2, "dcas": 8, "mutegroups": 8}"#

@Suite struct PresetCodingTests {
    @Test func roundTripKeepsEveryValue() throws {
        var scene = Scene(inputs: 3, outputs: 2)
        scene.sources[0] = Source(name: "Vox \"lead\"\n")
        scene.sources[0].volume = 0.501_187_2
        scene.sources[1].pan = -0.33
        scene.sources[2].mute = true
        scene.sources[2].solo = true
        scene.crosspoints[3, 2] = 3.999
        scene.outputs[1].mute = true
        scene.outputs[0].volume = 0.1
        scene.master.volume = 1.25
        let preset = Preset(name: "show", notes: "ünïcode ✓", fade: 2.5, scene: scene)
        let data = PresetCoding.encode(preset)
        #expect(try PresetCoding.decode(data, file: "x") == preset)
        // Stable text: encoding the decoded preset gives the same bytes.
        #expect(PresetCoding.encode(try PresetCoding.decode(data, file: "x")) == data)
    }

    @Test func missingFieldsTakeTheirDefaults() throws {
        let preset = try decode("{\(header)}")
        #expect(preset.scene.sources.allSatisfy { $0.volume == 1 && $0.pan == 0 && !$0.mute })
        #expect(preset.scene.crosspoints.gains.allSatisfy { $0 == 0 }, "unlisted crosspoints are off")
        #expect(preset.fade == nil && preset.notes == nil)
    }

    @Test func mapIsAShorthandForUnityCrosspoints() throws {
        let preset = try decode(#"{\#(header), "map": [0, 1], "crosspoints": [{"in": 2, "out": 1, "volume": 0.5}]}"#)
        #expect(preset.scene.crosspoints.gains == [0, 1, 0.5, 0])
    }

    @Test(arguments: [
        (#"{\#(header), "colour": "red"}"#, "p.json: colour: unknown field"),
        (#"{\#(header), "sources": [{"volume": 1, "gain": 2}]}"#, "p.json: sources[0].gain: unknown field"),
        (#"{\#(header), "sources": [{"mute": 1}]}"#, "p.json: sources[0].mute: expected true or false, got a number"),
        (#"{\#(header), "sources": [{"volume": 5}]}"#, "p.json: sources[0].volume: 5 is out of range 0 to 4"),
        (#"{\#(header), "crosspoints": [{"in": 3, "out": 1, "volume": 1}]}"#, "p.json: crosspoints[0].in: 3 is out of range 1 to 2"),
        (#"{\#(header), "crosspoints": [{"in": 1, "out": 1}]}"#, "p.json: crosspoints[0].volume: missing"),
        (#"{\#(header), "map": [1, 2, 1]}"#, "p.json: map: 3 entries, more than the 2 the channel counts allow"),
        (#"{\#(header), "map": [1.5]}"#, "p.json: map[0]: expected a whole number from 0 to 2, got a number"),
        (#"{\#(header), "fade": -1}"#, "p.json: fade: -1 is out of range 0 to 3600"),
        (#"{\#(header), "master": {"volume": null}}"#, "p.json: master.volume: expected a number from 0 to 4, got null"),
        (#"{"format": "crosspoint-preset", "version": 2}"#, "p.json: version: version 2 is not readable by this build, which reads version 1"),
        (#"{"format": "something", "version": 1}"#, #"p.json: format: expected "crosspoint-preset""#),
        (#"{"format": "crosspoint-preset", "version": 1}"#, "p.json: channels: missing"),
        (#"[1, 2]"#, "p.json: document: expected an object, got an array"),
        // A membership of a group beyond the file's own count of them.
        (#"{\#(groupHeader), "sources": [{"dca": [99]}]}"#, "p.json: sources[0].dca[0]: 99 is out of range 1 to 8"),
        (#"{\#(groupHeader), "sources": [{}, {"mutegroup": [1, 9]}]}"#,
         "p.json: sources[1].mutegroup[1]: 9 is out of range 1 to 8"),
        (#"{\#(header), "sources": [{"dca": [1]}]}"#, "p.json: sources[0].dca: the file has no DCAs"),
    ])
    func strictErrorsNameTheFileAndTheField(json: String, message: String) {
        #expect(throws: FileError.self) { try decode(json) }
        do { _ = try decode(json) } catch { #expect(error.description.hasPrefix(message), "\(error)") }
    }

    /// A membership the file may hold but the rig has no group for (a file
    /// of 8 DCAs recalled on a rig of 4): left out, and said to be.
    @Test func aMembershipBeyondTheRigsGroupsIsLeftOutAndSaid() throws {
        let preset = try decode(#"{\#(groupHeader), "sources": [{"dca": [2, 6]}, {"mutegroup": [7]}]}"#)
        #expect(preset.scene.sources[0].dcas.members == [2, 6])
        let (fitted, skipped) = preset.fitted(inputs: 2, outputs: 2, dcas: 4, muteGroups: 4)
        #expect(fitted.sources[0].dcas.members == [2])
        #expect(fitted.sources[1].muteGroups.members == [])
        #expect(skipped == ["DCAs 5-8", "mute groups 5-8"])
    }

    @Test func brokenJSONSaysSo() {
        do { _ = try decode("{ \"format\": ") ; Issue.record("decoded") } catch {
            #expect(error.description.hasPrefix("p.json: not valid JSON"))
        }
    }

    @Test func namesFollowTheRules() {
        for good in ["a", "Show 1", "opening_v2.1", "scène", String(repeating: "x", count: 64)] {
            #expect(PresetName.isValid(good), "\(good)")
        }
        for bad in ["", ".x", "a/b", "..", "../x", "a\u{0}", "tab\t", "x?", String(repeating: "x", count: 65),
                    " ", "   ", " x", "x ", "a\u{200D}b", "soft\u{AD}hyphen", "\u{200B}"] {
            #expect(!PresetName.isValid(bad), "\(bad)")
        }
    }

    @Test func shippedPresetsLoadAndDoWhatTheySay() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("presets")
        let store = PresetStore(directory: directory)
        #expect(store.names() == ["mono-to-both", "stereo-to-3-4", "stereo-to-mono", "unity"])
        let unity = try store.load("unity").scene
        #expect(unity == Scene(inputs: 8, outputs: 8))
        let stereo = try store.load("stereo-to-3-4").scene
        #expect(stereo.crosspoints[1, 3] == 1 && stereo.crosspoints[2, 4] == 1)
        #expect(stereo.crosspoints.gains.filter { $0 != 0 }.count == 2)
        let both = try store.load("mono-to-both").scene
        #expect(both.crosspoints[1, 1] == 1 && both.crosspoints[1, 2] == 1 && both.crosspoints.gains.filter { $0 != 0 }.count == 2)
        let mono = try store.load("stereo-to-mono").scene
        #expect(mono.crosspoints[1, 1] == 0.5 && mono.crosspoints[2, 1] == 0.5 && mono.crosspoints.gains.filter { $0 != 0 }.count == 2)
    }

    @Test func atomicWriteReplacesAndLeavesNoTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        let store = PresetStore(directory: directory)
        try store.save(Preset(name: "p", scene: Scene(inputs: 1, outputs: 1)))
        try store.save(Preset(name: "p", notes: "second", scene: Scene(inputs: 1, outputs: 1)))
        #expect(try store.load("p").notes == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["p.json"])
    }

    @Test func rigStateRoundTrip() throws {
        var state = RigState(scene: Scene(inputs: 2, outputs: 3), preset: "show", modified: true)
        state.safes[.source] = [2]
        state.safes[.output] = [1, 3]
        state.safes[.master] = [1]
        state.scene.crosspoints[2, 3] = 0.25
        #expect(try RigState.decode(state.encoded(), file: "s") == state)
    }

    /// The longest delay a state file records: read when in range, the
    /// default when absent, and an error naming the file and the field when
    /// out of range or not a number.
    @Test func aStateFilesLongestDelayIsReadOrRefusedByName() throws {
        #expect(try RigState.longestDelay(in: Data(#"{"max-delay-ms": 2000}"#.utf8), file: "s.json") == 2000)
        #expect(try RigState.longestDelay(in: Data("{}".utf8), file: "s.json") == Catalogue.defaultLongestDelay)
        for bad in [#"{"max-delay-ms": -5}"#, #"{"max-delay-ms": 20000}"#, #"{"max-delay-ms": "long"}"#] {
            #expect(throws: FileError.self, "\(bad)") { try RigState.longestDelay(in: Data(bad.utf8), file: "s.json") }
            do {
                _ = try RigState.longestDelay(in: Data(bad.utf8), file: "s.json")
            } catch {
                #expect(error.file == "s.json" && error.field == "max-delay-ms", "\(error)")
            }
        }
        #expect(throws: FileError.self) { try RigState.longestDelay(in: Data("not json".utf8), file: "s.json") }
    }
}

@Suite struct JSONParsingTests {
    /// Control characters are written as \u00XX escapes, and read back.
    @Test func controlCharactersAreEscapedAndReadBack() throws {
        var scene = Scene(inputs: 1, outputs: 1)
        scene.sources[0].name = "a\u{1}b\u{1f}c\td"
        let data = PresetCoding.encode(Preset(name: "p", scene: scene))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""a\u0001b\u001fc\td""#), "\(text)")
        #expect(try PresetCoding.decode(data, file: "p").scene.sources[0].name == "a\u{1}b\u{1f}c\td")
    }

    @Test func escapesAndUnicodeReadBack() throws {
        let preset = try PresetCoding.decode(Data(#"{"format": "crosspoint-preset", "version": 1, "channels": {"inputs": 1, "outputs": 1}, "sources": [{"name": "a\"b\\c\/d\n\u00e9\ud83c\udfb8 ✓"}]}"#.utf8), file: "p")
        #expect(preset.scene.sources[0].name == "a\"b\\c/d\né🎸 ✓")
    }

    @Test(arguments: [
        #"{"format": "crosspoint-preset"} x"#, #"{"a": 1,}"#, #"[01.]"#, #"{"a": "\q"}"#, #"{"a": "\ud800x"}"#,
        "{\"a\": \"tab\there\"}", String(repeating: "[", count: 100) + String(repeating: "]", count: 100), #"{"a": tru}"#, "",
    ])
    func malformedDocumentsAreRefused(json: String) {
        #expect(throws: FileError.self) { try PresetCoding.decode(Data(json.utf8), file: "p") }
    }
}
