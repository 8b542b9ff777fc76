import OSC

extension OSCOracle {
    /// The packet's bytes, as OSC 1.0 lays them out: strings NUL-terminated
    /// and padded with NULs to four bytes, numbers big-endian, a bundle as
    /// `#bundle`, its time tag, then each element preceded by its size.
    public static func encode(_ packet: Packet) -> [UInt8] {
        var writer = Writer()
        writer.write(packet)
        return writer.bytes
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func write(_ packet: Packet) {
            switch packet {
            case .message(let message):
                write(string: message.address)
                write(string: "," + message.typeTags)
                for argument in message.arguments { write(argument) }
            case .bundle(let timeTag, let elements):
                write(string: "#bundle")
                write(timeTag)
                for element in elements {
                    var inner = Writer()
                    inner.write(element)
                    write(UInt32(inner.bytes.count))
                    bytes += inner.bytes
                }
            }
        }

        mutating func write(_ argument: Argument) {
            switch argument {
            case .int32(let value): write(UInt32(bitPattern: value))
            case .float(let value): write(value.bitPattern)
            case .string(let value), .symbol(let value): write(string: value)
            case .blob(let data):
                write(UInt32(data.count))
                bytes += data
                pad()
            case .int64(let value): write(UInt64(bitPattern: value))
            case .timeTag(let tag): write(tag)
            case .double(let value): write(value.bitPattern)
            case .character(let value): write(UInt32(value))
            case .midi(let a, let b, let c, let d): bytes += [a, b, c, d]
            case .true, .false, .nil, .impulse: break // the tag is the whole value
            }
        }

        mutating func write(_ tag: OSCTimeTag) {
            write(tag.seconds)
            write(tag.fraction)
        }

        mutating func write<T: FixedWidthInteger>(_ value: T) {
            for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }

        /// An OSC-string holds no NUL: the text ends at the first.
        mutating func write(string: String) {
            bytes += string.utf8.prefix { $0 != 0 }
            bytes.append(0)
            pad()
        }

        mutating func pad() {
            while bytes.count % 4 != 0 { bytes.append(0) }
        }
    }
}
