#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private network for a DNS-SD test (`tools/mdns/mdns-namespace`): a
/// network, mount and PID namespace made with `unshare`, where `lo` is up
/// and multicast-capable and a private /run holds a system D-Bus and an
/// `avahi-daemon` limited to `lo`. The machine's own `lo`, /run and daemons
/// are untouched. Processes join it with `nsenter` (``run(_:_:label:)``)
/// and keep their PID, so each is stopped by its own ``ChildProcess``;
/// JACK's sockets live in /dev/shm, shared, so a rig inside reaches a
/// `jackd` outside.
final class MDNSNamespace: @unchecked Sendable {
    enum Daemons: Sendable { case dbusAndAvahi, dbusOnly, none }

    let holder: ChildProcess

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tools/mdns/mdns-namespace").path
    }

    init(_ daemons: Daemons = .dbusAndAvahi) async throws {
        let options: [String] = switch daemons {
        case .dbusAndAvahi: []
        case .dbusOnly: ["--no-avahi"]
        case .none: ["--no-dbus"]
        }
        holder = try ChildProcess(
            executable: "unshare",
            arguments: ["--net", "--mount", "--pid", "--fork", "--kill-child", "--", "sh", Self.script] + options,
            label: "mdns-namespace")
        do {
            try await holder.waitForOutput(containing: "mdns namespace ready", timeout: .seconds(15))
        } catch {
            stop()
            throw error
        }
    }

    /// Starts `executable` inside the namespace.
    func run(_ executable: String, _ arguments: [String], label: String? = nil) throws -> ChildProcess {
        try ChildProcess(executable: "nsenter",
                         arguments: ["--target", "\(holder.pid)", "--net", "--mount", "--", executable] + arguments,
                         label: label ?? (executable as NSString).lastPathComponent)
    }

    /// Runs `executable` inside the namespace to its end; its stdout.
    /// Throws unless it exits with status 0: an empty answer from a tool
    /// that failed must not pass for "nothing seen".
    func output(of executable: String, _ arguments: [String], timeout: Duration = .seconds(15)) async throws -> String {
        let process = try run(executable, arguments)
        let ended = try await process.waitForExit(timeout: timeout)
        guard ended == .exited(0) else {
            throw RigError("\(executable) \(arguments.joined(separator: " ")) ended \(ended): \(process.standardError)")
        }
        return process.standardOutput
    }

    /// Services of `type` that `avahi-browse -rtp` resolves now: name and port.
    func browse(_ type: String) async throws -> [(name: String, port: Int)] {
        try await output(of: "avahi-browse", ["-rtp", type]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count >= 9, fields[0] == "=", let port = Int(fields[8]) else { return nil }
            return (Self.unescape(String(fields[3])), port)
        }
    }

    /// avahi-browse's `-p` escapes (`\032` for a space: decimal byte values).
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Substring(text).utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "\\"), rest.count >= 3, let value = UInt8(String(decoding: rest.prefix(3), as: UTF8.self)) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ends the namespace and everything in it: `unshare` ignores SIGTERM,
    /// so SIGKILL; its child (PID 1 of the namespace) then gets SIGKILL
    /// too (`--kill-child`), and with it every process left inside.
    func stop() {
        holder.signalIfRunning(SIGKILL)
        holder.terminate()
    }

    deinit { stop() }

    var diagnostics: String { holder.diagnostics() }
}
