import Foundation
import Testing

extension Integration {
/// Presets through the real binary: recalls heard on recorded audio, files on disk.
@Suite struct PresetTests {
    typealias A = SignalAnalysis

    @Test func aRecallFadeFollowsTheFaderLawAndARecallDuringItRetargetsSmoothly() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            try await rig.sendAndSettle("/matrix/1/1", .float(0))
            try await rig.sendAndSettle("/preset/save", .string("silent"))
            try await rig.sendAndSettle("/matrix/1/1", .float(1))
            try await rig.sendAndSettle("/preset/save", .string("open"))
            try await Task.sleep(for: .milliseconds(50))

            var sentAt = 0
            let fade = try await rig.record(seconds: 2.4) { mark in
                sentAt = rig.recorder.currentRecordingPosition() ?? mark
                try rig.osc.send("/preset/recall", .string("silent"), .float(2))
            }
            let out = fade.channels[0]
            let measured = try #require(FadeMeasurement.twoSecondFade(out, frequency: 1000, amplitude: 0.5))
            #expect(abs(measured.levelAtHalfTime - -20) < 0.5,
                    "at 1 s of a 2 s recall fade: \(measured.levelAtHalfTime) dB, the fader law says -20")
            #expect(abs(measured.start - sentAt) < 12_000, "the fade began around when the recall was sent") // the clock estimate is rough on a busy machine
            #expect(A.peak(out, in: (measured.start + 96_500)..<out.count) == 0)

            // Half-way down a second fade, recall the open scene: no click.
            let retarget = try await rig.record(seconds: 1.2) { _ in
                try rig.osc.send("/preset/recall", .string("open"), .float(0))
                try await Task.sleep(for: .milliseconds(100))
                try rig.osc.send("/preset/recall", .string("silent"), .float(2))
                try await Task.sleep(for: .milliseconds(500))
                try rig.osc.send("/preset/recall", .string("open"), .float(0.1))
            }
            let limit = A.maximumSineStep(frequency: 1000, amplitude: 0.5, sampleRate: 48_000) + 0.5 / 960 + 1e-3
            #expect(A.maxAbsoluteStep(retarget.channels[0]) <= limit, "largest step \(A.maxAbsoluteStep(retarget.channels[0]))")
            let end = retarget.frameCount
            #expect(abs(A.fitSine(retarget.channels[0], frequency: 1000, sampleRate: 48_000, in: (end - 4800)..<end).amplitude - 0.5) < 1e-3)
        }
    }

    @Test func safesScopeAndUndoOnRecordedAudio() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 500, amplitude: 0.5)
            // "swap": outputs take each other's input, and source 1 at half level.
            try await rig.sendAndSettle("/matrix/map", .int32(2), .int32(1))
            try await rig.sendAndSettle("/source/1/volume", .float(0.5))
            try await rig.sendAndSettle("/preset/save", .string("swap"))
            try await rig.sendAndSettle("/matrix/map", .int32(1), .int32(2))
            try await rig.sendAndSettle("/source/1/volume", .float(1))

            func levels() async throws -> (out1: (Float, Float), out2: (Float, Float)) {
                try await rig.ping()
                try await Task.sleep(for: .milliseconds(60))
                // A busy machine can drop periods: fit where the audio is
                // continuous, and record again if that is too short.
                var r = try await rig.record(seconds: 0.15)
                for _ in 0..<3 where r.longestContinuousRange.count < 2400 { r = try await rig.record(seconds: 0.15) }
                // Whole cycles of both tones (96 samples = two of 1 kHz, one of 500 Hz),
                // so that neither leaks into the other's fit.
                let continuous = r.longestContinuousRange
                let range = continuous.lowerBound..<(continuous.lowerBound + continuous.count / 96 * 96)
                func fit(_ m: Int, _ f: Double) -> Float {
                    A.fitSine(r.channels[m - 1], frequency: f, sampleRate: 48_000, in: range).amplitude
                }
                return ((fit(1, 1000), fit(1, 500)), (fit(2, 1000), fit(2, 500)))
            }
            func near(_ a: Float, _ b: Float) -> Bool { abs(a - b) < 1e-3 }

            // Scope: only the sources change; the routing stays identity.
            try await rig.sendAndSettle("/preset/recall", .string("swap"), .float(0), .string("sources"))
            var l = try await levels()
            #expect(near(l.out1.0, 0.25) && near(l.out1.1, 0) && near(l.out2.1, 0.5), "\(l)")

            // Safe: source 1 keeps its live level through a full recall.
            try await rig.sendAndSettle("/source/1/volume", .float(1))
            try await rig.sendAndSettle("/safe/source/1", .int32(1))
            try await rig.sendAndSettle("/preset/recall", .string("swap"), .float(0))
            l = try await levels()
            #expect(near(l.out1.1, 0.5) && near(l.out1.0, 0) && near(l.out2.0, 0.5), "with a safe: \(l)")

            // Undo at once (fade 0, then a button's press): back to identity routing.
            try await rig.sendAndSettle("/preset/undo", .float(0), .float(1))
            l = try await levels()
            #expect(near(l.out1.0, 0.5) && near(l.out1.1, 0) && near(l.out2.1, 0.5) && near(l.out2.0, 0), "after undo: \(l)")
        }
    }

    @Test func badPresetInputIsRefusedAndChangesNothing() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            try Data("{ \"format\": \"crosspoint-preset\", ".utf8).write(to: rig.presets.appendingPathComponent("corrupt.json"))
            try Data(#"{"format": "crosspoint-preset", "version": 1, "channels": {"inputs": 2, "outputs": 2}, "master": {"mute": "yes"}}"#.utf8)
                .write(to: rig.presets.appendingPathComponent("typo.json"))
            let cases: [(String, [OSCTestClient.Argument], String)] = [
                ("/preset/recall", [.string("corrupt")], "corrupt.json: not valid JSON"),
                ("/preset/recall", [.string("typo")], "typo.json: master.mute: expected true or false, got a string"),
                ("/preset/recall", [.string("missing")], "missing.json: no such preset"),
                ("/preset/recall", [.int32(3)], "expected a preset name"),
                ("/preset/save", [.string("../outside")], "may not start with a dot"),
                ("/preset/save", [.string(".hidden")], "may not start with a dot"),
                ("/preset/save", [.string("a/b")], "only letters, digits"),
                ("/preset/save", [.string(String(repeating: "n", count: 65))], "1 to 64 characters"),
                ("/preset/save", [.float(1)], "expected a string"),
                ("/preset/delete", [.string("missing")], "no such preset"),
                ("/preset/rename", [.string("missing"), .string("x")], "no such preset"),
                ("/preset/undo", [], "nothing to undo"),
            ]
            for (address, arguments, reason) in cases {
                try rig.osc.send(address, arguments: arguments)
                let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(5))
                #expect(error.argument(0) == .string(address))
                #expect(error.argument(1)?.stringValue?.contains(reason) == true, "\(address) \(arguments): \(error)")
            }
            try rig.osc.send("/preset/current")
            let current = try await rig.osc.waitFor(address: "/preset/current")
            #expect(current.arguments == [.string(""), .int32(0)])
            let files = try FileManager.default.contentsOfDirectory(atPath: rig.presets.path).sorted()
            #expect(files == ["corrupt.json", "typo.json"])
            #expect(!FileManager.default.fileExists(atPath: rig.directory.appendingPathComponent("outside.json").path))
            let r = try await rig.record(seconds: 0.1)
            #expect(abs(A.fitSine(r.channels[0], frequency: 1000, sampleRate: 48_000, in: 0..<4800).amplitude - 0.5) < 1e-4)
        }
    }

    /// Saves are written off the thread that handles OSC: a second client's
    /// `/ping` sent after a burst of saves is answered before the last of them
    /// is on disk (each is two fsyncs; before, the pong waited for all 100).
    @Test func anotherClientIsAnsweredWhileSavesAreWritten() async throws {
        try await withRig(inputs: 8, outputs: 8) { rig in
            let other = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { other.close() }
            try await rig.sendAndSettle("/matrix/*/*", .float(0.5)) // every crosspoint in the files
            for k in 0..<100 { try rig.osc.send("/preset/save", .string("p\(k % 10)")) }
            try other.send("/ping")
            _ = try await other.waitFor(address: "/pong", timeout: .seconds(10))
            // Replies reach the first client's socket as they are sent: what is
            // there now was sent before the pong.
            var saved = try rig.osc.drain().filter { $0.address == "/preset/saved" }.count
            #expect(saved < 100, "the pong came after every save was written")
            while saved < 100 {
                _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(10))
                saved += 1
            }
            #expect(try rig.osc.drain().filter { $0.address == "/error" }.isEmpty)
            let validate = try ChildProcess(executable: CrosspointRig.binary,
                                            arguments: ["preset", "validate", "--presets", rig.presets.path])
            #expect(try await validate.waitForExit() == .exited(0), "\(validate.standardOutput)")
            #expect(validate.standardOutput.split(separator: "\n").count == 10)
        }
    }

    /// A save followed at once by a recall, list, rename and current sees the
    /// preset; `/preset/saved` comes once the file is on disk.
    @Test func aSaveIsSeenAtOnceAndAnsweredOnceOnDisk() async throws {
        try await withRig { rig in
            try await rig.sendAndSettle("/matrix/1/2", .float(0.5))
            try rig.osc.send("/preset/save", .string("quick"))
            try rig.osc.send("/matrix/1/2", .float(0))
            try rig.osc.send("/preset/recall", .string("quick"), .float(0))
            try rig.osc.send("/preset/list")
            #expect(try await rig.osc.waitFor(address: "/preset/recalled").argument(0) == .string("quick"))
            #expect(try await rig.osc.waitFor(address: "/preset/list").arguments == [.string("quick")])
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(5))
            let file = rig.presets.appendingPathComponent("quick.json")
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            #expect(document?["format"] as? String == "crosspoint-preset")
            try rig.osc.send("/matrix/1/2")
            #expect(try await rig.osc.waitFor(address: "/matrix/1/2").argument(0) == .float(0.5), "recalled")

            try rig.osc.send("/preset/rename", .string("quick"), .string("quicker"))
            try rig.osc.send("/preset/recall", .string("quicker"), .float(0))
            try rig.osc.send("/preset/current")
            #expect(try await rig.osc.waitFor(address: "/preset/recalled").argument(0) == .string("quicker"))
            #expect(try await rig.osc.waitFor(address: "/preset/current").arguments == [.string("quicker"), .int32(0)])
            _ = try await rig.osc.waitFor(address: "/preset/renamed", timeout: .seconds(5))
            #expect(try FileManager.default.contentsOfDirectory(atPath: rig.presets.path) == ["quicker.json"])
            #expect(try rig.osc.drain().filter { $0.address == "/error" }.isEmpty)
        }
    }

    /// SIGTERM while saves are queued: every save the rig took is written
    /// and answered before it exits.
    @Test func savesQueuedAtShutdownAreWrittenAndAnswered() async throws {
        try await withRig(inputs: 8, outputs: 8) { rig in
            try await rig.sendAndSettle("/matrix/*/*", .float(0.5))
            for k in 0..<100 { try rig.osc.send("/preset/save", .string("s\(k)")) }
            try await rig.ping() // all 100 handled; most not yet on disk
            _ = rig.crosspoint.signalIfRunning(SIGTERM)
            #expect(try await rig.crosspoint.waitForExit(timeout: .seconds(20)) == .exited(0))
            let saved = try rig.osc.drain().filter { $0.address == "/preset/saved" }
            #expect(saved.count == 100)
            let files = try FileManager.default.contentsOfDirectory(atPath: rig.presets.path)
            #expect(files.filter { $0.hasSuffix(".json") }.count == 100 && !files.contains { $0.hasSuffix(".tmp") })
        }
    }

    @Test func theLiveStateSurvivesARestart() async throws {
        let jack = try await JackServer.start(synchronous: false) // survives a killed client quickly
        defer { jack.stop() }
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func serve() throws -> ChildProcess {
            try ChildProcess(executable: CrosspointRig.binary,
                             arguments: ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0",
                                         "--no-http", "--inputs", "2", "--outputs", "2"] + CrosspointRig.fileArguments(directory))
        }
        func port(_ process: ChildProcess) async throws -> Int { try await CrosspointRig.oscPort(of: process) }
        let first = try serve()
        defer { first.terminate() }
        let client = try OSCTestClient(target: .init(port: try await port(first)))
        defer { client.close() }
        try client.send("/matrix/1/2", .float(0.25))
        try client.send("/source/2/name", .string("Bass"))
        try client.send("/safe/output/2", .int32(1))
        try client.send("/ping")
        _ = try await client.waitFor(address: "/pong")
        try await Task.sleep(for: .milliseconds(1500)) // saved about a second after the last change
        _ = first.signalIfRunning(SIGKILL) // a crash: nothing is saved on the way out
        _ = try await first.waitForExit()

        let second = try serve()
        defer { second.terminate() }
        client.target = .init(port: try await port(second))
        for (address, expected) in [("/matrix/1/2", OSCTestClient.Argument.float(0.25)),
                                    ("/source/2/name", .string("Bass")), ("/safe/output/2", .int32(1))] {
            try client.send(address)
            let reply = try await client.waitFor(address: address)
            #expect(reply.argument(0) == expected, "\(address) after restart")
        }
        #expect(second.standardError.contains("restored the rig state"))
    }

    @Test func sceneFlagStartsFromAPreset() async throws {
        let jack = try await JackServer.start(synchronous: false)
        defer { jack.stop() }
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"format": "crosspoint-preset", "version": 1, "channels": {"inputs": 2, "outputs": 2}, "map": [2, 1]}"#.utf8)
            .write(to: directory.appendingPathComponent("presets/swapped.json"))
        let serve = try ChildProcess(executable: CrosspointRig.binary,
                                     arguments: ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0",
                                                 "--no-http", "--inputs", "2", "--outputs", "2", "--scene", "swapped"]
                                         + CrosspointRig.fileArguments(directory))
        defer { serve.terminate() }
        let port = try await CrosspointRig.oscPort(of: serve)
        let client = try OSCTestClient(target: .init(port: port))
        defer { client.close() }
        try client.send("/matrix/map")
        #expect(try await client.waitFor(address: "/matrix/map").arguments == [.int32(2), .int32(1)])
        try client.send("/preset/current")
        #expect(try await client.waitFor(address: "/preset/current").arguments == [.string("swapped"), .int32(0)])
    }

    @Test func killingTheServerWhileItSavesNeverCorruptsAFile() async throws {
        // Asynchronous mode: a synchronous server waits out each killed client.
        let jack = try await JackServer.start(synchronous: false)
        defer { jack.stop() }
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0", "--no-http",
                         "--inputs", "16", "--outputs", "16"] + CrosspointRig.fileArguments(directory)
        for round in 0..<8 {
            let server = try ChildProcess(executable: CrosspointRig.binary, arguments: arguments)
            defer { server.terminate() }
            let port = try await CrosspointRig.oscPort(of: server)
            let client = try OSCTestClient(target: .init(port: port))
            defer { client.close() }
            // Changes, then a pause long enough for the state file to be written,
            // then more preset saves, killed at a moment that varies by round.
            for k in 0..<40 {
                try client.send("/matrix/\(k % 16 + 1)/\(round % 16 + 1)", .float(Float(k) / 40))
                try client.send("/preset/save", .string("p\(k % 5)"), .string(String(repeating: "n", count: k * 20)))
            }
            if round == 0 {
                // Every name safe on disk once before any kill: the writer
                // runs at idle priority, so on a busy machine it may not get
                // to them within the pause. What follows checks that no kill
                // loses or corrupts what was saved.
                var saved: Set<String> = []
                while saved.count < 5 {
                    let reply = try await client.waitFor(address: "/preset/saved", timeout: .seconds(60))
                    if case .string(let name)? = reply.argument(0) { saved.insert(name) }
                }
            }
            try await Task.sleep(for: .milliseconds(1000 + round * 25))
            for k in 0..<40 {
                try client.send("/source/\(k % 16 + 1)/volume", .float(Float(round) / 8))
                try client.send("/preset/save", .string("p\(k % 5)"))
            }
            try await Task.sleep(for: .milliseconds(round * 7))
            _ = server.signalIfRunning(SIGKILL)
            _ = try await server.waitForExit()
        }
        let validate = try ChildProcess(executable: CrosspointRig.binary,
                                        arguments: ["preset", "validate", "--presets", directory.appendingPathComponent("presets").path])
        #expect(try await validate.waitForExit() == .exited(0), "\(validate.standardOutput)")
        #expect(validate.standardOutput.split(separator: "\n").count == 5)

        let restarted = try ChildProcess(executable: CrosspointRig.binary, arguments: arguments)
        defer { restarted.terminate() }
        try await restarted.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
        #expect(!restarted.standardError.contains("unreadable"), "\(restarted.standardError)")
        #expect(restarted.standardError.contains("restored the rig state"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("presets").path)
            .filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "temporary files of killed writers are cleaned up at start: \(leftovers)")
    }
}
}
