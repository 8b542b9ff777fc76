import OSC

/// How many subscriptions of one kind (feedback, meters) the rig keeps: at
/// most `total`, and `perHost` from one host, since many clients can sit
/// behind one host (Open Stage Control's server, a proxy). Past a limit the
/// least recently heard subscription makes room for the new one: a client
/// that is still there is heard again and can subscribe again, while a
/// refusal would leave a tablet dark.
enum SubscriptionLimit {
    static let total = 256
    static let perHost = 64

    /// The subscription to end so that a new one from `host` fits, and how
    /// many it was the least recently heard of; nil while there is room.
    static func makingRoom<Subscriber>(in subscribers: [OSCPeer: Subscriber], for host: String,
                                       lastHeard: (Subscriber) -> ContinuousClock.Instant) -> (OSCPeer, Int)? {
        let fromHost = subscribers.filter { $0.key.host == host }
        let crowd = fromHost.count >= perHost ? fromHost : subscribers.count >= total ? subscribers : [:]
        return crowd.min { lastHeard($0.value) < lastHeard($1.value) }.map { ($0.key, crowd.count) }
    }
}
