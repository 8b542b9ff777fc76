/// OSC 1.0 binary decoding of a single message.
extension OSCMessage {
    /// Decodes a message packet.
    ///
    /// Types this model has no case for but whose size OSC 1.0 and 1.1 define
    /// (`t` time tag, `c` char, `r` colour, `m` MIDI, `[` and `]`) are read past
    /// and become `.unsupported`; any other tag makes the message unreadable.
    public init<Bytes: Collection<UInt8>>(decoding bytes: Bytes) throws(OSCDecodingError) {
        var reader = OSCWire.Reader(ArraySlice(bytes))
        let address = try reader.readString()
        guard address.hasPrefix("/") else { throw .notAPacket }
        var arguments: [OSCArgument] = []
        if !reader.isAtEnd {
            let tags = try reader.readString()
            guard tags.first == "," else { throw .malformedTypeTags }
            for tag in tags.utf8.dropFirst() {
                arguments.append(try reader.readArgument(tag: tag))
            }
        }
        guard reader.isAtEnd else { throw .truncated }
        self.init(address, arguments)
    }
}

extension OSCWire.Reader {
    mutating func readArgument(tag: UInt8) throws(OSCDecodingError) -> OSCArgument {
        switch tag {
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try readBigEndian(UInt32.self)))
        case UInt8(ascii: "f"): return .float(Float(bitPattern: try readBigEndian(UInt32.self)))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try readBigEndian(UInt64.self)))
        case UInt8(ascii: "h"): return .int64(Int64(bitPattern: try readBigEndian(UInt64.self)))
        case UInt8(ascii: "s"): return .string(try readString())
        case UInt8(ascii: "S"): return .symbol(try readString())
        case UInt8(ascii: "T"): return .bool(true)
        case UInt8(ascii: "F"): return .bool(false)
        case UInt8(ascii: "N"): return .nil
        case UInt8(ascii: "I"): return .impulse
        case UInt8(ascii: "b"):
            let size = Int(try readBigEndian(UInt32.self))
            let data = Array(try readBytes(size))
            try skipPadding(after: size)
            return .blob(data)
        case UInt8(ascii: "t"):
            _ = try readBigEndian(UInt64.self)
            return .unsupported("t")
        case UInt8(ascii: "c"), UInt8(ascii: "r"), UInt8(ascii: "m"):
            _ = try readBigEndian(UInt32.self)
            return .unsupported(Character(UnicodeScalar(tag)))
        case UInt8(ascii: "["), UInt8(ascii: "]"):
            return .unsupported(Character(UnicodeScalar(tag)))
        default:
            throw .unknownTypeTag(Character(UnicodeScalar(tag)))
        }
    }
}
