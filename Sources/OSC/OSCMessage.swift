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
    public var description: String {
        ([address, typeTags] + arguments.map(\.description)).joined(separator: " ")
    }
}

/// What goes back to a client: a message, or several in one bundle.
public enum OSCPacket: Equatable, Sendable {
    case message(OSCMessage)
    case bundle([OSCMessage])
}
