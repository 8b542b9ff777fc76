#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Two rigs' networks on one machine, joined by a cable a test can pull
/// (`tools/link/link-namespace`): two network, mount and PID namespaces
/// made with `unshare`, each holding one end of a veth pair, `xplink`,
/// addressed 10.77.0.1/24 (side A) and 10.77.0.2/24 (side B). Traffic
/// between the two addresses crosses the veth pair and nothing else, so
/// ``cut(_:)`` (`ip link set xplink down` in one namespace: the other end
/// loses its carrier) really cuts it; the machine's own interfaces are
/// never touched.
///
/// Processes join a side with `nsenter` (``run(_:_:_:environment:label:)``)
/// and keep their PID, so each is stopped by its own ``ChildProcess``; a
/// `jackd` started there with ``launcher(_:)`` is an ordinary
/// ``JackServer``. /dev/shm is shared: every JACK server needs a name of
/// its own (``JackServer`` makes one), and a JACK client outside (a
/// ``JackTap``) reaches a server inside. A socket made on a thread that
/// entered a side's namespace (``inNetwork(of:_:)``) stays there: that is
/// how the test's OSC clients reach a rig that listens inside.
///
/// Where the machine cannot make network namespaces and veth pairs (not
/// root, no `unshare`, a kernel or container that refuses), the suites
/// that use this are disabled and say why (``unavailableReason``).
final class LinkedNamespaces: @unchecked Sendable {
    enum Side: String, Sendable, CaseIterable, CustomStringConvertible {
        case a = "A", b = "B"
        var description: String { rawValue }
        /// The side's address on the link.
        var address: String { self == .a ? "10.77.0.1" : "10.77.0.2" }
        var other: Side { self == .a ? .b : .a }
    }

    private let holders: [Side: ChildProcess]

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tools/link/link-namespace").path
    }

    /// Starts both namespaces and joins them; returns once each side
    /// answers the other's ping.
    init() async throws {
        var started: [Side: ChildProcess] = [:]
        do {
            for side in Side.allCases {
                started[side] = try ChildProcess(
                    executable: "unshare",
                    arguments: ["--net", "--mount", "--pid", "--fork", "--kill-child", "--", "sh", Self.script, "hold"],
                    label: "link namespace \(side)")
            }
            for side in Side.allCases {
                try await started[side]!.waitForOutput(containing: "link namespace ready", timeout: .seconds(15))
            }
            let join = try ChildProcess(executable: "sh",
                                        arguments: [Self.script, "join", "\(started[.a]!.pid)", "\(started[.b]!.pid)",
                                                    Side.a.address, Side.b.address],
                                        label: "link-namespace join")
            let ended = try await join.waitForExit(timeout: .seconds(20))
            guard ended == .exited(0) else { throw RigError("link-namespace join \(ended): \(join.diagnostics())") }
        } catch {
            for holder in started.values { Self.stop(holder) }
            throw error
        }
        holders = started
    }

    /// The PID of the side's `unshare`, which lives in its network and
    /// mount namespaces (`nsenter --target`).
    func pid(_ side: Side) -> Int32 { holders[side]!.pid }

    /// Starts `executable` inside a side's network and mount namespaces.
    func run(_ side: Side, _ executable: String, _ arguments: [String], environment: [String: String] = [:],
             label: String? = nil) throws -> ChildProcess {
        try ChildProcess(executable: "nsenter",
                         arguments: ["--target", "\(pid(side))", "--net", "--mount", "--", executable] + arguments,
                         environment: environment,
                         label: "\(label ?? (executable as NSString).lastPathComponent) (\(side))")
    }

    /// Runs `executable` inside a side to its end; its stdout. Throws
    /// unless it exits with status 0.
    @discardableResult
    func output(_ side: Side, _ executable: String, _ arguments: [String],
                timeout: Duration = .seconds(15)) async throws -> String {
        let process = try run(side, executable, arguments)
        let ended = try await process.waitForExit(timeout: timeout)
        guard ended == .exited(0) else {
            throw RigError("\(executable) \(arguments.joined(separator: " ")) in \(side) ended \(ended): \(process.diagnostics())")
        }
        return process.standardOutput
    }

    /// For ``JackServer/start(name:sampleRate:periodSize:synchronous:realtime:capturePorts:playbackPorts:driver:launcher:timeout:)``:
    /// `jackd` inside this side.
    func launcher(_ side: Side) -> JackServer.Launch {
        { [self] executable, arguments, environment, label in
            try run(side, executable, arguments, environment: environment, label: label)
        }
    }

    /// Pulls the cable at `side`'s end: `ip link set xplink down` there.
    func cut(_ side: Side) async throws { try await linkCommand("cut", side) }

    /// Puts it back: `ip link set xplink up`.
    func restore(_ side: Side) async throws { try await linkCommand("restore", side) }

    private func linkCommand(_ command: String, _ side: Side) async throws {
        let process = try ChildProcess(executable: "sh", arguments: [Self.script, command, "\(pid(side))"],
                                       label: "link-namespace \(command)")
        let ended = try await process.waitForExit(timeout: .seconds(10))
        guard ended == .exited(0) else { throw RigError("link-namespace \(command) \(ended): \(process.diagnostics())") }
    }

    /// Runs `body` on a thread of its own that entered `side`'s network
    /// namespace (setns(2) changes only the calling thread's): a socket it
    /// makes belongs to that namespace for good, from whichever thread it
    /// is used later. The thread ends with `body`.
    func inNetwork<Result: Sendable>(of side: Side, _ body: @escaping @Sendable () throws -> Result) throws -> Result {
        let path = "/proc/\(pid(side))/ns/net"
        let outcome = Outcome<Result>()
        let thread = Thread {
            outcome.value = Swift.Result {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw RigError("open \(path): \(String(cString: strerror(errno)))") }
                defer { close(descriptor) }
                guard let setns = Self.setns else { throw RigError("setns(2) is not in this C library") }
                guard setns(descriptor, Self.newNetworkNamespace) == 0 else {
                    throw RigError("setns \(path): \(String(cString: strerror(errno)))")
                }
                return try body()
            }
            outcome.done.signal()
        }
        thread.name = "LinkedNamespaces \(side)"
        thread.start()
        outcome.done.wait()
        return try outcome.value!.get()
    }

    /// An OSC client whose socket lives in `side`'s namespace, aimed at a
    /// rig listening there on `port`.
    func oscClient(_ side: Side, port: Int) throws -> OSCTestClient {
        try inNetwork(of: side) { try OSCTestClient(target: .init(host: "127.0.0.1", port: port)) }
    }

    /// Ends both namespaces and everything still in them (stop the
    /// processes that joined them first: they keep a namespace alive).
    func stop() {
        for holder in holders.values { Self.stop(holder) }
    }

    deinit { stop() }

    var diagnostics: String {
        Side.allCases.map { "namespace \($0):\n\(holders[$0]!.diagnostics())" }.joined(separator: "\n")
    }

    /// `unshare` ignores SIGTERM: SIGKILL, and its child (PID 1 of the
    /// namespace) gets SIGKILL too (`--kill-child`).
    private static func stop(_ holder: ChildProcess) {
        holder.signalIfRunning(SIGKILL)
        holder.terminate()
    }

    // MARK: Whether the machine can

    /// Why this machine cannot make the two namespaces, or nil when it
    /// can: tried once per test process, by making a veth pair inside a
    /// throwaway network namespace.
    static let unavailableReason: String? = {
        guard geteuid() == 0 else {
            return "not root: network namespaces and veth pairs need CAP_SYS_ADMIN and CAP_NET_ADMIN"
        }
        for tool in ["unshare", "nsenter", "ip"] where ChildProcess.resolve(tool, searchPath: ProcessInfo.processInfo.environment["PATH"]) == nil {
            return "\(tool) is not installed (util-linux, iproute2)"
        }
        do {
            let trial = try ChildProcess(
                executable: "unshare",
                arguments: ["--net", "--mount", "--pid", "--fork", "--kill-child", "--", "sh", "-c",
                            "ip link add xptrial type veth peer name xptrial2 && ip link set xptrial up"],
                label: "namespace trial")
            let deadline = ContinuousClock.now + .seconds(10)
            while trial.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            let ended = trial.terminate()
            guard ended == .exited(0) else {
                let said = trial.standardError.split(separator: "\n").last.map(String.init) ?? ""
                return "cannot make a network namespace with a veth pair here (unshare --net …: \(ended.map { "\($0)" } ?? "did not end")\(said.isEmpty ? "" : ": \(said)"))"
            }
        } catch {
            return "cannot run unshare: \(error)"
        }
        return nil
    }()

    /// True when the two namespaces can be made; otherwise says why on
    /// stderr, once, beside the skip that swift-testing reports.
    static var isAvailable: Bool {
        guard let reason = unavailableReason else { return true }
        noteOnce.withLock { noted in
            if !noted {
                FileHandle.standardError.write(Data("note: skipped the two-rig tests: \(reason)\n".utf8))
                noted = true
            }
        }
        return false
    }

    private static let noteOnce = Mutex(false)

    /// `setns` (glibc 2.14+), looked up at run time: Swift's Glibc module
    /// does not define `_GNU_SOURCE`, which declares it.
    private static let setns: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "setns") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    /// CLONE_NEWNET, from <sched.h> (also behind `_GNU_SOURCE`).
    private static let newNetworkNamespace: Int32 = 0x4000_0000

    /// What the namespace thread hands back; the semaphore orders the write
    /// before the read.
    private final class Outcome<Value>: @unchecked Sendable {
        var value: Swift.Result<Value, any Error>?
        let done = DispatchSemaphore(value: 0)
    }
}
