/// OSC 1.0 binary encoding in pure Swift, for transports that liblo does not
/// serve (OSCQuery's WebSocket frames, tests).
///
/// The wire format: the address and the type tag string as OSC-strings (UTF-8,
/// NUL-terminated, padded with NULs to a multiple of four bytes), then the
/// argument data, every number big-endian.
extension OSCMessage {
    /// The message as one OSC packet.
    ///
    /// `.unsupported` arguments carry no data in this model and are written as
    /// nil (`N`), as the liblo path does. A NUL inside a string ends it on the
    /// wire: OSC-strings cannot hold one.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedSize)
        append(to: &bytes)
        return bytes
    }

    /// Appends the encoded message to `bytes`.
    func append(to bytes: inout [UInt8]) {
        OSCWire.appendString(address, to: &bytes)
        var tags: [UInt8] = [UInt8(ascii: ",")]
        tags.reserveCapacity(arguments.count + 1)
        for argument in arguments {
            switch argument {
            case .unsupported: tags.append(UInt8(ascii: "N"))
            default: tags.append(UInt8(argument.typeTag.asciiValue ?? UInt8(ascii: "N")))
            }
        }
        OSCWire.appendString(bytes: tags, to: &bytes)
        for argument in arguments {
            switch argument {
            case .int32(let v): OSCWire.appendBigEndian(UInt32(bitPattern: v), to: &bytes)
            case .float(let v): OSCWire.appendBigEndian(v.bitPattern, to: &bytes)
            case .double(let v): OSCWire.appendBigEndian(v.bitPattern, to: &bytes)
            case .int64(let v): OSCWire.appendBigEndian(UInt64(bitPattern: v), to: &bytes)
            case .string(let v), .symbol(let v): OSCWire.appendString(v, to: &bytes)
            case .blob(let data):
                OSCWire.appendBigEndian(UInt32(data.count), to: &bytes)
                bytes.append(contentsOf: data)
                OSCWire.pad(&bytes)
            case .bool, .nil, .impulse, .unsupported:
                break  // the type tag is the whole value
            }
        }
    }
}
