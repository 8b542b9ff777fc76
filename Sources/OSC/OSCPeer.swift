/// Who sent a message, and how to answer: the socket address (UDP) or the
/// connection (TCP) replies go back on, and what the sender may do.
public struct OSCPeer: Equatable, Hashable, Sendable, CustomStringConvertible {
    public enum Transport: Hashable, Sendable {
        case udp
        /// A TCP connection, by the server's number for it.
        case tcp(Int)
        /// A WebSocket (OSCQuery's port), by that server's number for it.
        case webSocket(Int)
        /// A MIDI controller of the rig's own, by name (`serve --midi`):
        /// its messages come from the rig, and what it is sent goes to the
        /// rig's surface desk, which makes MIDI of it.
        case surface(String)
    }

    /// What a sender may do, as the server's `Admission` says: change the
    /// rig, only look, or nothing (its packets are dropped unread).
    public enum Access: Sendable, Hashable { case full, readOnly, denied }

    public var address: SocketAddress
    public var transport: Transport
    public var access: Access

    public init(address: SocketAddress, transport: Transport = .udp, access: Access = .full) {
        self.address = address
        self.transport = transport
        self.access = access
    }

    public var host: String { address.host }

    /// Whether it is one of the rig's own MIDI controllers.
    public var isSurface: Bool { if case .surface = transport { true } else { false } }

    /// Whether replies to both go the same way: the same socket address over
    /// UDP, or the same connection (whatever access each was given).
    public func isSamePath(as other: OSCPeer) -> Bool {
        transport == other.transport && (transport != .udp || address == other.address)
    }
    public var port: Int { address.port }

    public var description: String {
        switch transport {
        case .udp: address.description
        case .tcp: "\(address) (tcp)"
        case .webSocket: "\(address.host) (websocket)"
        case .surface(let name): "surface \(name)"
        }
    }
}

extension OSCPeer {
    /// A session's key: its reply path (the UDP address, or the connection),
    /// whatever access it was given.
    public var sessionKey: OSCPeer {
        OSCPeer(address: address, transport: transport, access: .full)
    }

    public var loginHost: String { host }
}
