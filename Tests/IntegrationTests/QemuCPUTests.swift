import Foundation
import Testing

/// The release binary on a CPU without AVX: `qemu-x86_64 -cpu Westmere`
/// (SSE4.2, no AVX) runs it as such a CPU would, and an instruction that
/// CPU lacks stops it with SIGILL ("uncaught target signal 4"). `bench` and
/// a short `serve` in a real JACK server must run there, on the sse2 path.
/// Skipped, with a note, where qemu-user is not installed (scripts/setup
/// installs it) or on a machine that is not x86-64.
extension Integration {
@Suite struct QemuCPUTests {
    static let qemu = ["/usr/bin/qemu-x86_64", "/usr/local/bin/qemu-x86_64"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The release build (`swift build -c release --product crosspoint`, which
    /// scripts/test runs), or `CROSSPOINT_RELEASE_BIN`; the debug build beside
    /// the tests, with a note, where there is none.
    static var release: String {
        if let path = ProcessInfo.processInfo.environment["CROSSPOINT_RELEASE_BIN"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let built = root.appendingPathComponent(".build/release/crosspoint").path
        if FileManager.default.isExecutableFile(atPath: built) { return built }
        print("note: no release build at \(built); the CPU tests run the debug build \(CrosspointRig.binary)")
        return CrosspointRig.binary
    }

    static var runnable: Bool {
        #if arch(x86_64)
        if qemu == nil { print("note: qemu-user is not installed (apt-get install qemu-user): the CPU tests are skipped") }
        return qemu != nil
        #else
        print("note: not an x86-64 machine: the x86 CPU tests are skipped")
        return false
        #endif
    }

    @Test func benchRunsOnACPUWithoutAVX() async throws {
        guard Self.runnable, let qemu = Self.qemu else { return }
        // Plain, as JSON, and with every EQ and limiter on: the stages' base
        // build, whose transposes are Swift where the other paths call C
        // with AVX (CFrames), must not reach an AVX instruction either.
        for (json, stages) in [(false, [String]()), (true, []), (false, ["--eq", "--limiters"])] {
            let bench = try ChildProcess(executable: qemu, arguments: ["-cpu", "Westmere", Self.release, "bench",
                                                                       "--inputs", "16", "--outputs", "16", "--seconds", "0.3"]
                                                                      + (json ? ["--json"] : []) + stages,
                                         label: "qemu crosspoint bench")
            defer { bench.terminate() }
            let status = try await bench.waitForExit(timeout: .seconds(120))
            #expect(status == .exited(0), "\(status): \(bench.standardError)")
            #expect(!bench.standardError.contains("signal 4"), "\(bench.standardError)")
            let out = bench.standardOutput
            #expect(json ? out.contains("\"simd\": \"sse2\"") : out.hasPrefix("# SIMD path: sse2 (the widest of sse2)"), "\(out)")
            #expect(out.contains(json ? "\"active_crosspoints\": 256" : "    16      16     64"), "\(out)")
        }
        // The AVX2 path, forced on that CPU, is refused: never run.
        let said = try await SIMDPathTests.refusal([qemu, "-cpu", "Westmere", Self.release, "bench", "--inputs", "4",
                                                    "--seconds", "0.1"], simd: "avx2")
        #expect(said.contains("CROSSPOINT_SIMD=avx2: this CPU cannot run the avx2 path; it runs sse2"), "\(said)")
    }

    /// As a CPU with AVX2 and no AVX-512 (`-cpu Haswell`, which qemu runs
    /// from 7.2): the avx2 path, the EQ and the limiters on, reaches no
    /// AVX-512 instruction (a copy of a helper from the avx512 build that
    /// the linker kept would: `PathSymbolTests`).
    @Test func benchRunsOnACPUWithAVX2AndNoAVX512() async throws {
        guard Self.runnable, let qemu = Self.qemu else { return }
        let bench = try ChildProcess(executable: qemu, arguments: ["-cpu", "Haswell", Self.release, "bench", "--inputs", "16",
                                                                   "--outputs", "16", "--seconds", "0.3", "--eq", "--limiters"],
                                     label: "qemu crosspoint bench")
        defer { bench.terminate() }
        let status = try await bench.waitForExit(timeout: .seconds(120))
        #expect(status == .exited(0), "\(status): \(bench.standardError)")
        if bench.standardOutput.hasPrefix("# SIMD path: sse2 (the widest of sse2)") {
            print("note: this qemu runs no AVX2 as Haswell (it does from 7.2): the avx2 path is not checked there")
            return
        }
        #expect(bench.standardOutput.hasPrefix("# SIMD path: avx2 (the widest of sse2, avx2)"), "\(bench.standardOutput)")
        #expect(bench.standardOutput.contains("    16      16     64"), "\(bench.standardOutput)")
    }

    /// `serve` under qemu in a real JACK server: it says sse2 at start and in
    /// `/status/simd`, and mixes two tones into two outputs as it should.
    @Test func serveMixesOnACPUWithoutAVX() async throws {
        guard Self.runnable, let qemu = Self.qemu else { return }
        try await withRig(inputs: 2, outputs: 2, binary: Self.release, launcher: [qemu, "-cpu", "Westmere"]) { rig in
            let logged = try await rig.crosspoint.waitForOutput(containing: "render kernel: SIMD path", timeout: .seconds(5))
            #expect(logged.contains("render kernel: SIMD path sse2 (the widest of sse2)"), "\(logged)")
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/simd", timeout: .seconds(5)).arguments == [.string("sse2")])
            rig.playSine(input: 1, frequency: 500, amplitude: 0.4)
            rig.playSine(input: 2, frequency: 1300, amplitude: 0.3)
            try rig.osc.send("/matrix/1/2", .float(0.5))
            try rig.osc.send("/matrix/2/1", .float(0.25))
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(100))
            let recording = try await rig.record(seconds: 0.3)
            for (m, n, frequency, amplitude) in [(1, 1, 500.0, Float(0.4)), (1, 2, 1300, 0.075), (2, 1, 500, 0.2), (2, 2, 1300, 0.3)] {
                let fit = SignalAnalysis.fitSine(recording.channels[m - 1], frequency: frequency, sampleRate: 48_000, in: 2400..<12000)
                #expect(abs(fit.amplitude - amplitude) < 2e-4, "out_\(m), tone \(n): \(fit.amplitude) for \(amplitude)")
            }
            #expect(!rig.crosspoint.standardError.contains("signal 4"))
        }
    }
}
}
