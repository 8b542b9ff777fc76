#if canImport(Glibc)
import Glibc
#endif
import Testing

extension Integration {
/// OSC over TCP holds only so much: one host's connections cannot lock the
/// others out, and a connection that sends nothing whole is closed
/// (docs/access.md, "OSC over TCP").
@Suite struct TCPLimitsTests {
    /// Whether the server has closed `fd` (a read gives 0 or an error at once).
    static func isClosed(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 256)
        return chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) } <= 0
    }

    /// How long until the server closes `fd` (nil: not within `limit`), while
    /// `tick` runs every 0.1 s.
    static func timeToClose(_ fd: Int32, within limit: Duration, tick: (Duration) -> Void = { _ in }) async throws -> Duration? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < limit {
            if isClosed(fd) { return ContinuousClock.now - start }
            tick(ContinuousClock.now - start)
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    @Test func twoHundredIdleConnectionsFromOneHostLeaveRoomForAnother() async throws {
        try await withRig { rig in
            var sockets: [Int32] = []
            defer { sockets.forEach { close($0) } }
            for _ in 0..<200 { sockets.append(try connectToLoopback(tcpPort: rig.oscPort, from: "127.0.0.2")) }
            // Those over the host's limit are closed at once.
            var open = sockets.count
            for _ in 0..<50 {
                open = sockets.filter { !Self.isClosed($0) }.count
                if open <= 16 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            print("200 idle TCP connections from 127.0.0.2: \(open) left open")
            #expect(open == 16, "\(open) of 200 left open")
            let other = try TCPOSCConnection(port: rig.oscPort)
            defer { other.close() }
            try other.send(.message(.init("/ping")))
            #expect(try other.receive().map(\.address) == ["/pong"], "127.0.0.1 answered")
        }
    }

    @Test func anIdleConnectionIsClosedAtTheIdleTimeout() async throws {
        try await withRig(arguments: ["--tcp-idle-timeout", "2"]) { rig in
            let idle = try TCPOSCConnection(port: rig.oscPort)
            let busy = try TCPOSCConnection(port: rig.oscPort)
            defer { idle.close(); busy.close() }
            try idle.send(.message(.init("/ping")))
            #expect(try idle.receive().map(\.address) == ["/pong"])
            // The busy one sends a whole packet every half second and stays.
            var sent = 0
            let took = try await Self.timeToClose(idle.descriptor, within: .seconds(8)) { elapsed in
                guard elapsed > .milliseconds(500 * sent) else { return }
                sent += 1
                try? busy.send(.message(.init("/status/xruns")))
            }
            print("a TCP connection idle under --tcp-idle-timeout 2: closed after \(took.map { "\($0)" } ?? "more than 8 s")")
            let closed = try #require(took, "the idle connection still open after 8 s")
            #expect(closed > .milliseconds(1800), "closed after \(closed), before its 2 s")
            #expect(!Self.isClosed(busy.descriptor), "the busy connection was closed too")
        }
    }

    @Test func aSlowByteStreamIsClosedWithinTenSeconds() async throws {
        try await withRig { rig in
            let slow = try SLIPOSCConnection(port: rig.oscPort)
            defer { slow.close() }
            // A /ping frame a byte a second, never ended: no idle moment, no whole packet.
            let bytes = OSCTestClient.encode(.message(.init("/ping"))) + Array(repeating: 0, count: 64)
            var sent = 0
            let took = try await Self.timeToClose(slow.descriptor, within: .seconds(15)) { elapsed in
                guard elapsed > .seconds(sent), sent < bytes.count else { return }
                try? slow.sendRaw([bytes[sent]])
                sent += 1
            }
            print("a SLIP stream a byte a second: closed after \(took.map { "\($0)" } ?? "more than 15 s")")
            let closed = try #require(took, "still open after 15 s")
            #expect(closed > .seconds(9) && closed < .seconds(13), "closed after \(closed)")
            try await rig.ping()
        }
    }
}
}
