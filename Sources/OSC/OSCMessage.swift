import SystemSupport
/// An OSC message: an address (or address pattern) and its arguments.
public struct OSCMessage: Equatable, Sendable, CustomStringConvertible {
    public var address: String
    public var arguments: [OSCArgument]

    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// The type tag string, with its leading comma: ",if".
    public var typeTags: String { "," + String(arguments.map(\.typeTag)) }

    /// `/source/1/volume ,f 0.5`, the form `crosspoint send` prints.
    /// For the log: the address and every text cut to 256 characters
    /// (`String.cut`), so that no message makes a log line of its own size.
    public var description: String {
        ([address.cut(), typeTags] + arguments.map { $0.description.cut() }).joined(separator: " ")
    }
}

extension OSCMessage {
    /// Bytes this message takes on the wire as `OSCCodec` writes it (OSC 1.0:
    /// every part padded to 4), worked out without encoding it: replies and
    /// feedback are packed into datagrams by this figure.
    public var encodedSize: Int {
        func padded(_ count: Int) -> Int { (count + 4) & ~3 } // with its NUL, to a multiple of 4
        var size = padded(Self.wireLength(address)) + padded(arguments.count + 1)
        for argument in arguments {
            switch argument {
            case .int32, .float: size += 4
            case .double, .int64: size += 8
            case .string(let text), .symbol(let text): size += padded(Self.wireLength(text))
            case .blob(let bytes) where bytes.isEmpty: break // sent as nil (OSCCodec)
            case .blob(let bytes): size += 4 + ((bytes.count + 3) & ~3)
            case .bool, .nil, .impulse, .unsupported: break
            }
        }
        return size
    }

    /// The bytes of `text` up to its first NUL: an OSC-string cannot hold
    /// one, and liblo stops there.
    private static func wireLength(_ text: String) -> Int {
        var count = 0
        for byte in text.utf8 {
            if byte == 0 { break }
            count += 1
        }
        return count
    }
}
