import Foundation
import Testing

/// Bad input from the network: a clear `/error`, nothing changed, still alive.
extension Integration {
@Suite struct ErrorTests {
    typealias A = SignalAnalysis

    @Test func everyKindOfBadInputIsRefusedAndChangesNothing() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            rig.playSine(input: 2, frequency: 500, amplitude: 0.5)
            let cases: [(String, [OSCTestClient.Argument], String)] = [
                ("/no/such/thing", [.float(1)], "unknown address"),
                ("/source/3/volume", [.float(0)], "source 3 out of range (1-2)"),
                ("/matrix/1/9", [.float(0)], "output 9 out of range (1-2)"),
                ("/source/1/volume", [.string("zero")], "wrong argument type 's'"),
                ("/source/1/volume", [.float(0), .float(1), .float(2)], "expected 1 or 2 arguments"),
                ("/source/1/volume", [.float(.nan)], "non-finite value"),
                ("/master/volume", [.float(.infinity)], "non-finite value"),
                ("/matrix/1/1", [.double(-.infinity)], "non-finite value"),
                ("/source/1/pan", [.float(0), .float(.nan)], "non-finite value at argument 2"),
                ("/matrix/map", [.int32(7)], "expected a whole number 0-2"),
                ("/source/*/mute", [.string("on")], "wrong argument type 's'"),
                ("/ping", [.int32(1), .int32(1)], "expected [button], got 2 arguments"),
            ]
            for (address, arguments, reason) in cases {
                try rig.osc.send(address, arguments: arguments)
                let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(5))
                #expect(error.typeTags == "ss")
                #expect(error.argument(0) == .string(address))
                guard case .string(let text)? = error.argument(1) else { Issue.record("no reason"); continue }
                #expect(text.contains(reason), "\(address): \(text)")
                try await rig.ping()
            }
            // Not OSC at all, and a truncated message: no reply, no crash.
            try rig.osc.sendRaw(Array("hello, mixer".utf8))
            try rig.osc.sendRaw([0x2f, 0x6d, 0x61, 0x74, 0x72, 0x69, 0x78, 0x00, 0x2c, 0x66, 0x00, 0x00])
            try await rig.ping()
            #expect(rig.crosspoint.isRunning)

            let recording = try await rig.record(seconds: 0.2)
            for (m, frequency) in [(1, 1000.0), (2, 500.0)] {
                let fit = A.fitSine(recording.channels[m - 1], frequency: frequency, sampleRate: 48_000, in: 0..<9600)
                #expect(abs(fit.amplitude - 0.5) < 1e-4 && fit.residualRMS < 1e-4, "out_\(m) unchanged")
                #expect(recording.channels[m - 1].allSatisfy { $0.isFinite })
            }
            let errors = rig.crosspoint.standardError.split(separator: "\n").filter { $0.contains("rejected") }
            #expect(errors.count == cases.count, "one log line per rejected message")
        }
    }

    /// Text from the network reaches the log escaped: a newline in an
    /// address cannot forge a log line, an escape code cannot drive the
    /// terminal.
    @Test func logLinesShowControlCharactersEscaped() async throws {
        try await withRig { rig in
            try rig.osc.send("/source/1/x\nnotice crosspoint: forged", .int32(1))
            try rig.osc.send("/source/1/name", .string("Kick\u{1B}[2J"))
            _ = try await rig.osc.waitFor(address: "/error")
            _ = try await rig.osc.waitFor(address: "/error")
            try await rig.ping()
            let log = rig.crosspoint.standardError
            #expect(log.contains("/source/1/x\\u{a}notice crosspoint: forged"), "\(log)")
            #expect(!log.split(separator: "\n").contains { $0.hasPrefix("notice crosspoint: forged") })
            #expect(!log.contains("\u{1B}"), "a raw escape in the log")
            #expect(log.contains("Kick\\u{1b}[2J"), "\(log)")
        }
    }

    /// Whatever writes it (the controller, the OSC server below it, JACK's
    /// messages), every line of the log starts with one timestamp and level;
    /// a 60 KB address makes a short `/error` and a short line.
    @Test func everyLogLineHasOneFormatAndHugeAddressesAreCut() async throws {
        try await withRig(arguments: ["--log-level", "debug"]) { rig in
            try rig.osc.sendRaw(Array("not OSC at all".utf8))
            let huge = "/" + String(repeating: "x", count: 60_000)
            try rig.osc.send(huge, .float(1))
            let error = try await rig.osc.waitFor(address: "/error")
            let echoed = error.argument(0).flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
            #expect(echoed.count < 300 && echoed.hasSuffix("(60001 characters)"), "\(echoed.prefix(100))")
            try await rig.ping()
            let lines = rig.crosspoint.standardError.split(separator: "\n")
            let format = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (trace|debug|info|notice|warning|error|critical) "#)
            let odd = lines.filter { (try? format.prefixMatch(in: String($0))) == nil }
            #expect(odd.isEmpty, "lines without the format: \(odd.prefix(5))")
            #expect(lines.contains { $0.contains("not a valid OSC packet") }, "the undecodable packet is logged")
            #expect((lines.map(\.count).max() ?? 0) < 2_000, "a log line of \(lines.map(\.count).max() ?? 0) characters")
        }
    }

    /// A flood of invalid packets writes a line a second per host, with a
    /// count of the others (issue 32: 24,265 lines, 4.6 MB, in under a second).
    @Test func aFloodOfInvalidPacketsWritesALineASecond() async throws {
        try await withRig { rig in
            func lines() -> Int { rig.crosspoint.standardError.components(separatedBy: "not a valid OSC packet").count - 1 }
            for _ in 0..<2_000 { try rig.osc.sendRaw(Array("not OSC at all".utf8)) }
            try await rig.ping()
            let flood = lines()
            #expect((1...2).contains(flood), "\(flood) lines for 2,000 bad packets")
            try await Task.sleep(for: .milliseconds(1_100))
            try rig.osc.sendRaw(Array("not OSC at all".utf8))
            try await rig.crosspoint.waitForOutput(containing: "more from this host since the last line", in: [.standardError])
            #expect(lines() == flood + 1)
        }
    }

    @Test func crosspointSendReportsAnError() async throws {
        try await withRig { rig in
            let (output, status) = try await rig.send(["/source/1/volume", "nan"])
            #expect(status == .exited(1))
            #expect(output.hasPrefix("/error ,ss /source/1/volume non-finite value"), "\(output)")
        }
    }

    @Test func statusReportsTheRig() async throws {
        try await withRig(inputs: 3, outputs: 2) { rig in
            try rig.osc.send("/status")
            var values: [String: OSCTestClient.Argument] = [:]
            for key in ["sample_rate", "buffer_size", "inputs", "outputs", "xruns", "dsp_load", "uptime"] {
                let message = try await rig.osc.waitFor(address: "/status/\(key)")
                values[key] = message.argument(0)
                #expect(message.bundleTimeTag != nil, "/status/\(key) comes in the bundle")
            }
            #expect(values["sample_rate"] == .int32(48_000))
            #expect(values["buffer_size"] == .int32(64))
            #expect(values["inputs"] == .int32(3) && values["outputs"] == .int32(2))
            guard case .float(let uptime)? = values["uptime"] else { Issue.record("uptime"); return }
            #expect(uptime > 0 && uptime < 60)
        }
    }
}
}

extension Integration {
@Suite struct MalformedBundleTests {
    /// A bundle whose second element is not OSC: the rig drops it whole and
    /// goes on with what comes after.
    func brokenBundle(_ timeTag: OSCTestClient.TimeTag) -> [UInt8] {
        var bytes = OSCTestClient.encode(.bundle(timeTag, [.message(.init("/matrix/2/2", arguments: [.float(0.5)]))]))
        bytes += [0, 0, 0, 8] + Array("garbage!".utf8)
        return bytes
    }

    @Test func aMalformedBundleDoesNotStopTheRig() async throws {
        try await withRig { rig in
            rig.source.setSignalOnAllPlayPorts(.constant(0.5))
            try rig.osc.sendRaw(brokenBundle(.immediately))
            try rig.osc.sendRaw(brokenBundle(.fromNow(5)))
            try await rig.ping()
            try rig.osc.send("/matrix/2/2")
            #expect(try await rig.osc.waitFor(address: "/matrix/2/2").arguments == [.float(1)],
                    "nothing of a broken bundle applies")
            try await rig.crosspoint.waitForOutput(containing: "not a valid OSC packet", in: [.standardError])
            try await rig.sendAndSettle("/matrix/1/1", .float(0))
            try await Task.sleep(for: .milliseconds(60))
            let recording = try await rig.record(seconds: 0.1)
            #expect(SignalAnalysis.peak(recording.channels[0]) == 0, "the change after the broken bundles reached the audio")
            #expect(rig.crosspoint.isRunning)
        }
    }

    @Test func aBundleTooFarAheadIsRefused() async throws {
        try await withRig { rig in
            try rig.osc.sendBundle([.init("/matrix/1/1", arguments: [.float(0)])], timeTag: .fromNow(7200))
            let error = try await rig.osc.waitFor(address: "/error")
            #expect(error.argument(1) == .string("time tag more than an hour ahead"))
            try rig.osc.send("/matrix/1/1")
            #expect(try await rig.osc.waitFor(address: "/matrix/1/1").arguments == [.float(1)])
        }
    }
}
}
