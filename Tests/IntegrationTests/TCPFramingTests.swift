import CLiblo
import Testing

extension Integration {
/// OSC over TCP in both stream framings on one port: OSC 1.0's length
/// prefix (liblo) and OSC 1.1's SLIP (TouchOSC, QLab), told apart per
/// connection and answered in the framing each client used.
@Suite struct TCPFramingTests {
    @Test func aSLIPClientIsAnsweredInSLIPBesideALengthPrefixedOne() async throws {
        try await withRig { rig in
            let slip = try SLIPOSCConnection(port: rig.oscPort)
            let prefixed = try TCPOSCConnection(port: rig.oscPort)
            defer { slip.close(); prefixed.close() }

            try slip.send(.message(.init("/matrix/1/2", .float(0.5))))
            try slip.send(.message(.init("/matrix/1/2")))
            let reply = try slip.receive()
            #expect(reply.map(\.address) == ["/matrix/1/2"])
            #expect(reply.first?.arguments == [.float(0.5)])
            #expect(slip.onTheWire.first == SLIPOSCConnection.end, "END first: \(slip.onTheWire.prefix(8))")

            // The length-prefixed client, connected all along, is served as before.
            try prefixed.send(.message(.init("/matrix/1/2")))
            #expect(try prefixed.receive().first?.arguments == [.float(0.5)])

            // A bundle of two messages whose bytes hold END (-6 is 0xC0C00000):
            // sent escaped, and the reply (about -6 dB) comes back escaped.
            try slip.send(.bundle(.immediately, [
                .message(.init("/matrix/2/1/db", .float(-6))),
                .message(.init("/matrix/2/1/db")),
            ]))
            let db = try slip.receive()
            #expect(db.map(\.address) == ["/matrix/2/1/db"])
            #expect(abs((db.first?.argument(0)?.floatValue ?? 0) - -6) < 1e-3, "\(db)")
            let wire = slip.onTheWire
            #expect(wire.indices.dropLast().contains { wire[$0] == 0xDB && wire[$0 + 1] == 0xDC }, "END escaped in the reply")

            // liblo 0.31's own SLIP sender puts END after each packet only.
            let liblo = try #require(lo_address_new_with_proto(LO_TCP, "127.0.0.1", "\(rig.oscPort)"))
            defer { lo_address_free(liblo) }
            lo_address_set_stream_slip(liblo, 1)
            let message = try #require(lo_message_new())
            defer { lo_message_free(message) }
            lo_message_add_float(message, 0.25)
            #expect(lo_send_message(liblo, "/matrix/2/2", message) > 0)
            #expect(try await eventually { try prefixed.query("/matrix/2/2") == [.float(0.25)] }, "liblo's SLIP message applied")

            // Feedback goes to a SLIP subscriber in SLIP.
            try slip.send(.message(.init("/subscribe")))
            _ = try slip.waitFor("/matrix/1/2") { $0.arguments == [.float(0.5)] } // the full state
            try prefixed.send(.message(.init("/matrix/1/1", .float(0.125))))
            _ = try slip.waitFor("/matrix/1/1") { $0.arguments == [.float(0.125)] }
        }
    }

    @Test func aBadSLIPFrameIsDroppedAndAnOverlongOneClosesTheConnection() async throws {
        try await withRig { rig in
            let slip = try SLIPOSCConnection(port: rig.oscPort)
            defer { slip.close() }
            let ping = SLIPOSCConnection.frame(OSCTestClient.encode(.message(.init("/ping"))))

            // ESC followed by 'A': that frame is dropped, the next one is read.
            try slip.sendRaw([SLIPOSCConnection.end] + Array("/pi".utf8) + [0xDB, 0x41, SLIPOSCConnection.end] + ping)
            #expect(try slip.receive().map(\.address) == ["/pong"])
            try await rig.crosspoint.waitForOutput(containing: "SLIP escape 0xDB followed by 0x41, frame dropped")

            // A good frame holding a malformed packet: logged and dropped, as over UDP.
            try slip.sendRaw(SLIPOSCConnection.frame(Array("/x\0".utf8)) + ping)
            #expect(try slip.receive().map(\.address) == ["/pong"])
            try await rig.crosspoint.waitForOutput(containing: "(tcp): not a valid OSC packet (3 bytes")

            // A frame past 64 KiB: refused and the connection closed; others are still served.
            try? slip.sendRaw([SLIPOSCConnection.end] + [UInt8](repeating: 0x41, count: 70_000))
            #expect(slip.isClosedByServer(within: 5))
            try await rig.crosspoint.waitForOutput(containing: "(tcp): SLIP frame over 65536 bytes refused; closing")
            try await rig.ping()
        }
    }
}
}

/// Tries `condition` every 50 ms for up to 2 s.
private func eventually(_ condition: () throws -> Bool) async throws -> Bool {
    for _ in 0..<40 {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return false
}

extension TCPOSCConnection {
    /// A query's answer: the arguments of the first reply.
    func query(_ address: String) throws -> [OSCTestClient.Argument] {
        try send(.message(.init(address)))
        return try receive().first?.arguments ?? []
    }
}

extension SLIPOSCConnection {
    /// Reads frames until a message at `address` that satisfies `condition`
    /// arrives, for up to 5 s.
    func waitFor(_ address: String, where condition: (OSCTestClient.ReceivedMessage) -> Bool = { _ in true })
        throws -> OSCTestClient.ReceivedMessage {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if let found = try receive().first(where: { $0.address == address && condition($0) }) { return found }
        }
        throw RigError("no \(address) over SLIP within 5 s")
    }
}
