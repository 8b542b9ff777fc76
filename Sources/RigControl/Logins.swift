import Access
import OSC

/// The sessions logged in with a code (`/login`), and the role each has
/// until it sends `/logout` or is gone (its connection closed, its port
/// unreachable). The code is kept so that a reloaded access file can be
/// asked again what it gives: a code taken out of the file logs its
/// sessions out. At most `perHost` sessions from one host and `limit` in
/// all: past either, the least recently heard (of that host, when the host
/// is the one at its limit) is logged out, so that no stream of logins
/// grows memory, and one code holder cannot log everyone else out.
///
/// Kept by the controller, under its lock.
struct Logins {
    static let limit = 1024
    static let perHost = 16

    private struct Entry {
        var code: String
        var role: Role
        var lastHeard: ContinuousClock.Instant
    }

    private var entries: [OSCPeer: Entry] = [:]

    var count: Int { entries.count }

    /// The role `session` logged in to, if it did; it counts as heard.
    mutating func role(of session: OSCPeer, at now: ContinuousClock.Instant = .now) -> Role? {
        let key = session.sessionKey
        guard entries[key] != nil else { return nil }
        entries[key]?.lastHeard = now
        return entries[key]?.role
    }

    /// `session` logged in with `code` to `role`.
    mutating func enter(_ session: OSCPeer, code: String, role: Role, at now: ContinuousClock.Instant = .now) {
        let key = session.sessionKey
        if entries[key] == nil {
            let fromHost = entries.filter { $0.key.host == key.host }
            let crowd = fromHost.count >= Self.perHost ? fromHost : entries.count >= Self.limit ? entries : [:]
            if let oldest = crowd.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key {
                entries.removeValue(forKey: oldest)
            }
        }
        entries[key] = Entry(code: code, role: role, lastHeard: now)
    }

    /// `session` logged out, or is gone; whether it had logged in.
    @discardableResult
    mutating func remove(_ session: OSCPeer) -> Bool {
        entries.removeValue(forKey: session.sessionKey) != nil
    }

    /// Every session's role asked again of new rules: those whose code no
    /// longer gives a role are logged out (and returned).
    mutating func renew(with rules: AccessRules?) -> [OSCPeer] {
        var ended: [OSCPeer] = []
        var kept: [OSCPeer: Entry] = [:]
        for (session, var entry) in entries {
            if let role = rules?.role(forCode: entry.code) {
                entry.role = role
                kept[session] = entry
            } else {
                ended.append(session)
            }
        }
        entries = kept
        return ended
    }
}
