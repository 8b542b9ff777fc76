#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `crosspoint send --host A --host B` controls two rigs as one (issue 26):
/// the same message to each, each reply prefixed by its rig; `--at` sends
/// one timed bundle whose time each rig keeps on its own JACK server's
/// clock. Two real rigs, each on its own `jackd`.
extension Integration {
@Suite struct SendManyTests {
    /// A rig, and a second `crosspoint serve` (`crosspoint_b`, 1x1) on the
    /// same JACK server: one test process joins one JACK server (libjack
    /// keeps one server's tables per process), and one clock is what a
    /// netjack2 slave shares with its master. Rigs on two servers in two
    /// namespaces are TwoRigsTests'.
    static func withTwoRigs(_ body: (CrosspointRig, _ portB: Int) async throws -> Void) async throws {
        try await withRig { a in
            let directory = try CrosspointRig.makeDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let b = try ChildProcess(
                executable: CrosspointRig.binary,
                arguments: ["serve", "--jack-server", a.jack.name, "--jack-name", "crosspoint_b", "--no-autostart",
                            "--osc-port", "0", "--inputs", "1", "--outputs", "1", "--no-http", "--no-advertise"]
                    + CrosspointRig.fileArguments(directory),
                label: "crosspoint serve (b)")
            defer { b.terminate() }
            try await body(a, try await CrosspointRig.oscPort(of: b))
        }
    }

    static func hosts(_ a: CrosspointRig, _ portB: Int) -> [String] {
        ["--host", "127.0.0.1:\(a.oscPort)", "--host", "127.0.0.1:\(portB)"]
    }

    @Test func oneMessageChangesBothRigsAndEachAnswerNamesItsRig() async throws {
        try await Self.withTwoRigs { a, b in
            let (changed, status) = try await SendTests.send(Self.hosts(a, b) + ["/matrix/1/1", "0.5"])
            #expect(status == .exited(0) && changed.isEmpty, "\(changed)")
            let (answers, _) = try await SendTests.send(Self.hosts(a, b) + ["--wait", "0.5", "/matrix/1/1"])
            let lines = answers.split(separator: "\n").map(String.init).sorted()
            let expected = [a.oscPort, b].map { "127.0.0.1:\($0) /matrix/1/1 ,f 0.5" }.sorted()
            #expect(lines == expected, "both changed, each answer named by its rig: \(answers)")
            // Both refusing: each rig's /error, named, and the status says so.
            let (refused, refusal) = try await SendTests.send(Self.hosts(a, b) + ["--wait", "0.5", "/matrix/1/1", "nine"])
            #expect(refusal == .exited(1), "\(refused)")
            #expect(refused.contains("127.0.0.1:\(a.oscPort) /error") && refused.contains("127.0.0.1:\(b) /error"), "\(refused)")
            // A rig that does not answer is named; the other still answers.
            let (fd, silent) = try StartupTests.occupy(SOCK_DGRAM)
            defer { close(fd) }
            let (partly, partial) = try await SendTests.send(["--host", "127.0.0.1:\(a.oscPort)", "--host", "127.0.0.1:\(silent)",
                                                              "--wait", "0.3", "/ping"])
            #expect(partial == .exited(2), "\(partly)")
            #expect(partly.contains("127.0.0.1:\(a.oscPort) /pong") && partly.contains("127.0.0.1:\(silent) crosspoint send: nothing answered"),
                    "\(partly)")
        }
    }

    /// `--at` a Unix time 0.6 s ahead, to two rigs sharing one JACK server
    /// (one clock): each changes its audio within a frame of the one JACK's
    /// clock gives for that time in the period it falls in (the recorder
    /// keeps each period's span; a frame either way for the test's own
    /// reading of the clocks), both on the same sample.
    @Test func aTimedBundleLandsOnBothRigsOnTheSameSample() async throws {
        try await Self.withTwoRigs { a, portB in
            a.source.setSignalOnAllPlayPorts(.constant(0.5))
            try a.source.connect(from: a.source.playPort(1), to: "crosspoint_b:in_1")
            let tap = try ResizeTests.tap(a, name: "xp-both", ["crosspoint:out_1", "crosspoint_b:out_1"])
            defer { tap.close() }
            try await a.sendAndSettle("/matrix/1/1", .float(1), .float(0))
            try await Task.sleep(for: .milliseconds(100))
            try await tap.startRecording()
            try await tap.waitForRecordedFrames(2400)
            let time = Date().timeIntervalSince1970 + 0.6
            let dueTime = try tap.jackTime(atUnixTime: time)
            let (output, status) = try await SendTests.send(Self.hosts(a, portB) + ["--at", String(format: "%.6f", time), "/matrix/1/1", "0", "0"])
            #expect(status == .exited(0), "\(output)")
            try await tap.waitForRecordedFrames(Int(1.2 * Double(a.sampleRate)))
            let recording = try await tap.stopRecording()
            let due = try #require(recording.sampleIndex(atJackTime: dueTime), "the due time is in the recording")
            var changed: [Int] = []
            for (index, channel) in recording.channels.enumerated() {
                let at = try #require(channel.firstIndex { $0 < 0.5 }, "rig \(index + 1) took the cue")
                #expect(channel[..<at].allSatisfy { $0 == 0.5 }, "rig \(index + 1): nothing changed before")
                changed.append(at)
            }
            print("timed cue to two rigs: samples \(changed), JACK's map in its period \(due)")
            for (index, at) in changed.enumerated() {
                #expect(abs(at - due) <= 1, "rig \(index + 1): sample \(at), due \(due)")
            }
            // Each rig finds the frame in the period the time falls in, from
            // that period's span of JACK's clock, which both are given: the
            // same sample, whenever each bundle arrived.
            #expect(changed[0] == changed[1], "on the same sample: \(changed)")
        }
    }
}
}
