import Foundation
import Testing

extension Integration {
/// MIDI learn (`/midi/learn ADDRESS`, `/midi/forget ADDRESS`;
/// docs/surfaces.md, "Learn"): a control moved on a real JACK MIDI client
/// is bound, the map file rewritten, and the binding used after a restart.
@Suite struct MIDILearnTests {
    typealias Argument = OSCTestClient.Argument

    /// The bindings in the map file at `path`, each as "control channel number address form mode".
    static func bindings(_ path: URL) throws -> [String] {
        let data = try Data(contentsOf: path)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["version"] as? Int == 1)
        let list = try #require(root["bindings"] as? [[String: Any]])
        return list.map { entry in
            ["control", "channel", "number", "address", "form", "mode"].map { entry[$0].map { "\($0)" } ?? "-" }
                .joined(separator: " ")
        }
    }

    @Test func aControlMovedAfterLearnIsBoundWrittenAndKeptOverARestart() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("desk.json")
        try MIDIControllerTests.map.write(to: path, atomically: true, encoding: .utf8)
        let midi = try await JackMIDI.build(in: directory)
        let arguments = ["--midi", "desk", "--midi-map", path.path]
        try await withRig(inputs: 4, arguments: arguments) { rig in
            // Armed: the address as a map names it, and how long it waits.
            try rig.osc.send("/midi/learn", .string("/source/4/mute"))
            let learning = try await rig.osc.waitFor(address: "/midi/learning", timeout: .seconds(3))
            #expect(learning.arguments == [.string("/source/4/mute"), .float(30)])
            // The control moved is learnt, not also acted on.
            try await midi.send(["B0.15.7F"], to: "crosspoint:desk_in", on: rig.jack)
            let learnt = try await rig.osc.waitFor(address: "/midi/learnt", timeout: .seconds(3))
            #expect(learnt.arguments == [.string("/source/4/mute"), .string("desk"), .string("cc 21 on channel 1")])
            #expect(try await MIDIControllerTests.number(rig, "/source/4/mute") == 0)
            // A level asked for in dB: a note cannot be it, said once however
            // often it is pressed; the knob then moved is bound in dB, in pick-up.
            try rig.osc.send("/midi/learn", .string("/source/1/db"))
            #expect(try await rig.osc.waitFor(address: "/midi/learning").arguments.first == .string("/source/1/volume"))
            try await midi.send(["90.30.7F", "90.30.7F"], to: "crosspoint:desk_in", on: rig.jack)
            let refused = try await rig.osc.waitFor(address: "/error", timeout: .seconds(3))
            #expect(refused.arguments.first == .string("/midi/learn"))
            #expect("\(refused.arguments)".contains("a note has no travel"), "\(refused.arguments)")
            try await midi.send(["B0.16.40"], to: "crosspoint:desk_in", on: rig.jack)
            _ = try await rig.osc.waitFor(address: "/midi/learnt", timeout: .seconds(3))
            #expect(try rig.osc.drain().filter { $0.address == "/error" }.isEmpty, "the note refused once")
            let written = try Self.bindings(path)
            #expect(written.count == 10, "\(written)")
            #expect(written.contains("cc 1 21 /source/4/mute toggle jump"), "\(written)")
            #expect(written.contains("cc 1 22 /source/1/volume db pickup"), "\(written)")
            #expect(written.contains("cc 1 7 /source/1/volume fader jump"), "the map's own bindings kept: \(written)")
            // What cannot be learnt is refused, and nothing is armed.
            for address in ["/source/*/mute", "/status", "/source/9/mute", "/source/1/name"] {
                try rig.osc.send("/midi/learn", .string(address))
                let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(3))
                #expect(error.arguments.first == .string("/midi/learn"), "\(address): \(error)")
            }
            try rig.osc.send("/midi/forget", .string("/source/*/mute"))
            let notForgotten = try await rig.osc.waitFor(address: "/error", timeout: .seconds(3))
            #expect(notForgotten.arguments.first == .string("/midi/forget"), "a pattern is not forgotten: \(notForgotten)")
            try await midi.send(["B0.17.7F"], to: "crosspoint:desk_in", on: rig.jack)
            try await Task.sleep(for: .milliseconds(200))
            #expect(try Self.bindings(path).count == 10)
        }
        // After a restart the learnt control works, and forget removes it.
        try await withRig(inputs: 4, arguments: arguments) { rig in
            try await midi.send(["B0.15.7F"], to: "crosspoint:desk_in", on: rig.jack)
            #expect(try await MIDIControllerTests.number(rig, "/source/4/mute") == 1)
            try rig.osc.send("/midi/forget", .string("/source/4/mute"))
            let forgotten = try await rig.osc.waitFor(address: "/midi/forgotten", timeout: .seconds(3))
            #expect(forgotten.arguments == [.string("/source/4/mute"), .int32(1)])
            // CC 21 again, then a control still bound: once that has acted, CC 21 has been taken too.
            try await midi.send(["B0.15.00", "B0.15.7F", "B0.07.7F"], to: "crosspoint:desk_in", on: rig.jack)
            let deadline = ContinuousClock.now + .seconds(5)
            while try await MIDIControllerTests.number(rig, "/source/1/fader") != 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await MIDIControllerTests.number(rig, "/source/1/fader") == 1)
            #expect(try await MIDIControllerTests.number(rig, "/source/4/mute") == 1, "no longer bound")
            let written = try Self.bindings(path)
            #expect(written.count == 9 && !written.contains { $0.contains("/source/4/mute") }, "\(written)")
        }
    }

    @Test func learnWithoutAControllerIsRefused() async throws {
        try await withRig { rig in
            try rig.osc.send("/midi/learn", .string("/source/1/mute"))
            let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(3))
            #expect(error.arguments == [.string("/midi/learn"),
                                        .string("no MIDI controller to learn on (serve --midi NAME --midi-map FILE)")])
        }
    }
}
}
