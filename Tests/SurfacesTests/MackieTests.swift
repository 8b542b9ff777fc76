import Foundation
import OSC
import RigControl
import Surfaces
import Testing

/// The Mackie Control messages, and what a console's controls ask of the
/// rig (docs/surfaces.md, "Mackie Control").
@Suite struct MackieTests {
    let space = AddressSpace(inputs: 20, outputs: 4, dcas: 2)

    @Test func theProtocolsMessagesAreThoseArdourAndTheXTouchUse() {
        #expect(Mackie.fader(0, at: 0) == [0xE0, 0, 0])
        #expect(Mackie.fader(8, at: 1) == [0xE8, 0x7F, 0x7F], "the master fader, channel 9")
        #expect(Mackie.fader(1, at: 0.5) == [0xE1, 0x00, 0x40])
        #expect(Mackie.fader(2, at: .nan) == [0xE2, 0, 0])
        #expect(Mackie.steps(0x05) == 5 && Mackie.steps(0x45) == -5 && Mackie.steps(0x40) == 0)
        #expect(Mackie.ring(0, pan: 0) == [0xB0, 0x30, 0x40 | 6], "the centre: dot 6 of 11 and the centre LED")
        #expect(Mackie.ring(7, pan: -1) == [0xB0, 0x37, 1] && Mackie.ring(7, pan: 1) == [0xB0, 0x37, 11])
        #expect(Mackie.ring(3, pan: nil) == [0xB0, 0x33, 0])
        #expect(Mackie.twoCharacters("09") == [[0xB0, 0x4B, 0x30], [0xB0, 0x4A, 0x39]])
        #expect(Mackie.twoCharacters("AB") == [[0xB0, 0x4B, 0x01], [0xB0, 0x4A, 0x02]], "letters as the 7-segment code")
        #expect(Mackie.meter(2, decibels: -90) == [0xD0, 0x20] && Mackie.meter(2, decibels: 0) == [0xD0, 0x2C])
        #expect(Mackie.meter(0, decibels: -6) == [0xD0, 0x0A] && Mackie.meter(0, decibels: .nan) == [0xD0, 0x00])
        #expect(Mackie.lcd(extender: true, offset: 56, "é\u{1}") == [0xF0, 0, 0, 0x66, 0x15, 0x12, 56, 0x3F, 0x3F, 0xF7],
                "7-bit ASCII only")
    }

    @Test func eachModeMapsTheStripsToItsChannels() throws {
        var console = MackieConsole(units: [0, 1])
        console.look(space)
        #expect(console.take(.pitchBend(channel: 2, value: 16383), unit: 1, space: space)
                == .send(OSCMessage("/source/10/fader", [.float(1)]), echo: "/source/10/db"), "the second unit's strip 2 is source 10")
        #expect(console.take(.note(channel: 1, number: Mackie.bankRight, velocity: 127), unit: 0, space: space) == .view)
        console.look(space)
        #expect(console.view.first == 4, "the last bank shows the last 16 of 20")
        #expect(console.take(.note(channel: 1, number: Mackie.bankRight, velocity: 127), unit: 0, space: space) == nil)
        #expect(console.take(.note(channel: 1, number: Mackie.pan, velocity: 127), unit: 0, space: space) == .view)
        console.look(space)
        #expect(console.view == { var v = MackieView(width: 16); v.mode = .outputs; return v }())
        #expect(console.take(.pitchBend(channel: 6, value: 0), unit: 0, space: space) == nil, "strip 6: no output 6")
        #expect(console.take(.note(channel: 1, number: Mackie.select + 1, velocity: 127), unit: 0, space: space) == .view)
        console.look(space)
        #expect(console.view.mode == .sends(output: 2))
        #expect(console.take(.pitchBend(channel: 3, value: 0), unit: 0, space: space)
                == .send(OSCMessage("/matrix/3/2/fader", [.float(0)]), echo: "/matrix/3/2/db"))
        #expect(console.take(.pitchBend(channel: 9, value: 0), unit: 0, space: space)
                == .send(OSCMessage("/output/2/fader", [.float(0)]), echo: nil), "the master fader is the output's level")
        #expect(console.take(.pitchBend(channel: 9, value: 0), unit: 1, space: space) == nil, "only the first unit has it")
        #expect(console.take(.note(channel: 1, number: Mackie.mute + 3, velocity: 127), unit: 0, space: space) == nil,
                "in sends on fader MUTE does nothing: the source's mute would silence it everywhere")
        #expect(console.take(.note(channel: 1, number: Mackie.rec + 3, velocity: 127), unit: 0, space: space)
                == .toggle("/source/4/listen"), "REC listens to the send's source")
        #expect(console.take(.note(channel: 1, number: Mackie.plugIn, velocity: 127), unit: 0, space: space) == .view)
        console.look(space)
        #expect(console.take(.note(channel: 1, number: Mackie.solo, velocity: 127), unit: 0, space: space) == nil,
                "a DCA has no solo")
        // Touched, a fader is never moved; the rig's other values still show.
        _ = console.take(.note(channel: 1, number: Mackie.faderTouch, velocity: 127), unit: 0, space: space)
        #expect(console.show(OSCMessage("/dca/1/fader", [.float(0.5)])).isEmpty)
        #expect(console.show(OSCMessage("/dca/1/mute", [.int32(1)])).map(\.bytes) == [Mackie.led(Mackie.mute, true)])
        _ = console.take(.note(channel: 1, number: Mackie.faderTouch, velocity: 0), unit: 0, space: space)
        #expect(console.show(OSCMessage("/dca/1/fader", [.float(0.5)])).map(\.bytes) == [Mackie.fader(0, at: 0.5)])
    }

    @Test func aMovingLevelsTextIsWrittenTenTimesASecondAndEndsOnItsLastValue() async throws {
        var console = MackieConsole(units: [0])
        console.look(space)
        let text = { (db: String) in Mackie.lcd(extender: false, offset: 56, db.padding(toLength: 7, withPad: " ", startingAt: 0)) }
        #expect(console.show(OSCMessage("/source/1/db", [.float(-10)])).map(\.bytes) == [text("-10.0")])
        #expect(console.show(OSCMessage("/source/1/db", [.float(-11)])).isEmpty, "held back: within 100 ms")
        #expect(console.show(OSCMessage("/source/1/db", [.float(-12)])).isEmpty)
        #expect(console.show(OSCMessage("/source/2/db", [.float(-3)])).count == 1, "each strip on its own")
        #expect(console.dueTexts().isEmpty)
        try await Task.sleep(for: .milliseconds(120))
        #expect(console.dueTexts().map(\.bytes) == [text("-12.0")], "the last value, once")
        #expect(console.dueTexts().isEmpty)
        // A text held back when the view changes belongs to what the strip showed: dropped.
        _ = console.show(OSCMessage("/source/1/db", [.float(-20)]))
        #expect(console.show(OSCMessage("/source/1/db", [.float(-21)])).isEmpty)
        _ = console.take(.note(channel: 1, number: Mackie.plugIn, velocity: 127), unit: 0, space: space)
        console.look(space)
        try await Task.sleep(for: .milliseconds(120))
        #expect(console.dueTexts().isEmpty, "no old level written on a DCA's strip")
    }
}
