import OSC
import Testing

/// OSC 1.0 stream framing: each packet after its length, 4 bytes big-endian.
@Suite struct LengthPrefixDecoderTests {
    func prefixed(_ packet: [UInt8]) -> [UInt8] {
        let n = packet.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + packet
    }

    func decode(_ stream: [UInt8], piece: Int) throws(LengthPrefixDecoder.Failure) -> [[UInt8]] {
        var decoder = LengthPrefixDecoder()
        var packets: [[UInt8]] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + piece)
            try decoder.decode(Array(stream[start..<end])) { packets.append(Array($0)) }
            start = end
        }
        return packets
    }

    @Test func readsPacketsSplitAnywhere() throws {
        let packets: [[UInt8]] = [Array("/a\0\0,\0\0\0".utf8), [0xC0, 0xDB, 0, 0], Array(repeating: 7, count: 1000)]
        let stream = packets.flatMap(prefixed)
        for piece in [1, 3, 4, 5, 64, stream.count] {
            #expect(try decode(stream, piece: piece) == packets, "pieces of \(piece)")
        }
    }

    @Test func takesAPacketOfExactlyTheLimitAndRefusesALongerOne() throws {
        let limit = [UInt8](repeating: 1, count: LengthPrefixDecoder.defaultLimit)
        #expect(try decode(prefixed(limit), piece: 4096) == [limit])
        // Refused on the length alone, before the packet arrives.
        #expect(throws: LengthPrefixDecoder.Failure.packetTooLong(size: 65_537)) {
            try decode([0, 1, 0, 1], piece: 4)
        }
        // "/ping" in SLIP read as a length: the refusal of issue 11.
        #expect(throws: LengthPrefixDecoder.Failure.packetTooLong(size: 3_224_334_441)) {
            try decode([0xC0] + Array("/pi".utf8), piece: 4)
        }
    }
}
