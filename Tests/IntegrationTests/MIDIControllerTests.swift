import Foundation
import Testing

extension Integration {
/// A plain MIDI controller (`serve --midi NAME --midi-map FILE`), played by
/// a real JACK MIDI client into the rig's port `NAME_in` (docs/surfaces.md,
/// "MIDI controllers").
@Suite struct MIDIControllerTests {
    static let map = """
        { "version": 1,
          "bindings": [
            { "control": "cc", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader" },
            { "control": "cc", "channel": 1, "number": 8, "address": "/source/2/volume", "form": "fader", "mode": "pickup" },
            { "control": "note", "channel": 1, "number": 36, "address": "/source/1/mute", "form": "toggle" },
            { "control": "note", "channel": 1, "number": 37, "address": "/source/2/solo", "form": "momentary" },
            { "control": "pitchbend", "channel": 1, "address": "/master/volume", "form": "fader" },
            { "control": "cc", "channel": 2, "number": 10, "address": "/source/1/pan", "form": "value" },
            { "control": "cc", "channel": 2, "number": 16, "address": "/output/1/volume", "form": "relative" },
            { "control": "cc", "channel": 2, "number": 20, "address": "/matrix/2/1", "form": "db" }
          ] }
        """

    /// A rig with the controller `desk` on that map, and the MIDI client.
    static func withController(arguments: [String] = [],
                               _ body: (CrosspointRig, JackMIDI) async throws -> Void) async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("desk.json")
        try map.write(to: path, atomically: true, encoding: .utf8)
        let midi = try await JackMIDI.build(in: directory)
        try await withRig(arguments: ["--midi", "desk", "--midi-map", path.path] + arguments) { rig in
            try await body(rig, midi)
        }
    }

    static func number(_ rig: CrosspointRig, _ address: String) async throws -> Float {
        try #require(try await AccessTests.value(rig, address)?.floatValue, "\(address) answered")
    }

    @Test func controlsSetWhatTheMapBindsThemTo() async throws {
        try await Self.withController { rig, midi in
            let jack = rig.jack
            // Pitch bend 0, 8192 and 16383: the master's fader at the bottom
            // (-inf dB), halfway, and at the top (+10 dB), within a 14-bit step.
            for (bend, position) in [("E0.00.00", Float(0)), ("E0.00.40", Float(8192) / 16383), ("E0.7F.7F", Float(1))] {
                try await midi.send([bend], to: "crosspoint:desk_in", on: jack)
                let fader = try await Self.number(rig, "/master/fader")
                #expect(abs(fader - position) <= 1 / 16383, "pitch bend \(bend): fader \(fader)")
            }
            #expect(abs(try await Self.number(rig, "/master/db") - 10) < 0.01)
            // A CC on a fader, a value across a range, steps of an encoder, a level in dB.
            let before = try await Self.number(rig, "/output/1/fader")
            try await midi.send(["B0.07.40", "B1.0A.00", "B1.10.05", "B1.10.7E", "B1.10.7F", "B1.14.7F"],
                                to: "crosspoint:desk_in", on: jack)
            #expect(abs(try await Self.number(rig, "/source/1/fader") - 64.0 / 127) < 1e-6)
            #expect(try await Self.number(rig, "/source/1/pan") == -1)
            // +5, -2, -1 steps of 1/128 of the fader's travel.
            #expect(abs(try await Self.number(rig, "/output/1/fader") - (before + 2.0 / 128)) < 1e-5)
            #expect(abs(try await Self.number(rig, "/matrix/2/1/db") - 12) < 0.01)
            // A note turns a switch over on each press; a momentary one is on while held.
            #expect(try await Self.number(rig, "/source/1/mute") == 0)
            try await midi.send(["90.24.7F", "80.24.00"], to: "crosspoint:desk_in", on: jack)
            #expect(try await Self.number(rig, "/source/1/mute") == 1)
            try await midi.send(["90.24.40", "90.24.00"], to: "crosspoint:desk_in", on: jack)
            #expect(try await Self.number(rig, "/source/1/mute") == 0)
            try await midi.send(["90.25.7F"], to: "crosspoint:desk_in", on: jack)
            #expect(try await Self.number(rig, "/source/2/solo") == 1)
            try await midi.send(["80.25.00"], to: "crosspoint:desk_in", on: jack)
            #expect(try await Self.number(rig, "/source/2/solo") == 0)
            // An unbound control, a message cut short and a program change change nothing.
            try await midi.send(["B0.09.7F", "B0.07", "C0.05.00"], to: "crosspoint:desk_in", on: jack)
            #expect(abs(try await Self.number(rig, "/source/1/fader") - 64.0 / 127) < 1e-6)
        }
    }

    @Test func theControllerIsSentWhatItsBindingsShow() async throws {
        try await Self.withController { rig, midi in
            let events = try await midi.record("crosspoint:desk_out", seconds: 3, on: rig.jack) {
                // Changes from another client: a fader, a switch's LED, the
                // pitch bend's fader, and a fade as it moves.
                try await rig.sendAndSettle("/source/1/fader", .float(0.5))
                try await rig.sendAndSettle("/source/1/mute", .int32(1))
                try await rig.sendAndSettle("/master/fader", .float(1))
                try rig.osc.send("/source/1/fader", .float(0.25), .float(1))
                try await Task.sleep(for: .milliseconds(1300))
                // The controller's own move is not sent back to it.
                try await midi.send(["B0.07.10"], to: "crosspoint:desk_in", on: rig.jack)
            }
            let bytes = events.map(\.bytes)
            #expect(bytes.prefix(3) == ["B0.07.40", "90.24.7F", "E0.7F.7F"], "\(bytes)")
            let fade = events.dropFirst(3).filter { $0.bytes.hasPrefix("B0.07.") }
            #expect(fade.count >= 5, "the fade shown as it moves: \(bytes)")
            #expect(fade.last?.bytes == "B0.07.20", "it ends where the fade ends: \(bytes)")
            #expect(!bytes.contains("B0.07.10"), "\(bytes)")
            // At most 50 updates a second: no two of the fade's closer than 20 ms, less a
            // period (one pair allowed: a stalled cycle lets two out in one period).
            let gaps = zip(fade.dropFirst(), fade).map { $0.ms - $1.ms }
            #expect(gaps.filter { $0 < 18 }.count <= 1, "\(gaps)")
        }
    }

    @Test func hardwareThatAppearsIsConnectedAndBroughtUpToDate() async throws {
        try await Self.withController(arguments: ["--surface-connect", "desk=jack-midi.*:in"]) { rig, midi in
            try await rig.sendAndSettle("/source/1/fader", .float(0.5))
            try await rig.sendAndSettle("/source/1/mute", .int32(1))
            // The controller comes: within a second it is connected and sent
            // its bindings' values (the full state), without any change.
            for _ in 1...2 {
                let events = try await midi.record("-", seconds: 1.5, on: rig.jack) {}
                let bytes = events.map(\.bytes)
                #expect(bytes.contains("B0.07.40") && bytes.contains("90.24.7F"), "\(bytes)\n\(rig.diagnostics)")
                #expect((events.first?.ms ?? 2000) < 1000, "\(events)")
            }
            #expect(rig.crosspoint.standardError.contains("(--surface-connect)"), "\(rig.diagnostics)")
        }
    }

    @Test func aPickupControlIsIgnoredUntilItMeetsTheRigsValue() async throws {
        try await Self.withController { rig, midi in
            let jack = rig.jack
            // Source 2 at 0 dB (fader 0.75 = 95.25 of 127); the knob is far below.
            #expect(try await Self.number(rig, "/source/2/fader") == 0.75)
            try await midi.send(["B0.08.10", "B0.08.30", "B0.08.50"], to: "crosspoint:desk_in", on: jack)
            #expect(try await Self.number(rig, "/source/2/fader") == 0.75, "ignored below the rig's value")
            // It crosses the value: from there on it moves the level.
            try await midi.send(["B0.08.60", "B0.08.64"], to: "crosspoint:desk_in", on: jack)
            #expect(abs(try await Self.number(rig, "/source/2/fader") - 100.0 / 127) < 1e-6)
            // Another client moves the level away: the knob lets go until it meets it again.
            try await rig.sendAndSettle("/source/2/fader", .float(0.25))
            try await midi.send(["B0.08.66"], to: "crosspoint:desk_in", on: jack)
            #expect(try await Self.number(rig, "/source/2/fader") == 0.25)
            try await midi.send(["B0.08.30", "B0.08.20"], to: "crosspoint:desk_in", on: jack)
            #expect(abs(try await Self.number(rig, "/source/2/fader") - 32.0 / 127) < 1e-6)
        }
    }

    @Test func aControllerIsLetInAsFarAsTheLoopbackAddressIs() async throws {
        // Loopback may only look: the controller's moves are refused, and
        // said so once in the log however often it moves.
        try await Self.withController(arguments: ["--read-only", "127.0.0.0/8", "--allow", "10.0.0.0/8", "--auto-subscribe"]) { rig, midi in
            try await midi.send(["B0.07.10", "B0.07.20", "B0.07.30", "90.24.7F"], to: "crosspoint:desk_in", on: rig.jack)
            #expect(try await Self.number(rig, "/source/1/fader") == 0.75)
            #expect(try await Self.number(rig, "/source/1/mute") == 0)
            let log = rig.crosspoint.standardError
            let refusals = log.components(separatedBy: "surface desk: /source/1/fader").count - 1
            #expect(refusals == 1, "\(rig.diagnostics)")
            // It follows the rig (a read-only client may), subscribed once: its own session.
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/subscribers").arguments == [.int32(1)])
        }
    }

    @Test func aControllerBoundToARoleReachesOnlyWhatTheRoleMayChange() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let access = directory.appendingPathComponent("access.json")
        try """
            { "version": 1,
              "roles": { "engineer": { "control": "all" }, "keys": { "control": { "outputs": [1] } } },
              "clients": [ { "from": "127.0.0.0/8", "role": "engineer" } ] }
            """.write(to: access, atomically: true, encoding: .utf8)
        // The keyboard player's controller, on the engineer's machine: only output 1's mix.
        try await Self.withController(arguments: ["--access", access.path, "--surface-role", "desk=keys"]) { rig, midi in
            try await midi.send(["B1.14.7F", "B0.07.10", "B0.07.20"], to: "crosspoint:desk_in", on: rig.jack)
            #expect(abs(try await Self.number(rig, "/matrix/2/1/db") - 12) < 0.01, "its own mix: /matrix/2/1 moved")
            #expect(try await Self.number(rig, "/source/1/fader") == 0.75, "a source's level is not the role's")
            let log = rig.crosspoint.standardError
            #expect(log.contains("surface desk: acts in the role keys"), "\(rig.diagnostics)")
            #expect(log.components(separatedBy: "surface desk: /source/1/fader").count - 1 == 1, "refused, logged once\n\(rig.diagnostics)")
        }
    }

    /// The xruns the rig has counted (`/status/xruns`).
    static func xruns(_ rig: CrosspointRig) async throws -> Int {
        _ = try rig.osc.drain()
        try rig.osc.send("/status")
        guard case .int32(let count) = try await rig.osc.waitFor(address: "/status/xruns").argument(0) else { return -1 }
        return Int(count)
    }

    @Test func aFloodOfRandomMIDIIsSurvived() async throws {
        // A plain controller and a Mackie Control surface, flooded at once.
        try await Self.withController(arguments: ["--mcu", "xt"]) { rig, midi in
            let jack = rig.jack
            try await midi.flood("crosspoint:desk_in", rate: 10_000, seconds: 1, seed: 1, on: jack)
            try await midi.flood("crosspoint:xt_in", rate: 10_000, seconds: 1, seed: 3, on: jack)
            let warmed = WebSocketBoundsTests.residentMiB(rig.crosspoint.pid)
            // The same graph (both flooding clients in it) nearly without MIDI for 10 s:
            // its xruns are what this machine makes anyway.
            let quietStart = try await Self.xruns(rig)
            async let deskQuiet: Void = midi.flood("crosspoint:desk_in", rate: 1, seconds: 10, seed: 5, on: jack)
            async let surfaceQuiet: Void = midi.flood("crosspoint:xt_in", rate: 1, seconds: 10, seed: 6, on: jack)
            _ = try await (deskQuiet, surfaceQuiet)
            let quiet = try await Self.xruns(rig) - quietStart
            // 10,000 events a second into each for 30 s: random bytes, SysEx cut short.
            let floodStart = try await Self.xruns(rig)
            async let desk: Void = midi.flood("crosspoint:desk_in", rate: 10_000, seconds: 30, seed: 2, on: jack)
            async let surface: Void = midi.flood("crosspoint:xt_in", rate: 10_000, seconds: 30, seed: 4, on: jack)
            _ = try await (desk, surface)
            let flooded = try await Self.xruns(rig) - floodStart
            let after = WebSocketBoundsTests.residentMiB(rig.crosspoint.pid)
            #expect(after - warmed < 2, "resident \(warmed) -> \(after) MiB")
            // No more xruns a second than without MIDI, within this machine's noise.
            let expected = Double(quiet) * 3
            let allowed: Double = expected + 3 * (expected + 1).squareRoot() + 16
            #expect(Double(flooded) <= allowed, "xruns: \(flooded) in 30 s flooded, \(quiet) in 10 s quiet")
            print("MIDI flood: xruns \(flooded) in 30 s flooded, \(quiet) in 10 s without; resident \(warmed) -> \(after) MiB")
            // Still answering, and still taking both.
            try await midi.send(["B0.07.20"], to: "crosspoint:desk_in", on: jack)
            #expect(abs(try await Self.number(rig, "/source/1/fader") - 32.0 / 127) < 1e-6)
            try await midi.send(["90.28.7F", "90.2E.7F", "90.2E.7F", "90.68.00", "90.69.00", "E1.00.40"],
                                to: "crosspoint:xt_in", on: jack)
            #expect(abs(try await Self.number(rig, "/source/2/fader") - 8192.0 / 16383) < 1.0 / 16383)
            // And its motor faders still follow the rig (no touch left from the flood holds them).
            let events = try await midi.record("crosspoint:xt_out", seconds: 1, on: jack) {
                try await Task.sleep(for: .milliseconds(300))
                try await rig.sendAndSettle("/source/1/fader", .float(0.5))
            }
            let shown: [String] = events.map(\.bytes).filter { !$0.hasPrefix("D0") }
            #expect(shown.contains("E0.00.40"), "\(shown)")
        }
    }

    @Test func aMapThatCannotBeUsedStopsTheStartNamingTheField() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, String)] = [
            (#"{"version": 1, "bindings": [{"control": "cc", "channel": 17, "number": 1, "address": "/source/1/volume", "form": "fader"}]}"#,
             "bindings[0].channel"),
            (#"{"version": 1, "bindings": [{"control": "cc", "channel": 1, "number": 1, "address": "/source/99/volume", "form": "fader"}]}"#,
             "bindings[0].address"),
            (#"{"version": 1, "bindings": [{"control": "cc", "channel": 1, "number": 1, "address": "/source/1/mute", "form": "fader"}]}"#,
             "bindings[0].address"),
        ]
        // (And a --surface-connect for no controller is refused before anything starts.)
        let refused = try ChildProcess(executable: CrosspointRig.binary,
                                       arguments: ["serve", "--no-autostart", "--surface-connect", "pads=nano.*"],
                                       label: "crosspoint serve")
        #expect(try await refused.waitForExit(timeout: .seconds(10)) == .exited(64), "\(refused.diagnostics())")
        #expect(refused.standardError.contains("--surface-connect: 'pads' is no --midi controller"), "\(refused.diagnostics())")
        let roleless = try ChildProcess(executable: CrosspointRig.binary,
                                        arguments: ["serve", "--no-autostart", "--midi", "desk", "--midi-map", "x.json",
                                                    "--surface-role", "desk=drums"],
                                        label: "crosspoint serve")
        #expect(try await roleless.waitForExit(timeout: .seconds(10)) == .exited(64), "\(roleless.diagnostics())")
        #expect(roleless.standardError.contains("--surface-role needs --access"), "\(roleless.diagnostics())")
        // A name that would make odd port names, a --midi without its map, one
        // map for two controllers (learn rewrites a whole map), a name given
        // twice, and a Mackie Control surface's role named by a unit not its first.
        let access = directory.appendingPathComponent("access.json")
        try #"{"version": 1, "roles": {"drums": {"control": {"outputs": [2]}}}, "clients": [{"from": "127.0.0.0/8", "role": "drums"}]}"#
            .write(to: access, atomically: true, encoding: .utf8)
        for (arguments, said) in [(["--midi", "desk:1", "--midi-map", "x.json"], "a name is 1-32 letters, digits"),
                                  (["--midi", "desk"], "--midi and --midi-map come in pairs"),
                                  (["--midi", "a", "--midi-map", "x.json", "--midi", "b", "--midi-map", "./x.json"],
                                   "is given for two controllers"),
                                  (["--midi", "xt", "--midi-map", "x.json", "--mcu", "xt"], "'xt' is given twice"),
                                  (["--access", access.path, "--mcu", "xt", "--mcu", "xte", "--surface-role", "xte=drums"],
                                   "xte is not the first --mcu unit")] {
            let serve = try ChildProcess(executable: CrosspointRig.binary, arguments: ["serve", "--no-autostart"] + arguments,
                                         label: "crosspoint serve")
            #expect(try await serve.waitForExit(timeout: .seconds(10)) == .exited(64), "\(serve.diagnostics())")
            #expect(serve.standardError.contains(said), "\(serve.diagnostics())")
        }
        for (index, (text, field)) in cases.enumerated() {
            let path = directory.appendingPathComponent("bad\(index).json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let serve = try ChildProcess(executable: CrosspointRig.binary,
                                         arguments: ["serve", "--no-autostart", "--osc-port", "0", "--no-http", "--no-advertise",
                                                     "--midi", "desk", "--midi-map", path] + CrosspointRig.fileArguments(directory),
                                         label: "crosspoint serve")
            defer { serve.terminate() }
            let status = try await serve.waitForExit(timeout: .seconds(20))
            #expect(status == .exited(1), "\(serve.diagnostics())")
            #expect(serve.standardError.contains(path) && serve.standardError.contains(field), "\(serve.diagnostics())")
        }
    }
}
}
