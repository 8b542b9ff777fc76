import Foundation
import Testing

extension Integration {
/// A Mackie Control surface (`serve --mcu NAME`, docs/surfaces.md, "Mackie
/// Control"), played by a real JACK MIDI client into the rig's port
/// `NAME_in`, its `NAME_out` recorded by another.
@Suite struct MackieControlTests {
    static func number(_ rig: CrosspointRig, _ address: String) async throws -> Float {
        try await MIDIControllerTests.number(rig, address)
    }

    /// A rig of 20 sources and 4 outputs with an X-Touch (`xt`) and its Extender (`xte`).
    static func withSurface(_ body: (CrosspointRig, JackMIDI) async throws -> Void) async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let midi = try await JackMIDI.build(in: directory)
        try await withRig(inputs: 20, outputs: 4, arguments: ["--mcu", "xt", "--mcu", "xte"]) { rig in
            try await body(rig, midi)
        }
    }

    /// An LCD cell's SysEx: unit (0x14 the first, 0x15 an extender), offset, seven characters.
    static func lcd(_ unit: UInt8, _ offset: Int, _ text: String) -> String {
        let cell = text.padding(toLength: 7, withPad: " ", startingAt: 0)
        return (["F0", "00", "00", "66", String(format: "%02X", unit), "12", String(format: "%02X", offset)]
                + cell.utf8.map { String(format: "%02X", $0) } + ["F7"]).joined(separator: ".")
    }

    @Test func pitchBendMovesTheStripsLevelThroughTheFaderLaw() async throws {
        try await Self.withSurface { rig, midi in
            let jack = rig.jack
            try await midi.send(["E0.00.00", "E1.00.40", "E2.7F.7F", "E8.00.40"], to: "crosspoint:xt_in", on: jack)
            #expect(try await Self.number(rig, "/source/1/volume") == 0, "0 is the law's −∞")
            #expect(abs(try await Self.number(rig, "/source/2/fader") - 8192.0 / 16383) < 1.0 / 16383, "8192 its midpoint")
            #expect(abs(try await Self.number(rig, "/source/3/db") - 10) < 0.01, "16383 its top, +10 dB")
            #expect(abs(try await Self.number(rig, "/master/fader") - 8192.0 / 16383) < 1.0 / 16383, "the master fader")
            // The Extender's first fader is strip 9.
            try await midi.send(["E0.7F.7F"], to: "crosspoint:xte_in", on: jack)
            #expect(try await Self.number(rig, "/source/9/fader") == 1)
            // A V-pot turns the pan: 16 steps clockwise, then 8 back (bit 6 the direction).
            try await midi.send(["B0.10.10", "B0.10.48"], to: "crosspoint:xt_in", on: jack)
            #expect(abs(try await Self.number(rig, "/source/1/pan") - 8.0 / 64) < 1e-5)
            // MUTE, SOLO and REC turn their switches over.
            try await midi.send(["90.10.7F", "90.10.00", "90.09.7F", "90.00.7F"], to: "crosspoint:xt_in", on: jack)
            #expect(try await Self.number(rig, "/source/1/mute") == 1)
            #expect(try await Self.number(rig, "/source/2/solo") == 1)
            #expect(try await Self.number(rig, "/source/1/listen") == 1)
        }
    }

    @Test func theMotorFadersFollowTheRigButNeverATouchedOne() async throws {
        try await Self.withSurface { rig, midi in
            let events = try await midi.record("crosspoint:xt_out", seconds: 2.5, on: rig.jack) {
                try await rig.sendAndSettle("/source/2/fader", .float(0.5))
                // A finger on fader 2: a change to its strip is not sent...
                try await midi.send(["90.69.7F"], to: "crosspoint:xt_in", on: rig.jack)
                try await rig.sendAndSettle("/source/2/fader", .float(0.25))
                try await Task.sleep(for: .milliseconds(300))
                // ...until it is let go: then the rig's value, at once.
                try await midi.send(["90.69.00"], to: "crosspoint:xt_in", on: rig.jack)
                try await Task.sleep(for: .milliseconds(300))
                try await rig.sendAndSettle("/source/2/mute", .int32(1))
            }
            let bytes = events.map(\.bytes)
            let fader2 = bytes.filter { $0.hasPrefix("E1.") }
            #expect(fader2 == ["E1.00.40", "E1.00.20"], "0.5, nothing while touched, 0.25 on release: \(bytes)")
            #expect(bytes.contains("90.11.7F"), "strip 2's MUTE lit: \(bytes)")
            #expect(bytes.contains(Self.lcd(0x14, 56 + 7, "-10.0")) && bytes.contains(Self.lcd(0x14, 56 + 7, "-30.0")),
                    "the LCD's lower row shows the level in dB (the fader law's 0.5 and 0.25): \(bytes)")
        }
    }

    @Test func aFadeArrivesAsItMovesAndEndsExactly() async throws {
        try await Self.withSurface { rig, midi in
            let events = try await midi.record("crosspoint:xt_out", seconds: 3, on: rig.jack) {
                try await Task.sleep(for: .milliseconds(300))
                try rig.osc.send("/source/3/fader", .float(0.25), .float(2))
            }
            let fade = events.filter { $0.bytes.hasPrefix("E2.") }
            #expect(fade.count >= 20, "a 2 s fade shown as it moves: \(fade.map(\.bytes))")
            #expect(fade.last?.bytes == "E2.00.20", "it ends at the fade's end, 0.25 exactly: \(fade.map(\.bytes))")
            // At most 50 updates a second (the rig's pace is about 30): no two closer
            // than 20 ms, less a period (one pair allowed: a stalled cycle lets two out at once).
            let gaps = zip(fade.dropFirst(), fade).map { $0.ms - $1.ms }
            #expect(gaps.filter { $0 < 18 }.count <= 1, "\(gaps)")
        }
    }

    @Test func buttonsLightTheirLEDsAndTheStripsFollowTheRigsSize() async throws {
        try await Self.withSurface { rig, midi in
            // The rig does not feed a client's own change back: the surface
            // lights what it changed, and shows where the V-pot and fader left it.
            let pressed = try await midi.record("crosspoint:xt_out", seconds: 1.5, on: rig.jack) {
                try await Task.sleep(for: .milliseconds(300))
                try await midi.send(["90.12.7F", "90.12.00", "B0.12.20", "E2.00.40"], to: "crosspoint:xt_in", on: rig.jack)
            }
            let bytes = pressed.map(\.bytes).filter { !$0.hasPrefix("D0.") }
            #expect(bytes.last { $0.hasPrefix("90.12.") } == "90.12.7F", "strip 3's MUTE lit: \(bytes)")
            #expect(bytes.contains("B0.32.46") && bytes.last { $0.hasPrefix("B0.32.") } == "B0.32.09",
                    "its ring from the centre (dot 6 and the centre LED) to half right (dot 9): \(bytes)")
            #expect(bytes.contains(Self.lcd(0x14, 56 + 14, "-10.0")), "its level in dB: \(bytes)")
            // 20 sources become 12: the Extender's last four strips go dark at once.
            let shrunk = try await midi.record("crosspoint:xte_out", seconds: 1.5, on: rig.jack) {
                try await Task.sleep(for: .milliseconds(300))
                try rig.osc.send("/rig/inputs", .int32(12))
            }
            let extender = shrunk.map(\.bytes).filter { !$0.hasPrefix("D0.") }
            #expect(extender.suffix(60).contains(Self.lcd(0x15, 4 * 7, "")) && extender.suffix(60).contains(Self.lcd(0x15, 3 * 7, "in_12")),
                    "strips 13–16 blank, 12 still named: \(extender)")
        }
    }

    @Test func banksModesAndSendsOnFader() async throws {
        try await Self.withSurface { rig, midi in
            try await rig.sendAndSettle("/source/10/name", .string("Kick"))
            let events = try await midi.record("crosspoint:xt_out", seconds: 1.5, on: rig.jack) {
                try await midi.send(["90.2F.7F"], to: "crosspoint:xt_in", on: rig.jack)
            }
            let bytes = events.map(\.bytes)
            // BANK ▶ by the 16 strips of both units, within the 20 sources:
            // the last bank shows the last 16, sources 5–20.
            #expect(bytes.contains(Self.lcd(0x14, 0, "in_5")) && bytes.contains(Self.lcd(0x14, 49, "in_12")), "\(bytes)")
            #expect(bytes.contains("B0.4B.30") && bytes.contains("B0.4A.35"), "the display says 05: \(bytes)")
            try await midi.send(["E0.7F.7F"], to: "crosspoint:xt_in", on: rig.jack)
            #expect(try await Self.number(rig, "/source/5/fader") == 1)
            // PAN/SURROUND: the outputs; the Extender's strips are beyond the 4 of them: blank.
            let shifted = try await midi.record("crosspoint:xte_out", seconds: 1.5, on: rig.jack) {
                try await midi.send(["90.2A.7F"], to: "crosspoint:xt_in", on: rig.jack)
            }
            let outputs = shifted.map(\.bytes)
            #expect(outputs.contains(Self.lcd(0x15, 0, "")) && !outputs.contains(Self.lcd(0x15, 0, "in_13")), "\(outputs)")
            // SELECT on output 3's strip: sends on fader for output 3.
            let sends = try await midi.record("crosspoint:xt_out", seconds: 1.5, on: rig.jack) {
                try await midi.send(["90.1A.7F"], to: "crosspoint:xt_in", on: rig.jack)
            }
            let names = sends.map(\.bytes)
            #expect(names.contains(Self.lcd(0x14, 0, "in_1")) && names.contains("90.29.7F"), "sources' names, SEND lit: \(names)")
            try await midi.send(["E1.7F.7F", "E8.00.40"], to: "crosspoint:xt_in", on: rig.jack)
            #expect(try await Self.number(rig, "/matrix/2/3/fader") == 1, "fader 2 is /matrix/2/3")
            #expect(abs(try await Self.number(rig, "/output/3/fader") - 8192.0 / 16383) < 1.0 / 16383, "the master fader is output 3's")
            // TRACK: the sources again, from the first; the Extender's LCD names 9–16.
            let back = try await midi.record("crosspoint:xte_out", seconds: 1.5, on: rig.jack) {
                try await midi.send(["90.28.7F"], to: "crosspoint:xt_in", on: rig.jack)
            }
            #expect(back.map(\.bytes).contains(Self.lcd(0x15, 7, "Kick")), "\(back.map(\.bytes))")
        }
    }

    @Test func aSingleUnitBanksByEightAndItsMetersMoveWithATone() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let midi = try await JackMIDI.build(in: directory)
        try await withRig(inputs: 16, arguments: ["--mcu", "xt"]) { rig in
            let banked = try await midi.record("crosspoint:xt_out", seconds: 1.5, on: rig.jack) {
                try await midi.send(["90.2F.7F"], to: "crosspoint:xt_in", on: rig.jack)
            }
            let bytes = banked.map(\.bytes)
            #expect(bytes.contains(Self.lcd(0x14, 0, "in_9")), "BANK ▶: sources 9–16: \(bytes)")
            #expect(bytes.contains("B0.4B.30") && bytes.contains("B0.4A.39"), "the display says 09: \(bytes)")
            try await midi.send(["E0.7F.7F"], to: "crosspoint:xt_in", on: rig.jack)
            #expect(try await Self.number(rig, "/source/9/fader") == 1)
            try await midi.send(["90.2E.7F"], to: "crosspoint:xt_in", on: rig.jack) // BANK ◀
            rig.playSine(input: 1, amplitude: 0.5)
            let metered = try await midi.record("crosspoint:xt_out", seconds: 1.5, on: rig.jack) {}
            let meters = metered.map(\.bytes).filter { $0.hasPrefix("D0.") }
            #expect(meters.contains("D0.0A"), "strip 1 at −6 dB: segment 10 of 12: \(meters)")
            #expect(meters.contains("D0.10"), "strip 2 silent: \(meters)")
        }
    }


    @Test func aPerformersSurfaceMixesTheirOutputAndNothingElse() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let access = directory.appendingPathComponent("access.json")
        try """
            { "version": 1,
              "roles": { "engineer": { "control": "all" }, "drums": { "control": { "outputs": [2] } } },
              "clients": [ { "from": "127.0.0.0/8", "role": "engineer" } ] }
            """.write(to: access, atomically: true, encoding: .utf8)
        let midi = try await JackMIDI.build(in: directory)
        try await withRig(inputs: 8, outputs: 4, arguments: ["--access", access.path, "--mcu", "xt", "--surface-role", "xt=drums"]) { rig in
            // The drummer's X-Touch: sends on fader for output 2, always; the
            // mode buttons do nothing, and what the role may not change is refused.
            try await midi.send(["90.28.7F", "90.2A.7F", "E2.7F.7F", "E8.00.40", "90.00.7F"], to: "crosspoint:xt_in", on: rig.jack)
            #expect(try await Self.number(rig, "/matrix/3/2/fader") == 1, "fader 3 is /matrix/3/2")
            #expect(abs(try await Self.number(rig, "/output/2/fader") - 8192.0 / 16383) < 1.0 / 16383, "the master fader is output 2's")
            #expect(try await Self.number(rig, "/source/3/fader") == 0.75, "a source's level is not the role's")
            #expect(try await Self.number(rig, "/source/1/listen") == 0, "nor the engineer's listen")
            #expect(rig.crosspoint.standardError.contains("surface xt: /source/1/listen"), "refused, logged: \(rig.diagnostics)")
        }
    }

    @Test func aSurfaceThatComesBackIsShownTheRigWithinASecond() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let midi = try await JackMIDI.build(in: directory)
        try await withRig(inputs: 8, arguments: ["--mcu", "xt", "--surface-connect", "xt=jack-midi.*:in"]) { rig in
            try await rig.sendAndSettle("/source/1/name", .string("Vox"))
            try await rig.sendAndSettle("/source/1/fader", .float(0.5))
            try await rig.sendAndSettle("/source/1/mute", .int32(1))
            for _ in 1...2 {
                let events = try await midi.record("-", seconds: 1.5, on: rig.jack) {}
                let bytes = events.map(\.bytes)
                #expect(bytes.contains(Self.lcd(0x14, 0, "Vox")) && bytes.contains("E0.00.40") && bytes.contains("90.10.7F"),
                        "its name, fader and MUTE LED: \(bytes)")
                #expect((events.first?.ms ?? 2000) < 1000, "\(events.prefix(3))")
            }
        }
    }
}
}
