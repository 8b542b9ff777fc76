import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import Testing

extension Integration {
/// OSCQuery through the real binary: a real HTTP client (curl) and a real WebSocket.
@Suite struct DiscoveryTests {
    func get(_ rig: CrosspointRig, _ path: String) async throws -> (status: Int, body: Any?) {
        let curl = try ChildProcess(executable: "curl", arguments: ["-s", "-w", "\n%{http_code}", "http://127.0.0.1:\(rig.httpPort)\(path)"])
        _ = try await curl.waitForExit()
        let lines = curl.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let body = lines.dropLast().joined(separator: "\n")
        return (status, try? JSONSerialization.jsonObject(with: Data(body.utf8)))
    }

    @Test func theNamespaceDescribesEveryParameterWithItsValue() async throws {
        try await withRig { rig in
            try await rig.sendAndSettle("/matrix/1/2", .float(0.5))
            let (status, tree) = try await get(rig, "/")
            #expect(status == 200)
            let root = try #require(tree as? [String: Any])
            #expect(root["FULL_PATH"] as? String == "/")
            let top = try #require(root["CONTENTS"] as? [String: Any])
            #expect(Set(top.keys).isSuperset(of: ["source", "matrix", "output", "master", "preset", "safe"]))
            let matrix = try #require((top["matrix"] as? [String: Any])?["CONTENTS"] as? [String: Any])
            let one = try #require((matrix["1"] as? [String: Any])?["CONTENTS"] as? [String: Any])
            let point = try #require(one["2"] as? [String: Any])
            #expect(point["FULL_PATH"] as? String == "/matrix/1/2")
            #expect(point["TYPE"] as? String == "f")
            #expect((point["VALUE"] as? [Double]) == [0.5])
            #expect(point["ACCESS"] as? Int == 3)
            #expect((point["RANGE"] as? [[String: Any]])?.first?["MAX"] as? Double == 4)
            #expect((point["UNIT"] as? [String]) == ["gain"])
            #expect((point["CLIPMODE"] as? [String]) == ["both"])
            #expect((point["DESCRIPTION"] as? String)?.contains("input 1 to output 2") == true)
            let fader = try #require((point["CONTENTS"] as? [String: Any])?["fader"] as? [String: Any])
            #expect((fader["VALUE"] as? [Double]).map { abs($0[0] - 0.5987) < 0.001 } == true, "\(fader)")

            let (valueStatus, value) = try await get(rig, "/source/1/pan?VALUE")
            #expect(valueStatus == 200)
            #expect(((value as? [String: Any])?["VALUE"] as? [Double]) == [0])
            let (_, info) = try await get(rig, "/?HOST_INFO")
            let host = try #require(info as? [String: Any])
            #expect(host["OSC_PORT"] as? Int == rig.oscPort)
            #expect(host["OSC_TRANSPORT"] as? String == "UDP")
            #expect(((host["EXTENSIONS"] as? [String: Any])?["LISTEN"] as? Bool) == true)
            #expect(try await get(rig, "/no/such/thing").status == 404)
        }
    }

    @Test func aWebSocketListenerHearsChangesAsOSC() async throws {
        try await withRig { rig in
            let port = rig.httpPort
            let received = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                group.addTask {
                    var logger = Logger(label: "ws-test")
                    logger.logLevel = .warning
                    let frame = Mutex<[UInt8]?>(nil)
                    try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", logger: logger) { inbound, outbound, _ in
                        try await outbound.write(.text(#"{"COMMAND":"LISTEN","DATA":"/matrix/2/1"}"#))
                        var messages = inbound.messages(maxSize: 65_536).makeAsyncIterator()
                        guard case .binary(let buffer)? = try await messages.next() else { return }
                        frame.withLock { $0 = Array(buffer.readableBytesView) }
                    }
                    return frame.withLock { $0 }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(500)) // the LISTEN has arrived
                    try await rig.sendAndSettle("/matrix/2/1", .float(0.25))
                    try await Task.sleep(for: .seconds(10))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
            let frame = try #require(received, "a frame arrived")
            let messages = try #require(OSCTestClient.decode(datagram: frame, sender: .init(port: 0), receivedAt: .now))
            #expect(messages.first?.address == "/matrix/2/1")
            #expect(messages.first?.arguments == [.float(0.25)])
        }
    }

    @Test func aDeniedHostGetsNothingOverHTTP() async throws {
        try await withRig(arguments: ["--allow", "127.0.0.2/32"]) { rig async throws in
            #expect(try await get(rig, "/").status == 403)
        }
    }
}
}
