import CLiblo
#if canImport(Glibc)
import Glibc
#endif

/// Conversions between liblo's C messages and `OSCArgument`s, for `OSCCodec`.
enum LibloCoding {
    /// The arguments of a message liblo has decoded (in host byte order).
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

    /// A new liblo message holding `arguments`; the caller frees it. Nil if
    /// liblo could not hold them (out of memory).
    ///
    /// liblo has no empty blob: `lo_blob_new` refuses size 0, and 0.31's
    /// serialiser crashes on the nil it gives; an empty blob goes as nil (`N`).
    /// `.unsupported` arguments carry no data in this model and go as nil too.
    static func makeMessage(_ arguments: [OSCArgument]) -> lo_message? {
        guard let message = lo_message_new() else { return nil }
        for argument in arguments {
            let status: Int32
            switch argument {
            case .int32(let v): status = lo_message_add_int32(message, v)
            case .float(let v): status = lo_message_add_float(message, v)
            case .double(let v): status = lo_message_add_double(message, v)
            case .int64(let v): status = lo_message_add_int64(message, v)
            case .string(let v): status = lo_message_add_string(message, v)
            case .symbol(let v): status = lo_message_add_symbol(message, v)
            case .bool(let v): status = v ? lo_message_add_true(message) : lo_message_add_false(message)
            case .nil, .unsupported: status = lo_message_add_nil(message)
            case .impulse: status = lo_message_add_infinitum(message)
            case .blob(let bytes) where bytes.isEmpty: status = lo_message_add_nil(message)
            case .blob(let bytes):
                let blob = bytes.withUnsafeBytes { raw in
                    Int32(exactly: raw.count).flatMap { lo_blob_new($0, raw.baseAddress) }
                }
                status = blob.map { lo_message_add_blob(message, $0) } ?? -1
                lo_blob_free(blob) // the message holds its own copy
            }
            guard status == 0 else {
                lo_message_free(message)
                return nil
            }
        }
        return message
    }
}
