import OSC

/// The product's values on the oracle's wire, and back: what `OSCCodec`
/// must agree with.
extension OSCOracle {
    /// The bytes the product's codec must write for `packet`.
    public static func encode(_ packet: OSCPacket) -> [UInt8] {
        encode(Packet(packet))
    }

    /// `bytes` read by the oracle, as the product's value.
    public static func decodeProduct(_ bytes: [UInt8]) throws(Failure) -> OSCPacket {
        try decode(bytes).product
    }
}

extension OSCOracle.Packet {
    /// The product's packet as it goes on the wire. What the product's model
    /// cannot put there goes as nil, as `OSCCodec` promises: an empty blob
    /// (liblo has none) and `.unsupported` arguments (no data kept).
    public init(_ packet: OSCPacket) {
        switch packet {
        case .message(let message):
            self = .message(OSCOracle.Message(message))
        case .bundle(let bundle):
            self = .bundle(bundle.timeTag, bundle.messages.map { .message(OSCOracle.Message($0)) })
        }
    }

    /// The product's value: nested bundles' messages in the outermost one's
    /// list, their time tags dropped; the types the product has no case for
    /// as `.unsupported`.
    public var product: OSCPacket {
        switch self {
        case .message(let message):
            return .message(message.product)
        case .bundle(let timeTag, let elements):
            return .bundle(OSCBundle(elements.flatMap(\.product.messages), at: timeTag))
        }
    }
}

extension OSCOracle.Message {
    public init(_ message: OSCMessage) {
        self.init(message.address, arguments: message.arguments.map(OSCOracle.Argument.init))
    }

    public var product: OSCMessage {
        OSCMessage(address, arguments.map(\.product))
    }
}

extension OSCOracle.Argument {
    public init(_ argument: OSCArgument) {
        switch argument {
        case .int32(let v): self = .int32(v)
        case .float(let v): self = .float(v)
        case .double(let v): self = .double(v)
        case .int64(let v): self = .int64(v)
        case .string(let v): self = .string(v)
        case .symbol(let v): self = .symbol(v)
        case .bool(let v): self = v ? .true : .false
        case .nil, .unsupported: self = .nil
        case .impulse: self = .impulse
        case .blob(let bytes): self = bytes.isEmpty ? .nil : .blob(bytes)
        }
    }

    public var product: OSCArgument {
        switch self {
        case .int32(let v): .int32(v)
        case .float(let v): .float(v)
        case .string(let v): .string(v)
        case .blob(let v): .blob(v)
        case .int64(let v): .int64(v)
        case .timeTag: .unsupported("t")
        case .double(let v): .double(v)
        case .symbol(let v): .symbol(v)
        case .character: .unsupported("c")
        case .midi: .unsupported("m")
        case .true: .bool(true)
        case .false: .bool(false)
        case .nil: .nil
        case .impulse: .impulse
        }
    }
}
