import Catalogue
import Foundation
import JSON
import RigControl
import Surfaces
import Testing

/// What MIDI learn makes of a control, and the map written back as the
/// map file reads it (docs/surfaces.md, "Learn").
@Suite struct MIDILearnTests {
    let space = AddressSpace(inputs: 8, outputs: 8)

    func learnt(_ message: MIDIMessage, _ address: String, inDecibels: Bool = false) -> Result<MIDIBinding, FileError> {
        MIDIMap.learnt(message, address: address, inDecibels: inDecibels, space: space)
    }

    @Test func eachControlIsLearntInTheFormItsParameterTakes() throws {
        let cc = MIDIMessage.controlChange(channel: 2, number: 7, value: 64)
        let bend = MIDIMessage.pitchBend(channel: 1, value: 8192)
        let note = MIDIMessage.note(channel: 10, number: 36, velocity: 100)
        let fader = try learnt(cc, "/source/1/volume").get()
        #expect((fader.form, fader.mode, fader.target) == (.fader, .pickup, "/source/1/fader"))
        let decibels = try learnt(cc, "/matrix/2/3", inDecibels: true).get()
        #expect((decibels.form, decibels.target) == (.db, "/matrix/2/3/db"))
        let motor = try learnt(bend, "/master/volume").get()
        #expect((motor.form, motor.mode) == (.fader, .jump), "a motor fader follows the rig: no pick-up")
        let pan = try learnt(cc, "/source/3/pan").get()
        #expect((pan.form, pan.mode) == (.value, .pickup))
        #expect(try learnt(note, "/output/2/mute").get().form == .toggle)
        #expect(try learnt(cc, "/output/2/mute").get().form == .toggle)
        // What cannot be: each says why.
        guard case .failure(let noTravel) = learnt(note, "/source/1/volume"),
              case .failure(let notASwitch) = learnt(bend, "/source/1/mute"),
              case .failure(let gone) = learnt(cc, "/source/9/volume") else {
            Issue.record("a note on a level, pitch bend on a switch, a source the rig has not: refused")
            return
        }
        #expect(noTravel.problem.contains("a note has no travel"))
        #expect(notASwitch.problem.contains("pitch bend is not a switch"))
        #expect(gone.problem.contains("no longer a parameter"))
    }

    @Test func aLearntMapIsWrittenAsTheFileReadsIt() throws {
        let map = try MIDIMap.decode(Data("""
            {"version": 1, "bindings": [
              {"control": "cc", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader"},
              {"control": "note", "channel": 1, "number": 36, "address": "/source/1/mute", "form": "toggle"}
            ]}
            """.utf8), file: "map.json", space: space)
        // A control learnt again replaces what it did; others stay.
        let again = try learnt(.controlChange(channel: 1, number: 7, value: 0), "/source/2/volume").get()
        let bend = try learnt(.pitchBend(channel: 16, value: 0), "/master/volume").get()
        let changed = map.replacing(again).replacing(bend)
        #expect(changed.bindings.map(\.address) == ["/source/1/mute", "/source/2/volume", "/master/volume"])
        let read = try MIDIMap.decode(changed.encoded(), file: "map.json", space: space)
        let describe = { (map: MIDIMap) in map.bindings.map { "\($0.control) \($0.address) \($0.form) \($0.mode)" } }
        #expect(describe(read) == describe(changed))
        #expect(read.removing("/source/1/mute").bindings.map(\.address) == ["/source/2/volume", "/master/volume"])
    }
}
