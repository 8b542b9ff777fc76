import Foundation

/// `tools/jack-midi`, a C JACK MIDI client run as a process of its own: it
/// plays a controller into a port of the rig's (`send`: given messages,
/// `flood`: random bytes at a rate) and exits once all are written.
struct JackMIDI {
    let executable: String

    /// Compiles tools/jack-midi/jack_midi.c into `directory`.
    static func build(in directory: URL) async throws -> JackMIDI {
        let source = JackTap.packageRoot.appendingPathComponent("tools/jack-midi/jack_midi.c").path
        let executable = directory.appendingPathComponent("jack-midi").path
        let cc = try ChildProcess(executable: JackTap.compiler,
                                  arguments: ["-O2", "-Wall", "-o", executable, source, "-ljack"],
                                  label: "cc jack_midi.c")
        guard try await cc.waitForExit(timeout: .seconds(60)) == .exited(0) else {
            throw RigError("could not build tools/jack-midi: \(cc.diagnostics())")
        }
        return JackMIDI(executable: executable)
    }

    /// Sends `messages` (hex bytes joined by '.', e.g. "B0.07.7F") to
    /// `port` on the rig's server, `gap` milliseconds apart, and waits for
    /// all to be written.
    func send(_ messages: [String], to port: String, on jack: JackServer, gap: Int = 10) async throws {
        try await run(["send", port, "\(gap)"] + messages, on: jack, timeout: .seconds(10 + messages.count * gap / 1000))
    }

    /// `rate` random events a second for `seconds` into `port`.
    func flood(_ port: String, rate: Int, seconds: Int, seed: Int, on jack: JackServer) async throws {
        try await run(["flood", port, "\(rate)", "\(seconds)", "\(seed)"], on: jack, timeout: .seconds(seconds * 3 + 10))
    }

    /// Records what `port` sends for `seconds`: starts recording, runs
    /// `during`, and returns each event as (milliseconds since the start,
    /// hex bytes joined by '.').
    func record(_ port: String, seconds: Double, on jack: JackServer,
                during: () async throws -> Void) async throws -> [(ms: Double, bytes: String)] {
        let process = try ChildProcess(executable: executable, arguments: ["record", port, "\(seconds)"],
                                       environment: jack.clientEnvironment, label: "jack-midi record")
        defer { process.terminate() }
        try await process.waitForOutput(containing: "ready", in: [.standardOutput], timeout: .seconds(10))
        try await during()
        guard try await process.waitForExit(timeout: .seconds(Int(seconds) + 10)) == .exited(0) else {
            throw RigError("jack-midi record: \(process.diagnostics())")
        }
        return process.standardOutput.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let ms = Double(parts[0]) else { return nil }
            return (ms, String(parts[1]))
        }
    }

    private func run(_ arguments: [String], on jack: JackServer, timeout: Duration) async throws {
        let process = try ChildProcess(executable: executable, arguments: arguments,
                                       environment: jack.clientEnvironment, label: "jack-midi")
        defer { process.terminate() }
        guard try await process.waitForExit(timeout: timeout) == .exited(0) else {
            throw RigError("jack-midi \(arguments.prefix(2).joined(separator: " ")): \(process.diagnostics())")
        }
    }
}
