/// What travels in one datagram, one TCP frame or one WebSocket frame: a
/// message, or a bundle of messages.
public enum OSCPacket: Equatable, Sendable {
    case message(OSCMessage)
    case bundle(OSCBundle)

    /// A bundle of `messages` for `timeTag` (by default, at once): how
    /// replies and feedback that travel together are built.
    public static func bundle(_ messages: [OSCMessage], at timeTag: OSCTimeTag = .immediately) -> OSCPacket {
        .bundle(OSCBundle(messages, at: timeTag))
    }

    /// The packet's messages, in order (one for a message).
    public var messages: [OSCMessage] {
        switch self {
        case .message(let message): [message]
        case .bundle(let bundle): bundle.messages
        }
    }
}
