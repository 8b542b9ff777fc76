import Foundation
import Testing

extension Integration {
/// Tablets and scripts: feedback, leases, access control, TCP.
@Suite struct SurfaceTests {
    @Test func aChangeFromOneClientReachesEverySubscriberIncludingOscdump() async throws {
        try await withRig { rig in
            // The suite's own receiver subscribes where it sends from.
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            // The full state arrives at once, in bundles.
            let dump = try await tablet.collect(for: .milliseconds(500))
            let addresses = Set(dump.map(\.address))
            for address in ["/matrix/1/1", "/matrix/2/1/db", "/matrix/1/2/fader", "/source/2/pan", "/source/1/name",
                            "/output/2/mute", "/master/db", "/safe/source/1", "/matrix/map"] {
                #expect(addresses.contains(address), "\(address) in the full state")
            }
            #expect(dump.allSatisfy { $0.bundleTimeTag != nil })
            #expect(dump.first { $0.address == "/matrix/1/1" }?.arguments == [.float(1)])

            // oscdump, subscribed for by a script on its behalf with a port.
            let listener = try await Oscdump.start()
            let oscdump = listener.process
            defer { oscdump.terminate() }
            try rig.osc.send("/subscribe", .int32(Int32(listener.port)))
            try await oscdump.waitForOutput(containing: "/matrix/1/2 f 0", timeout: .seconds(5))

            // Another client changes a crosspoint: both subscribers hear it,
            // in every form, and so does the sender, subscribed too.
            let mark = oscdump.outputMark()
            try await rig.sendAndSettle("/matrix/1/2", .float(0.5))
            let linear = try await tablet.waitFor(address: "/matrix/1/2") { $0.arguments == [.float(0.5)] }
            #expect(linear.bundleTimeTag != nil)
            let db = try await tablet.waitFor(address: "/matrix/1/2/db")
            #expect(abs((db.argument(0)?.floatValue ?? 0) - -6.0206) < 1e-3)
            _ = try await tablet.waitFor(address: "/matrix/1/2/fader")
            _ = try await tablet.waitFor(address: "/matrix/map")
            try await oscdump.waitForOutput(containing: "/matrix/1/2 f 0.5", after: mark, timeout: .seconds(5))

            try rig.osc.send("/status")
            let subscribers = try await rig.osc.waitFor(address: "/status/subscribers")
            #expect(subscribers.arguments == [.int32(2)])
        }
    }

    @Test func feedbackIsCoalescedAndTheFinalValueAlwaysArrives() async throws {
        try await withRig { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            _ = try await tablet.collect(for: .milliseconds(300))
            // 200 fader moves in about 100 ms: at most ~30/s reach the tablet, the last one among them.
            for step in 1...200 {
                try rig.osc.send("/source/1/volume", .float(Float(step) / 100))
                if step % 20 == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            let received = try await tablet.collect(for: .milliseconds(700)).filter { $0.address == "/source/1/volume" }
            #expect(received.count <= 8, "\(received.count) updates for one address in under a second")
            #expect(received.last?.arguments == [.float(2)], "the final value")
        }
    }

    @Test func aSubscriptionLapsesWithoutMessages() async throws {
        try await withRig(arguments: ["--subscription-timeout", "1"]) { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            _ = try await tablet.collect(for: .milliseconds(300))
            // A tablet that keeps sending stays subscribed.
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(600))
                try tablet.send("/ping")
            }
            try await rig.sendAndSettle("/source/1/pan", .float(-1))
            _ = try await tablet.waitFor(address: "/source/1/pan") { $0.arguments == [.float(-1)] }
            // Silent for longer than the lease: no more feedback.
            try await Task.sleep(for: .milliseconds(1500))
            _ = try await tablet.collect(for: .milliseconds(10))
            try await rig.sendAndSettle("/source/1/pan", .float(1))
            let late = try await tablet.collect(for: .milliseconds(500))
            #expect(!late.contains { $0.address == "/source/1/pan" }, "lapsed: \(late)")
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/subscribers").arguments == [.int32(0)])
        }
    }

    @Test func a64x64RecallReachesASubscriberWhole() async throws {
        try await withRig(inputs: 64, outputs: 64) { rig in
            // A preset that sets every crosspoint to its own value.
            var points: [String] = []
            func value(_ n: Int, _ m: Int) -> Float { Float((n * 64 + m) % 97 + 1) / 100 }
            for n in 1...64 { for m in 1...64 { points.append(#"{ "in": \#(n), "out": \#(m), "volume": \#(value(n, m)) }"#) } }
            let json = #"{ "format": "crosspoint-preset", "version": 1, "channels": { "inputs": 64, "outputs": 64 }, "crosspoints": [\#(points.joined(separator: ",\n")) ] }"#
            try Data(json.utf8).write(to: rig.presets.appendingPathComponent("dense.json"))

            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            _ = try await tablet.collect(for: .seconds(2)) // the full state: 12,288 crosspoint messages and the rest
            try await rig.sendAndSettle("/preset/recall", .string("dense"), .float(1))
            let received = try await tablet.collect(for: .seconds(3))
            var last: [String: Float] = [:]
            for message in received where message.address.hasPrefix("/matrix/") && message.address.split(separator: "/").count == 3 {
                last[message.address] = message.argument(0)?.floatValue
            }
            #expect(last.count == 4096, "every crosspoint arrived: \(last.count)")
            let wrong = (1...64).flatMap { n in (1...64).map { m in (n, m) } }
                .filter { last["/matrix/\($0.0)/\($0.1)"] != value($0.0, $0.1) }
            #expect(wrong.isEmpty, "\(wrong.count) crosspoints with a wrong final value")
        }
    }

    @Test func deniedAndReadOnlyClientsChangeNothing() async throws {
        try await withRig(arguments: ["--allow", "127.0.0.2/32", "--read-only", "127.0.0.3"]) { rig in
            let allowed = try OSCTestClient(target: .init(port: rig.oscPort), bindHost: "127.0.0.2")
            let reader = try OSCTestClient(target: .init(port: rig.oscPort), bindHost: "127.0.0.3")
            defer { allowed.close(); reader.close() }
            // The rig's own client sends from 127.0.0.1: dropped without a reply.
            try rig.osc.send("/ping")
            try rig.osc.send("/matrix/1/1", .float(0))
            #expect(try await rig.osc.collect(for: .milliseconds(400)).isEmpty)

            try reader.send("/matrix/1/1", .float(0))
            let refusal = try await reader.waitFor(address: "/error")
            #expect(refusal.arguments == [.string("/matrix/1/1"), .string("read-only")])
            try reader.send("/preset/save", .string("x"))
            #expect(try await reader.waitFor(address: "/error").argument(1) == .string("read-only"))
            try reader.send("/matrix/1/1")
            #expect(try await reader.waitFor(address: "/matrix/1/1").arguments == [.float(1)], "queries work")
            try reader.send("/subscribe")
            _ = try await reader.waitFor(address: "/matrix/2/2", timeout: .seconds(2))

            try allowed.send("/status")
            let denied = try await allowed.waitFor(address: "/status/denied")
            #expect(denied.arguments == [.int32(2)])
            try allowed.send("/matrix/1/1")
            #expect(try await allowed.waitFor(address: "/matrix/1/1").arguments == [.float(1)], "nothing changed")
        }
    }

    @Test func tcpClientsGetTheSameAddressSpace() async throws {
        try await withRig { rig in
            let connection = try TCPOSCConnection(port: rig.oscPort)
            defer { connection.close() }
            try connection.send(.message(.init("/matrix/2/1", arguments: [.float(0.25)])))
            try connection.send(.message(.init("/matrix/2/1")))
            let reply = try connection.receive()
            #expect(reply.map(\.address) == ["/matrix/2/1"])
            #expect(reply.first?.arguments == [.float(0.25)])
            try connection.send(.message(.init("/nowhere", arguments: [.int32(1)])))
            #expect(try connection.receive().first?.address == "/error")
        }
    }
}
}

/// A minimal OSC-over-TCP client: packets framed by a 4-byte big-endian length.
final class TCPOSCConnection {
    private let fd: Int32
    /// Its socket, for tests that watch it close.
    var descriptor: Int32 { fd }

    init(port: Int) throws {
        fd = try connectToLoopback(tcpPort: port)
    }

    func close() { _ = Glibc.close(fd) }

    func send(_ packet: OSCTestClient.Packet) throws {
        let bytes = OSCTestClient.encode(packet)
        let framed = withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { Array($0) } + bytes
        guard framed.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, 0) }) == framed.count else {
            throw RigError("TCP send failed")
        }
    }

    /// The next packet's messages, waiting up to 2 s.
    func receive() throws -> [OSCTestClient.ReceivedMessage] {
        func read(_ count: Int) throws -> [UInt8] {
            var bytes: [UInt8] = []
            while bytes.count < count {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 2000) > 0 else { throw RigError("no TCP reply") }
                var chunk = [UInt8](repeating: 0, count: count - bytes.count)
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { throw RigError("TCP connection closed") }
                bytes += chunk[0..<n]
            }
            return bytes
        }
        let header = try read(4)
        let size = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        let body = try read(size)
        guard let messages = OSCTestClient.decode(datagram: body, sender: .init(port: 0), receivedAt: .now) else {
            throw RigError("not OSC")
        }
        return messages
    }
}

extension Integration {
@Suite struct MeterTests {
    @Test func aMinus6dBFSSineReadsMinus6() async throws {
        try await withRig { rig in
            let amplitude = SignalAnalysis.linear(decibels: -6)
            rig.playSine(input: 1, frequency: 1000, amplitude: amplitude)
            rig.source.setSignal(.silence, playPort: 2)
            let meter = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { meter.close() }
            try meter.send("/meters/subscribe", .float(20))
            _ = try await meter.collect(for: .milliseconds(200))
            let received = try await meter.collect(for: .seconds(1))
            let inputs = received.filter { $0.address == "/meters/input" }
            #expect((15...25).contains(inputs.count), "\(inputs.count) updates in a second at 20 Hz")
            for address in ["/meters/input", "/meters/input/rms", "/meters/output", "/meters/output/rms"] {
                let last = try #require(received.last { $0.address == address }, "\(address)")
                let levels = last.arguments.compactMap(\.floatValue)
                #expect(levels.count == 2)
                #expect(abs(levels[0] - -6) < 0.5, "\(address) channel 1: \(levels[0]) dBFS")
                #expect(levels[1] == -90, "\(address) channel 2 is silent: \(levels[1])")
            }
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/meter_subscribers").arguments == [.int32(1)])
            try meter.send("/meters/unsubscribe")
            _ = try await meter.collect(for: .milliseconds(100))
            #expect(try await meter.collect(for: .milliseconds(300)).isEmpty)
        }
    }
}
}
