#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private, headless PipeWire daemon for one test: `pipewire` with its own
/// runtime directory (so its socket is no one else's) and its own
/// configuration directory, no session manager, no D-Bus. Its JACK clients
/// run under `pw-jack` (``run(_:arguments:label:)``), which loads PipeWire's
/// libjack in place of jackd2's.
///
/// ```swift
/// let pipewire = try await PipeWireServer.start()
/// defer { pipewire.stop() }
/// let serve = try pipewire.run(CrosspointRig.binary, arguments: ["serve", …])
/// ```
///
/// What the daemon's default configuration gives and this one pins down:
/// the `Dummy-Driver` node (a timer, no sound card) drives the graph at
/// 48 kHz; a client's `PIPEWIRE_LATENCY=64/48000` asks for a 64-frame
/// quantum, which the graph takes if no client wants less. The only change
/// is the minimum quantum, kept at PipeWire's usual 16 even where PipeWire
/// detects a virtual machine (its `vm.overrides` would raise it to 1024).
///
/// The daemon is stopped by ``stop()``, or by `deinit` and the
/// ``ChildProcessRegistry`` safety nets; it starts no children of its own
/// (the configuration's `context.exec` is empty).
final class PipeWireServer: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case notInstalled(missing: [String])
        case notReady(reason: String, diagnostics: String)

        var description: String {
            switch self {
            case .notInstalled(let missing):
                "PipeWire is not installed (no \(missing.joined(separator: ", ")) in PATH): run scripts/setup, "
                    + "or apt-get install pipewire pipewire-jack pipewire-bin"
            case .notReady(let reason, let diagnostics):
                "PipeWire did not become ready: \(reason)\n\(diagnostics)"
            }
        }
    }

    /// Frames per period that clients ask for (`PIPEWIRE_LATENCY`).
    let quantum: Int
    let sampleRate: Int
    /// Holds `run/` (XDG_RUNTIME_DIR, the socket `pipewire-0`) and `config/`
    /// (XDG_CONFIG_HOME, the drop-in configuration). Removed by ``stop()``.
    let directory: URL
    /// The `pipewire` daemon.
    let process: ChildProcess

    /// What a client of this daemon needs: its socket's directory, and the
    /// quantum to ask for.
    var clientEnvironment: [String: String] {
        Self.environment(directory).merging(["PIPEWIRE_REMOTE": "pipewire-0",
                                             "PIPEWIRE_LATENCY": "\(quantum)/\(sampleRate)"]) { $1 }
    }

    /// The daemon's and its clients' directories, overriding whatever the
    /// test process inherited (PipeWire looks at PIPEWIRE_RUNTIME_DIR first).
    private static func environment(_ directory: URL) -> [String: String] {
        let runtime = directory.appendingPathComponent("run").path
        return ["PIPEWIRE_RUNTIME_DIR": runtime, "XDG_RUNTIME_DIR": runtime,
                "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path]
    }

    /// The programs the PipeWire tests need, from pipewire, pipewire-bin
    /// and pipewire-jack.
    static let requiredPrograms = ["pipewire", "pw-jack", "pw-cli", "pw-link"]

    /// Fails with ``Failure/notInstalled(missing:)`` unless every program of
    /// ``requiredPrograms`` is in PATH and PipeWire's libjack is present.
    static func checkInstalled() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var missing = requiredPrograms.filter { program in
            !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }
        let libraries = ["/usr/lib/x86_64-linux-gnu/pipewire-0.3/jack/libjack.so.0",
                         "/usr/lib/aarch64-linux-gnu/pipewire-0.3/jack/libjack.so.0",
                         "/usr/lib64/pipewire-0.3/jack/libjack.so.0", "/usr/lib/pipewire-0.3/jack/libjack.so.0"]
        if !libraries.contains(where: { FileManager.default.fileExists(atPath: $0) }) {
            missing.append("PipeWire's libjack (pipewire-jack)")
        }
        if !missing.isEmpty { throw Failure.notInstalled(missing: missing) }
    }

    /// Starts `pipewire` and waits until its `Dummy-Driver` node exists.
    static func start(quantum: Int = 64, sampleRate: Int = 48_000,
                      timeout: Duration = .seconds(15)) async throws -> PipeWireServer {
        try checkInstalled()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("crosspoint-pipewire-\(UUID().uuidString)")
        let runtime = directory.appendingPathComponent("run")
        let dropIns = directory.appendingPathComponent("config/pipewire/pipewire.conf.d")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        // PipeWire refuses a runtime directory others can write to.
        chmod(runtime.path, 0o700)
        try """
            # Written by the Crosspoint integration tests.
            context.properties = {
                default.clock.rate        = \(sampleRate)
                default.clock.min-quantum = 16
                vm.overrides = { default.clock.min-quantum = 16 }
            }
            """.write(to: dropIns.appendingPathComponent("crosspoint-test.conf"), atomically: true, encoding: .utf8)

        // There is no session bus: PipeWire says so in two harmless error lines.
        let process: ChildProcess
        do {
            process = try ChildProcess(executable: "pipewire", environment: environment(directory), label: "pipewire")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let server = PipeWireServer(quantum: quantum, sampleRate: sampleRate, directory: directory, process: process)
        do {
            try await server.waitUntilReady(timeout: timeout)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    private init(quantum: Int, sampleRate: Int, directory: URL, process: ChildProcess) {
        self.quantum = quantum
        self.sampleRate = sampleRate
        self.directory = directory
        self.process = process
    }

    deinit {
        stop()
    }

    /// Starts `executable` under `pw-jack`, as a client of this daemon.
    /// `pw-jack` is a shell script that ends in `exec`, so the child's PID is
    /// the program's own.
    func run(_ executable: String, arguments: [String] = [], environment: [String: String] = [:],
             label: String? = nil) throws -> ChildProcess {
        try ChildProcess(executable: "pw-jack", arguments: [executable] + arguments,
                         environment: clientEnvironment.merging(environment) { $1 },
                         label: label ?? (executable as NSString).lastPathComponent)
    }

    /// Runs a `pw-*` tool (pw-cli, pw-link, pw-dump…) against this daemon and
    /// returns its standard output; throws unless it exits with status 0.
    func tool(_ program: String, _ arguments: [String], timeout: Duration = .seconds(10)) async throws -> String {
        let child = try ChildProcess(executable: program, arguments: arguments, environment: clientEnvironment)
        let status = try await child.waitForExit(timeout: timeout)
        guard status == .exited(0) else {
            throw RigError("\(program) \(arguments.joined(separator: " ")) \(status)\n\(child.diagnostics())")
        }
        return child.standardOutput
    }

    /// What the daemon printed, for failure messages.
    var diagnostics: String { process.diagnostics() }

    /// Stops the daemon (SIGTERM, then SIGKILL) and removes its directories.
    /// Idempotent.
    func stop() {
        process.terminate(grace: .seconds(3))
        try? FileManager.default.removeItem(at: directory)
    }

    private func waitUntilReady(timeout: Duration) async throws {
        let start = ContinuousClock.now
        let socket = directory.appendingPathComponent("run/pipewire-0").path
        var lastReason = "no socket \(socket) yet"
        while true {
            if let ended = process.termination {
                throw Failure.notReady(reason: "pipewire \(ended)", diagnostics: process.diagnostics())
            }
            if FileManager.default.fileExists(atPath: socket) {
                do {
                    let nodes = try await tool("pw-cli", ["ls", "Node"])
                    if nodes.contains("Dummy-Driver") { return }
                    lastReason = "no Dummy-Driver node yet:\n\(nodes)"
                } catch {
                    lastReason = "\(error)"
                }
            }
            if ContinuousClock.now - start > timeout {
                throw Failure.notReady(reason: lastReason, diagnostics: process.diagnostics())
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
