import OSC

extension OSCOracle {
    /// Reads one packet, strictly: every size checked against what is
    /// there, padding all NULs, nothing left over. A message without a type
    /// tag string (OSC 1.0 allows it of old senders) has no arguments.
    public static func decode(_ bytes: [UInt8]) throws(Failure) -> Packet {
        try read(bytes[...], depth: 0)
    }

    private static func read(_ bytes: ArraySlice<UInt8>, depth: Int) throws(Failure) -> Packet {
        guard bytes.count % 4 == 0 else { throw .truncated }
        var reader = Reader(bytes: bytes)
        switch bytes.first {
        case UInt8(ascii: "/"):
            return .message(try reader.readMessage())
        case UInt8(ascii: "#"):
            guard depth < maximumDepth else { throw .nestedTooDeeply }
            guard try reader.readString() == "#bundle" else { throw .notAPacket }
            let timeTag = OSCTimeTag(seconds: try reader.read(UInt32.self), fraction: try reader.read(UInt32.self))
            var elements: [Packet] = []
            while !reader.isAtEnd {
                let size = Int(try reader.read(UInt32.self))
                guard size > 0, size % 4 == 0, size <= reader.remaining else { throw .malformedBundle }
                elements.append(try read(try reader.take(size), depth: depth + 1))
            }
            return .bundle(timeTag, elements)
        case nil:
            throw .truncated
        default:
            throw .notAPacket
        }
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        var isAtEnd: Bool { bytes.isEmpty }
        var remaining: Int { bytes.count }

        mutating func take(_ count: Int) throws(Failure) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count >= count else { throw .truncated }
            defer { bytes = bytes.dropFirst(count) }
            return bytes.prefix(count)
        }

        mutating func read<T: FixedWidthInteger>(_: T.Type) throws(Failure) -> T {
            var value: T = 0
            for byte in try take(MemoryLayout<T>.size) { value = value << 8 | T(byte) }
            return value
        }

        mutating func readString() throws(Failure) -> String {
            guard let end = bytes.firstIndex(of: 0) else { throw .malformedString }
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            let padded = (end - bytes.startIndex + 4) & ~3
            try skip(padded - (end - bytes.startIndex), after: end - bytes.startIndex)
            return text
        }

        /// `count` bytes of content, then NULs up to the next multiple of four.
        private mutating func skip(_ padding: Int, after count: Int) throws(Failure) {
            _ = try take(count)
            guard try take(padding).allSatisfy({ $0 == 0 }) else { throw .badPadding }
        }

        mutating func readMessage() throws(Failure) -> Message {
            let address = try readString()
            guard !isAtEnd else { return Message(address, arguments: []) }
            let tags = try readString()
            guard tags.first == "," else { throw .malformedTypeTags }
            var arguments: [Argument] = []
            for tag in tags.utf8.dropFirst() { arguments.append(try readArgument(tag)) }
            guard isAtEnd else { throw .truncated }
            return Message(address, arguments: arguments)
        }

        mutating func readArgument(_ tag: UInt8) throws(Failure) -> Argument {
            switch tag {
            case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try read(UInt32.self)))
            case UInt8(ascii: "f"): return .float(Float(bitPattern: try read(UInt32.self)))
            case UInt8(ascii: "s"): return .string(try readString())
            case UInt8(ascii: "S"): return .symbol(try readString())
            case UInt8(ascii: "b"):
                let size = Int(try read(UInt32.self))
                guard size <= remaining else { throw .truncated }
                let data = Array(bytes.prefix(size))
                try skip((4 - size % 4) % 4, after: size)
                return .blob(data)
            case UInt8(ascii: "h"): return .int64(Int64(bitPattern: try read(UInt64.self)))
            case UInt8(ascii: "t"): return .timeTag(OSCTimeTag(seconds: try read(UInt32.self), fraction: try read(UInt32.self)))
            case UInt8(ascii: "d"): return .double(Double(bitPattern: try read(UInt64.self)))
            case UInt8(ascii: "c"): return .character(UInt8(truncatingIfNeeded: try read(UInt32.self)))
            case UInt8(ascii: "m"):
                let data = try take(4)
                return .midi(data[data.startIndex], data[data.startIndex + 1], data[data.startIndex + 2], data[data.startIndex + 3])
            case UInt8(ascii: "T"): return .true
            case UInt8(ascii: "F"): return .false
            case UInt8(ascii: "N"): return .nil
            case UInt8(ascii: "I"): return .impulse
            default: throw .unknownTypeTag(tag)
            }
        }
    }
}
