import OSC
import Testing

/// A TCP connection's framing, told from its first byte, and packets framed
/// for the way back.
@Suite struct StreamFramingTests {
    @Test func tellsTheFramingFromTheFirstByte() {
        #expect(StreamFraming(firstByte: 0xC0) == .slip)
        // SLIP from a sender that puts END after packets only (liblo 0.31).
        #expect(StreamFraming(firstByte: UInt8(ascii: "/")) == .slip)
        #expect(StreamFraming(firstByte: UInt8(ascii: "#")) == .slip)
        // Any length prefix of a packet up to 64 KiB starts with 0.
        #expect(StreamFraming(firstByte: 0x00) == .lengthPrefixed)
        // Anything else is left to the length check, which refuses it.
        #expect(StreamFraming(firstByte: 0x01) == .lengthPrefixed)
    }

    @Test func framesPacketsForTheWayBack() {
        let packet: [UInt8] = [0x2F, 0xC0, 0xDB, 0]
        #expect(StreamFraming.lengthPrefixed.frame(packet) == [0, 0, 0, 4] + packet)
        #expect(StreamFraming.slip.frame(packet) == [0xC0, 0x2F, 0xDB, 0xDC, 0xDB, 0xDD, 0, 0xC0])
    }
}
