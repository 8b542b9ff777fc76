import OSC

extension OSCOracle {
    /// A packet on the wire: a message, or a bundle of packets.
    public indirect enum Packet: Sendable, Hashable {
        case message(Message)
        case bundle(OSCTimeTag, [Packet])
    }

    /// A message: an address and its arguments.
    public struct Message: Sendable, Hashable, CustomStringConvertible {
        public var address: String
        public var arguments: [Argument]

        public init(_ address: String, _ arguments: Argument...) {
            self.init(address, arguments: arguments)
        }

        public init(_ address: String, arguments: [Argument]) {
            self.address = address
            self.arguments = arguments
        }

        /// The type tag string without its comma, e.g. "if".
        public var typeTags: String { String(arguments.map(\.typeTag)) }

        public var description: String {
            ([address] + arguments.map(\.description)).joined(separator: " ")
        }
    }
}
