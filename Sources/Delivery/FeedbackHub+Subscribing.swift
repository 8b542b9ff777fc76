import Catalogue
import OSC

/// Subscribing and unsubscribing.
extension FeedbackHub {
    /// Registers `client` for feedback at `port` on its host (or, for a TCP
    /// client or without a port, where it sends from). Returns the destination.
    /// `automatically`: subscribed for a change it made (`--auto-subscribe`);
    /// only the log line says so.
    /// `levelForms`: the forms of levels it is sent (nil: every form); a
    /// subscription made again takes the forms asked for last.
    @discardableResult
    public func subscribe(_ client: OSCPeer, port: Int?, levelForms: Set<Parameter.Form>? = nil,
                          automatically: Bool = false) -> OSCPeer {
        register(client, port: port, levelForms: levelForms, automatically: automatically, fullStateFollows: false)
            .destination
    }

    /// Subscribes as `subscribe` does, and sends nothing to it until
    /// `publishFullState(_:to:subscription:)` has queued its full state,
    /// named by the number returned.
    public func subscribeForFullState(_ client: OSCPeer, port: Int?,
                                      levelForms: Set<Parameter.Form>? = nil) -> (destination: OSCPeer, subscription: Int) {
        register(client, port: port, levelForms: levelForms, automatically: false, fullStateFollows: true)
    }

    private func register(_ client: OSCPeer, port: Int?, levelForms: Set<Parameter.Form>?, automatically: Bool,
                          fullStateFollows: Bool, awaitingProof: Bool = false) -> (destination: OSCPeer, subscription: Int) {
        let destination = Self.destination(client, port: port)
        return state.withLock { subscribers -> (destination: OSCPeer, subscription: Int) in
            if subscribers[destination] == nil {
                logger.info("\(destination) \(automatically ? "subscribed to feedback by its change" : "subscribed to feedback")")
                subscribers[destination] = Subscriber(client: client, pace: Pace.of(destination), at: .now)
            } else if let subscriber = subscribers[destination] {
                // Its forms or its full state may change: on its own again.
                leaveSharing(subscriber)
                subscriber.client = client
                subscriber.lastSeen = .now
            }
            if !automatically { subscribers[destination]?.levelForms = levelForms }
            subscriptions += 1
            if fullStateFollows { subscribers[destination]?.awaitingFullState = subscriptions }
            // In the same hold of the lock: a turn between would find it plain.
            if awaitingProof { subscribers[destination]?.fullStateOnProof = true }
            return (destination, subscriptions)
        }
    }

    /// Subscribes as `subscribe` does, for a destination that did not ask
    /// itself: changes go to it at once, its full state only once it is
    /// shown alive (a message from it: `renew`).
    @discardableResult
    public func subscribeAwaitingProof(_ client: OSCPeer, port: Int?, levelForms: Set<Parameter.Form>? = nil) -> OSCPeer {
        register(client, port: port, levelForms: levelForms, automatically: false, fullStateFollows: false,
                 awaitingProof: true).destination
    }

    /// Ends the subscription `subscribe` made; returns its destination.
    @discardableResult
    public func unsubscribe(_ client: OSCPeer, port: Int?) -> OSCPeer {
        let destination = Self.destination(client, port: port)
        state.withLock { subscribers in
            if subscribers.removeValue(forKey: destination) != nil { logger.info("\(destination) unsubscribed") }
        }
        return destination
    }

    package static func destination(_ client: OSCPeer, port: Int?) -> OSCPeer {
        guard let port, case .udp = client.transport else { return client }
        return OSCPeer(address: client.address.with(port: port), transport: .udp, access: client.access)
    }
}
