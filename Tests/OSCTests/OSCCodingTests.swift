@testable import OSC
import Testing

@Suite struct OSCCodingTests {
    /// The OSC 1.0 specification's own example: "/oscillator/4/frequency" ,f 440.0.
    @Test func encodesTheSpecificationExample() {
        let bytes = OSCMessage("/oscillator/4/frequency", [.float(440)]).encoded()
        let expected: [UInt8] = Array("/oscillator/4/frequency".utf8) + [0]
            + Array(",f".utf8) + [0, 0]
            + [0x43, 0xdc, 0x00, 0x00]
        #expect(bytes == expected)
    }

    /// The second example of the specification: "/foo" ,iisff 1000 -1 "hello" 1.234 5.678.
    @Test func encodesMixedArguments() {
        let bytes = OSCMessage("/foo", [.int32(1000), .int32(-1), .string("hello"), .float(1.234), .float(5.678)])
            .encoded()
        let expected: [UInt8] = [
            0x2f, 0x66, 0x6f, 0x6f, 0, 0, 0, 0,
            0x2c, 0x69, 0x69, 0x73, 0x66, 0x66, 0, 0,
            0, 0, 0x03, 0xe8,
            0xff, 0xff, 0xff, 0xff,
            0x68, 0x65, 0x6c, 0x6c, 0x6f, 0, 0, 0,
            0x3f, 0x9d, 0xf3, 0xb6,
            0x40, 0xb5, 0xb2, 0x2d,
        ]
        #expect(bytes == expected)
    }

    @Test func roundTripsEveryArgumentType() throws {
        let message = OSCMessage("/all", [
            .int32(-7), .float(0.25), .double(-1e-300), .int64(Int64.min), .string("héllo"), .symbol("sym"),
            .bool(true), .bool(false), .nil, .impulse, .blob([1, 2, 3, 4, 5]), .blob([]),
        ])
        let bytes = message.encoded()
        #expect(bytes.count % 4 == 0)
        #expect(try OSCMessage(decoding: bytes) == message)
        #expect(try OSCPacket(decoding: bytes) == .message(message))
    }

    /// liblo is an independent implementation: both must put the same bytes
    /// on the wire, and `encodedSize` must be exact.
    @Test func encodesAsLibloDoes() throws {
        let message = OSCMessage("/source/12/volume", [
            .int32(-7), .float(0.25), .double(-1e-300), .int64(Int64.min), .string("héllo, world"), .symbol("sy"),
            .bool(true), .bool(false), .nil, .impulse, .blob([1, 2, 3, 4, 5]), .string(""),
        ])
        // (No empty blob: LibloCoding.makeMessage crashes liblo's serialiser with one.)
        let liblo = try #require(LibloCoding.serialise(.message(message)))
        #expect(message.encoded() == liblo)
        #expect(message.encoded().count == message.encodedSize)
        let bundle = OSCPacket.bundle([message, OSCMessage("/a"), OSCMessage("/b", [.float(1)])])
        #expect(bundle.encoded() == LibloCoding.serialise(bundle))
    }

    @Test func roundTripsAMessageWithoutArguments() throws {
        let message = OSCMessage("/status")
        #expect(try OSCMessage(decoding: message.encoded()) == message)
        // A message without a type tag string (OSC 1.0 allows it from old senders).
        #expect(try OSCMessage(decoding: Array("/status".utf8) + [0]) == message)
    }

    @Test func roundTripsABundleWithItsTimeTag() throws {
        let messages = [OSCMessage("/a", [.float(1)]), OSCMessage("/b/c", [.string("x"), .int32(2)])]
        let timeTag = OSCTimeTag(seconds: 0x0102_0304, fraction: 0x0506_0708)
        let bytes = OSCPacket.bundle(messages).encoded(timeTag: timeTag)
        #expect(Array(bytes.prefix(16)) == Array("#bundle".utf8) + [0, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(OSCPacket.bundleTimeTag(of: bytes) == timeTag)
        #expect(try OSCPacket(decoding: bytes) == .bundle(messages))
        #expect(OSCPacket.bundleTimeTag(of: messages[0].encoded()) == nil)
    }

    @Test func flattensNestedBundles() throws {
        let inner = OSCPacket.bundle([OSCMessage("/b")]).encoded()
        var outer = OSCPacket.bundle([OSCMessage("/a")]).encoded()
        outer += [0, 0, 0, UInt8(inner.count)] + inner
        #expect(try OSCPacket(decoding: outer) == .bundle([OSCMessage("/a"), OSCMessage("/b")]))
    }

    @Test func readsPastTypesItHasNoCaseFor() throws {
        // ,tci: a time tag (8 bytes), a char (4), then an int.
        let bytes: [UInt8] = Array("/x".utf8) + [0, 0] + Array(",tci".utf8) + [0, 0, 0, 0]
            + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 65] + [0, 0, 0, 9]
        #expect(try OSCMessage(decoding: bytes) == OSCMessage("/x", [.unsupported("t"), .unsupported("c"), .int32(9)]))
    }

    @Test func rejectsMalformedPackets() {
        let good = OSCMessage("/a", [.int32(1)]).encoded()
        #expect(throws: OSCDecodingError.truncated) { try OSCMessage(decoding: good.dropLast(2)) }
        #expect(throws: OSCDecodingError.notAPacket) { try OSCPacket(decoding: Array("abc".utf8) + [0]) }
        #expect(throws: OSCDecodingError.malformedString) { try OSCPacket(decoding: Array("/abc".utf8)) }
        #expect(throws: OSCDecodingError.unknownTypeTag("x")) {
            try OSCMessage(decoding: Array("/a".utf8) + [0, 0] + Array(",x".utf8) + [0, 0])
        }
        var bundle = OSCPacket.bundle([OSCMessage("/a")]).encoded()
        bundle[19] = 200  // element size beyond the end
        #expect(throws: OSCDecodingError.malformedBundle) { try OSCPacket(decoding: bundle) }
    }

    @Test func refusesBundlesNestedWithoutEnd() {
        var bytes = OSCPacket.bundle([]).encoded()
        for _ in 0..<10 {
            let inner = bytes
            bytes = OSCPacket.bundle([]).encoded() + [0, 0, UInt8(inner.count >> 8), UInt8(inner.count & 0xff)] + inner
        }
        #expect(throws: OSCDecodingError.nestedTooDeeply) { try OSCPacket(decoding: bytes) }
    }
}
