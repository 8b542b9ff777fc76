import Catalogue
import Delivery
import OSC
import OSCQuery
import RigControl

/// OSCQuery's WebSocket listeners as the controller tells them of changes.
struct WebSocketListeners: ChangeListeners {
    let listeners: OSCQueryListeners

    init(_ listeners: OSCQueryListeners) { self.listeners = listeners }

    func publish(_ messages: [OSCMessage]) { messages.forEach(listeners.publish) }

    var isEmpty: Bool { listeners.count == 0 }
}

extension Rig {
    /// Every meter message's address: the replies with a level per channel (`Catalogue.replies`).
    private static let meterAddresses = Set(Catalogue.replies.compactMap { reply -> String? in
        guard case .perChannel(_, _) = reply.arguments else { return nil }
        return reply.address
    })

    /// Whether `packet` holds meters only: what a WebSocket that falls
    /// behind loses first (the next one replaces it).
    static func isMeters(_ packet: OSCPacket) -> Bool {
        let messages = packet.messages
        return !messages.isEmpty && messages.allSatisfy { meterAddresses.contains($0.address) }
    }
}
