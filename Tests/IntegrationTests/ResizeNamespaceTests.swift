import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization
import Testing

extension Integration {
/// OSCQuery follows a rig that changes size (issue 24): a real WebSocket
/// client is told each path added and removed, in the proposal's exact
/// text frames, and curl reads the new tree.
@Suite struct ResizeNamespaceTests {
    /// The text frames a WebSocket client has heard so far.
    final class Heard: Sendable {
        let frames = Mutex<[String]>([])
        func withLock<R>(_ body: (inout [String]) -> R) -> R { frames.withLock { body(&$0) } }
    }

    /// What python-oscquery's client reads of each path (tools/oscquery/oscquery_read.py):
    /// its children's names, or nil for a node the rig does not have.
    static func pythonOSCQuery(_ rig: CrosspointRig, _ paths: [String]) async throws -> [String: [String]?] {
        let tool = PerformanceAllocationTests.packageRoot.appendingPathComponent("tools/oscquery/oscquery_read.py").path
        let reader = try ChildProcess(executable: "python3", arguments: [tool, "127.0.0.1", "\(rig.httpPort)"] + paths)
        #expect(try await reader.waitForExit(timeout: .seconds(20)) == .exited(0), "\(reader.diagnostics())")
        let object = try JSONSerialization.jsonObject(with: Data(reader.standardOutput.utf8)) as? [String: Any] ?? [:]
        var found: [String: [String]?] = [:]
        for path in paths {
            // (`updateValue`: a nil is kept as the answer "no such node", not taken as a removal.)
            found.updateValue((object[path] as? [String: Any]).map { ($0["children"] as? [String]) ?? [] }, forKey: path)
        }
        return found
    }

    @Test func aWebSocketClientIsToldOfPathsAddedAndRemoved() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            let port = rig.httpPort
            let heard = Heard()
            let wanted = [#"{"COMMAND":"PATH_ADDED","DATA":"/source/3"}"#, #"{"COMMAND":"PATH_REMOVED","DATA":"/source/2"}"#,
                          #"{"COMMAND":"PATH_REMOVED","DATA":"/source/3"}"#]
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var logger = Logger(label: "ws-test")
                    logger.logLevel = .warning
                    try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", logger: logger) { inbound, outbound, _ in
                        try await outbound.write(.text(#"{"COMMAND":"LISTEN","DATA":"/source/2/volume"}"#))
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .text(let text) = message { heard.withLock { $0.append(text) } }
                            if heard.withLock({ frames in wanted.allSatisfy(frames.contains) }) { return }
                        }
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(500)) // connected, listening
                    _ = try await rig.send(["/rig/inputs", "3"])
                    try await ResizeTests.waitUntil("the tree has /source/3") {
                        heard.withLock { $0.contains(wanted[0]) }
                    }
                    let added = try await DiscoveryTests().get(rig, "/source/3")
                    #expect(added.status == 200, "GET /source/3 after the rig grew")
                    let seen = try await Self.pythonOSCQuery(rig, ["/source/3", "/matrix/3"])
                    #expect(seen["/source/3"]??.contains("volume") == true && seen["/matrix/3"]??.contains("2") == true,
                            "python-oscquery reads the new source and its matrix row: \(seen)")
                    _ = try await rig.send(["/rig/inputs", "1"])
                    try await Task.sleep(for: .seconds(10))
                }
                try await group.next()
                group.cancelAll()
            }
            let frames = heard.withLock { $0 }
            for frame in wanted { #expect(frames.contains(frame), "missing \(frame) in \(frames)") }
            #expect(frames.allSatisfy { $0.hasPrefix(#"{"COMMAND":"PATH_"#) && !$0.contains("[") }, "one path a frame: \(frames)")
            let removed = try await DiscoveryTests().get(rig, "/source/2")
            #expect(removed.status == 404, "GET /source/2 after the rig shrank")
            let (_, info) = try await DiscoveryTests().get(rig, "/?HOST_INFO")
            let extensions = (info as? [String: Any])?["EXTENSIONS"] as? [String: Bool]
            #expect(extensions?["PATH_ADDED"] == true && extensions?["PATH_REMOVED"] == true, "\(String(describing: extensions))")
            let value = try await DiscoveryTests().get(rig, "/source/1/volume?VALUE")
            #expect(value.status == 200, "what stays is served")
            let seen = try await Self.pythonOSCQuery(rig, ["/source/1", "/source/2"])
            #expect(seen["/source/1"] != nil && seen["/source/1"]! != nil, "python-oscquery reads what stays: \(seen)")
            #expect(seen.keys.contains("/source/2") && seen["/source/2"]! == nil, "and not what went: \(seen)")
        }
    }
}
}
