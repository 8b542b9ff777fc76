#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Proves the integration-test support code against the real tools (jackd,
/// liblo's oscdump and oscsend) before any test relies on it against
/// crosspoint.
extension Integration {
@Suite struct SupportSmokeTests {
    @Test("A sine played through JACK is recorded at the right level and length")
    func jackLoopback() async throws {
        let server = try await JackServer.start()
        defer { server.stop() }
        #expect(server.sampleRate == 48_000)
        #expect(server.periodSize == 64)

        // Source and recorder as separate clients, as in the mixer tests.
        let player = try JackProbe(server: server, clientName: "smoke-player", playPorts: 1, recordPorts: 0)
        defer { player.close() }
        let recorder = try JackProbe(server: server, clientName: "smoke-recorder", playPorts: 0, recordPorts: 1,
                                     maxRecordingSeconds: 5)
        defer { recorder.close() }

        player.setSignal(.sine(frequency: 1_000, amplitude: 0.5), playPort: 1)
        try player.connect(from: player.playPort(1), to: recorder.recordPort(1))
        #expect(try recorder.connections(of: recorder.recordPort(1)) == [player.playPort(1)])
        try await Task.sleep(for: .milliseconds(50))  // let the connection take effect

        try await recorder.startRecording()
        let started = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(500))
        let countBefore = recorder.recordedFrameCount
        let position = try #require(recorder.currentRecordingPosition())
        let take = try await recorder.stopRecording()
        let elapsed = ContinuousClock.now - started
        let samples = take.samples(ofPort: 1)

        // Length: about the wall-clock time, allowing a loaded 2-core machine
        // to lag or catch up.
        let expectedFrames = Double(elapsed.components.seconds) * 48_000
            + Double(elapsed.components.attoseconds) * 48_000e-18
        #expect(take.sampleRate == 48_000)
        #expect(Double(take.frameCount) > 0.5 * expectedFrames, "\(take.frameCount) frames in \(elapsed)")
        #expect(Double(take.frameCount) < 1.25 * expectedFrames, "\(take.frameCount) frames in \(elapsed)")
        #expect(take.frameCount % server.periodSize == 0)
        #expect(!take.overflowed)
        // JACK's clock estimate of "now" is at or ahead of what was captured.
        #expect(position >= countBefore - server.periodSize, "position \(position), recorded \(countBefore)")
        #expect(position <= take.frameCount + server.sampleRate / 10, "position \(position), take \(take.frameCount)")
        #expect(take.periods.first?.frameTime == take.firstFrameTime)
        #expect(take.sampleIndex(atFrameTime: take.firstFrameTime &+ 100) == 100)
        #expect(take.frameTime(ofSample: 100) == take.firstFrameTime &+ 100)

        // Level: a 0.5 sine has an RMS of 0.5/√2 = 0.35355.
        let rms = SignalAnalysis.rms(samples)
        #expect(abs(rms - 0.353_553) < 0.003_535, "RMS \(rms)")
        // Shape: a clean 1 kHz sine, with no click anywhere. (Should the
        // server ever skip a cycle, the take reports a gap there, and the sine
        // is checked piece by piece.)
        let clean = take.longestContinuousRange
        #expect(clean.count > take.frameCount / 2)
        let fit = SignalAnalysis.fitSine(samples, frequency: 1_000, sampleRate: 48_000, in: clean)
        #expect(abs(fit.amplitude - 0.5) < 0.001 && fit.residualRMS < 0.001, "\(fit)")
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: 48_000, in: clean))
        #expect(abs(frequency - 1_000) < 1, "frequency \(frequency)")
        let maximumStep = SignalAnalysis.maximumSineStep(frequency: 1_000, amplitude: 0.5, sampleRate: 48_000)
        for range in take.continuousRanges {
            let step = SignalAnalysis.largestStep(samples, in: range)
            #expect((step?.step ?? 0) <= maximumStep * 1.001, "click in \(range): \(String(describing: step))")
        }

        // Changing the signal while running: a constant level comes through exactly.
        player.setSignal(.constant(0.25), playPort: 1)
        try await Task.sleep(for: .milliseconds(20))
        try await recorder.startRecording()
        try await recorder.waitForRecordedFrames(4_800)
        let level = try await recorder.stopRecording().samples(ofPort: 1)
        #expect(SignalAnalysis.peak(level) == 0.25 && SignalAnalysis.mean(level) == 0.25)
    }

    @Test("jackd runs real-time (SCHED_FIFO) where the machine allows it, at the period size asked for")
    func realtimeServer() async throws {
        // Whether this machine grants SCHED_FIFO, asked independently of
        // JackServer: util-linux's chrt.
        let chrt = try ChildProcess(executable: "chrt", arguments: ["-f", "10", "true"])
        let allowed = try await chrt.waitForExit() == .exited(0)
            && ProcessInfo.processInfo.environment[JackServer.realtimeEnvironmentVariable] != "0"

        let server = try await JackServer.start(periodSize: 256)
        defer { server.stop() }
        #expect(server.periodSize == 256)
        #expect(server.isRealtime == allowed, "chrt -f: \(allowed), server: \(server.realtimeUnavailableReason ?? "real-time")")
        #expect(server.process.arguments.prefix(3) == ["-n", server.name, server.isRealtime ? "-R" : "-r"])
        #expect(server.isRealtime == (server.realtimeUnavailableReason == nil))
        // The scheduling classes of jackd's threads, as ps reports them ("FF": SCHED_FIFO).
        let classes = try await Self.schedulingClasses(of: server.process.pid)
        #expect(classes.contains("FF") == server.isRealtime, "jackd's threads: \(classes)")

        let plain = try await JackServer.start(realtime: false)
        defer { plain.stop() }
        #expect(!plain.isRealtime && plain.realtimeUnavailableReason != nil)
        #expect(plain.process.arguments.prefix(3) == ["-n", plain.name, "-r"])
        let plainClasses = try await Self.schedulingClasses(of: plain.process.pid)
        #expect(!plainClasses.isEmpty && plainClasses.allSatisfy { $0 == "TS" }, "jackd -r threads: \(plainClasses)")
        #expect(!plain.xrunChecksApply(to: "an example xrun check on a jackd -r server"))
        #expect(server.xrunChecksApply(to: "an example xrun check on the first server") == allowed)
    }

    /// `ps -L -o cls=`: one scheduling class per thread (TS, FF, RR…).
    private static func schedulingClasses(of pid: Int32) async throws -> [String] {
        let ps = try ChildProcess(executable: "ps", arguments: ["-L", "-o", "cls=", "-p", "\(pid)"])
        try #require(try await ps.waitForExit() == .exited(0), "\(ps.diagnostics())")
        return ps.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    @Test("A message sent with OSCTestClient reaches oscdump")
    func oscToOscdump() async throws {
        let port = try Self.freeUDPPort()
        let oscdump = try ChildProcess(executable: "oscdump", arguments: ["-L", "\(port)"])
        defer { oscdump.terminate() }
        let client = try OSCTestClient(target: .init(host: "127.0.0.1", port: port))

        // oscdump prints nothing when it is ready: send until it shows up.
        let deadline = ContinuousClock.now + .seconds(10)
        var line: String?
        while line == nil, ContinuousClock.now < deadline {
            try client.send("/xp/smoke", .int32(42), .float(0.5), .string("hello"), .true, .nil, .int64(7), .double(2.25))
            line = try? await oscdump.waitForOutput(containing: "/xp/smoke", timeout: .milliseconds(200))
        }
        let printed = try #require(line, "oscdump printed nothing\n\(oscdump.diagnostics())")
        #expect(printed.contains("/xp/smoke ifsTNhd 42 0.500000 \"hello\" #T Nil 7 2.250000"), "\(printed)")

        let mark = oscdump.outputMark()
        try client.sendBundle([.init("/xp/bundled/a", .int32(1)), .init("/xp/bundled/b", .string("two"))])
        try await oscdump.waitForOutput(containing: "/xp/bundled/a i 1", after: mark)
        try await oscdump.waitForOutput(containing: "/xp/bundled/b s \"two\"", after: mark)
    }

    @Test("OSCTestClient decodes messages and bundles from oscsend and from another client")
    func oscReceive() async throws {
        let client = try OSCTestClient(target: .init(host: "127.0.0.1", port: 9))  // target unused here

        // From liblo's own command-line sender.
        let oscsend = try ChildProcess(
            executable: "oscsend",
            arguments: ["127.0.0.1", "\(client.localEndpoint.port)", "/xp/from/oscsend", "ifsTF", "7", "1.5", "hi"])
        #expect(try await oscsend.waitForExit() == .exited(0))
        let received = try await client.waitFor(address: "/xp/from/oscsend")
        #expect(received.typeTags == "ifsTF")
        #expect(received.arguments == [.int32(7), .float(1.5), .string("hi"), .true, .false])
        #expect(received.bundleTimeTag == nil)

        // From a second client on another loopback address: the reply path.
        let peer = try OSCTestClient(target: client.localEndpoint, bindHost: "127.0.0.2")
        #expect(peer.localEndpoint.host == "127.0.0.2")
        let later = OSCTestClient.TimeTag.fromNow(1)
        try peer.send(.bundle(later, [
            .message(.init("/xp/nested/first", .blob([1, 2, 3]), .symbol("sym"))),
            .bundle(.immediately, [.message(.init("/xp/nested/second", .midi(0x90, 60, 100, 0), .impulse))]),
        ]))
        try peer.sendRaw(Array("not OSC at all".utf8))
        try peer.send("/xp/plain", .double(-0.125))

        let second = try await client.waitFor(address: "/xp/nested/second")
        #expect(second.arguments == [.midi(0x90, 60, 100, 0), .impulse])
        #expect(second.bundleTimeTag == .immediately)
        #expect(second.sender == peer.localEndpoint)
        let rest = try await client.receive(timeout: .seconds(1))
        let first = try #require(rest.first { $0.address == "/xp/nested/first" }, "\(rest)")
        #expect(first.arguments == [.blob([1, 2, 3]), .symbol("sym")])
        #expect(first.bundleTimeTag == later)
        var plain = rest.first { $0.address == "/xp/plain" }
        if plain == nil { plain = try await client.waitFor(address: "/xp/plain") }
        #expect(plain?.arguments == [.double(-0.125)])
        #expect(client.takeRejectedDatagrams() == [Array("not OSC at all".utf8)])

        // Nothing else arrives.
        #expect(try await client.collect(for: .milliseconds(100)).isEmpty)
    }

    @Test("ChildProcess escalates to SIGKILL when SIGTERM is ignored")
    func childProcessEscalation() async throws {
        // `trap '' TERM` is inherited across exec, so `sleep` ignores SIGTERM.
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo ready; trap '' TERM; exec sleep 30"])
        try await child.waitForOutput(containing: "ready")
        #expect(child.isRunning)
        let started = ContinuousClock.now
        #expect(child.terminate(grace: .milliseconds(300)) == .signalled(SIGKILL))
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(!child.isRunning)
        #expect(child.signalIfRunning(SIGKILL) == false)  // reaped: never signalled again

        #expect(throws: ChildProcess.Failure.self) {
            _ = try ChildProcess(executable: "no-such-tool-for-crosspoint-tests")
        }
    }

    @Test("LinkedNamespaces: two namespaces joined by a veth pair, a cut that cuts, jackd inside",
          .enabled(if: LinkedNamespaces.isAvailable, "needs network namespaces and a veth pair; the reason is noted on stderr"))
    func linkedNamespaces() async throws {
        let network = try await LinkedNamespaces()
        defer { network.stop() }
        // Each side has lo and its end of the link, nothing of the machine's.
        for side in LinkedNamespaces.Side.allCases {
            let links = try await network.output(side, "ip", ["-br", "address"])
            #expect(links.contains("xplink") && links.contains(side.address) && !links.contains(side.other.address),
                    "\(side): \(links)")
            #expect(!links.contains("eth0"), "\(side): \(links)")
        }
        // UDP from A's namespace to B's address, from sockets made inside.
        let receiver = try network.inNetwork(of: .b) {
            try OSCTestClient(target: .init(host: "127.0.0.1", port: 9), bindHost: "0.0.0.0")
        }
        defer { receiver.close() }
        let sender = try network.inNetwork(of: .a) {
            try OSCTestClient(target: .init(host: LinkedNamespaces.Side.b.address, port: receiver.localEndpoint.port),
                              bindHost: "0.0.0.0")
        }
        defer { sender.close() }
        func arrives(_ text: String, within limit: Duration) async -> Bool {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                try? sender.send("/link", .string(text))
                if (try? await receiver.waitFor(address: "/link", timeout: .milliseconds(200)) { $0.argument(0)?.stringValue == text }) != nil {
                    return true
                }
            }
            return false
        }
        #expect(await arrives("before", within: .seconds(3)))
        try await network.cut(.b)
        #expect(await arrives("during", within: .seconds(1)) == false, "the cut let a datagram through")
        try await network.restore(.b)
        #expect(await arrives("after", within: .seconds(5)), "the link did not come back")
        // A JACK server inside a side, reached from here through /dev/shm.
        let server = try await JackServer.start(launcher: network.launcher(.a))
        defer { server.stop() }
        #expect(try server.portNames(matching: "^system:").count == 4)
    }

    /// A UDP port that was free a moment ago (the kernel's choice).
    private static func freeUDPPort() throws -> Int {
        let probe = try OSCTestClient(target: .init(host: "127.0.0.1", port: 9))
        defer { probe.close() }
        return probe.localEndpoint.port
    }
}
}
