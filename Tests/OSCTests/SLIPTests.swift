import OSC
import Testing

/// SLIP framing (RFC 1055) as OSC 1.1 streams use it: `SLIP.encode` and
/// `SLIPDecoder`, held to bytes written out by hand from the RFC.
@Suite struct SLIPTests {
    /// What the decoder reported, copied out of its callback.
    enum Outcome: Equatable, CustomStringConvertible {
        case packet([UInt8])
        case badEscape(UInt8)

        var description: String {
            switch self {
            case .packet(let bytes): "packet(\(bytes.count) bytes)"
            case .badEscape(let byte): "badEscape(\(byte))"
            }
        }
    }

    /// Feeds `stream` to a fresh decoder in pieces of the given sizes
    /// (cycled; the whole stream at once when empty).
    func decode(_ stream: [UInt8], pieces: [Int] = [], limit: Int = SLIPDecoder.defaultLimit)
        throws(SLIPDecoder.Failure) -> [Outcome] {
        var decoder = SLIPDecoder(limit: limit)
        var outcomes: [Outcome] = []
        let sizes = pieces.isEmpty ? [max(stream.count, 1)] : pieces
        var start = 0
        var turn = 0
        while start < stream.count {
            let end = min(stream.count, start + sizes[turn % sizes.count])
            try decoder.decode(Array(stream[start..<end])) { event in
                switch event {
                case .packet(let bytes): outcomes.append(.packet(Array(bytes)))
                case .badEscape(let byte): outcomes.append(.badEscape(byte))
                }
            }
            start = end
            turn += 1
        }
        return outcomes
    }

    let end = SLIP.end, esc = SLIP.escape, escEnd = SLIP.escapedEnd, escEsc = SLIP.escapedEscape

    @Test func encodesDoubleEndWithEscapes() {
        #expect(SLIP.encode([0x01, 0xC0, 0xDB, 0x02]) == [end, 0x01, esc, escEnd, esc, escEsc, 0x02, end])
        // Bytes that look like the second half of an escape are plain data.
        #expect(SLIP.encode([0xDC, 0xDD]) == [end, 0xDC, 0xDD, end])
        #expect(SLIP.encode([UInt8]()) == [end, end])
    }

    /// Packets to frame, named for the test log.
    struct Payload: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let payloads = [
        Payload(name: "plain", bytes: [0x2F, 0x61, 0, 0]),
        Payload(name: "END", bytes: [0xC0]),
        Payload(name: "ESC", bytes: [0xDB]),
        Payload(name: "ESC ESC_END as data", bytes: [0xDB, 0xDC]),
        Payload(name: "ESC ESC_ESC as data", bytes: [0xDB, 0xDD]),
        Payload(name: "ENDs and ESCs mixed", bytes: [0xC0, 0xC0, 0xDB, 0xDB, 0xC0]),
        Payload(name: "every byte value", bytes: Array(0...255)),
        Payload(name: "300 ENDs, 300 ESCs", bytes: Array(repeating: 0xC0, count: 300) + Array(repeating: 0xDB, count: 300)),
    ]

    @Test(arguments: payloads)
    func roundTripsWholeAndOneByteAtATime(_ payload: Payload) throws {
        let framed = SLIP.encode(payload.bytes)
        #expect(try decode(framed) == [.packet(payload.bytes)])
        #expect(try decode(framed, pieces: [1]) == [.packet(payload.bytes)])
    }

    @Test func roundTripsAStreamSplitAnywhere() throws {
        let stream = Self.payloads.flatMap { SLIP.encode($0.bytes) }
        let expected = Self.payloads.map { Outcome.packet($0.bytes) }
        for pieces in [[1], [2], [3], [7], [1, 2, 5], [64], [1000], [4096, 1]] {
            #expect(try decode(stream, pieces: pieces) == expected, "pieces \(pieces)")
        }
    }

    /// An OSC message whose float is -2.0 (0xC0000000) and whose blob holds
    /// both special bytes: the codec reads back what was sent.
    @Test func carriesAnOSCPacketHoldingTheSpecialBytes() throws {
        let packet = OSCPacket.message(OSCMessage("/matrix/1/2", [.float(-2), .blob([0xC0, 0xDB, 0xDC, 0xC0])]))
        let bytes = try #require(OSCCodec.encode(packet))
        #expect(bytes.contains(0xC0) && bytes.contains(0xDB))
        let outcomes = try decode(SLIP.encode(bytes), pieces: [1])
        guard case .packet(let decoded) = try #require(outcomes.first), outcomes.count == 1 else {
            Issue.record("\(outcomes)")
            return
        }
        #expect(try OSCCodec.decode(decoded) == packet)
    }

    @Test func readsSingleEndFraming() throws {
        // END after each packet only, as liblo 0.31 sends it.
        let stream: [UInt8] = [0x01, 0x02, end, esc, escEnd, end, 0x03, end]
        #expect(try decode(stream) == [.packet([1, 2]), .packet([0xC0]), .packet([3])])
        #expect(try decode(stream, pieces: [1]) == [.packet([1, 2]), .packet([0xC0]), .packet([3])])
    }

    @Test func readsDoubleEndFramingAndSkipsEmptyFrames() throws {
        let stream: [UInt8] = [end, end, end, 0x01, end, end, 0x02, esc, escEsc, end, end, end]
        #expect(try decode(stream) == [.packet([1]), .packet([2, 0xDB])])
        #expect(try decode([end, end, end, end]) == [])
        #expect(try decode([]) == [])
    }

    @Test func holdsAnUnfinishedFrameUntilItsEnd() throws {
        var decoder = SLIPDecoder()
        var packets: [[UInt8]] = []
        try decoder.decode([end, 0x01, 0x02, esc]) { if case .packet(let p) = $0 { packets.append(Array(p)) } }
        #expect(packets.isEmpty)
        try decoder.decode([escEnd, 0x03]) { if case .packet(let p) = $0 { packets.append(Array(p)) } }
        #expect(packets.isEmpty)
        try decoder.decode([end]) { if case .packet(let p) = $0 { packets.append(Array(p)) } }
        #expect(packets == [[1, 2, 0xC0, 3]])
    }

    @Test func takesAFrameOfExactlyTheLimit() throws {
        let limit = SLIPDecoder.defaultLimit
        #expect(limit == 65_536)
        let payload = [UInt8](repeating: 0x41, count: limit)
        #expect(try decode(SLIP.encode(payload), pieces: [1000]) == [.packet(payload)])
        // The limit counts the packet's bytes, not its escapes on the wire.
        let escaped = [UInt8](repeating: 0xC0, count: limit)
        #expect(try decode(SLIP.encode(escaped), pieces: [1000]) == [.packet(escaped)])
    }

    @Test func refusesAFrameOverTheLimitBeforeItsEnd() throws {
        // No END ever comes: the decoder stops at the limit, it does not buffer on.
        let stream = [end] + [UInt8](repeating: 0x41, count: SLIPDecoder.defaultLimit + 1)
        #expect(throws: SLIPDecoder.Failure.frameTooLong(limit: 65_536)) {
            try decode(stream, pieces: [4096])
        }
        #expect(throws: SLIPDecoder.Failure.frameTooLong(limit: 8)) {
            try decode(SLIP.encode([UInt8](repeating: 0xC0, count: 9)), limit: 8)
        }
        // Packets before the long one were handed over.
        var decoder = SLIPDecoder(limit: 4)
        var packets: [[UInt8]] = []
        #expect(throws: SLIPDecoder.Failure.frameTooLong(limit: 4)) {
            try decoder.decode([1, 2, end, 1, 2, 3, 4, 5, end]) { if case .packet(let p) = $0 { packets.append(Array(p)) } }
        }
        #expect(packets == [[1, 2]])
    }

    @Test func aSkippedFrameIsBoundedToo() {
        let stream = [end, esc, 0x41] + [UInt8](repeating: 0x41, count: 10)
        #expect(throws: SLIPDecoder.Failure.frameTooLong(limit: 8)) { try decode(stream, limit: 8) }
    }

    @Test func dropsAFrameWithABadEscapeAndGoesOn() throws {
        let stream: [UInt8] = [end, 0x01, esc, 0x41, 0x02, end, end, 0x03, end]
        #expect(try decode(stream) == [.badEscape(0x41), .packet([3])])
        #expect(try decode(stream, pieces: [1]) == [.badEscape(0x41), .packet([3])])
        // Two bad escapes in one frame: one report.
        #expect(try decode([esc, 0x00, esc, 0x01, end, 0x04, end]) == [.badEscape(0), .packet([4])])
        // ESC END: the END still ends the frame, so the next one reads clean.
        #expect(try decode([0x01, esc, end, 0x05, end]) == [.badEscape(0xC0), .packet([5])])
    }
}
