/// OSC 1.0 binary decoding in pure Swift, the inverse of `encoded()`.
extension OSCPacket {
    /// How deep bundles may nest inside one another.
    static let maximumBundleDepth = 8

    /// Decodes one OSC packet: a message, or a bundle whose messages (those of
    /// nested bundles included, in order) become one flat `.bundle`. Bundle
    /// time tags are not kept.
    public init(decoding bytes: [UInt8]) throws(OSCDecodingError) {
        if bytes.first == UInt8(ascii: "#") {
            var messages: [OSCMessage] = []
            try Self.decodeBundle(bytes[...], depth: 0, into: &messages)
            self = .bundle(messages)
        } else {
            self = .message(try OSCMessage(decoding: bytes))
        }
    }

    /// The time tag of a bundle packet, or nil for anything else.
    public static func bundleTimeTag(of bytes: [UInt8]) -> OSCTimeTag? {
        var reader = OSCWire.Reader(bytes[...])
        guard (try? reader.readString()) == "#bundle",
              let seconds = try? reader.readBigEndian(UInt32.self),
              let fraction = try? reader.readBigEndian(UInt32.self) else { return nil }
        return OSCTimeTag(seconds: seconds, fraction: fraction)
    }

    private static func decodeBundle(_ bytes: ArraySlice<UInt8>, depth: Int,
                                     into messages: inout [OSCMessage]) throws(OSCDecodingError) {
        guard depth < maximumBundleDepth else { throw .nestedTooDeeply }
        var reader = OSCWire.Reader(bytes)
        guard try reader.readString() == "#bundle" else { throw .notAPacket }
        _ = try reader.readBigEndian(UInt64.self)  // time tag
        while !reader.isAtEnd {
            let size = Int(try reader.readBigEndian(UInt32.self))
            guard size % 4 == 0, size <= reader.remaining else { throw .malformedBundle }
            let element = try reader.readBytes(size)
            if element.first == UInt8(ascii: "#") {
                try decodeBundle(element, depth: depth + 1, into: &messages)
            } else {
                messages.append(try OSCMessage(decoding: element))
            }
        }
    }
}
