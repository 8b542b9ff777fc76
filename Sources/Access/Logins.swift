/// The sessions logged in with a code (`/login`), and the role each has
/// until it sends `/logout` or is gone (its connection closed, its port
/// unreachable). The code is kept so that a reloaded access file can be
/// asked again what it gives: a code taken out of the file logs its
/// sessions out. At most `perHost` sessions from one host and `limit` in
/// all: past either, the least recently heard (of that host, when the host
/// is the one at its limit) is logged out, so that no stream of logins
/// grows memory, and one code holder cannot log everyone else out.
///
/// Kept by the controller's `Sessions`, under its lock. `Session` is how a transport
/// names a session (the OSC server's `OSCPeer`).
public struct Logins<Session: LoginSession>: Sendable {
    public static var limit: Int { 1024 }
    public static var perHost: Int { 16 }

    private struct Entry {
        var code: String
        var role: Role
        var lastHeard: ContinuousClock.Instant
    }

    private var entries: [Session: Entry] = [:]

    public init() {}

    public var count: Int { entries.count }

    /// The role `session` logged in to, if it did; it counts as heard.
    public mutating func role(of session: Session, at now: ContinuousClock.Instant = .now) -> Role? {
        let key = session.sessionKey
        guard entries[key] != nil else { return nil }
        entries[key]?.lastHeard = now
        return entries[key]?.role
    }

    /// `session` logged in with `code` to `role`.
    public mutating func enter(_ session: Session, code: String, role: Role, at now: ContinuousClock.Instant = .now) {
        let key = session.sessionKey
        if entries[key] == nil {
            let fromHost = entries.filter { $0.key.loginHost == key.loginHost }
            let crowd = fromHost.count >= Self.perHost ? fromHost : entries.count >= Self.limit ? entries : [:]
            if let oldest = crowd.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key {
                entries.removeValue(forKey: oldest)
            }
        }
        entries[key] = Entry(code: code, role: role, lastHeard: now)
    }

    /// `session` logged out, or is gone; whether it had logged in.
    @discardableResult
    public mutating func remove(_ session: Session) -> Bool {
        entries.removeValue(forKey: session.sessionKey) != nil
    }

    /// Every session's role asked again of new rules: those whose code no
    /// longer gives a role are logged out (and returned).
    public mutating func renew(with rules: AccessRules?) -> [Session] {
        var ended: [Session] = []
        var kept: [Session: Entry] = [:]
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

/// A session as a transport names it, for `Logins`: its key (the same for
/// every message of the session, whatever access it was given) and its host.
public protocol LoginSession: Hashable, Sendable {
    associatedtype Host: Hashable
    var sessionKey: Self { get }
    var loginHost: Host { get }
}
