import Foundation
import Testing

/// Real-time safety at run time: the real `crosspoint serve` in a real JACK
/// server, with an interposed allocator (tools/alloc-counter) that counts
/// every malloc, calloc, realloc, aligned allocation and free made while the
/// JACK process callback runs. OSC traffic, fades, bundles (timed ones too,
/// applied inside periods), wildcards and preset recalls with crossfades go
/// on meanwhile, talkbacks talk and the listen moves, and the rig changes
/// size, with meters and feedback subscribed; the count must be zero.
///
/// The same library first watches a client that does allocate in its
/// callback, so the zero is not the counter failing to count.
extension Integration {
@Suite struct PerformanceAllocationTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Counts {
        var values: [String: Int] = [:]
        init(file: URL) throws {
            let text = try String(contentsOf: file, encoding: .utf8)
            for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                let parts = pair.split(separator: "=")
                if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
            }
        }
        subscript(_ key: String) -> Int { values[key] ?? -1 }
    }

    /// A C compiler: the system's `cc`, else the clang that comes with Swift.
    static var compiler: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let hasCC = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/cc") }
        return hasCC ? "cc" : "clang"
    }

    /// Builds the interposer and the allocating control client with `cc`.
    static func buildTools(in directory: URL) async throws -> (library: String, control: String) {
        let source = packageRoot.appendingPathComponent("tools/alloc-counter")
        let library = directory.appendingPathComponent("libcrosspoint_alloc_counter.so").path
        let control = directory.appendingPathComponent("allocating_client").path
        for arguments in [["-O2", "-shared", "-fPIC", "-o", library, source.appendingPathComponent("alloc_counter.c").path, "-ldl"],
                          ["-O2", "-o", control, source.appendingPathComponent("allocating_client.c").path, "-ljack"]] {
            let cc = try ChildProcess(executable: compiler, arguments: arguments)
            let status = try await cc.waitForExit(timeout: .seconds(60))
            try #require(status == .exited(0), "cc failed: \(cc.diagnostics())")
        }
        return (library, control)
    }

    /// `crosspoint serve` on `jack` under the counter, ready, with an OSC
    /// client; the counts are written to the returned file when it ends.
    static func countedRig(_ jack: JackServer, _ library: String, _ directory: URL,
                           _ arguments: [String], environment: [String: String] = [:]) async throws -> (ChildProcess, OSCTestClient, URL) {
        let countsFile = directory.appendingPathComponent("crosspoint.txt")
        let serve = try ChildProcess(
            executable: CrosspointRig.binary,
            arguments: ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0", "--http-port", "0"]
                + arguments + CrosspointRig.fileArguments(directory),
            environment: environment.merging(["LD_PRELOAD": library, "ALLOC_COUNTER_FILE": countsFile.path]) { $1 },
            label: "crosspoint serve (counted)")
        do {
            let ready = try await serve.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
            let port = try #require(ready.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first
                .flatMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) })
            return (serve, try OSCTestClient(target: .init(host: "127.0.0.1", port: port)), countsFile)
        } catch {
            _ = serve.terminate(grace: .seconds(5))
            throw error
        }
    }

    /// On each SIMD path this CPU has (`CROSSPOINT_SIMD`): no allocation, free or lock in any callback.
    @Test(arguments: ["sse2", "avx2", "avx512", "neon"])
    func theProcessCallbackNeverAllocates(simd: String) async throws {
        guard SIMDPathTests.pathsOfThisCPU.contains(simd) else { return }
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (library, control) = try await Self.buildTools(in: directory)
        let jack = try await JackServer.start(synchronous: true)
        defer { jack.stop() }

        // The control: a client that mallocs and frees in every callback.
        let controlCounts = directory.appendingPathComponent("control.txt")
        let allocating = try ChildProcess(
            executable: control, arguments: ["0.5"],
            environment: jack.clientEnvironment.merging(["LD_PRELOAD": library, "ALLOC_COUNTER_FILE": controlCounts.path]) { $1 })
        #expect(try await allocating.waitForExit(timeout: .seconds(10)) == .exited(0))
        let seen = try Counts(file: controlCounts)
        try #require(seen["callbacks"] > 100 && seen["callback_allocs"] >= seen["callbacks"]
                     && seen["callback_frees"] >= seen["callbacks"], "the counter missed allocations: \(seen.values)")

        // The mixer, under traffic, with a MIDI controller played hard.
        let map = directory.appendingPathComponent("desk.json")
        try #"{"version": 1, "bindings": [{"control": "cc", "channel": 1, "number": 7, "address": "/source/1/volume", "form": "fader"}]}"#
            .write(to: map, atomically: true, encoding: .utf8)
        let (serve, osc, countsFile) = try await Self.countedRig(jack, library, directory,
                                                                 ["--inputs", "16", "--outputs", "16", "--listen",
                                                                  "--midi", "desk", "--midi-map", map.path],
                                                                 environment: ["CROSSPOINT_SIMD": simd])
        defer { osc.close(); _ = serve.terminate(grace: .seconds(5)) }
        let midi = try await JackMIDI.build(in: directory)
        let flood = try ChildProcess(executable: midi.executable, arguments: ["flood", "crosspoint:desk_in", "5000", "3", "9"],
                                     environment: jack.clientEnvironment, label: "jack-midi")
        defer { flood.terminate() }

        // Meters and feedback on, so the audio thread measures levels too.
        try osc.send("/meters/subscribe", .float(30))
        try osc.send("/subscribe")
        // EQ on every source and output and every limiter on, held still, so
        // that the stages run, on AVX-512 as pairs of groups through the C
        // transposes (CFrames).
        try osc.send("/source/*/eq/1/on", .int32(1))
        try osc.send("/source/*/eq/1/gain", .float(6))
        try osc.send("/output/*/eq/2/on", .int32(1))
        try osc.send("/output/*/eq/2/gain", .float(-4))
        try osc.send("/output/*/limiter/on", .int32(1))
        try osc.send("/preset/save", .string("perf-a"))
        try osc.send("/matrix/clear", .int32(1))
        try osc.send("/matrix/*/1", .float(0.5))
        try osc.send("/preset/save", .string("perf-b"))
        let clock = ContinuousClock()
        let end = clock.now + .seconds(2.5)
        var round = 0
        while clock.now < end {
            round += 1
            let n = round % 16 + 1, m = (round * 7) % 16 + 1
            try osc.send("/matrix/\(n)/\(m)", .float(Float(round % 5) / 4), .float(0.05))
            try osc.send("/source/\(n)/volume", .float(Float(round % 3) / 2), .float(0.2))
            try osc.send("/source/\(n)/pan", .float(Float(round % 3) - 1))
            try osc.send("/output/\(m)/db", .float(-Float(round % 20)), .float(0.1))
            try osc.send("/source/*/mute", .int32(Int32(round % 2)))
            try osc.send("/source/\(n)/solo", .int32(Int32(round % 2)))
            try osc.sendBundle([.init("/matrix/1/\(m)", .float(1)), .init("/master/volume", .float(0.8), .float(0.3))])
            // Timed bundles: cues split periods on the audio thread.
            try osc.sendBundle([.init("/matrix/2/\(m)", .float(Float(round % 2))), .init("/source/1/pan", .float(0.5))],
                               timeTag: .fromNow(0.01 + Double(round % 7) * 0.003))
            if round % 10 == 0 { try osc.send("/matrix/map", .int32(Int32(n)), .int32(0), .int32(3)) }
            if round % 25 == 0 { try osc.send("/preset/recall", .string(round % 50 == 0 ? "perf-a" : "perf-b"), .float(0.3)) }
            if round % 40 == 0 { try osc.send("/status") }
            // Talk on and off into changing destinations, and the listen
            // moving between sources and outputs: the stages after the mix.
            try osc.send("/talkback/\(round % 2 + 1)/output/\(m)", .int32(Int32(round % 3 == 0 ? 0 : 1)))
            if round % 4 == 0 { try osc.send("/talkback/1/talk", .int32(Int32(round / 4 % 2))) }
            if round % 6 == 0 { try osc.send("/talkback/2/dim_db", .float(-Float(round % 40))) }
            if round % 5 == 0 { try osc.send(round % 10 == 0 ? "/source/\(n)/listen" : "/output/\(m)/listen", .int32(1)) }
            // The rig changes size: the audio thread takes a new kernel.
            if round % 15 == 0 { try osc.send(round % 30 == 0 ? "/rig/inputs" : "/rig/outputs", .int32(round % 45 == 0 ? 12 : 20)) }
            try await Task.sleep(for: .milliseconds(5))
        }
        try osc.send("/ping")
        _ = try await osc.waitFor(address: "/pong", timeout: .seconds(5))
        _ = try osc.drain()
        try osc.send("/output/1/limiter/on")
        #expect(try await osc.waitFor(address: "/output/1/limiter/on").argument(0) == .int32(1), "the limiters were on")
        #expect(try await flood.waitForExit(timeout: .seconds(15)) == .exited(0), "\(flood.diagnostics())")
        try await Task.sleep(for: .milliseconds(400)) // let the last fades run in the audio thread
        _ = serve.terminate(grace: .seconds(5))

        let counts = try Counts(file: countsFile)
        #expect(counts["callbacks"] > 1000, "too few process callbacks counted: \(counts.values)\n\(serve.diagnostics())")
        #expect(counts["callback_allocs"] == 0, "allocations in the process callback: \(counts.values)")
        #expect(counts["callback_frees"] == 0, "frees in the process callback: \(counts.values)")
        #expect(counts["callback_locks"] == 0, "locks in the process callback: \(counts.values)")
        #expect(serve.standardError.contains("render kernel: SIMD path \(simd)"), "\(serve.diagnostics())")
    }

    /// The server killed under a running rig: libjack reports it through our
    /// shutdown callback and its error and info functions, which JACK2 may
    /// run on the process thread (`JackClient::Error`). The counter wraps
    /// each of them: wherever they run, they neither allocate, free nor lock
    /// (at debug level, where every JACK message is logged), and the rig
    /// notices and waits for the server.
    @Test func theServerDyingCostsTheCallbacksNoAllocationOrLock() async throws {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (library, _) = try await Self.buildTools(in: directory)
        let jack = try await JackServer.start(synchronous: true)
        defer { jack.stop() }
        let (serve, osc, countsFile) = try await Self.countedRig(jack, library, directory, ["--log-level", "debug"])
        defer { osc.close(); _ = serve.terminate(grace: .seconds(5)) }
        try osc.send("/meters/subscribe", .float(30))
        try osc.send("/matrix/*/1", .float(0.5), .float(1))
        try await Task.sleep(for: .milliseconds(300))

        #expect(jack.process.signalIfRunning(SIGKILL))
        _ = try await serve.waitForOutput(containing: "JACK server went away", timeout: .seconds(10))
        try await Task.sleep(for: .milliseconds(500)) // libjack's last words, and a reconnect attempt
        try osc.send("/ping")
        _ = try await osc.waitFor(address: "/pong", timeout: .seconds(5))
        #expect(serve.isRunning, "the rig outlives its server\n\(serve.diagnostics())")
        _ = serve.terminate(grace: .seconds(5))

        let counts = try Counts(file: countsFile)
        #expect(counts["callbacks"] > 100, "process callbacks counted: \(counts.values)")
        #expect(counts["other_callbacks"] > 0, "the shutdown and message callbacks ran: \(counts.values)")
        for key in ["callback_allocs", "callback_frees", "callback_locks", "other_allocs", "other_frees", "other_locks"] {
            #expect(counts[key] == 0, "\(key): \(counts.values)\n\(serve.diagnostics())")
        }
    }
}
}
