import OSC
import OSCOracle
import SystemSupport
import Testing

/// The product's codec (liblo underneath, bundles framed in Swift) held to
/// the oracle, an encoder and decoder written from the OSC 1.0
/// specification alone: the same bytes out, the same values in.
@Suite struct OSCCodecTests {
    /// Encoded by the codec and by the oracle to the same bytes, as long as
    /// `encodedSize` says, and read back by the codec to the same value.
    func expectAgreement(_ packet: OSCPacket, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try #require(OSCCodec.encode(packet), sourceLocation: sourceLocation)
        #expect(bytes == OSCOracle.encode(packet), sourceLocation: sourceLocation)
        #expect(try OSCCodec.decode(bytes) == packet, sourceLocation: sourceLocation)
        #expect(try OSCOracle.decodeProduct(bytes) == packet, sourceLocation: sourceLocation)
        if case .message(let message) = packet {
            #expect(message.encodedSize == bytes.count, "\(message)", sourceLocation: sourceLocation)
        }
    }

    /// The OSC 1.0 specification's own examples, byte for byte.
    @Test func encodesTheSpecificationExamples() throws {
        let frequency = OSCMessage("/oscillator/4/frequency", [.float(440)])
        let expected: [UInt8] = Array("/oscillator/4/frequency".utf8) + [0]
            + Array(",f".utf8) + [0, 0]
            + [0x43, 0xdc, 0x00, 0x00]
        #expect(OSCCodec.encode(.message(frequency)) == expected)
        #expect(OSCOracle.encode(.message(frequency)) == expected)

        let foo = OSCMessage("/foo", [.int32(1000), .int32(-1), .string("hello"), .float(1.234), .float(5.678)])
        let fooBytes: [UInt8] = [
            0x2f, 0x66, 0x6f, 0x6f, 0, 0, 0, 0,
            0x2c, 0x69, 0x69, 0x73, 0x66, 0x66, 0, 0,
            0, 0, 0x03, 0xe8,
            0xff, 0xff, 0xff, 0xff,
            0x68, 0x65, 0x6c, 0x6c, 0x6f, 0, 0, 0,
            0x3f, 0x9d, 0xf3, 0xb6,
            0x40, 0xb5, 0xb2, 0x2d,
        ]
        #expect(OSCCodec.encode(.message(foo)) == fooBytes)
        #expect(OSCOracle.encode(.message(foo)) == fooBytes)
        try expectAgreement(.message(foo))
    }

    @Test(arguments: [
        OSCArgument.int32(-7), .int32(.max), .float(0.25), .float(-.infinity), .double(-1e-300),
        .int64(.min), .string(""), .string("a"), .string("abc"), .string("abcd"), .string("héllo, world"),
        .symbol("sym"), .bool(true), .bool(false), .nil, .impulse, .blob([1]), .blob([1, 2, 3, 4]),
        .blob([1, 2, 3, 4, 5]),
    ])
    func everyArgumentTypeAgrees(_ argument: OSCArgument) throws {
        try expectAgreement(.message(OSCMessage("/source/12/volume", [argument])))
        try expectAgreement(.message(OSCMessage("/a", [.int32(1), argument, .string("after")])))
    }

    @Test func aMessageWithEveryTypeAgrees() throws {
        try expectAgreement(.message(OSCMessage("/all", [
            .int32(-7), .float(0.25), .double(-1e-300), .int64(Int64.min), .string("héllo"), .symbol("sym"),
            .bool(true), .bool(false), .nil, .impulse, .blob([1, 2, 3, 4, 5]), .string(""),
        ])))
        try expectAgreement(.message(OSCMessage("/status")))
    }

    /// NaN is not equal to itself: compared by its bits.
    @Test func aNaNKeepsItsBits() throws {
        let nan = Float(bitPattern: 0x7fc0_1234)
        let bytes = try #require(OSCCodec.encode(.message(OSCMessage("/x", [.float(nan)]))))
        #expect(bytes == OSCOracle.encode(.message(OSCMessage("/x", [.float(nan)]))))
        guard case .message(let message) = try OSCCodec.decode(bytes), case .float(let value)? = message.arguments.first else {
            Issue.record("not a float")
            return
        }
        #expect(value.bitPattern == nan.bitPattern)
    }

    /// liblo 0.31 has no empty blob (and crashes serialising one): the codec
    /// sends nil in its place, and reads an empty blob that others send.
    @Test func anEmptyBlobGoesAsNilAndIsReadAsAnEmptyBlob() throws {
        let message = OSCMessage("/b", [.blob([]), .int32(3)])
        let bytes = try #require(OSCCodec.encode(.message(message)))
        #expect(bytes == OSCOracle.encode(.message(OSCOracle.Message("/b", .nil, .int32(3)))))
        #expect(message.encodedSize == bytes.count)
        let sent = OSCOracle.encode(.message(OSCOracle.Message("/b", .blob([]), .int32(3))))
        #expect(try OSCCodec.decode(sent) == .message(message))
    }

    /// An OSC-string cannot hold a NUL: the text ends there, and the size
    /// says so.
    @Test func aStringEndsAtItsFirstNUL() throws {
        let message = OSCMessage("/name", [.string("ab\u{0}cdefgh")])
        let bytes = try #require(OSCCodec.encode(.message(message)))
        #expect(bytes == OSCOracle.encode(.message(OSCMessage("/name", [.string("ab")]))))
        #expect(message.encodedSize == bytes.count)
    }

    /// Types the product's model has no case for are read past (their data
    /// skipped) and kept as `.unsupported`.
    @Test func typesWithoutACaseAreReadPast() throws {
        let sent = OSCOracle.Message("/x", .timeTag(OSCTimeTag(seconds: 1, fraction: 2)), .character(65),
                                     .midi(0x90, 60, 100, 0), .int32(9))
        let decoded = try OSCCodec.decode(OSCOracle.encode(.message(sent)))
        #expect(decoded == .message(OSCMessage("/x", [.unsupported("t"), .unsupported("c"), .unsupported("m"), .int32(9)])))
        // And they go out as nil: the model keeps no data for them.
        try expectAgreement(.message(OSCMessage("/x", [.nil, .int32(9)])))
        #expect(OSCCodec.encode(.message(OSCMessage("/x", [.unsupported("t")])))
                == OSCOracle.encode(.message(OSCOracle.Message("/x", .nil))))
    }

    /// OSC 1.0 lets old senders leave out the type tag string.
    @Test func aMessageWithoutTypeTagsHasNoArguments() throws {
        #expect(try OSCCodec.decode(Array("/status".utf8) + [0]) == .message(OSCMessage("/status")))
        #expect(try OSCCodec.decode(Array("/ab".utf8) + [0]) == .message(OSCMessage("/ab")))
        #expect(try OSCOracle.decodeProduct(Array("/ab".utf8) + [0]) == .message(OSCMessage("/ab")))
    }

    @Test func bundlesKeepTheirTimeTag() throws {
        let messages = [OSCMessage("/a", [.float(1)]), OSCMessage("/b/c", [.string("x"), .int32(2)])]
        let timeTag = OSCTimeTag(seconds: 0x0102_0304, fraction: 0x0506_0708)
        let bundle = OSCPacket.bundle(messages, at: timeTag)
        let bytes = try #require(OSCCodec.encode(bundle))
        #expect(Array(bytes.prefix(16)) == Array("#bundle".utf8) + [0, 1, 2, 3, 4, 5, 6, 7, 8])
        try expectAgreement(bundle)
        try expectAgreement(.bundle(messages))
        #expect(OSCPacket.bundle(messages) == .bundle(OSCBundle(messages, at: .immediately)))
        try expectAgreement(.bundle([]))
        try expectAgreement(.bundle([OSCMessage("/x", [.blob([9, 8, 7])]), OSCMessage("/y")], at: .immediately))
    }

    /// A bundle's messages, those of the bundles nested in it included, in
    /// order, under the outer time tag.
    @Test func nestedBundlesAreReadIntoTheOuterOne() throws {
        let outerTime = OSCTimeTag(seconds: 100, fraction: 0)
        let sent = OSCOracle.Packet.bundle(outerTime, [
            .message(OSCOracle.Message("/a")),
            .bundle(OSCTimeTag(seconds: 200, fraction: 0), [
                .message(OSCOracle.Message("/b", .int32(1))),
                .bundle(.immediately, [.message(OSCOracle.Message("/c"))]),
            ]),
            .message(OSCOracle.Message("/d", .string("last"))),
        ])
        let expected = OSCPacket.bundle([OSCMessage("/a"), OSCMessage("/b", [.int32(1)]), OSCMessage("/c"),
                                         OSCMessage("/d", [.string("last")])], at: outerTime)
        #expect(try OSCCodec.decode(OSCOracle.encode(sent)) == expected)
        #expect(try OSCOracle.decodeProduct(OSCOracle.encode(sent)) == expected)
    }

    /// Eight levels of bundles are read; a ninth is refused.
    @Test func bundlesNestEightDeep() throws {
        func nested(_ levels: Int) -> OSCOracle.Packet {
            var packet = OSCOracle.Packet.bundle(.immediately, [.message(OSCOracle.Message("/deep"))])
            for _ in 1..<levels { packet = .bundle(.immediately, [packet]) }
            return packet
        }
        #expect(OSCCodec.maximumBundleDepth == 8)
        #expect(try OSCCodec.decode(OSCOracle.encode(nested(8))) == .bundle([OSCMessage("/deep")]))
        #expect(throws: OSCDecodingError.nestedTooDeeply) { try OSCCodec.decode(OSCOracle.encode(nested(9))) }
        #expect(throws: OSCDecodingError.nestedTooDeeply) { try OSCCodec.decode(OSCOracle.encode(nested(40))) }
    }

    /// A string's UTF-8 bytes, as written (no NUL added).
    static func b(_ text: String) -> [UInt8] { Array(text.utf8) }
    static let good: [UInt8] = OSCOracle.encode(.message(OSCOracle.Message("/a", .int32(1))))
    static let goodBundle: [UInt8] = OSCOracle.encode(.bundle(.immediately, [.message(OSCOracle.Message("/a"))]))
    static let bundleHead: [UInt8] = b("#bundle") + [0]
    static let noTime: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]

    static let malformed: [([UInt8], OSCDecodingError)] = [
        ([], .truncated),
        (b("hello, mixer"), .notAPacket),
        (b("abc") + [0], .notAPacket),
        (b("/abc"), .malformedString),
        (Array(good.dropLast(2)), .truncated),
        (Array(good.dropLast(4)), .malformedArgument),
        (good + [0, 0, 0, 0], .truncated),
        (b("/a") + [0, 0] + b(",x") + [0, 0], .unknownTypeTag("x")),
        (b("/a") + [0, 0] + b("xi") + [0, 0] + [0, 0, 0, 1], .malformedTypeTags),
        (b("/a") + [0, 0x58] + b(",i") + [0, 0] + [0, 0, 0, 1], .malformedString),
        (b("/a") + [0, 0] + b(",b") + [0, 0], .malformedArgument),
        (b("/a") + [0, 0] + b(",ib") + [0] + [0, 0, 0, 1], .malformedArgument),
        (b("/a") + [0, 0] + b(",b") + [0, 0] + [0, 0, 0, 9, 1, 2, 3, 4], .malformedArgument),
        (b("/a") + [0, 0] + b(",b") + [0, 0] + [0, 0, 0, 1, 1, 0x58, 0, 0], .malformedArgument),
        (b("/a") + [0, 0] + b(",s") + [0, 0] + b("abcd"), .malformedArgument),
        (bundleHead + [0, 0, 0, 0, 0], .truncated),
        (bundleHead + noTime + [1], .truncated),
        (b("#bundlx") + [0] + noTime, .notAPacket),
        (goodBundle + [0, 0, 0, 8] + b("garbage!"), .notAPacket),
        (goodBundle + [0, 0, 0, 0], .malformedBundle),
        (goodBundle + [0, 0, 0, 6] + b("/b") + [0, 0, 0, 0, 0, 0], .malformedBundle),
        (goodBundle + [0, 0, 0, 200] + good, .malformedBundle),
        (goodBundle + [0, 0, 0, 8] + b("/b") + [0, 0] + b(",x") + [0, 0], .unknownTypeTag("x")),
        (goodBundle + [0, 0, 0, 4] + b("#bun"), .notAPacket),
    ]

    /// Bytes that are not OSC, and why the codec says so; the oracle refuses
    /// every one of them too, and nothing of a broken bundle is returned.
    @Test(arguments: malformed)
    func malformedPacketsAreRefused(bytes: [UInt8], expected: OSCDecodingError) {
        #expect(throws: expected) { try OSCCodec.decode(bytes) }
        #expect(throws: OSCOracle.Failure.self) { try OSCOracle.decode(bytes) }
    }

    /// Random messages and bundles, the same bytes from both and the same
    /// values back (a fixed seed: a failure can be replayed).
    @Test func randomPacketsAgree() throws {
        var random = SplitMix(seed: 0xC0DEC)
        for _ in 0..<500 {
            let messages = (0..<Int.random(in: 1...4, using: &random)).map { _ in Self.message(using: &random) }
            if Bool.random(using: &random) {
                try expectAgreement(.message(messages[0]))
            } else {
                let timeTag = OSCTimeTag(seconds: .random(in: 0...UInt32.max, using: &random),
                                         fraction: .random(in: 0...UInt32.max, using: &random))
                try expectAgreement(.bundle(messages, at: timeTag))
            }
        }
    }

    static func message(using random: inout SplitMix) -> OSCMessage {
        func text() -> String {
            let letters = Array("abcxyz/éß✓ 0123456789")
            return String((0..<Int.random(in: 0...9, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        let arguments: [OSCArgument] = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            switch Int.random(in: 0...11, using: &random) {
            case 0: .int32(.random(in: .min ... .max, using: &random))
            case 1: .float(Float(bitPattern: .random(in: 0...0x7f7f_ffff, using: &random)))
            case 2: .double(.random(in: -1e9...1e9, using: &random))
            case 3: .int64(.random(in: .min ... .max, using: &random))
            case 4: .string(text())
            case 5: .symbol(text())
            case 6: .bool(Bool.random(using: &random))
            case 7: .nil
            case 8: .impulse
            default: .blob((0..<Int.random(in: 1...13, using: &random)).map { _ in .random(in: 0...255, using: &random) })
            }
        }
        return OSCMessage("/" + text(), arguments)
    }
}
