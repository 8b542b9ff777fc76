#if canImport(Glibc)
import Glibc
#endif
import CLiblo

// OSC encoding and decoding. liblo does the message layout (type tags,
// padding, byte order); bundles are walked here so that messages inside
// them, however nested, come out with their bundle's time tag.

extension OSCTestClient {
    public enum CodingFailure: Error, CustomStringConvertible {
        case cannotEncode(String)

        public var description: String {
            switch self {
            case .cannotEncode(let what): "cannot encode OSC: \(what)"
            }
        }
    }

    /// The wire bytes of a message or bundle, as liblo lays them out.
    static func encode(_ packet: Packet) throws -> [UInt8] {
        switch packet {
        case .message(let message):
            guard let loMessage = try makeLoMessage(message.arguments) else {
                throw CodingFailure.cannotEncode("lo_message_new failed")
            }
            defer { lo_message_free(loMessage) }
            var size = 0
            guard let data = lo_message_serialise(loMessage, message.address, nil, &size) else {
                throw CodingFailure.cannotEncode("message \(message)")
            }
            defer { free(data) }
            return Array(UnsafeRawBufferPointer(start: data, count: size))
        case .bundle:
            let bundle = try makeLoBundle(packet)
            defer { lo_bundle_free_recursive(bundle) }
            var size = 0
            guard let data = lo_bundle_serialise(bundle, nil, &size) else {
                throw CodingFailure.cannotEncode("bundle")
            }
            defer { free(data) }
            return Array(UnsafeRawBufferPointer(start: data, count: size))
        }
    }

    private static func makeLoBundle(_ packet: Packet) throws -> lo_bundle {
        guard case .bundle(let timeTag, let elements) = packet else {
            throw CodingFailure.cannotEncode("not a bundle")
        }
        guard let bundle = lo_bundle_new(timeTag.loTimetag) else {
            throw CodingFailure.cannotEncode("lo_bundle_new failed")
        }
        do {
            for element in elements {
                switch element {
                case .message(let message):
                    guard let loMessage = try makeLoMessage(message.arguments) else {
                        throw CodingFailure.cannotEncode("lo_message_new failed")
                    }
                    // The bundle takes a reference; lo_bundle_free_recursive
                    // releases it.
                    guard lo_bundle_add_message(bundle, message.address, loMessage) == 0 else {
                        lo_message_free(loMessage)
                        throw CodingFailure.cannotEncode("lo_bundle_add_message \(message)")
                    }
                case .bundle:
                    let child = try makeLoBundle(element)
                    guard lo_bundle_add_bundle(bundle, child) == 0 else {
                        lo_bundle_free_recursive(child)
                        throw CodingFailure.cannotEncode("lo_bundle_add_bundle")
                    }
                }
            }
        } catch {
            lo_bundle_free_recursive(bundle)
            throw error
        }
        return bundle
    }

    private static func makeLoMessage(_ arguments: [Argument]) throws -> lo_message? {
        guard let message = lo_message_new() else { return nil }
        for argument in arguments {
            let status: Int32
            switch argument {
            case .int32(let value): status = lo_message_add_int32(message, value)
            case .float(let value): status = lo_message_add_float(message, value)
            case .string(let value): status = lo_message_add_string(message, value)
            case .blob(let bytes):
                guard let blob = bytes.withUnsafeBytes({ lo_blob_new(Int32(bytes.count), $0.baseAddress) }) else {
                    lo_message_free(message)
                    throw CodingFailure.cannotEncode("blob of \(bytes.count) bytes")
                }
                status = lo_message_add_blob(message, blob)
                lo_blob_free(blob)  // the message keeps its own copy
            case .int64(let value): status = lo_message_add_int64(message, value)
            case .timeTag(let tag): status = lo_message_add_timetag(message, tag.loTimetag)
            case .double(let value): status = lo_message_add_double(message, value)
            case .symbol(let value): status = lo_message_add_symbol(message, value)
            case .character(let value): status = lo_message_add_char(message, CChar(bitPattern: value))
            case .midi(let a, let b, let c, let d):
                var bytes: [UInt8] = [a, b, c, d]
                status = lo_message_add_midi(message, &bytes)
            case .true: status = lo_message_add_true(message)
            case .false: status = lo_message_add_false(message)
            case .nil: status = lo_message_add_nil(message)
            case .impulse: status = lo_message_add_infinitum(message)
            }
            guard status == 0 else {
                lo_message_free(message)
                throw CodingFailure.cannotEncode("argument \(argument)")
            }
        }
        return message
    }

    // MARK: Decoding

    /// Decodes one datagram into the messages it holds (several if it is a
    /// bundle). Returns nil if any part is not valid OSC.
    static func decode(datagram bytes: [UInt8], sender: Endpoint,
                       receivedAt: ContinuousClock.Instant) -> [ReceivedMessage]? {
        var messages: [ReceivedMessage] = []
        let valid = bytes.withUnsafeBytes { raw in
            decode(raw, bundleTimeTag: nil, sender: sender, receivedAt: receivedAt, into: &messages, depth: 0)
        }
        return valid ? messages : nil
    }

    private static let bundleHeader: [UInt8] = Array("#bundle".utf8) + [0]

    private static func decode(_ bytes: UnsafeRawBufferPointer, bundleTimeTag: TimeTag?, sender: Endpoint,
                               receivedAt: ContinuousClock.Instant, into messages: inout [ReceivedMessage],
                               depth: Int) -> Bool {
        guard depth < 32 else { return false }
        if bytes.starts(with: bundleHeader) {
            // "#bundle\0", 8-byte time tag, then (int32 size, element)*.
            guard bytes.count >= 16 else { return false }
            let timeTag = TimeTag(seconds: readBigEndianUInt32(bytes, at: 8),
                                  fraction: readBigEndianUInt32(bytes, at: 12))
            var offset = 16
            while offset < bytes.count {
                guard offset + 4 <= bytes.count else { return false }
                let size = Int(Int32(bitPattern: readBigEndianUInt32(bytes, at: offset)))
                offset += 4
                guard size > 0, size % 4 == 0, offset + size <= bytes.count else { return false }
                let element = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])
                guard decode(element, bundleTimeTag: timeTag, sender: sender, receivedAt: receivedAt,
                             into: &messages, depth: depth + 1) else { return false }
                offset += size
            }
            return true
        }
        guard let message = decodeMessage(bytes) else { return false }
        messages.append(ReceivedMessage(address: message.address, typeTags: message.typeTags,
                                        arguments: message.arguments, bundleTimeTag: bundleTimeTag,
                                        sender: sender, receivedAt: receivedAt))
        return true
    }

    /// One message through liblo: it validates the layout and converts the
    /// arguments to host byte order.
    private static func decodeMessage(_ bytes: UnsafeRawBufferPointer)
        -> (address: String, typeTags: String, arguments: [Argument])?
    {
        guard !bytes.isEmpty else { return nil }
        // liblo wants a mutable pointer; give it a private copy.
        var copy = Array(bytes)
        return copy.withUnsafeMutableBytes { raw -> (String, String, [Argument])? in
            guard let base = raw.baseAddress,
                  let path = lo_get_path(base, raw.count) else { return nil }
            let address = String(cString: path)
            var result: Int32 = 0
            guard let message = lo_message_deserialise(base, raw.count, &result) else { return nil }
            defer { lo_message_free(message) }
            let typeTags = lo_message_get_types(message).map { String(cString: $0) } ?? ""
            let count = Int(lo_message_get_argc(message))
            let tags = Array(typeTags.utf8)
            guard tags.count == count else { return nil }
            if count == 0 { return (address, typeTags, []) }
            guard let argv = lo_message_get_argv(message) else { return nil }
            var arguments: [Argument] = []
            for (index, tag) in tags.enumerated() {
                guard let decoded = decodeArgument(tag: tag, argv[index]) else { return nil }
                arguments.append(decoded)
            }
            return (address, typeTags, arguments)
        }
    }

    private static func decodeArgument(tag: UInt8, _ pointer: UnsafeMutablePointer<lo_arg>?) -> Argument? {
        // Tags without data first: liblo need not give them a pointer.
        switch tag {
        case UInt8(ascii: "T"): return .true
        case UInt8(ascii: "F"): return .false
        case UInt8(ascii: "N"): return .nil
        case UInt8(ascii: "I"): return .impulse
        default: break
        }
        guard let argument = pointer else { return nil }
        let raw = UnsafeRawPointer(argument)
        switch tag {
        case UInt8(ascii: "i"): return .int32(argument.pointee.i)
        case UInt8(ascii: "f"): return .float(argument.pointee.f)
        case UInt8(ascii: "s"): return .string(String(cString: raw.assumingMemoryBound(to: CChar.self)))
        case UInt8(ascii: "S"): return .symbol(String(cString: raw.assumingMemoryBound(to: CChar.self)))
        case UInt8(ascii: "b"):
            // In host order after deserialisation: int32 size, then the data.
            let size = Int(raw.loadUnaligned(as: Int32.self))
            guard size >= 0 else { return nil }
            return .blob(Array(UnsafeRawBufferPointer(start: raw + 4, count: size)))
        case UInt8(ascii: "h"): return .int64(argument.pointee.h)
        case UInt8(ascii: "t"): return .timeTag(TimeTag(seconds: argument.pointee.t.sec, fraction: argument.pointee.t.frac))
        case UInt8(ascii: "d"): return .double(argument.pointee.d)
        case UInt8(ascii: "c"): return .character(UInt8(truncatingIfNeeded: raw.loadUnaligned(as: Int32.self)))
        case UInt8(ascii: "m"):
            let m = argument.pointee.m
            return .midi(m.0, m.1, m.2, m.3)
        default: return nil
        }
    }

    private static func readBigEndianUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
