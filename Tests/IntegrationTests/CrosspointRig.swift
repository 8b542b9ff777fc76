import Foundation
import Testing

/// A whole rig for one test: a real `jackd -d dummy` under a unique name
/// (`-R`, real-time, where the machine allows it: ``JackServer``),
/// the real `crosspoint serve` binary on it, a JACK probe playing into its
/// inputs, another recording its outputs, and an OSC client aimed at it.
/// `stop()` ends every process it started (also on failure: each is killed
/// by its own PID when released).
final class CrosspointRig: @unchecked Sendable {
    let jack: JackServer
    let crosspoint: ChildProcess
    let source: JackProbe
    let recorder: JackProbe
    let osc: OSCTestClient
    let oscPort: Int
    /// The OSCQuery server's HTTP and WebSocket port.
    let httpPort: Int
    let inputs: Int
    let outputs: Int
    /// A fresh directory for this rig's presets (`presets/`) and state file (`state.json`).
    let directory: URL
    var presets: URL { directory.appendingPathComponent("presets") }
    var stateFile: URL { directory.appendingPathComponent("state.json") }

    /// The built `crosspoint` executable, beside the test bundle.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["CROSSPOINT_BIN"] { return path }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("crosspoint").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/crosspoint").path
    }

    /// A new empty directory under the system's temporary directory.
    static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crosspoint-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("presets"), withIntermediateDirectories: true)
        return url
    }

    /// The arguments that keep a test's presets and state in its own directory.
    static func fileArguments(_ directory: URL) -> [String] {
        ["--presets", directory.appendingPathComponent("presets").path,
         "--state", directory.appendingPathComponent("state.json").path]
    }

    /// - Parameter periodSize: the JACK server's frames per period (`jackd
    ///   -p`), a power of two; the server's own figure is `jack.periodSize`.
    /// - Parameter environment: variables set for `crosspoint serve` on top of the test's.
    /// - Parameter launcher: a command that runs the binary (`qemu-x86_64 -cpu Westmere`); none: run it directly.
    static func start(inputs: Int = 2, outputs: Int = 2, periodSize: Int = 64,
                      arguments: [String] = [], environment: [String: String] = [:],
                      binary: String = CrosspointRig.binary, launcher: [String] = []) async throws -> CrosspointRig {
        // Synchronous mode: the server waits for the whole graph each cycle,
        // so a late client never reads a buffer already overwritten.
        let jack = try await JackServer.start(periodSize: periodSize, synchronous: true)
        do {
            return try await CrosspointRig(jack: jack, inputs: inputs, outputs: outputs, arguments: arguments,
                                           environment: environment, command: launcher + [binary])
        } catch {
            jack.stop()
            throw error
        }
    }

    private init(jack: JackServer, inputs: Int, outputs: Int, arguments: [String],
                 environment: [String: String], command: [String]) async throws {
        self.jack = jack
        self.inputs = inputs
        self.outputs = outputs
        directory = try Self.makeDirectory()
        crosspoint = try ChildProcess(
            executable: command[0],
            arguments: command.dropFirst() + ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0",
                        "--inputs", "\(inputs)", "--outputs", "\(outputs)", "--http-port", "0"]
                + Self.fileArguments(directory) + arguments,
            environment: environment,
            label: "crosspoint serve")
        do {
            let ready = try await crosspoint.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
            guard let port = ready.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first
                .flatMap({ Int($0.trimmingCharacters(in: .punctuationCharacters)) }) else {
                throw RigError("no OSC port in: \(ready)")
            }
            oscPort = port
            guard let http = ready.split(separator: " ").drop(while: { $0 != "HTTP" }).dropFirst(2).first
                .flatMap({ Int($0.trimmingCharacters(in: .punctuationCharacters)) }) else {
                throw RigError("no HTTP port in: \(ready)")
            }
            httpPort = http
            source = try JackProbe(server: jack, clientName: "xp-source", playPorts: inputs, recordPorts: 0)
            recorder = try JackProbe(server: jack, clientName: "xp-recorder", playPorts: 0, recordPorts: outputs)
            for n in 1...inputs { try source.connect(from: source.playPort(n), to: "crosspoint:in_\(n)") }
            for m in 1...outputs { try recorder.connect(from: "crosspoint:out_\(m)", to: recorder.recordPort(m)) }
            osc = try OSCTestClient(target: .init(host: "127.0.0.1", port: port))
        } catch {
            crosspoint.terminate()
            throw error
        }
    }

    /// Waits for a `crosspoint serve` to say it is ready; returns its OSC port.
    static func oscPort(of process: ChildProcess) async throws -> Int {
        let line = try await process.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
        guard let port = line.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first
            .flatMap({ Int($0.trimmingCharacters(in: .punctuationCharacters)) }) else {
            throw RigError("no OSC port in: \(line)")
        }
        return port
    }

    /// Stops crosspoint (SIGTERM, as an operator would) and the JACK server.
    func stop() {
        source.close()
        recorder.close()
        osc.close()
        crosspoint.terminate()
        jack.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var sampleRate: Int { jack.sampleRate }

    /// Plays a sine on input n.
    func playSine(input n: Int, frequency: Float = 1000, amplitude: Float) {
        source.setSignal(.sine(frequency: frequency, amplitude: amplitude), playPort: n)
    }

    /// Sends a message and waits for its effect to reach the audio thread:
    /// a `/ping` after it is answered only once the message was handled.
    func sendAndSettle(_ address: String, _ arguments: OSCTestClient.Argument...) async throws {
        try osc.send(address, arguments: arguments)
        try await ping()
    }

    func ping() async throws {
        try osc.send("/ping")
        _ = try await osc.waitFor(address: "/pong", timeout: .seconds(5))
    }

    /// Stops this rig's `crosspoint serve` and starts another on the same
    /// JACK server, OSC and HTTP ports, presets and state file (with no size flags,
    /// unless given in `arguments`: the state file's size then holds);
    /// returns it once ready. The caller terminates it.
    func restart(arguments: [String] = []) async throws -> ChildProcess {
        crosspoint.terminate()
        let restarted = try ChildProcess(
            executable: Self.binary,
            arguments: ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "\(oscPort)",
                        "--http-port", "\(httpPort)"] + Self.fileArguments(directory) + arguments,
            label: "crosspoint serve (restarted)")
        do {
            try await restarted.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
        } catch {
            restarted.terminate()
            throw error
        }
        return restarted
    }

    /// Runs `crosspoint send` against this rig and returns its output. A
    /// preset save, delete or rename is answered once on disk (fsync): it
    /// waits at least 2 s for that (a loaded machine took more than 0.5 s).
    func send(_ words: [String], wait: Double = 0.5) async throws -> (output: String, status: ChildProcess.Termination) {
        let writes = ["/preset/save", "/preset/delete", "/preset/rename"].contains(words.first ?? "")
        let client = try ChildProcess(executable: Self.binary,
                                      arguments: ["send", "--port", "\(oscPort)", "--wait", "\(writes ? max(wait, 2) : wait)"] + words,
                                      label: "crosspoint send")
        let status = try await client.waitForExit(timeout: .seconds(10))
        return (client.standardOutput, status)
    }

    /// Records all outputs for `seconds`, running `during` once recording
    /// has begun: the recording holds at least 0.05 s, then `seconds` after
    /// the sample `during` is given (where it begins), whatever JACK's
    /// estimate of the frame time said on a loaded machine.
    func record(seconds: Double, during: (Int) async throws -> Void = { _ in }) async throws -> Recording {
        try await recorder.startRecording()
        try await recorder.waitForRecordedFrames(Int(0.05 * Double(sampleRate)))
        // The frame time's estimate against what the recorder has: never
        // before the recording's start (a non-real-time server under load
        // gave an estimate behind it, and a take too short for its checks).
        let mark = max(recorder.currentRecordingPosition() ?? 0, 0)
        try await during(mark)
        try await recorder.waitForRecordedFrames(max(mark, Int(0.05 * Double(sampleRate))) + Int(seconds * Double(sampleRate)))
        return try await recorder.stopRecording()
    }

    /// Diagnostics for a failed expectation.
    var diagnostics: String {
        "crosspoint:\n\(crosspoint.diagnostics())\njackd:\n\(jack.diagnostics)"
    }
}

struct RigError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` with a fresh rig and stops it afterwards, whatever happens.
func withRig(inputs: Int = 2, outputs: Int = 2, periodSize: Int = 64, arguments: [String] = [],
             environment: [String: String] = [:], binary: String = CrosspointRig.binary, launcher: [String] = [],
             _ body: (CrosspointRig) async throws -> Void) async throws {
    let rig = try await CrosspointRig.start(inputs: inputs, outputs: outputs, periodSize: periodSize,
                                            arguments: arguments, environment: environment, binary: binary, launcher: launcher)
    defer { rig.stop() }
    do {
        try await body(rig)
    } catch {
        Issue.record("\(error)\n\(rig.diagnostics)")
        throw error
    }
}
