import Foundation

/// liblo's `oscdump`, listening on a free UDP port: a listen-only surface
/// that never sends (the way a display or a logger follows the rig).
struct Oscdump {
    let process: ChildProcess
    let port: Int

    /// Starts `oscdump -L PORT` on a port the kernel had free a moment ago.
    static func start() async throws -> Oscdump {
        let probe = try OSCTestClient(target: .init(port: 9))
        let port = probe.localEndpoint.port
        probe.close()
        let process = try ChildProcess(executable: "oscdump", arguments: ["-L", "\(port)"])
        try await Task.sleep(for: .milliseconds(200))
        return Oscdump(process: process, port: port)
    }
}
