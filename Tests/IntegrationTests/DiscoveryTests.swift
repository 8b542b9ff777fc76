import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
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
            #expect((point["UNIT"] as? [String]) == ["gain.linear"])
            #expect((point["CLIPMODE"] as? [String]) == ["both"])
            #expect((point["DESCRIPTION"] as? String)?.contains("input 1 to output 2") == true)
            // Every unit in the tree is one of the OSCQuery proposal's (units.md), or none.
            let proposed: Set<String> = [
                "none", "distance.m", "distance.km", "distance.dm", "distance.cm", "distance.mm", "distance.um",
                "distance.nm", "distance.pm", "distance.inches", "distance.feet", "distance.miles", "distance.pixels",
                "angle.degree", "angle.radian", "gain.linear", "gain.midigain", "gain.db", "gain.db-raw",
                "time.second", "time.bark", "time.bpm", "time.cents", "time.hz", "time.mel", "time.midinote",
                "time.ms", "time.speed", "speed.m/s", "speed.mph", "speed.km/h", "speed.kn", "speed.ft/s", "speed.ft/h"]
            var units: [String: String] = [:]
            func collect(_ node: [String: Any]) {
                for unit in node["UNIT"] as? [String] ?? [] { units[node["FULL_PATH"] as? String ?? "?"] = unit }
                for case let child as [String: Any] in (node["CONTENTS"] as? [String: Any] ?? [:]).values { collect(child) }
            }
            collect(root)
            #expect(units["/source/1/pan"] == "none" && units["/output/1/delay"] == "time.ms" && units["/master/db"] == "gain.db")
            let foreign = units.filter { !proposed.contains($0.value) }
            #expect(foreign.isEmpty, "units not from the proposal: \(foreign.prefix(5))")
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

    /// Every address the rig answers is a node, every array attribute has
    /// one entry per type tag (in the node and in each of its OVERLOADS),
    /// and every form a node declares is one the rig takes: sent with
    /// values from its ranges, none is refused for its arguments.
    @Test func everyAddressIsDescribedWithTheFormsItTakes() async throws {
        try await withRig { rig in
            let (status, tree) = try await get(rig, "/")
            #expect(status == 200)
            var nodes: [String: [String: Any]] = [:]
            func collect(_ node: [String: Any]) {
                nodes[node["FULL_PATH"] as? String ?? "?"] = node
                for case let child as [String: Any] in (node["CONTENTS"] as? [String: Any] ?? [:]).values { collect(child) }
            }
            collect(try #require(tree as? [String: Any]))
            let answered = ["/matrix/clear", "/matrix/map", "/status", "/ping", "/subscribe", "/unsubscribe",
                            "/meters/subscribe", "/meters/unsubscribe", "/meters/rate", "/meters/input",
                            "/meters/output", "/meters/input/rms", "/meters/output/rms", "/preset/save",
                            "/preset/recall", "/preset/undo", "/preset/list", "/preset/delete", "/preset/rename",
                            "/preset/current", "/safe/master", "/safe/source/2", "/safe/output/1", "/safe/mix/2",
                            "/login", "/logout", "/role",
                            "/source/1/name", "/matrix/2/1/fader", "/output/2/delay", "/master/db"]
            #expect(answered.filter { nodes[$0] == nil } == [], "not described")

            var forms: [(address: String, form: [String: Any])] = []
            for (address, node) in nodes where node["TYPE"] != nil {
                forms.append((address, node))
                for overload in node["OVERLOADS"] as? [[String: Any]] ?? [] { forms.append((address, overload)) }
            }
            for (address, form) in forms {
                let tags = try #require(form["TYPE"] as? String)
                for key in ["VALUE", "RANGE", "UNIT", "CLIPMODE"] {
                    guard let entries = form[key] else { continue }
                    #expect((entries as? [Any])?.count == tags.count, "\(address) \(tags): \(key) \(entries)")
                }
            }
            #expect((nodes["/source/1/name"]?["RANGE"] as? [Any])?.first is NSNull)
            #expect(nodes["/preset/recall"]?["ACCESS"] as? Int == 0)
            #expect((nodes["/meters/output"]?["TYPE"] as? String) == "ff")
            #expect((nodes["/matrix/1/1"]?["CONTENTS"] as? [String: Any]).map { Set($0.keys) } == ["db", "fader"])

            // Each action's every form, from its own description.
            for (address, form) in forms where nodes[address]?["ACCESS"] as? Int == 0 && !address.hasPrefix("/meters/i")
                && !address.hasPrefix("/meters/o") {
                let tags = try #require(form["TYPE"] as? String)
                let ranges = form["RANGE"] as? [Any] ?? []
                var arguments: [OSCTestClient.Argument] = []
                for (index, tag) in tags.enumerated() {
                    let low = ((index < ranges.count ? ranges[index] : nil) as? [String: Any])?["MIN"] as? Double
                    switch tag {
                    case "f": arguments.append(.float(Float(low ?? 1)))
                    case "i": arguments.append(.int32(Int32(low ?? 1)))
                    default:
                        // A scope, and a list of level forms, are words the rig knows.
                        let word = address == "/preset/recall" && index > 0 ? "matrix" : address == "/subscribe/forms" ? "linear" : "conformance"
                        arguments.append(.string(word))
                    }
                }
                try rig.osc.send(address, arguments: arguments)
                try await rig.ping()
            }
            let refusals = try rig.osc.drain().filter { $0.address == "/error" }.map { "\($0.arguments)" }
                .filter { $0.contains("expected") || $0.contains("argument") }
            #expect(refusals == [], "forms the rig refuses")
        }
    }

    /// The binary serves its control page, embedded at build time, to a
    /// browser at / and at /page/, and prints where to find it.
    @Test func theControlPageIsServedFromTheBinary() async throws {
        try await withRig { rig in
            let page = try ChildProcess(executable: "curl", arguments: [
                "-s", "-H", "Accept: text/html,*/*;q=0.8", "http://127.0.0.1:\(rig.httpPort)/"])
            _ = try await page.waitForExit()
            #expect(page.standardOutput.hasPrefix("<!doctype html>"), "\(page.standardOutput.prefix(200))")
            let (status, tree) = try await get(rig, "/")
            #expect(status == 200 && (tree as? [String: Any])?["FULL_PATH"] as? String == "/")
            let line = try await rig.crosspoint.waitForOutput(containing: "control page: http://")
            #expect(line.contains(":\(rig.httpPort)/"), "\(line)")
            // The session learns what it may do.
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/access").arguments == [.string("full")])
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

    /// A WebSocket is a client session: its queries, pings and errors are
    /// answered on it, `/subscribe` subscribes it (not some UDP port), and
    /// its subscription ends with it.
    @Test func aWebSocketClientQueriesAndSubscribes() async throws {
        try await withRig { rig in
            let port = rig.httpPort
            let heard = Heard()
            func waitFor(_ address: String, _ arguments: [OSCTestClient.Argument]? = nil) async throws -> OSCTestClient.ReceivedMessage {
                for _ in 0..<200 {
                    let found = heard.messages.withLock { messages in
                        messages.first { $0.address == address && (arguments == nil || $0.arguments == arguments) }
                    }
                    if let found { return found }
                    try await Task.sleep(for: .milliseconds(10))
                }
                throw RigError("no \(address) \(arguments.map { "\($0)" } ?? "") over the WebSocket")
            }
            func subscribers() async throws -> [OSCTestClient.Argument] {
                try rig.osc.send("/status")
                return try await rig.osc.waitFor(address: "/status/subscribers").arguments
            }
            let session = Task {
                var logger = Logger(label: "ws-test")
                logger.logLevel = .warning
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", logger: logger) { inbound, outbound, _ in
                    for packet: OSCTestClient.Packet in [.message(.init("/matrix/1/1")), .message(.init("/ping")),
                                                         .message(.init("/nowhere", arguments: [.int32(1)])),
                                                         .message(.init("/subscribe"))] {
                        try await outbound.write(.binary(ByteBuffer(bytes: OSCTestClient.encode(packet))))
                    }
                    for try await frame in inbound.messages(maxSize: 1 << 20) {
                        guard case .binary(let buffer) = frame,
                              let messages = OSCTestClient.decode(datagram: Array(buffer.readableBytesView),
                                                                  sender: .init(port: 0), receivedAt: .now) else { continue }
                        heard.messages.withLock { $0 += messages }
                    }
                }
            }
            defer { session.cancel() }
            #expect(try await waitFor("/matrix/1/1").arguments == [.float(1)])
            _ = try await waitFor("/pong")
            #expect(try await waitFor("/error").arguments.first == .string("/nowhere"))
            _ = try await waitFor("/matrix/2/2")  // the full state
            #expect(try await subscribers() == [.int32(1)])
            // Another client's change reaches the WebSocket as feedback.
            try await rig.sendAndSettle("/matrix/2/1", .float(0.25))
            _ = try await waitFor("/matrix/2/1", [.float(0.25)])
            // Its subscription ends with it.
            session.cancel()
            var left = try await subscribers()
            for _ in 0..<50 where left != [.int32(0)] {
                try await Task.sleep(for: .milliseconds(100))
                left = try await subscribers()
            }
            #expect(left == [.int32(0)])
        }
    }

    /// What a WebSocket client has heard so far.
    final class Heard: Sendable {
        let messages = Mutex<[OSCTestClient.ReceivedMessage]>([])
    }

    @Test func aDeniedHostGetsNothingOverHTTP() async throws {
        try await withRig(arguments: ["--allow", "127.0.0.2/32"]) { rig async throws in
            #expect(try await get(rig, "/").status == 403)
        }
    }
}
}
