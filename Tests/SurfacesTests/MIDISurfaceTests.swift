import Foundation
import OSC
import RigControl
import Surfaces
import Testing

/// What a controller's moves ask of the rig, before the rig is asked
/// (`MIDISurface.messages`).
@Suite struct MIDISurfaceTests {
    func surface(_ bindings: String) throws -> MIDISurface {
        let space = AddressSpace(inputs: 4, outputs: 4)
        let map = try MIDIMap.decode(Data(#"{"version": 1, "bindings": [\#(bindings)]}"#.utf8), file: "m", space: space)
        return MIDISurface(name: "desk", map: map)
    }

    @Test func messagesAreParsedAndOthersIgnored() {
        func parse(_ bytes: [UInt8]) -> MIDIMessage? { bytes.withUnsafeBufferPointer { MIDIMessage($0) } }
        #expect(parse([0xB3, 7, 100]) == .controlChange(channel: 4, number: 7, value: 100))
        #expect(parse([0x80, 60, 64]) == .note(channel: 1, number: 60, velocity: 0))
        #expect(parse([0xEF, 0x7F, 0x7F]) == .pitchBend(channel: 16, value: 16383))
        for bytes: [UInt8] in [[0xB0, 7], [0xC0, 5, 0], [0xF0, 1, 2, 0xF7], [0xB0, 0x80, 1], [7, 7, 7]] {
            #expect(parse(bytes) == nil, "\(bytes)")
        }
    }

    @Test func jumpSendsEveryMoveAndPickupWaitsForTheValue() throws {
        var desk = try surface("""
            {"control": "cc", "channel": 1, "number": 1, "address": "/source/1/volume", "form": "fader"},
            {"control": "cc", "channel": 1, "number": 2, "address": "/source/2/volume", "form": "fader", "mode": "pickup"}
            """)
        let jump = desk.messages(for: .controlChange(channel: 1, number: 1, value: 127)) { _ in 0.75 }
        #expect(jump == [OSCMessage("/source/1/fader", [.float(1)])])
        var rig: Float = 0.5
        func move(_ value: Int) -> [OSCMessage] {
            desk.messages(for: .controlChange(channel: 1, number: 2, value: value)) { _ in rig }
        }
        #expect(move(10).isEmpty && move(40).isEmpty)
        #expect(move(70) == [OSCMessage("/source/2/fader", [.float(70.0 / 127)])]) // crossed 0.5
        rig = 70.0 / 127
        #expect(move(80) == [OSCMessage("/source/2/fader", [.float(80.0 / 127)])]) // engaged
        rig = 0.1 // moved elsewhere
        #expect(move(81).isEmpty)
        #expect(move(13) == [OSCMessage("/source/2/fader", [.float(13.0 / 127)])]) // within a step of 0.1
    }

    @Test func switchesAndEncoders() throws {
        var desk = try surface("""
            {"control": "note", "channel": 1, "number": 36, "address": "/source/1/mute", "form": "toggle"},
            {"control": "cc", "channel": 1, "number": 64, "address": "/source/1/solo", "form": "momentary"},
            {"control": "cc", "channel": 1, "number": 16, "address": "/source/1/pan", "form": "relative"}
            """)
        #expect(desk.messages(for: .note(channel: 1, number: 36, velocity: 90)) { _ in 0 }
                == [OSCMessage("/source/1/mute", [.int32(1)])])
        #expect(desk.messages(for: .note(channel: 1, number: 36, velocity: 90)) { _ in 1 }
                == [OSCMessage("/source/1/mute", [.int32(0)])])
        #expect(desk.messages(for: .note(channel: 1, number: 36, velocity: 0)) { _ in 1 }.isEmpty)
        #expect(desk.messages(for: .controlChange(channel: 1, number: 64, value: 127)) { _ in nil }
                == [OSCMessage("/source/1/solo", [.int32(1)])])
        #expect(desk.messages(for: .controlChange(channel: 1, number: 64, value: 0)) { _ in nil }
                == [OSCMessage("/source/1/solo", [.int32(0)])])
        #expect(desk.messages(for: .controlChange(channel: 1, number: 16, value: 3)) { _ in nil }
                == [OSCMessage("/source/1/pan/delta", [.float(3 * 2 / 128)])])
        #expect(desk.messages(for: .controlChange(channel: 1, number: 16, value: 126)) { _ in nil }
                == [OSCMessage("/source/1/pan/delta", [.float(-2 * 2 / 128)])])
        #expect(desk.messages(for: .controlChange(channel: 1, number: 16, value: 64)) { _ in nil }.isEmpty)
    }

    @Test func aCCTogglePressesOnlyOnTheWayUp() throws {
        var desk = try surface(#"{"control": "cc", "channel": 1, "number": 48, "address": "/source/1/mute", "form": "toggle"}, {"control": "cc", "channel": 1, "number": 64, "address": "/source/1/solo", "form": "momentary"}"#)
        var mute: Float = 0
        func send(_ value: Int) {
            for message in desk.messages(for: .controlChange(channel: 1, number: 48, value: value), current: { _ in mute }) {
                if case .int32(let v) = message.arguments.first { mute = Float(v) }
            }
        }
        send(127); send(127); send(100)
        #expect(mute == 1, "one press however often it says so")
        send(0); send(127)
        #expect(mute == 0)
        // A momentary CC held on says so once.
        #expect(desk.messages(for: .controlChange(channel: 1, number: 64, value: 127)) { _ in nil }.count == 1)
        #expect(desk.messages(for: .controlChange(channel: 1, number: 64, value: 127)) { _ in nil }.isEmpty)
    }

    @Test func aLevelAboveTheControlsTopIsOutOfPickupsReach() throws {
        var desk = try surface(#"{"control": "cc", "channel": 1, "number": 2, "address": "/source/2/volume", "form": "volume", "mode": "pickup"}"#)
        // Gain 2 (+6 dB): the knob's top is unity.
        #expect(desk.messages(for: .controlChange(channel: 1, number: 2, value: 120)) { _ in 2 }.isEmpty)
        #expect(desk.messages(for: .controlChange(channel: 1, number: 2, value: 127)) { _ in 2 }.isEmpty)
        #expect(desk.messages(for: .controlChange(channel: 1, number: 2, value: 127)) { _ in 1 }.count == 1)
    }
}
