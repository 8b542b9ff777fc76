import Access
import Foundation
import HTTPTypes
import HummingbirdWSClient
import NIOCore
import Logging
import OSC
import OSCOracle
import OSCQuery
import Synchronization
import Testing

/// The WebSocket side (LISTEN, client sessions, access) and the server's life cycle.
extension OSCQueryServerTests {
    // MARK: WebSocket

    @Test func listenStreamsChangesAsBinaryOSCAndIgnoreStopsThem() async throws {
        try await withServer { server in
            let volume = OSCMessage("/source/1/volume", [.float(0.25)])
            let other = OSCMessage("/source/2/volume", [.float(0.5)])  // never listened to
            let pan = OSCMessage("/output/1/pan", [.float(-1), .int32(7)])
            try await WebSocketProbe.run(port: server.port) { inbound, outbound in
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                try await outbound.write(WebSocketProbe.command("LISTEN", "/source/1/volume"))

                var publisher = keepPublishing(server, [other, volume])
                let first = try await WebSocketProbe.nextOSC(&messages)
                publisher.cancel()
                #expect(first == volume)

                // IGNORE the volume, then LISTEN to the pan: commands are handled
                // in order, so once a pan arrives the volume is no longer sent.
                try await outbound.write(WebSocketProbe.command("IGNORE", "/source/1/volume"))
                try await outbound.write(WebSocketProbe.command("LISTEN", "/output/1/pan"))
                publisher = keepPublishing(server, [volume, pan])
                var received = try await WebSocketProbe.nextOSC(&messages)
                while received == volume { received = try await WebSocketProbe.nextOSC(&messages) }
                publisher.cancel()
                _ = await publisher.value
                #expect(received == pan)
                // Drain what the publisher queued, then prove the volume stays quiet.
                server.publish(OSCMessage("/output/1/pan", [.float(0), .int32(-1)]))
                while received != OSCMessage("/output/1/pan", [.float(0), .int32(-1)]) {
                    received = try await WebSocketProbe.nextOSC(&messages)
                    #expect(received.address == "/output/1/pan")
                }
                server.publish(volume)
                server.publish(other)
                server.publish(pan)
                #expect(try await WebSocketProbe.nextOSC(&messages) == pan)
            }
        }
    }

    @Test func aWebSocketIsAClientSessionWithItsOwnReplies() async throws {
        let log = SetLog()
        try await withServer(setLog: log) { server in
            let set = OSCMessage("/source/1/volume", [.float(0.125)])
            let bundle = [OSCMessage("/source/2/volume", [.float(1.5)]), OSCMessage("/output/1/mode", [.string("mono")])]
            let later = OSCTimeTag(unixTime: 4_000_000_000)
            try await WebSocketProbe.run(port: server.port) { inbound, outbound in
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                try await outbound.write(.binary(ByteBuffer(bytes: OSCOracle.encode(.message(set)))))
                try await outbound.write(.binary(ByteBuffer(bytes: OSCOracle.encode(.bundle(bundle, at: later)))))
                try await outbound.write(.binary(ByteBuffer(bytes: [1, 2, 3])))  // garbage: ignored
                // The handler's reply comes back on this WebSocket.
                try await outbound.write(.binary(ByteBuffer(bytes: OSCOracle.encode(.message(OSCMessage("/ping", []))))))
                #expect(try await WebSocketProbe.nextOSC(&messages) == OSCMessage("/pong", []))
                // So does whatever is sent to the session later (feedback, meters).
                let peer = try #require(log.peers.first)
                #expect(server.send(.message(OSCMessage("/later", [.int32(1)])), to: peer))
                #expect(try await WebSocketProbe.nextOSC(&messages) == OSCMessage("/later", [.int32(1)]))
            }
            // The bundle whole, with its time tag, like a bundle over UDP.
            #expect(log.packets == [.message(set), .bundle(bundle, at: later), .message(OSCMessage("/ping", []))])
            #expect(log.hosts == ["127.0.0.1", "127.0.0.1", "127.0.0.1"])
            let peers = Set(log.peers)
            #expect(peers.count == 1 && peers.first?.access == .full)
            guard case .webSocket? = peers.first?.transport else {
                Issue.record("not a WebSocket peer: \(log.peers)")
                return
            }
            // The session's end is told, and nothing reaches it any more.
            while log.closedPeers.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            #expect(log.closedPeers == Array(peers))
            #expect(!server.send(.message(OSCMessage("/later", [])), to: log.peers[0]))
            #expect(server.deniedCount == 0)
        }
    }

    @Test func aReadOnlyClientReadsAndListensButCannotSet() async throws {
        let model = FakeModel()
        model.setAccess(.readOnly, for: "127.0.0.1")
        let log = SetLog()
        try await withServer(model: model, setLog: log) { server in
            #expect(try await Curl.get(url(server, "/")).status == 200)
            #expect(try await Curl.get(url(server, "/?HOST_INFO")).status == 200)
            let volume = OSCMessage("/source/1/volume", [.float(0.3)])
            try await WebSocketProbe.run(port: server.port) { inbound, outbound in
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                try await outbound.write(.binary(ByteBuffer(bytes: OSCOracle.encode(.message(OSCMessage("/source/1/volume", [.float(2)]))))))
                try await outbound.write(WebSocketProbe.command("LISTEN", "/source/1/volume"))
                let publisher = keepPublishing(server, [volume])
                let received = try await WebSocketProbe.nextOSC(&messages)
                publisher.cancel()
                #expect(received == volume)
            }
            // Its packets go on marked read-only: the rig refuses the changes
            // (with /error) and answers the queries.
            #expect(log.messages == [OSCMessage("/source/1/volume", [.float(2)])])
            #expect(log.peers.map(\.access) == [.readOnly])
            #expect(server.deniedCount == 0)
        }
    }

    @Test func aDeniedClientGetsForbiddenAndNoWebSocket() async throws {
        let model = FakeModel()
        model.setAccess(.denied, for: "127.0.0.1")
        let log = SetLog()
        try await withServer(model: model, setLog: log) { server in
            let root = try await Curl.get(url(server, "/"))
            #expect(root.status == 403)
            #expect(!root.body.contains("FULL_PATH"))
            #expect(try await Curl.get(url(server, "/?HOST_INFO")).status == 403)
            #expect(try await Curl.get(url(server, "/source/1/volume?VALUE")).status == 403)
            #expect(server.deniedCount == 3)

            let opened = Atomic<Bool>(false)
            await #expect(throws: (any Error).self) {
                try await WebSocketProbe.run(port: server.port) { _, outbound in
                    opened.store(true, ordering: .relaxed)
                    try await outbound.write(.binary(ByteBuffer(bytes: OSCOracle.encode(.message(OSCMessage("/source/1/volume", [.float(2)]))))))
                }
            }
            let wasOpened = opened.load(ordering: .relaxed)
            #expect(!wasOpened)
            #expect(server.deniedCount == 4)
            #expect(server.webSocketClientCount == 0)
            #expect(log.messages.isEmpty)

            // Rules are asked per request: allowed again, served again.
            model.setAccess(.full, for: "127.0.0.1")
            #expect(try await Curl.get(url(server, "/")).status == 200)
            #expect(server.deniedCount == 4)
        }
    }

    @Test func aBrowserPageFromAnotherHostCannotSet() async throws {
        let log = SetLog()
        try await withServer(setLog: log) { server in
            let set = OSCMessage("/source/1/volume", [.float(0)])
            // A page of some web site, opened in a browser on an allowed machine.
            try await WebSocketProbe.run(port: server.port, headers: [.origin: "http://evil.example"]) { inbound, outbound in
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                try await outbound.write(.binary(ByteBuffer(bytes: OSCOracle.encode(.message(set)))))
                try await outbound.write(WebSocketProbe.command("LISTEN", "/source/1/volume"))
                let publisher = keepPublishing(server, [set])
                _ = try await WebSocketProbe.nextOSC(&messages)
                publisher.cancel()
            }
            // At most read-only: the rig refuses what it would change.
            #expect(log.peers.map(\.access) == [.readOnly])
            // A page served from this host (another port) may.
            try await WebSocketProbe.run(port: server.port, headers: [.origin: "http://127.0.0.1:8080"]) { _, outbound in
                try await outbound.write(.binary(ByteBuffer(bytes: OSCOracle.encode(.message(set)))))
                while log.messages.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(log.messages == [set, set])
            #expect(log.peers.map(\.access) == [.readOnly, .full])
            #expect(server.deniedCount == 0)
        }
    }

    @Test func stopClosesOpenWebSockets() async throws {
        let server = OSCQueryServer(bind: "127.0.0.1", port: 0, oscPort: 9000, name: "t", model: FakeModel(), door: Self.everyone,
                                    logger: Self.logger)
        try await server.start()
        let port = server.port
        let connected = Atomic<Bool>(false)
        let client = Task {
            try await WebSocketProbe.run(port: port) { inbound, outbound in
                try await outbound.write(WebSocketProbe.command("LISTEN", "/source/1/volume"))
                connected.store(true, ordering: .relaxed)
                for try await _ in inbound.messages(maxSize: 1 << 16) {}
            }
        }
        while !connected.load(ordering: .relaxed) || server.webSocketClientCount == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let started = ContinuousClock.now
        await server.stop()
        // The client saw the close (its loop ended), well before its 15 s deadline.
        try await client.value
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(server.webSocketClientCount == 0)
    }

    // MARK: Life cycle

    @Test func portZeroPicksAPortAndAStoppedServerRefusesConnections() async throws {
        let server = OSCQueryServer(bind: "127.0.0.1", port: 0, oscPort: 9000, name: "t", model: FakeModel(), door: Self.everyone,
                                    logger: Self.logger)
        #expect(server.port == 0)
        try await server.start()
        let port = server.port
        #expect(port > 0)
        #expect(try await Curl.get("http://127.0.0.1:\(port)/").status == 200)
        await #expect(throws: OSCQueryServerError.alreadyStarted) { try await server.start() }

        // The port is taken: a second server cannot have it.
        let second = OSCQueryServer(bind: "127.0.0.1", port: port, oscPort: 9000, name: "t", model: FakeModel(), door: Self.everyone,
                                    logger: Self.logger)
        await #expect(throws: (any Error).self) { try await second.start() }

        await server.stop()
        await server.stop()  // a second stop does nothing
        await #expect(throws: Curl.Failure.self) { try await Curl.get("http://127.0.0.1:\(port)/") }
        await #expect(throws: OSCQueryServerError.alreadyStarted) { try await server.start() }
    }

    /// `serve` is a synchronous command: start and stop must work from a
    /// plain thread, not only from async code.
    @Test func startsAndStopsFromAPlainThread() async throws {
        let server = OSCQueryServer(bind: "127.0.0.1", port: 0, oscPort: 9000, name: "t", model: FakeModel(), door: Self.everyone,
                                    logger: Self.logger)
        let port: Int = try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    try server.start()
                    continuation.resume(returning: server.port)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        #expect(port > 0)
        #expect(try await Curl.get("http://127.0.0.1:\(port)/?HOST_INFO").status == 200)
        await withCheckedContinuation { continuation in
            Thread {
                server.stop()
                continuation.resume()
            }.start()
        }
        await #expect(throws: Curl.Failure.self) { try await Curl.get("http://127.0.0.1:\(port)/") }
    }

    /// The node at `path` in a parsed tree.
    func node(_ tree: Any, _ path: String) -> [String: Any]? {
        var node = tree as? [String: Any]
        for part in path.split(separator: "/") {
            node = (node?["CONTENTS"] as? [String: Any])?[String(part)] as? [String: Any]
        }
        return node
    }
}
