import Catalogue
import Foundation
import JSON
import RigControl
import Surfaces
import Testing

/// The map file is read strictly: what it binds, and each mistake named by
/// its field (docs/surfaces.md, "The map file").
@Suite struct MIDIMapTests {
    let space = AddressSpace(inputs: 8, outputs: 8)

    func decode(_ bindings: String) throws(FileError) -> MIDIMap {
        try MIDIMap.decode(Data(#"{"version": 1, "bindings": [\#(bindings)]}"#.utf8), file: "map.json", space: space)
    }

    func refusal(_ bindings: String) -> FileError? {
        do { _ = try decode(bindings); return nil } catch { return error }
    }

    @Test func aMapBindsControlsToTheirParametersForms() throws {
        let map = try decode("""
            {"control": "cc", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader", "mode": "pickup"},
            {"control": "pitchbend", "channel": 16, "address": "/master/volume", "form": "db"},
            {"control": "note", "channel": 10, "number": 36, "address": "/output/2/mute", "form": "toggle"},
            {"control": "cc", "channel": 2, "number": 16, "address": "/matrix/3/4", "form": "relative"},
            {"control": "cc", "channel": 2, "number": 17, "address": "/source/3/pan", "form": "value"}
            """)
        #expect(map.bindings.count == 5)
        let fader = try #require(map.binding(MIDIControl(kind: .controlChange, channel: 1, number: 7)))
        #expect(fader.target == "/source/1/fader" && fader.mode == .pickup)
        #expect(map.binding(MIDIControl(kind: .pitchBend, channel: 16, number: 0))?.target == "/master/db")
        #expect(map.binding(MIDIControl(kind: .controlChange, channel: 2, number: 16))?.target == "/matrix/3/4/fader/delta")
        let pan = try #require(map.binding(MIDIControl(kind: .controlChange, channel: 2, number: 17)))
        #expect(pan.value(at: 0) == -1 && pan.value(at: 1) == 1 && pan.share(of: 0) == 0.5)
        #expect(map.binding(MIDIControl(kind: .controlChange, channel: 1, number: 8)) == nil)
    }

    @Test(arguments: [
        (#"{"control": "cc", "channel": 0, "number": 7, "address": "/source/1/volume", "form": "fader"}"#, "bindings[0].channel"),
        (#"{"control": "cc", "channel": 1, "number": 128, "address": "/source/1/volume", "form": "fader"}"#, "bindings[0].number"),
        (#"{"control": "knob", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader"}"#, "bindings[0].control"),
        (#"{"control": "cc", "channel": 1, "number": 7, "address": "/source/9/volume", "form": "fader"}"#, "bindings[0].address"),
        (#"{"control": "cc", "channel": 1, "number": 7, "address": "/source/*/volume", "form": "fader"}"#, "bindings[0].address"),
        (#"{"control": "cc", "channel": 1, "number": 7, "address": "/source/1/name", "form": "value"}"#, "bindings[0].address"),
        (#"{"control": "cc", "channel": 1, "number": 7, "address": "/source/1/mute", "form": "fader"}"#, "bindings[0].address"),
        (#"{"control": "note", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader"}"#, "bindings[0].form"),
        (#"{"control": "pitchbend", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader"}"#, "bindings[0].number"),
        (#"{"control": "cc", "channel": 1, "number": 7, "address": "/source/1/mute", "form": "toggle", "mode": "pickup"}"#, "bindings[0].mode"),
        (#"{"control": "pitchbend", "channel": 1, "address": "/source/1/mute", "form": "momentary"}"#, "bindings[0].form"),
        (#"{"control": "cc", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader", "colour": "red"}"#, "bindings[0].colour"),
        (#"{"control": "cc", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader"}, {"control": "cc", "channel": 1, "number": 7, "address": "/source/2/volume", "form": "fader"}"#, "bindings[1]"),
    ])
    func aMistakeIsRefusedNamingItsField(bindings: String, field: String) {
        let error = refusal(bindings)
        #expect(error?.file == "map.json")
        #expect(error?.field == field, "\(String(describing: error))")
    }

    @Test func aFileOfAnotherVersionOrNotJSONIsRefused() {
        for text in [#"{"version": 2, "bindings": []}"#, "not json", #"{"bindings": []}"#] {
            #expect(throws: FileError.self) { try MIDIMap.decode(Data(text.utf8), file: "map.json", space: space) }
        }
    }
}

/// A parameter added to the catalogue is bound with no surface code: the
/// map resolves any address the rig's address space has.
@Suite struct MIDIMapCatalogueTests {
    @Test func laterKindsOfParameterAreBoundAsTheCatalogueDescribesThem() throws {
        let space = AddressSpace(counts: [.source: 4, .output: 4, .talkback: 2], catalogue: Catalogue())
        let text = #"""
            {"version": 1, "bindings": [
              {"control": "cc", "channel": 1, "number": 1, "address": "/source/1/eq/2/gain", "form": "value", "mode": "pickup"},
              {"control": "note", "channel": 1, "number": 60, "address": "/talkback/1/talk", "form": "momentary"},
              {"control": "cc", "channel": 1, "number": 2, "address": "/output/2/limiter/ceiling", "form": "value"}
            ]}
            """#
        let map = try MIDIMap.decode(Data(text.utf8), file: "map.json", space: space)
        let gain = try #require(map.binding(MIDIControl(kind: .controlChange, channel: 1, number: 1)))
        #expect(gain.range == -15...15 && gain.value(at: 0.5) == 0)
        #expect(map.binding(MIDIControl(kind: .note, channel: 1, number: 60))?.target == "/talkback/1/talk")
        #expect(map.binding(MIDIControl(kind: .controlChange, channel: 1, number: 2))?.target == "/output/2/limiter/ceiling")
    }
}
