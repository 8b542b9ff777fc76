import OSCQuery
import OSC
import RigControl
import Delivery
import Surfaces
import Synchronization

/// Where a packet for a client goes: back the way the client came. Over
/// UDP or its TCP connection (the OSC server), its WebSocket (the OSCQuery
/// server), or, for one of the rig's MIDI controllers, to the surface desk,
/// which turns what the controller binds into MIDI on its output port. The
/// parts made after the routes are set in them once made.
final class ReplyRoutes: Sendable {
    let server: OSCServer
    let webSockets = Mutex<OSCQueryServer?>(nil)
    let sessions = Mutex<Controller?>(nil)
    let surfaces = Mutex<SurfaceDesk?>(nil)

    init(server: OSCServer) { self.server = server }

    func deliver(_ packet: OSCPacket, to peer: OSCPeer) {
        let delivered = switch peer.transport {
        // Meters make way first for a WebSocket that falls behind.
        case .webSocket: webSockets.withLock { $0 }?.send(packet, to: peer, droppable: Rig.isMeters(packet)) ?? false
        case .surface(let name): surfaces.withLock { $0 }?.deliver(packet, to: name) ?? false
        case .udp, .tcp: server.send(packet, to: peer)
        }
        // A connection found gone takes its subscriptions with it (a timed
        // bundle's /subscribe may come due after its sender has left).
        if !delivered && peer.transport != .udp { sessions.withLock { $0 }?.depart(peer) }
    }

    /// Feedback comes encoded, each bundle once for all its subscribers.
    func deliver(encoded bytes: [UInt8], to peer: OSCPeer) {
        let delivered = switch peer.transport {
        case .webSocket: webSockets.withLock { $0 }?.send(encoded: bytes, to: peer) ?? false
        case .surface(let name): surfaces.withLock { $0 }?.deliver(encoded: bytes, to: name) ?? false
        case .udp, .tcp: server.send(encoded: bytes, to: peer)
        }
        if !delivered && peer.transport != .udp { sessions.withLock { $0 }?.depart(peer) }
    }

    /// Feedback to a TCP connection, a WebSocket or a MIDI controller goes
    /// as fast as the client takes it: as much as its socket, queue or ring
    /// has room for.
    func room(for peer: OSCPeer) -> Int {
        switch peer.transport {
        case .webSocket: webSockets.withLock { $0 }?.room(for: peer, packetSize: FeedbackHub.datagramLimit) ?? 0
        case .surface(let name): surfaces.withLock { $0 }?.room(for: name) ?? 0
        case .udp, .tcp: server.room(for: peer, packetSize: FeedbackHub.datagramLimit)
        }
    }
}
