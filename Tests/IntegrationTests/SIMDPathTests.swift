import Foundation
import Testing

/// `CROSSPOINT_SIMD`: the real binary forced onto each SIMD path this CPU
/// has renders a mix heard through real JACK ports; a path the CPU lacks is
/// refused at start, by `serve` and by `bench`, with the paths it has.
extension Integration {
@Suite struct SIMDPathTests {
    typealias A = SignalAnalysis

    /// The paths this CPU runs, from /proc/cpuinfo (not from the binary):
    /// x86-64-v3 needs AVX2, FMA, BMI1/2, F16C, LZCNT (abm), MOVBE;
    /// x86-64-v4 adds AVX-512 F, BW, CD, DQ, VL.
    static var pathsOfThisCPU: Set<String> {
        #if arch(arm64)
        return ["neon"]
        #else
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let flags = Set(info.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
        var paths: Set<String> = ["sse2"]
        if flags.isSuperset(of: ["avx2", "fma", "bmi1", "bmi2", "f16c", "abm", "movbe"]) { paths.insert("avx2") }
        if paths.contains("avx2") && flags.isSuperset(of: ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]) {
            paths.insert("avx512")
        }
        return paths
        #endif
    }

    /// Six tones through a fully routed 6x6 matrix (the loops that mix six
    /// outputs at once), then one crosspoint fading (the ramping loops):
    /// every output carries each tone at its crosspoint's gain, on each path.
    @Test(arguments: ["sse2", "avx2", "avx512", "neon"])
    func eachPathRendersAToneMix(path: String) async throws {
        guard Self.pathsOfThisCPU.contains(path) else {
            try await refused(path)
            return
        }
        let frequencies: [Float] = [500, 700, 1100, 1300, 1700, 1900]
        func gain(_ n: Int, _ m: Int) -> Float { Float((n * 7 + m * 3) % 10 + 1) / 20 }
        try await withRig(inputs: 6, outputs: 6, environment: ["CROSSPOINT_SIMD": path]) { rig in
            let logged = try await rig.crosspoint.waitForOutput(containing: "render kernel: SIMD path", timeout: .seconds(5))
            #expect(logged.contains("render kernel: SIMD path \(path) (forced by CROSSPOINT_SIMD"), "\(logged)")
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/simd").arguments == [.string(path)])
            for n in 1...6 { rig.playSine(input: n, frequency: frequencies[n - 1], amplitude: 0.1 * Float(n)) }
            for n in 1...6 { for m in 1...6 { try rig.osc.send("/matrix/\(n)/\(m)", .float(gain(n, m))) } }
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(60))
            // Harmonics of 5 Hz over 0.2 s: each tone fitted apart from the others.
            let settled = try await rig.record(seconds: 0.3)
            for m in 1...6 {
                for n in 1...6 {
                    let fit = A.fitSine(settled.channels[m - 1], frequency: Double(frequencies[n - 1]),
                                        sampleRate: Double(rig.sampleRate), in: 2400..<12000)
                    let expected = 0.1 * Float(n) * gain(n, m)
                    #expect(abs(fit.amplitude - expected) < 2e-4, "\(path): out_\(m), tone \(n): \(fit.amplitude) for \(expected)")
                }
            }
            // A 2 s fade of crosspoint 1 → 1 to 0: recorded while it moves,
            // tone 1 on out_1 falls and the other tones stay.
            try rig.osc.send("/matrix/1/1", .float(0), .float(2))
            let fading = try await rig.record(seconds: 0.6)
            let early = A.fitSine(fading.channels[0], frequency: 500, sampleRate: 48_000, in: 0..<9600)
            let late = A.fitSine(fading.channels[0], frequency: 500, sampleRate: 48_000, in: 19200..<28800)
            #expect(late.amplitude < early.amplitude * 0.99 && late.amplitude > 0.001, "\(path): \(early.amplitude) → \(late.amplitude)")
            let other = A.fitSine(fading.channels[0], frequency: 1900, sampleRate: 48_000, in: 19200..<28800)
            #expect(abs(other.amplitude - 0.6 * gain(6, 1)) < 2e-4, "\(path): tone 6 on out_1 while tone 1 fades: \(other.amplitude)")
        }
    }

    /// A path this CPU lacks, or that is no path: `serve` and `bench` stop at
    /// once with an error naming it and the paths the CPU has; neither is
    /// killed by a signal (an instruction the CPU lacks would be SIGILL).
    func refused(_ path: String) async throws {
        for arguments in [["serve", "--no-autostart", "--jack-server", "crosspoint-none-\(UUID().uuidString.prefix(8))",
                           "--osc-port", "0", "--no-http", "--state-optional"],
                          ["bench", "--inputs", "4", "--outputs", "4", "--seconds", "0.1"]] {
            let said = try await Self.refusal([CrosspointRig.binary] + arguments, simd: path)
            #expect(said.contains("CROSSPOINT_SIMD=\(path): this CPU cannot run the \(path) path; it runs sse2")
                    || said.contains("it runs neon"), "\(arguments[0]): \(said)")
        }
    }

    @Test func aNameThatIsNoPathIsRefused() async throws {
        let said = try await Self.refusal([CrosspointRig.binary, "bench", "--inputs", "2", "--seconds", "0.1"], simd: "avx3")
        #expect(said.contains("CROSSPOINT_SIMD=avx3 is not a SIMD path (sse2|avx2|avx512|neon)"), "\(said)")
    }

    /// Runs `command` with `CROSSPOINT_SIMD=simd`, expects it to stop with
    /// status 1 (not a signal), and returns what it wrote to stderr.
    static func refusal(_ command: [String], simd: String) async throws -> String {
        let process = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()),
                                       environment: ["CROSSPOINT_SIMD": simd], label: "crosspoint, \(simd)")
        defer { process.terminate() }
        #expect(try await process.waitForExit(timeout: .seconds(60)) == .exited(1), "\(command) with \(simd)")
        return process.standardError
    }

    /// `bench` names the path in its text and JSON output: the widest unless forced.
    @Test func benchNamesThePath() async throws {
        let widest = ["avx512", "avx2", "neon", "sse2"].first { Self.pathsOfThisCPU.contains($0) }!
        for (environment, expected) in [([String: String](), widest), (["CROSSPOINT_SIMD": "sse2"], "sse2")]
            where Self.pathsOfThisCPU.contains(expected) {
            for json in [false, true] {
                let process = try ChildProcess(
                    executable: CrosspointRig.binary,
                    arguments: ["bench", "--inputs", "8", "--outputs", "8", "--seconds", "0.1"] + (json ? ["--json"] : []),
                    environment: environment, label: "crosspoint bench")
                defer { process.terminate() }
                #expect(try await process.waitForExit(timeout: .seconds(20)) == .exited(0))
                let out = process.standardOutput
                #expect(json ? out.contains("\"simd\": \"\(expected)\"") : out.hasPrefix("# SIMD path: \(expected) ("),
                        "\(environment): \(out)")
            }
        }
    }
}
}
