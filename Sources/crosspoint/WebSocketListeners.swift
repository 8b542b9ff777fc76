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
