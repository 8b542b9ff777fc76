import Foundation
import Glibc
import Testing

/// Roles from an access file (`serve --access`, docs/access.md), against the
/// real binary: OSC clients bound to three loopback addresses, each with its
/// own role; a code login over UDP and TCP; SIGHUP; the attempt limit and
/// the log; a mix safe through a recall, on recorded audio.
extension Integration {
@Suite struct AccessTests {
    typealias A = SignalAnalysis

    /// 127.0.0.2 is the engineer (the /8), .3 a viewer, .4 the drummer.
    static func rules(drumsFrom drums: String = "127.0.0.4/32", code: String = "kick-snare-4711",
                      viewer: String = "127.0.0.3/32") -> String {
        """
        { "version": 1,
          "roles": { "engineer": { "control": "all" }, "drums": { "control": { "outputs": [5, 6] } },
                     "viewer": { "control": "none" } },
          "clients": [ { "from": "127.0.0.0/8", "role": "engineer" }, { "from": "\(viewer)", "role": "viewer" },
                       { "from": "\(drums)", "role": "drums" }, { "code": "\(code)", "role": "drums" } ] }
        """
    }

    /// Writes an access file into a fresh directory; returns its path.
    static func accessFile(_ text: String) throws -> String {
        let directory = try CrosspointRig.makeDirectory()
        let path = directory.appendingPathComponent("access.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func client(_ rig: CrosspointRig, from host: String) throws -> OSCTestClient {
        try OSCTestClient(target: .init(port: rig.oscPort), bindHost: host)
    }

    /// The value the engineer's client reads at `address`.
    static func value(_ rig: CrosspointRig, _ address: String) async throws -> OSCTestClient.Argument? {
        _ = try rig.osc.drain()
        try rig.osc.send(address)
        return try await rig.osc.waitFor(address: address).argument(0)
    }

    static func refusal(_ client: OSCTestClient) async throws -> [OSCTestClient.Argument] {
        try await client.waitFor(address: "/error", timeout: .seconds(3)).arguments
    }

    @Test func eachClientMayDoWhatItsRoleAllowsAndNoMore() async throws {
        let path = try Self.accessFile(Self.rules())
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", path, "--log-level", "debug"]) { rig in
            let engineer = try Self.client(rig, from: "127.0.0.2")
            let viewer = try Self.client(rig, from: "127.0.0.3")
            let drums = try Self.client(rig, from: "127.0.0.4")
            defer { engineer.close(); viewer.close(); drums.close() }

            // The drummer's own mix.
            try drums.send("/matrix/1/5", .float(0.5))
            try drums.send("/output/5/db", .float(-6))
            try drums.send("/role")
            #expect(try await drums.waitFor(address: "/role").arguments
                    == [.string("drums"), .string("outputs"), .int32(5), .int32(6)])
            #expect(try await Self.value(rig, "/matrix/1/5") == .float(0.5))
            let db = try await Self.value(rig, "/output/5/db")
            #expect(db.flatMap { if case .float(let v) = $0 { abs(v + 6) < 0.01 } else { nil } } == true, "\(String(describing: db))")

            // Everything else: an /error naming the role, and nothing changes.
            let refused: [(String, [OSCTestClient.Argument])] = [
                ("/matrix/1/1", [.float(0)]), ("/master/volume", [.float(0)]), ("/source/1/mute", [.int32(1)]),
                ("/preset/save", [.string("drums-take")]), ("/preset/recall", [.string("drums-take")]),
                ("/matrix/*/*", [.float(0)]),
            ]
            for (address, arguments) in refused {
                try drums.send(address, arguments: arguments)
                #expect(try await Self.refusal(drums) == [.string(address), .string("not permitted for role drums")],
                        "\(address)")
            }
            #expect(try await Self.value(rig, "/matrix/1/1") == .float(1))
            #expect(try await Self.value(rig, "/matrix/1/5") == .float(0.5), "the wildcard was refused whole")
            #expect(try await Self.value(rig, "/master/volume") == .float(1))
            #expect(try await Self.value(rig, "/source/1/mute") == .int32(0))
            try rig.osc.send("/preset/list")
            #expect(try await rig.osc.waitFor(address: "/preset/list").arguments == [], "no preset was saved")

            // The engineer may do all of it.
            for (address, arguments) in refused where !address.hasPrefix("/preset/recall") {
                try engineer.send(address, arguments: arguments)
            }
            try engineer.send("/preset/recall", .string("drums-take"), .float(0))
            #expect(try await engineer.waitFor(address: "/preset/recalled").argument(0) == .string("drums-take"))
            #expect(try engineer.drain().filter { $0.address == "/error" }.isEmpty)
            #expect(try await Self.value(rig, "/matrix/2/5") == .float(0))
            #expect(try await Self.value(rig, "/source/1/mute") == .int32(1))

            // A viewer reads, subscribes and meters, and changes nothing.
            try viewer.send("/matrix/1/5", .float(1))
            #expect(try await Self.refusal(viewer) == [.string("/matrix/1/5"), .string("not permitted for role viewer")])
            try viewer.send("/matrix/1/5")
            #expect(try await viewer.waitFor(address: "/matrix/1/5").arguments == [.float(0.5)], "as the recall left it")
            try viewer.send("/subscribe")
            _ = try await viewer.waitFor(address: "/safe/mix/6", timeout: .seconds(3))
            try viewer.send("/status")
            #expect(try await viewer.waitFor(address: "/status/access").arguments == [.string("read-only")])

            // A code makes the viewer's session the drummer's, until it logs out.
            try viewer.send("/login", .string("kick-snare-4711"))
            #expect(try await viewer.waitFor(address: "/role").arguments
                    == [.string("drums"), .string("outputs"), .int32(5), .int32(6)])
            try viewer.send("/matrix/2/6", .float(0.25))
            try viewer.send("/matrix/2/2", .float(0))
            #expect(try await Self.refusal(viewer) == [.string("/matrix/2/2"), .string("not permitted for role drums")])
            #expect(try await Self.value(rig, "/matrix/2/6") == .float(0.25))
            try viewer.send("/logout")
            #expect(try await viewer.waitFor(address: "/role").arguments == [.string("viewer"), .string("none")])
            try viewer.send("/matrix/2/6", .float(1))
            #expect(try await Self.refusal(viewer) == [.string("/matrix/2/6"), .string("not permitted for role viewer")])

            // The same over TCP: the connection (from the engineer's network) logs in as the drummer.
            let tcp = try TCPOSCConnection(port: rig.oscPort)
            defer { tcp.close() }
            try tcp.send(.message(.init("/login", arguments: [.string("kick-snare-4711")])))
            #expect(try tcp.receive().first?.address == "/role")
            #expect(try tcp.receive().first?.address == "/role/talkbacks", "what follows every /role")
            try tcp.send(.message(.init("/master/mute", arguments: [.int32(1)])))
            #expect(try tcp.receive().first?.arguments == [.string("/master/mute"), .string("not permitted for role drums")])

            // The log is read from the rig's pipe as it comes: wait for the
            // line rather than read what has arrived by now.
            _ = try await rig.crosspoint.waitForOutput(containing: "logged in as role drums", timeout: .seconds(5))
            try await rig.ping()
            let log = rig.crosspoint.standardError + rig.crosspoint.standardOutput
            #expect(!log.contains("kick-snare-4711"), "a code in the log")
        }
    }

    @Test func sighupReadsTheFileAgainAndABrokenFileKeepsTheRules() async throws {
        let path = try Self.accessFile(Self.rules())
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", path]) { rig in
            let drums = try Self.client(rig, from: "127.0.0.4")
            defer { drums.close() }
            try drums.send("/matrix/1/5", .float(0.5))
            try await rig.ping()
            #expect(try drums.drain().isEmpty)

            // Now .4 is a viewer and the drummer's code another one.
            try Self.rules(drumsFrom: "127.0.0.5/32", code: "new-code-0815", viewer: "127.0.0.4/32")
                .write(toFile: path, atomically: true, encoding: .utf8)
            var mark = rig.crosspoint.outputMark()
            #expect(rig.crosspoint.signalIfRunning(SIGHUP))
            _ = try await rig.crosspoint.waitForOutput(containing: "access: reloaded", after: mark, timeout: .seconds(5))
            try drums.send("/matrix/1/5", .float(0))
            #expect(try await Self.refusal(drums) == [.string("/matrix/1/5"), .string("not permitted for role viewer")])
            try drums.send("/login", .string("kick-snare-4711"))
            #expect(try await Self.refusal(drums) == [.string("/login"), .string("wrong code")])
            try drums.send("/login", .string("new-code-0815"))
            #expect(try await drums.waitFor(address: "/role").argument(0) == .string("drums"))
            try drums.send("/logout")
            _ = try await drums.waitFor(address: "/role")

            // A broken file: logged, naming the file and field; the rules in force stay.
            try Self.rules().replacingOccurrences(of: "\"role\": \"drums\" }, {", with: "\"role\": \"bass\" }, {")
                .write(toFile: path, atomically: true, encoding: .utf8)
            mark = rig.crosspoint.outputMark()
            #expect(rig.crosspoint.signalIfRunning(SIGHUP))
            let line = try await rig.crosspoint.waitForOutput(containing: "kept the rules in force", after: mark,
                                                               timeout: .seconds(5))
            #expect(line.contains("\(path): clients[2].role: unknown role 'bass'"), "\(line)")
            try drums.send("/matrix/1/5", .float(0))
            #expect(try await Self.refusal(drums) == [.string("/matrix/1/5"), .string("not permitted for role viewer")])
            #expect(try await Self.value(rig, "/matrix/1/5") == .float(0.5))
            #expect(rig.crosspoint.signalIfRunning(0), "the rig is still running")
        }
    }

    @Test func wrongCodesAreAnsweredLateAndFiveInAMinuteLockTheHostOut() async throws {
        let path = try Self.accessFile(Self.rules())
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", path, "--log-level", "debug"]) { rig in
            let guesser = try Self.client(rig, from: "127.0.0.3")
            defer { guesser.close() }
            let sent = ContinuousClock.now
            try guesser.send("/login", .string("guess-alpha-1"))
            #expect(try await Self.refusal(guesser) == [.string("/login"), .string("wrong code")])
            #expect(ContinuousClock.now - sent >= .milliseconds(900), "a wrong code is answered after a second")
            for guess in 2...5 { try guesser.send("/login", .string("guess-alpha-\(guess)")) }
            for _ in 2...5 { #expect(try await Self.refusal(guesser) == [.string("/login"), .string("wrong code")]) }
            // Locked out: the right code too, from another port of that host.
            let again = try Self.client(rig, from: "127.0.0.3")
            defer { again.close() }
            try again.send("/login", .string("kick-snare-4711"))
            let locked = try await Self.refusal(again)
            #expect(locked.first == .string("/login"))
            #expect("\(locked)".contains("too many wrong codes from 127.0.0.3; try again in"), "\(locked)")
            try again.send("/role")
            #expect(try await again.waitFor(address: "/role").argument(0) == .string("viewer"))
            // Another host may still log in.
            let other = try Self.client(rig, from: "127.0.0.2")
            defer { other.close() }
            try other.send("/login", .string("kick-snare-4711"))
            #expect(try await other.waitFor(address: "/role").argument(0) == .string("drums"))
            // A code sent where it is refused (a pattern, a typing mistake) is not logged either.
            for address in ["/log*", "/Login", "/login/", "/{status,login}"] {
                try other.send(address, .string("kick-snare-4711"))
                #expect(try await Self.refusal(other).first == .string(address))
            }

            _ = try await rig.crosspoint.waitForOutput(containing: "127.0.0.3: 5 wrong codes within a minute",
                                                       timeout: .seconds(5))
            try await rig.ping()
            let log = rig.crosspoint.standardError + rig.crosspoint.standardOutput
            #expect(!log.contains("guess-alpha") && !log.contains("kick-snare-4711"), "a code in the log")
        }
    }

    @Test func aMixSafeKeepsTheInEarMixThroughARecall() async throws {
        let path = try Self.accessFile(Self.rules())
        try await withRig(inputs: 2, outputs: 6, arguments: ["--access", path]) { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 500, amplitude: 0.5)
            try await rig.sendAndSettle("/preset/save", .string("show"))
            _ = try await rig.osc.waitFor(address: "/preset/saved")
            let drums = try Self.client(rig, from: "127.0.0.4")
            defer { drums.close() }
            try drums.send("/matrix/1/5", .float(0.5))
            try drums.send("/matrix/2/5/db", .float(-12))
            try drums.send("/safe/mix/5", .int32(1))
            try drums.send("/safe/mix/5")
            #expect(try await drums.waitFor(address: "/safe/mix/5").arguments == [.int32(1)])
            // Front of house changes, then the engineer recalls the show.
            try await rig.sendAndSettle("/matrix/1/1", .float(0))
            try await rig.sendAndSettle("/preset/recall", .string("show"), .float(0))

            #expect(try await Self.value(rig, "/matrix/1/1") == .float(1), "the recall happened")
            #expect(try await Self.value(rig, "/matrix/1/5") == .float(0.5))
            let kept = try await Self.value(rig, "/matrix/2/5/db")
            #expect(kept.flatMap { if case .float(let v) = $0 { abs(v + 12) < 0.01 } else { nil } } == true, "\(String(describing: kept))")

            /// Output m's 1 kHz (input 1) and 500 Hz (input 2) amplitudes.
            func levels(_ m: Int) async throws -> (Float, Float) {
                try await Task.sleep(for: .milliseconds(60))
                var r = try await rig.record(seconds: 0.15)
                for _ in 0..<3 where r.longestContinuousRange.count < 2400 { r = try await rig.record(seconds: 0.15) }
                let continuous = r.longestContinuousRange
                let range = continuous.lowerBound..<(continuous.lowerBound + continuous.count / 96 * 96)
                return (A.fitSine(r.channels[m - 1], frequency: 1000, sampleRate: 48_000, in: range).amplitude,
                        A.fitSine(r.channels[m - 1], frequency: 500, sampleRate: 48_000, in: range).amplitude)
            }
            func near(_ a: Float, _ b: Float) -> Bool { abs(a - b) < 2e-3 }
            let inEars = try await levels(5)
            #expect(near(inEars.0, 0.25) && near(inEars.1, 0.5 * 0.2512), "output 5 after the recall: \(inEars)")
            let front = try await levels(1)
            #expect(near(front.0, 0.5) && near(front.1, 0), "output 1 after the recall: \(front)")

            // Without the safe the same recall takes the mix away.
            try drums.send("/safe/mix/5", .int32(0))
            try await rig.sendAndSettle("/preset/recall", .string("show"), .float(0))
            let gone = try await levels(5)
            #expect(near(gone.0, 0) && near(gone.1, 0), "output 5 without the safe: \(gone)")
        }
    }
}
}
