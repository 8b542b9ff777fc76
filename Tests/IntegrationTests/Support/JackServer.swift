#if canImport(Glibc)
import Glibc
#endif
import CJack
import Foundation
import Synchronization

/// A private JACK server for one test: `jackd` on the dummy backend (no sound
/// card), under a name no other test or user shares, with real-time
/// scheduling (`jackd -R`, SCHED_FIFO) where the machine allows it.
///
/// Without real-time scheduling the server's and clients' audio threads are
/// ordinary threads, and a busy machine gives xruns that are nobody's fault:
/// under 10,000 OSC messages a second a `-r` server counted about 8 times as
/// many as idle, a `-R` one no more than idle. So a check that counts xruns
/// belongs only under `-R` (``isRealtime``; see ``xrunChecksApply(to:)``).
///
/// ```swift
/// let server = try await JackServer.start()
/// defer { server.stop() }
/// let mixer = try ChildProcess(executable: path, environment: server.clientEnvironment)
/// ```
///
/// The server is stopped by ``stop()`` or, failing that, by `deinit` and the
/// ``ChildProcessRegistry`` safety nets.
public final class JackServer: @unchecked Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case notReady(server: String, reason: String, diagnostics: String)

        public var description: String {
            switch self {
            case .notReady(let server, let reason, let diagnostics):
                "JACK server \(server) did not become ready: \(reason)\n\(diagnostics)"
            }
        }
    }

    /// The server name (`jackd -n`), unique per test process and server:
    /// `xp-test-<pid>-<counter>` unless the test chose one.
    public let name: String
    /// The sample rate the server runs at, as it reported it.
    public let sampleRate: Int
    /// Frames per period, as the server reported it.
    public let periodSize: Int
    /// The `jackd` process (its stdout/stderr are kept for diagnostics).
    public let process: ChildProcess
    /// True when the server runs `jackd -R` and its threads really are
    /// SCHED_FIFO or SCHED_RR; false when it fell back to `jackd -r`
    /// (``realtimeUnavailableReason`` says why).
    public let isRealtime: Bool
    /// Why the server runs without real-time scheduling; nil when it has it.
    public let realtimeUnavailableReason: String?

    private static let counter = Atomic<Int>(0)

    /// Once `-R` has failed in this test process, every later server starts
    /// straight with `-r` (the machine will not change its mind), with the
    /// first failure's reason.
    private static let realtimeFailure = Mutex<String?>(nil)

    /// Set to `0` to run every test server without real-time scheduling
    /// (to see how the suite behaves on a machine that cannot give it).
    public static let realtimeEnvironmentVariable = "CROSSPOINT_TEST_JACK_REALTIME"

    /// Environment variables a JACK client process needs to reach this server.
    public var clientEnvironment: [String: String] {
        ["JACK_DEFAULT_SERVER": name]
    }

    /// What `jackd` printed so far, for failure messages.
    public var diagnostics: String { process.diagnostics() }

    /// True while `jackd` runs.
    public var isRunning: Bool { process.isRunning }

    /// Starts `jackd -n <name> -R [-S] -d dummy -r <sampleRate> -p <periodSize>`
    /// and waits until a client can connect to it.
    ///
    /// Real-time scheduling is proved, not assumed: jackd 1.9 keeps running
    /// when `-R` cannot get SCHED_FIFO (it only logs "Cannot use real-time
    /// scheduling"), so once the server is ready its threads' policies are
    /// read from /proc. If none is real-time, or `jackd -R` did not start,
    /// the server is started again with `-r`, and one line on stderr says so:
    /// `note: jackd NAME runs without real-time scheduling: REASON`.
    ///
    /// - Parameters:
    ///   - name: the server name; by default a fresh `xp-test-<pid>-<n>`.
    ///     Pass a stopped server's ``name`` to bring "the same" server back.
    ///   - synchronous: `jackd -S` (the default here). In JACK2's default
    ///     asynchronous mode a client that runs late can read a buffer its
    ///     upstream client has already overwritten with the next period: one
    ///     period of wrong audio, with no gap in frame times. Measured on the
    ///     2-core build machine with two probes (player → recorder), 30 takes
    ///     of 0.5 s each: asynchronous, 4 takes with clicks on an idle
    ///     machine, and with one busy process beside it 8 with clicks and all
    ///     30 with skipped cycles; synchronous, none in either case.
    ///     Synchronous mode waits for the whole graph every cycle, so under
    ///     load the clock slows down instead (down to 2/3 of real time).
    ///   - periodSize: frames per period (`-p`), a power of two; the
    ///     server's own figure is in ``periodSize``.
    ///   - realtime: try `jackd -R` first (the default). False starts `-r`
    ///     directly, as does `CROSSPOINT_TEST_JACK_REALTIME=0`.
    ///   - capturePorts, playbackPorts: the dummy backend's `system:` ports.
    ///   - driver: another backend and its options, everything after `-d`
    ///     (a netjack2 slave: `["net", "-a", MASTER_IP, "-n", NAME]`);
    ///     `sampleRate`, `periodSize` and the port counts then do not apply.
    ///   - launcher: starts `jackd` with these arguments, environment and
    ///     label some other way (inside a network namespace: ``LinkedNamespaces``);
    ///     by default a plain ``ChildProcess``.
    ///   - timeout: how long to wait for the server to accept clients.
    public static func start(
        name: String? = nil,
        sampleRate: Int = 48_000,
        periodSize: Int = 64,
        synchronous: Bool = true,
        realtime: Bool = true,
        capturePorts: Int = 2,
        playbackPorts: Int = 2,
        driver: [String]? = nil,
        launcher: Launch? = nil,
        timeout: Duration = .seconds(15)
    ) async throws -> JackServer {
        removeLeftoversOfDeadTestProcesses()
        reclaimRegistrySlotsOfDeadServers()
        let generated = name == nil
        let name = name ?? "xp-test-\(getpid())-\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        func launch(realtime: Bool, reason: String?) async throws -> JackServer {
            let backend = driver ?? ["dummy", "-r", "\(sampleRate)", "-p", "\(periodSize)",
                                     "-C", "\(capturePorts)", "-P", "\(playbackPorts)"]
            let arguments = ["-n", name, realtime ? "-R" : "-r"] + (synchronous ? ["-S"] : []) + ["-d"] + backend
            // No D-Bus device reservation: there is no sound card to reserve.
            let environment = ["JACK_NO_AUDIO_RESERVATION": "1"]
            let process = try launcher?("jackd", arguments, environment, "jackd \(name)")
                ?? ChildProcess(executable: "jackd", arguments: arguments, environment: environment,
                                label: "jackd \(name)")
            do {
                let (actualRate, actualPeriod) = try await waitUntilReady(name: name, process: process, timeout: timeout)
                return JackServer(name: name, process: process, sampleRate: actualRate, periodSize: actualPeriod,
                                  isRealtime: realtime, realtimeUnavailableReason: reason)
            } catch {
                process.terminate()
                // A chosen name may belong to a server that is running right now
                // (which is why this one failed): leave its files alone.
                if generated { removeLeftovers(of: name) }
                throw error
            }
        }

        guard realtime else {
            return try await launch(realtime: false, reason: "not asked for (realtime: false)")
        }
        var reason = realtimeFailure.withLock { $0 }
        if reason == nil, ProcessInfo.processInfo.environment[realtimeEnvironmentVariable] == "0" {
            reason = "\(realtimeEnvironmentVariable)=0"
        }
        if reason == nil {
            do {
                let server = try await launch(realtime: true, reason: nil)
                guard let missing = realtimeThreadsMissing(server.process) else { return server }
                server.stop()
                realtimeFailure.withLock { $0 = $0 ?? missing }
                reason = missing
            } catch {
                // A name chosen by the caller may be taken: that is no
                // reason to blame real-time scheduling.
                if !generated { throw error }
                // Not remembered: a start can fail for passing reasons too.
                reason = "jackd -R did not start: \(firstLine(of: error))"
            }
        }
        let reasonText = reason ?? "unknown"
        FileHandle.standardError.write(Data("note: jackd \(name) runs without real-time scheduling: \(reasonText)\n".utf8))
        return try await launch(realtime: false, reason: reasonText)
    }

    /// Starts a process: executable, arguments, environment, label.
    public typealias Launch = (String, [String], [String: String], String) throws -> ChildProcess

    private init(name: String, process: ChildProcess, sampleRate: Int, periodSize: Int,
                 isRealtime: Bool, realtimeUnavailableReason: String?) {
        self.name = name
        self.process = process
        self.sampleRate = sampleRate
        self.periodSize = periodSize
        self.isRealtime = isRealtime
        self.realtimeUnavailableReason = realtimeUnavailableReason
    }

    /// For a check that counts xruns: true under `jackd -R`. Otherwise the
    /// check would judge the machine's scheduler rather than the code, so
    /// this prints one line on stderr saying which check is skipped and
    /// why, and returns false:
    ///
    /// ```swift
    /// if server.xrunChecksApply(to: "no xruns while recalling") {
    ///     #expect(recorder.xrunCount == 0)
    /// }
    /// ```
    public func xrunChecksApply(to check: String) -> Bool {
        if isRealtime { return true }
        FileHandle.standardError.write(Data(
            "note: skipped \"\(check)\": jackd \(name) runs without real-time scheduling (\(realtimeUnavailableReason ?? "unknown")); xruns are counted only under -R\n".utf8))
        return false
    }

    deinit {
        stop()
    }

    /// Stops the server (SIGTERM, then SIGKILL after 3 s) and removes any
    /// socket or semaphore files that carry this server's name. Idempotent.
    public func stop() {
        let termination = process.terminate(grace: .seconds(3))
        if termination != .signalled(SIGTERM) && termination != .exited(0) {
            Self.removeLeftovers(of: name)
        }
    }

    /// The names of the server's ports matching a regular expression
    /// (empty matches all), read with `jack_lsp`-like logic through a
    /// short-lived client.
    public func portNames(matching pattern: String = "") throws -> [String] {
        try Self.withClient(serverName: name, clientName: "xp-lsp") { client in
            JackPortList.names(client: client, pattern: pattern, flags: 0)
        }
    }

    // MARK: Private

    /// Nil when some thread of `process` runs SCHED_FIFO or SCHED_RR (policy
    /// 1 or 2, the 41st field of /proc/PID/task/TID/stat); else why not,
    /// with what jackd said about it.
    private static func realtimeThreadsMissing(_ process: ChildProcess) -> String? {
        let tasks = "/proc/\(process.pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else {
            return "cannot read \(tasks)"
        }
        for thread in threads {
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { continue }
            // Fields from the 3rd (state) on, after "pid (comm)".
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            if fields.count > 38, let policy = Int(fields[38]), policy == 1 || policy == 2 { return nil }
        }
        let said = process.standardError.split(separator: "\n")
            .last { $0.localizedCaseInsensitiveContains("real-time") || $0.localizedCaseInsensitiveContains("realtime") }
        return "no jackd thread runs SCHED_FIFO" + (said.map { " (jackd: \($0))" } ?? "")
    }

    private static func firstLine(of error: any Error) -> String {
        String("\(error)".split(separator: "\n").first ?? "")
    }

    /// The server's socket appears in /dev/shm once it listens; only then is
    /// a client open attempted, so libjack does not print a connection error
    /// for every poll.
    private static func socketPath(of name: String) -> String {
        "/dev/shm/jack_\(name)_\(getuid())_0"
    }

    private static func waitUntilReady(name: String, process: ChildProcess,
                                       timeout: Duration) async throws -> (Int, Int) {
        let start = ContinuousClock.now
        var lastReason = "no socket yet"
        while true {
            if let ended = process.termination {
                throw Failure.notReady(server: name, reason: "jackd \(ended)", diagnostics: process.diagnostics())
            }
            let elapsed = ContinuousClock.now - start
            // Try a client once the socket exists, or after a while in case
            // this libjack keeps its sockets elsewhere.
            if FileManager.default.fileExists(atPath: socketPath(of: name)) || elapsed > .seconds(3) {
                do {
                    return try withClient(serverName: name, clientName: "xp-ready") { client in
                        (Int(jack_get_sample_rate(client)), Int(jack_get_buffer_size(client)))
                    }
                } catch {
                    lastReason = "\(error)"
                }
            }
            if elapsed > timeout {
                throw Failure.notReady(server: name, reason: lastReason, diagnostics: process.diagnostics())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Opens a throwaway client on the named server (never starting one).
    static func withClient<Result>(serverName: String, clientName: String,
                                   _ body: (OpaquePointer) throws -> Result) throws -> Result {
        var status = jack_status_t(rawValue: 0)
        guard let client = crosspoint_jack_client_open_server(clientName, JackNoStartServer, &status, serverName) else {
            throw JackProbe.Failure.cannotOpenClient(server: serverName, status: status.rawValue)
        }
        defer { jack_client_close(client) }
        return try body(client)
    }

    /// Servers of a test process that died (crashed, or was killed) were
    /// killed with it, leaving their socket and semaphore files in /dev/shm.
    /// Those files carry the dead process's PID in their server name
    /// (`xp-test-<pid>-<n>`); remove them. (The big `jack-<uid>-<n>` shared
    /// memory segments are reclaimed by the next jackd that starts.)
    private static func removeLeftoversOfDeadTestProcesses() {
        let directory = "/dev/shm"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let uid = getuid()
        for entry in entries {
            let serverName: Substring
            if entry.hasPrefix("jack_sem.\(uid)_xp-test-") {
                serverName = entry.dropFirst("jack_sem.\(uid)_".count)
            } else if entry.hasPrefix("jack_xp-test-") && entry.hasSuffix("_\(uid)_0") {
                serverName = entry.dropFirst("jack_".count)
            } else {
                continue
            }
            // "xp-test-<pid>-<n>…"
            let digits = serverName.dropFirst("xp-test-".count).prefix { $0.isNumber }
            guard let owner = Int32(digits), owner != getpid() else { continue }
            if kill(owner, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: "\(directory)/\(entry)")
            }
        }
    }

    /// JACK 1.9 keeps at most 8 servers in its shared-memory registry
    /// (/dev/shm/jack-shm-registry) and never frees the slot of a server that
    /// was killed: after 8 such kills every new jackd fails with "Too many
    /// servers already active". Free the slots whose server process is gone.
    /// Layout (JACK2 shm.h, as found on this machine's JACK 1.9.21): a 24-byte
    /// header (magic "KCAJ", protocol, type, size, header length, entry
    /// length), then 8 entries of 264 bytes: a pid and the server's name.
    private static func reclaimRegistrySlotsOfDeadServers() {
        let fd = open("/dev/shm/jack-shm-registry", O_RDWR)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let length = 24 + 8 * 264
        guard let map = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else { return }
        defer { munmap(map, length) }
        // "KCAJ", and a header length that says the server array is 8 × 264 bytes.
        guard map.load(as: UInt32.self) == 0x4A41_434B, map.load(fromByteOffset: 16, as: Int32.self) == 24 + 8 * 264 else { return }
        for slot in 0..<8 {
            let entry = map + 24 + slot * 264
            let pid = entry.load(as: Int32.self)
            guard pid > 0 else { continue }
            // Gone, or its PID now belongs to something that is not jackd.
            let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            let alive = kill(pid, 0) == 0 || errno != ESRCH
            guard !alive || !command.hasPrefix("jackd") else { continue }
            memset(entry, 0, 264)
        }
    }

    /// After a SIGKILL, jackd leaves its socket and semaphore files behind in
    /// /dev/shm. Their names contain the server name, which is ours alone.
    private static func removeLeftovers(of name: String) {
        let directory = "/dev/shm"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let uid = getuid()
        for entry in entries where entry.hasPrefix("jack_\(name)_\(uid)_") || entry.hasPrefix("jack_sem.\(uid)_\(name)_") {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(entry)")
        }
    }
}
