import Delivery
import Foundation
import Logging
import OSC
@testable import RigControl
import Testing

/// `/subscribe PORT` names a port of the sender's host: one that did not
/// ask itself, on another machine, gets changes at once but the full state
/// (200,000 messages at 256x256) only once it is shown alive, a message
/// from it; so that one forged request cannot aim the whole state at
/// someone else's port (docs/access.md, "Reflection").
@Suite struct ReflectionTests {
    /// Every message the hub has due now, by destination.
    static func due(_ hub: FeedbackHub) -> [OSCPeer: [OSCMessage]] {
        var sent: [OSCPeer: [OSCMessage]] = [:]
        for _ in 0..<2000 {
            let turn = hub.due(at: .now + .seconds(1))
            if turn.isEmpty { break }
            for (destination, packets) in turn { sent[destination, default: []] += packets.flatMap(\.messages) }
        }
        return sent
    }

    static func peer(_ host: String, _ port: Int) -> OSCPeer {
        OSCPeer(address: SocketAddress.resolve(host: host, port: port)!)
    }

    @Test func anotherMachinesPortGetsTheFullStateOnlyOnceShownAlive() {
        let hub = FeedbackHub(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), send: { _, _ in })
        let c = makeController(feedback: hub)
        let asker = Self.peer("192.0.2.10", 5000), display = Self.peer("192.0.2.10", 6000)
        _ = c.handle(.message(OSCMessage("/subscribe", [.int32(6000)])), from: asker)
        c.waitForFullStates()
        #expect(hub.count == 1)
        #expect(Self.due(hub)[display, default: []].isEmpty, "no full state to a port that did not ask")
        // A change goes to it at once.
        _ = c.handle(.message(OSCMessage("/source/1/volume", [.float(0.5)])), from: asker)
        let changes = Self.due(hub)[display, default: []]
        #expect(!changes.isEmpty && changes.count < 10, "\(changes.count) messages for one change")
        // Shown alive: a message from that very port; now the whole state.
        _ = c.handle(.message(OSCMessage("/ping")), from: display)
        c.waitForFullStates()
        let state = Self.due(hub)[display, default: []]
        #expect(state.count > 100, "the full state once shown alive: \(state.count) messages")
    }

    @Test func theSendersOwnPortAndThisMachineGetItAtOnce() {
        let hub = FeedbackHub(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), send: { _, _ in })
        let c = makeController(feedback: hub)
        _ = c.handle(.message(OSCMessage("/subscribe")), from: Self.peer("192.0.2.10", 5000))
        _ = c.handle(.message(OSCMessage("/subscribe", [.int32(6000)])), from: Self.peer("127.0.0.1", 5000))
        c.waitForFullStates()
        let sent = Self.due(hub)
        #expect(sent[Self.peer("192.0.2.10", 5000), default: []].count > 100, "its own port")
        #expect(sent[Self.peer("127.0.0.1", 6000), default: []].count > 100, "a listener on this machine (oscdump)")
    }
}
