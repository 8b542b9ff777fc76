import CLiblo
#if canImport(Glibc)
import Glibc
#endif

/// The rig's OSC 1.0 codec: every transport reads and writes packets with it
/// (UDP and TCP in `OSCServer`, OSCQuery's WebSocket, `OSCClient`).
///
/// Messages are liblo's: `lo_message_deserialise` checks their layout
/// (strings terminated and padded with NULs, every argument inside the
/// message, nothing left over) and `lo_message_serialise` writes them.
/// Bundle framing is read here into an `OSCBundle` value, because liblo
/// reads a bundle only by dispatching its messages to handlers one by one,
/// and the rig handles a bundle whole; liblo writes bundles.
public enum OSCCodec {
    /// How deep bundles may nest inside one another.
    public static let maximumBundleDepth = 8

    /// Decodes one packet: a message, or a bundle with its time tag and its
    /// messages (those of nested bundles included, in order). Nothing of a
    /// packet that is malformed anywhere is returned.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(OSCDecodingError) -> OSCPacket {
        switch bytes.first {
        case UInt8(ascii: "#"):
            var messages: [OSCMessage] = []
            let timeTag = try readBundle(bytes, depth: 0, into: &messages)
            return .bundle(OSCBundle(messages, at: timeTag))
        case UInt8(ascii: "/"):
            return .message(try decodeMessage(bytes))
        case nil:
            throw .truncated
        default:
            throw .notAPacket
        }
    }

    public static func decode(_ bytes: [UInt8]) throws(OSCDecodingError) -> OSCPacket {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(OSCDecodingError) in try decode(raw) }
        }.get()
    }

    /// The packet's bytes on the wire; nil if liblo could not build it (out
    /// of memory). A bundle is written flat, with its time tag.
    public static func encode(_ packet: OSCPacket) -> [UInt8]? {
        var size = 0
        switch packet {
        case .message(let message):
            guard let built = LibloCoding.makeMessage(message.arguments) else { return nil }
            defer { lo_message_free(built) }
            return taken(lo_message_serialise(built, message.address, nil, &size), size)
        case .bundle(let bundle):
            let time = lo_timetag(sec: bundle.timeTag.seconds, frac: bundle.timeTag.fraction)
            guard let built = lo_bundle_new(time) else { return nil }
            defer { lo_bundle_free_recursive(built) } // and the messages added to it
            for message in bundle.messages {
                guard let element = LibloCoding.makeMessage(message.arguments) else { return nil }
                guard lo_bundle_add_message(built, message.address, element) == 0 else {
                    lo_message_free(element)
                    return nil
                }
            }
            return taken(lo_bundle_serialise(built, nil, &size), size)
        }
    }

    /// The bytes liblo allocated, copied; liblo's copy freed.
    private static func taken(_ bytes: UnsafeMutableRawPointer?, _ size: Int) -> [UInt8]? {
        guard let bytes else { return nil }
        defer { free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }

    // MARK: - Messages

    /// One message, through liblo.
    static func decodeMessage(_ bytes: UnsafeRawBufferPointer) throws(OSCDecodingError) -> OSCMessage {
        guard bytes.first == UInt8(ascii: "/") else { throw .notAPacket }
        guard bytes.count % 4 == 0 else { throw .truncated }
        guard let end = bytes.firstIndex(of: 0) else { throw .malformedString }
        // As liblo's dispatcher gave it: invalid UTF-8 repaired, not refused,
        // so that the sender hears which address was not understood.
        let address = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        if (end + 4) & ~3 == bytes.count {
            // OSC 1.0 lets old senders leave out the type tag string; liblo
            // does not, so it is given an empty one.
            let tagged = Array(bytes) + [UInt8(ascii: ","), 0, 0, 0]
            return try tagged.withUnsafeBytes { raw in
                Result { () throws(OSCDecodingError) in try deserialise(raw, address: address) }
            }.get()
        }
        guard !dataEndsAtABlob(bytes, tagsAt: (end + 4) & ~3) else { throw .malformedArgument }
        return try deserialise(bytes, address: address)
    }

    private static func deserialise(_ bytes: UnsafeRawBufferPointer,
                                    address: String) throws(OSCDecodingError) -> OSCMessage {
        guard let base = bytes.baseAddress else { throw .truncated }
        var result: Int32 = 0
        // liblo copies the bytes before converting them to host byte order:
        // the pointer is mutable in its signature only.
        guard let message = lo_message_deserialise(UnsafeMutableRawPointer(mutating: base), bytes.count, &result) else {
            throw failure(result, bytes)
        }
        defer { lo_message_free(message) }
        let count = lo_message_get_argc(message)
        guard count > 0 else { return OSCMessage(address) }
        return OSCMessage(address, LibloCoding.arguments(types: UnsafePointer(lo_message_get_types(message)),
                                                         argv: lo_message_get_argv(message), count: count))
    }

    /// Whether the data runs out exactly where a blob should begin. liblo
    /// 0.31 reads a blob's size before it checks that four bytes remain, and
    /// would read past its copy of such a message; every other shape it
    /// checks itself, so this walk gives up (false) wherever liblo will refuse.
    private static func dataEndsAtABlob(_ bytes: UnsafeRawBufferPointer, tagsAt start: Int) -> Bool {
        guard start < bytes.count, let tagsEnd = bytes[start...].firstIndex(of: 0) else { return false }
        let tags = UnsafeRawBufferPointer(rebasing: bytes[start..<tagsEnd])
        guard tags.contains(UInt8(ascii: "b")) else { return false }
        var offset = (tagsEnd + 4) & ~3
        for tag in tags.dropFirst() {
            guard offset <= bytes.count else { return false }
            switch tag {
            case UInt8(ascii: "i"), UInt8(ascii: "f"), UInt8(ascii: "c"), UInt8(ascii: "m"): offset += 4
            case UInt8(ascii: "h"), UInt8(ascii: "t"), UInt8(ascii: "d"): offset += 8
            case UInt8(ascii: "T"), UInt8(ascii: "F"), UInt8(ascii: "N"), UInt8(ascii: "I"): break
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                guard let end = bytes[offset...].firstIndex(of: 0) else { return false }
                offset = (end + 4) & ~3
            case UInt8(ascii: "b"):
                guard bytes.count - offset >= 4 else { return true }
                offset += 4 + ((Int(bigEndian(bytes, at: offset)) + 3) & ~3)
            default:
                return false
            }
        }
        return false
    }

    /// Type tags liblo 0.31 reads.
    private static let knownTypeTags = Set("ifsbhtdScmTFNI".utf8)

    /// What liblo's result code says went wrong.
    private static func failure(_ code: Int32, _ bytes: UnsafeRawBufferPointer) -> OSCDecodingError {
        switch code {
        case LO_EINVALIDPATH: return .malformedString
        case LO_ENOTYPE, LO_EINVALIDTYPE, LO_EBADTYPE: return .malformedTypeTags
        case LO_EINVALIDARG:
            // An argument liblo could not read: a type it does not know, or data out of shape.
            guard let end = bytes.firstIndex(of: 0) else { return .malformedArgument }
            let tags = bytes[((end + 4) & ~3)...].prefix { $0 != 0 }.dropFirst()
            return tags.first { !knownTypeTags.contains($0) }
                .map { .unknownTypeTag(Character(UnicodeScalar($0))) } ?? .malformedArgument
        default:
            return .truncated // LO_ESIZE: data left over after the last argument
        }
    }

    // MARK: - Bundles

    private static let bundleMarker: [UInt8] = Array("#bundle".utf8) + [0]

    /// A bundle's framing: `#bundle`, the time tag, then each element (a
    /// message or a bundle) preceded by its size, which must be a multiple
    /// of four and lie inside the bundle. The messages go into `messages`;
    /// returns the time tag.
    private static func readBundle(_ bytes: UnsafeRawBufferPointer, depth: Int,
                                   into messages: inout [OSCMessage]) throws(OSCDecodingError) -> OSCTimeTag {
        guard depth < maximumBundleDepth else { throw .nestedTooDeeply }
        guard bytes.starts(with: bundleMarker) else { throw .notAPacket }
        guard bytes.count >= 16, bytes.count % 4 == 0 else { throw .truncated }
        let timeTag = OSCTimeTag(seconds: bigEndian(bytes, at: 8), fraction: bigEndian(bytes, at: 12))
        var offset = 16
        while offset < bytes.count {
            let size = Int(bigEndian(bytes, at: offset))
            offset += 4
            guard size > 0, size % 4 == 0, size <= bytes.count - offset else { throw .malformedBundle }
            let element = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])
            if element.first == UInt8(ascii: "#") {
                _ = try readBundle(element, depth: depth + 1, into: &messages)
            } else {
                messages.append(try decodeMessage(element))
            }
            offset += size
        }
        return timeTag
    }

    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
