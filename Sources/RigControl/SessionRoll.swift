import OSC

/// The sessions that hold a subscription, feedback or meters or both, and
/// the limits on them: at most `total`, and `perHost` from one host, since
/// many clients can sit behind one host (Open Stage Control's server, a
/// proxy). A session with both kinds counts once. Past a limit the least
/// recently heard session (of that host, when the host is the one at its
/// limit) makes room for the new one: a client still there is heard again
/// and can subscribe again, while a refusal would leave a tablet dark.
///
/// Kept by the controller's `Sessions`, under its lock; the hubs hold the subscriptions
/// themselves. Sessions are known by their reply path (`OSCPeer.isSamePath`).
struct SessionRoll {
    static let total = 256
    static let perHost = 64

    enum Kind { case feedback, meters }

    private struct Entry {
        var lastHeard: ContinuousClock.Instant
        var kinds: Set<Kind>
    }

    private var entries: [OSCPeer: Entry] = [:]

    var count: Int { entries.count }

    /// Every session on the roll, by its key.
    var all: [OSCPeer] { Array(entries.keys) }

    private static func key(_ session: OSCPeer) -> OSCPeer { session.sessionKey }

    /// Enters `session`'s subscription of `kind`; returns the session that
    /// must end to make room (all its subscriptions), if one must.
    mutating func admit(_ session: OSCPeer, _ kind: Kind,
                        at now: ContinuousClock.Instant = .now) -> (session: OSCPeer, among: Int)? {
        let key = Self.key(session)
        if entries[key] != nil {
            entries[key]?.kinds.insert(kind)
            entries[key]?.lastHeard = now
            return nil
        }
        // (The rig's own MIDI controllers are never the ones to go: they are not a crowd.)
        let others = entries.filter { !$0.key.isSurface }
        let fromHost = others.filter { $0.key.host == key.host }
        let crowd = fromHost.count >= Self.perHost ? fromHost : entries.count >= Self.total ? others : [:]
        let evicted = crowd.min { $0.value.lastHeard < $1.value.lastHeard }.map { (session: $0.key, among: crowd.count) }
        if let evicted { entries.removeValue(forKey: evicted.session) }
        entries[key] = Entry(lastHeard: now, kinds: [kind])
        return evicted
    }

    /// `session` was heard from: it is not the one to make room.
    mutating func heard(_ session: OSCPeer, at now: ContinuousClock.Instant = .now) {
        let key = Self.key(session)
        if entries[key] != nil { entries[key]?.lastHeard = now }
    }

    /// `session`'s subscription of `kind` ended.
    mutating func end(_ session: OSCPeer, _ kind: Kind) {
        let key = Self.key(session)
        entries[key]?.kinds.remove(kind)
        if entries[key]?.kinds.isEmpty == true { entries.removeValue(forKey: key) }
    }

    /// `session` is gone, with every subscription it had.
    mutating func depart(_ session: OSCPeer) {
        entries.removeValue(forKey: Self.key(session))
    }
}
