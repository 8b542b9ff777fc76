#if canImport(Glibc)
import Glibc
#endif
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization
import Testing

extension Integration {
/// The full state on `/subscribe`, on a large rig: every address arrives,
/// with its value, over loopback UDP (paced as a client on this machine)
/// and over TCP and the OSCQuery WebSocket (as fast as the client reads).
/// How long it takes is
/// measured by the benchmark (`scripts/bench --only fullstate`), not here.
@Suite struct FullStateTests {
    static let size = 128

    /// Crosspoints set before subscribing, in each of their forms, and what
    /// the full state must then say at each form's address.
    static let settings: [(address: String, value: Float)] = [
        ("/matrix/5/7", 0.5), ("/matrix/128/1/db", -6), ("/matrix/64/100/fader", 0.5), ("/matrix/128/128", 0.25),
    ]
    static let expected: [(address: String, value: Float)] = [
        ("/matrix/5/7", 0.5), ("/matrix/5/7/db", -6.0206), ("/matrix/5/7/fader", 0.59949),
        ("/matrix/128/1/db", -6), ("/matrix/128/1", 0.50119),
        ("/matrix/64/100/fader", 0.5), ("/matrix/64/100/db", -10), ("/matrix/64/100", 0.31623),
        ("/matrix/128/128", 0.25), ("/matrix/2/2", 1), ("/matrix/2/2/fader", 0.75), ("/matrix/2/1", 0),
    ]

    @Test func aLargeRigsFullStateArrivesWholeOverLoopbackUDP() async throws {
        try await withRig(inputs: Self.size, outputs: Self.size) { rig in
            for setting in Self.settings { try rig.osc.send(setting.address, .float(setting.value)) }
            try await rig.ping()
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            // Until nothing more comes for half a second (at most a minute).
            let received = try await tablet.collectUntilQuiet()
            Self.check(received.map { ($0.address, $0.arguments) })
        }
    }

    @Test func aLargeRigsFullStateArrivesWholeOverTCP() async throws {
        try await withRig(inputs: Self.size, outputs: Self.size) { rig in
            for setting in Self.settings { try rig.osc.send(setting.address, .float(setting.value)) }
            try await rig.ping()
            let connection = try TCPOSCConnection(port: rig.oscPort)
            defer { connection.close() }
            try connection.send(.message(.init("/subscribe")))
            var received: [(String, [OSCTestClient.Argument])] = []
            // Packets until none comes for 2 s (the connection's own wait).
            while let packet = try? connection.receive() {
                received += packet.map { ($0.address, $0.arguments) }
            }
            Self.check(received)
        }
    }

    /// Over the OSCQuery WebSocket too, as binary frames on the session:
    /// every address once, with its value. At 256x256, 4,625 frames: more
    /// than a session's queue holds (4,096), so it is sent only as the
    /// client reads, or frames would be dropped.
    @Test func aLargeRigsFullStateArrivesWholeOverAWebSocket() async throws {
        try await withRig(inputs: 256, outputs: 256) { rig in
            for setting in Self.settings { try rig.osc.send(setting.address, .float(setting.value)) }
            try await rig.ping()
            let heard = Mutex<[(String, [OSCTestClient.Argument])]>([])
            let port = rig.httpPort
            let session = Task {
                var logger = Logger(label: "ws-test")
                logger.logLevel = .warning
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", logger: logger) { inbound, outbound, _ in
                    try await outbound.write(.binary(ByteBuffer(bytes: OSCTestClient.encode(.message(.init("/subscribe"))))))
                    for try await frame in inbound.messages(maxSize: 1 << 20) {
                        guard case .binary(let buffer) = frame,
                              let messages = OSCTestClient.decode(datagram: Array(buffer.readableBytesView),
                                                                  sender: .init(port: 0), receivedAt: .now) else { continue }
                        heard.withLock { $0 += messages.map { ($0.address, $0.arguments) } }
                    }
                }
            }
            defer { session.cancel() }
            // Until nothing more comes for half a second (at most a minute).
            var count = 0
            for _ in 0..<120 {
                try await Task.sleep(for: .milliseconds(500))
                let now = heard.withLock { $0.count }
                if now > 0 && now == count { break }
                count = now
            }
            Self.check(heard.withLock { $0 }, size: 256)
        }
    }

    /// Every address of the rig once: each crosspoint in its three forms;
    /// every source, output and the master with the same leaves as the
    /// first (levels in their three forms among them), and its safe; the
    /// channel map; the groups and the talkbacks. The crosspoints set before have their values.
    static func check(_ received: [(address: String, arguments: [OSCTestClient.Argument])], size n: Int = size) {
        let received = received.filter { !Integration.events.contains($0.address) }
        var values: [String: [OSCTestClient.Argument]] = [:]
        for (address, arguments) in received { values[address] = arguments }
        #expect(values.count == received.count, "each address once: \(received.count) messages, \(values.count) addresses")

        var missing: [String] = []
        for i in 1...n {
            for o in 1...n {
                for address in ["/matrix/\(i)/\(o)", "/matrix/\(i)/\(o)/db", "/matrix/\(i)/\(o)/fader"]
                where values[address] == nil { missing.append(address) }
            }
        }
        #expect(missing.isEmpty, "\(missing.count) crosspoint addresses missing, first \(missing.prefix(5))")

        func leaves(_ prefix: String) -> Set<String> {
            Set(values.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
        }
        let sourceLeaves = leaves("/source/1/"), outputLeaves = leaves("/output/1/"), masterLeaves = leaves("/master/")
        for level in ["volume", "db", "fader"] {
            #expect(sourceLeaves.contains(level) && outputLeaves.contains(level) && masterLeaves.contains(level),
                    "levels in every form: \(level)")
        }
        for k in 1...n {
            #expect(leaves("/source/\(k)/") == sourceLeaves, "source \(k)'s addresses")
            #expect(leaves("/output/\(k)/") == outputLeaves, "output \(k)'s addresses")
            #expect(values["/safe/source/\(k)"] != nil && values["/safe/output/\(k)"] != nil && values["/safe/mix/\(k)"] != nil,
                    "safes of \(k)")
        }
        // Per channel: a source safe, an output safe and a mix safe; then the
        // master's safe, the channel map, and the size (/rig/inputs, /rig/outputs).
        // Then the 8 DCAs (their leaves and safe) and the 8 mute groups.
        let dcaLeaves = leaves("/dca/1/"), muteGroupLeaves = leaves("/mutegroup/1/")
        #expect(dcaLeaves == ["name", "volume", "db", "fader", "mute"] && muteGroupLeaves == ["name", "mute"], "groups")
        #expect(sourceLeaves.isSuperset(of: (1...8).flatMap { ["dca/\($0)", "mutegroup/\($0)"] }), "memberships")
        #expect((1...8).allSatisfy { values["/safe/dca/\($0)"] != nil && leaves("/dca/\($0)/") == dcaLeaves })
        let groups = 8 * (dcaLeaves.count + 1) + 8 * muteGroupLeaves.count
        // And the two talkbacks (`serve`'s default): their own leaves and a
        // destination per output.
        let talkbackLeaves = leaves("/talkback/1/"), listenLeaves = leaves("/listen/")
        #expect(listenLeaves == ["mode", "default", "volume", "db", "fader", "dim_db", "source", "output"], "the listen: \(listenLeaves)")
        #expect(talkbackLeaves == Set(["name", "volume", "db", "fader", "dim_db", "latch", "talk", "listen"]
                                      + (1...n).map { "output/\($0)" })
                && leaves("/talkback/2/") == talkbackLeaves, "talkbacks: \(talkbackLeaves.sorted().prefix(9))")
        let expectedCount = 3 * n * n + n * (sourceLeaves.count + outputLeaves.count + 3) + masterLeaves.count + 1 + 1 + 2
            + groups + 2 * talkbackLeaves.count + listenLeaves.count
        #expect(values["/rig/inputs"] == [.int32(Int32(n))] && values["/rig/outputs"] == [.int32(Int32(n))], "the size")
        #expect(values.count == expectedCount, "\(values.count) addresses of \(expectedCount)")
        #expect(values["/safe/master"] != nil)
        #expect(values["/matrix/map"]?.count == n, "the channel map, one entry per output")

        for (address, value) in expected {
            let got = values[address]?.first?.floatValue
            #expect(got.map { abs($0 - value) < 1e-3 } == true, "\(address): \(String(describing: got)), not \(value)")
        }
    }
}
}
