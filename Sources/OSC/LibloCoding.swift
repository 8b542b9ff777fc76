import CLiblo
#if canImport(Glibc)
import Glibc
#endif

/// Conversions between liblo's C messages and `OSCMessage`.
public enum LibloCoding {
    /// Decodes the arguments liblo hands a method handler.
    static func arguments(types: UnsafePointer<CChar>?,
                          argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?,
                          count: Int32) -> [OSCArgument] {
        guard let types, let argv, count > 0 else { return [] }
        var result: [OSCArgument] = []
        result.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let tag = UInt8(bitPattern: types[i])
            // True, false, nil and impulse carry no data: liblo gives no pointer for them.
            switch tag {
            case UInt8(ascii: "T"): result.append(.bool(true)); continue
            case UInt8(ascii: "F"): result.append(.bool(false)); continue
            case UInt8(ascii: "N"): result.append(.nil); continue
            case UInt8(ascii: "I"): result.append(.impulse); continue
            default: break
            }
            guard let arg = argv[i] else { result.append(.unsupported(Character(UnicodeScalar(tag)))); continue }
            switch tag {
            case UInt8(ascii: "i"): result.append(.int32(arg.pointee.i))
            case UInt8(ascii: "f"): result.append(.float(arg.pointee.f))
            case UInt8(ascii: "d"): result.append(.double(arg.pointee.d))
            case UInt8(ascii: "h"): result.append(.int64(arg.pointee.h))
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                let text = UnsafeRawPointer(arg).withMemoryRebound(to: CChar.self, capacity: 1) {
                    String(cString: $0)
                }
                result.append(tag == UInt8(ascii: "s") ? .string(text) : .symbol(text))
            case UInt8(ascii: "b"):
                let size = Int(lo_blob_datasize(UnsafeMutableRawPointer(arg)))
                let bytes = lo_blob_dataptr(UnsafeMutableRawPointer(arg))
                    .map { Array(UnsafeRawBufferPointer(start: $0, count: max(0, size))) } ?? []
                result.append(.blob(bytes))
            default:
                result.append(.unsupported(Character(UnicodeScalar(tag))))
            }
        }
        return result
    }

    /// A new liblo message holding `arguments`; the caller frees it.
    static func makeMessage(_ arguments: [OSCArgument]) -> lo_message? {
        guard let message = lo_message_new() else { return nil }
        for argument in arguments {
            switch argument {
            case .int32(let v): lo_message_add_int32(message, v)
            case .float(let v): lo_message_add_float(message, v)
            case .double(let v): lo_message_add_double(message, v)
            case .int64(let v): lo_message_add_int64(message, v)
            case .string(let v): lo_message_add_string(message, v)
            case .symbol(let v): lo_message_add_symbol(message, v)
            case .bool(let v): _ = v ? lo_message_add_true(message) : lo_message_add_false(message)
            case .nil: lo_message_add_nil(message)
            case .impulse: lo_message_add_infinitum(message)
            case .blob(let bytes) where bytes.isEmpty:
                lo_message_add_nil(message) // liblo 0.31's serialiser crashes on an empty blob
            case .blob(let bytes):
                let blob = bytes.withUnsafeBytes { lo_blob_new(Int32($0.count), $0.baseAddress) }
                lo_message_add_blob(message, blob)
                lo_blob_free(blob)
            case .unsupported: lo_message_add_nil(message)
            }
        }
        return message
    }

    /// Builds the packet as liblo's message or bundle and hands it to one of
    /// the two closures; frees it afterwards. Nil if liblo could not build it.
    private static func withLiblo<T>(_ packet: OSCPacket, message body: (lo_message, String) -> T,
                                     bundle bundleBody: (lo_bundle) -> T) -> T? {
        switch packet {
        case .message(let message):
            guard let m = makeMessage(message.arguments) else { return nil }
            defer { lo_message_free(m) }
            return body(m, message.address)
        case .bundle(let messages):
            guard let bundle = lo_bundle_new(lo_timetag(sec: 0, frac: 1)) else { return nil }
            defer { lo_bundle_free_recursive(bundle) }
            for message in messages {
                guard let m = makeMessage(message.arguments) else { return nil }
                lo_bundle_add_message(bundle, message.address, m)
            }
            return bundleBody(bundle)
        }
    }

    /// The packet's bytes on the wire.
    static func serialise(_ packet: OSCPacket) -> [UInt8]? {
        func copy(_ bytes: UnsafeMutableRawPointer?, _ size: Int) -> [UInt8]? {
            guard let bytes else { return nil }
            defer { free(bytes) }
            return Array(UnsafeRawBufferPointer(start: bytes, count: size))
        }
        var size = 0
        return withLiblo(packet,
                         message: { copy(lo_message_serialise($0, $1, nil, &size), size) },
                         bundle: { copy(lo_bundle_serialise($0, nil, &size), size) }) ?? nil
    }

    /// Sends a packet to `target` from `server`'s socket, so the receiver sees
    /// the server's port as the source.
    @discardableResult
    static func send(_ packet: OSCPacket, to target: lo_address, from server: lo_server?) -> Bool {
        withLiblo(packet,
                  message: { lo_send_message_from(target, server, $1, $0) >= 0 },
                  bundle: { lo_send_bundle_from(target, server, $0) >= 0 }) ?? false
    }
}
