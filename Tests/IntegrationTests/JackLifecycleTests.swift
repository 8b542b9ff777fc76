import Foundation
import Testing

extension Integration {
/// Starting without a server, losing the server, and getting it back.
@Suite struct JackLifecycleTests {
    typealias A = SignalAnalysis

    @Test func reconnectsAndRestoresPortsConnectionsAndScene() async throws {
        try await withRig { rig in
            let name = rig.jack.name
            try await rig.sendAndSettle("/matrix/1/2", .float(0.5))
            try await rig.sendAndSettle("/source/2/mute", .int32(1))
            try rig.recorder.connect(from: "crosspoint:out_1", to: "system:playback_1")
            try await Task.sleep(for: .milliseconds(300)) // the supervisor notes connections every 100 ms
            rig.source.close()
            rig.recorder.close()
            rig.jack.stop()
            try await rig.crosspoint.waitForOutput(containing: "JACK server went away", timeout: .seconds(10))

            let jack = try await JackServer.start(name: name, synchronous: true)
            defer { jack.stop() }
            try await rig.crosspoint.waitForOutput(containing: "reconnected to JACK", timeout: .seconds(15))
            let source = try JackProbe(server: jack, clientName: "xp-source2", playPorts: 2, recordPorts: 0)
            let recorder = try JackProbe(server: jack, clientName: "xp-recorder2", playPorts: 0, recordPorts: 2)
            defer { source.close(); recorder.close() }
            try await recorder.waitForPorts(matching: "crosspoint:", count: 4)
            try await rig.crosspoint.waitForOutput(containing: "restored connection crosspoint:out_1", timeout: .seconds(5))
            #expect(try recorder.connections(of: "crosspoint:out_1").contains("system:playback_1"))

            for n in 1...2 { try source.connect(from: source.playPort(n), to: "crosspoint:in_\(n)") }
            for m in 1...2 { try recorder.connect(from: "crosspoint:out_\(m)", to: recorder.recordPort(m)) }
            source.setSignal(.sine(frequency: 1000, amplitude: 0.5), playPort: 1)
            source.setSignal(.sine(frequency: 500, amplitude: 0.5), playPort: 2)
            try await recorder.startRecording()
            try await recorder.waitForRecordedFrames(9600)
            let recording = try await recorder.stopRecording()
            let out2 = A.fitSine(recording.channels[1], frequency: 1000, sampleRate: 48_000, in: 2400..<9600)
            #expect(abs(out2.amplitude - 0.25) < 1e-3, "crosspoint 1→2 kept: \(out2.amplitude)")
            let muted = A.fitSine(recording.channels[1], frequency: 500, sampleRate: 48_000, in: 2400..<9600)
            #expect(muted.amplitude < 1e-4, "source 2 still muted: \(muted.amplitude)")
            try await rig.ping()
        }
    }

    @Test func aRigRunsAtThePeriodSizeItIsGiven() async throws {
        try await withRig(periodSize: 256) { rig in
            #expect(rig.jack.periodSize == 256)
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/buffer_size").arguments == [.int32(256)])
            rig.source.setSignal(.constant(0.25), playPort: 1)
            try await Task.sleep(for: .milliseconds(50))
            let recording = try await rig.record(seconds: 0.2)
            let steps = Set(zip(recording.periods, recording.periods.dropFirst()).map { $1.offset - $0.offset })
            #expect(steps == [256], "recorded periods of \(steps) frames")
            let out = recording.channels[0]
            #expect(out.allSatisfy { abs($0 - 0.25) < 1e-6 }, "out_1 \(out.min()!)…\(out.max()!)")
        }
    }

    @Test func startsItsOwnServerWhenNoneRuns() async throws {
        let name = "xp-auto-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let crosspoint = try ChildProcess(executable: CrosspointRig.binary,
                                          arguments: ["serve", "--jack-server", name, "--osc-port", "0", "--no-http"]
                                              + CrosspointRig.fileArguments(directory),
                                          label: "crosspoint serve (autostart)")
        defer { crosspoint.terminate() }
        let started = try await crosspoint.waitForOutput(containing: "started one", timeout: .seconds(20))
        let jackdPID = started.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: .punctuationCharacters)) }
        defer { if let jackdPID, kill(jackdPID, 0) == 0 { kill(jackdPID, SIGKILL) } } // only if the test failed
        // Real-time scheduling where this process may use it (as root here): what a stage machine needs.
        let mayUseRealtime = geteuid() == 0
        #expect(started.contains("jackd -n \(name) \(mayUseRealtime ? "-R" : "-r") -d dummy -r 48000 -p 64"), "\(started)")
        try await crosspoint.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
        if mayUseRealtime, let jackdPID {
            #expect(Self.runsRealtime(jackdPID), "no thread of jackd \(jackdPID) runs SCHED_FIFO or SCHED_RR")
        }
        let probe = try JackProbe(serverName: name, clientName: "xp-look", playPorts: 0, recordPorts: 0)
        try await probe.waitForPorts(matching: "crosspoint:", count: 16)
        probe.close()

        // Stopping crosspoint stops the server it started, and nothing else.
        _ = crosspoint.signalIfRunning(SIGTERM)
        #expect(try await crosspoint.waitForExit(timeout: .seconds(10)) == .exited(0))
        let pid = try #require(jackdPID)
        var alive = true
        for _ in 0..<100 where alive {
            alive = kill(pid, 0) == 0
            if alive { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(!alive, "jackd \(pid) still running")
    }

    @Test func withoutAutostartItSaysThereIsNoServer() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let crosspoint = try ChildProcess(executable: CrosspointRig.binary,
                                          arguments: ["serve", "--jack-server", "xp-none-\(getpid())",
                                                      "--no-autostart", "--osc-port", "0", "--no-http"] + CrosspointRig.fileArguments(directory))
        defer { crosspoint.terminate() }
        #expect(try await crosspoint.waitForExit(timeout: .seconds(10)) == .exited(1))
        #expect(crosspoint.standardError.contains("cannot start: no JACK server named 'xp-none-\(getpid())' is running"),
                "\(crosspoint.standardError)")
    }

    /// Whether some thread of a process runs SCHED_FIFO or SCHED_RR (policy
    /// 1 or 2: the 41st field of /proc/PID/task/TID/stat).
    static func runsRealtime(_ pid: Int32) -> Bool {
        let tasks = "/proc/\(pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.contains { thread in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            // Fields after the name start at the 3rd: the policy is the 41st, index 38 here.
            return fields.count > 38 && (fields[38] == "1" || fields[38] == "2")
        }
    }
}
}

extension Integration {
@Suite struct ConnectionFlagTests {
    @Test func connectFlagsWireOurPortsInOrder() async throws {
        try await withRig(arguments: ["--connect-outputs", "system:playback_.*", "--connect-inputs", "system:capture_.*"]) { rig async throws in
            #expect(try rig.recorder.connections(of: "crosspoint:out_1").contains("system:playback_1"))
            #expect(try rig.recorder.connections(of: "crosspoint:out_2").contains("system:playback_2"))
            #expect(try rig.recorder.connections(of: "crosspoint:in_1").contains("system:capture_1"))
            #expect(try rig.recorder.connections(of: "crosspoint:in_2").contains("system:capture_2"))
        }
    }

    @Test func sendTypesArgumentsByTheirLookOrAsTold() async throws {
        try await withRig { rig in
            _ = try await rig.send(["/source/1/name", "42"], wait: 0.3)
            let (error, _) = try await rig.send(["/source/1/name", "42"], wait: 0.5)
            #expect(error.contains("expected a string"), "42 is sent as an int: \(error)")
            let (forced, status) = try await rig.send(["--types", "s", "/source/1/name", "42"], wait: 0.3)
            #expect(status == .exited(0) && forced.isEmpty)
            #expect(try await rig.send(["/source/1/name"]).output == "/source/1/name ,s 42\n")
            let (typed, _) = try await rig.send(["/source/2/mute", "true"], wait: 0.3)
            #expect(typed.isEmpty)
            #expect(try await rig.send(["/source/2/mute"]).output == "/source/2/mute ,i 1\n")
        }
    }
}
}
