/// Wrong codes by host: after `limit` of them within `window`, the host's
/// logins are refused for `lockout`, a right code included. A right code
/// does not clear the count: a performer who knows one code could otherwise
/// guess at the others by logging in between guesses.
///
/// Kept by the controller, under its lock. At most `hostLimit` hosts are
/// remembered; past that, hosts whose record has lapsed are forgotten, and
/// if none has, a new host is refused as if locked out (it fails closed).
public struct LoginAttempts: Sendable {
    public static let limit = 5
    public static let window: Duration = .seconds(60)
    public static let lockout: Duration = .seconds(60)
    static let hostLimit = 4096

    private struct Record {
        /// The times of its wrong codes within the window, oldest first.
        var wrong: [ContinuousClock.Instant] = []
        var lockedUntil: ContinuousClock.Instant?
    }

    private var hosts: [[UInt8]: Record] = [:]

    public init() {}

    /// How long `host` is still locked out; nil if it may try.
    public mutating func lockedOut(_ host: [UInt8], at now: ContinuousClock.Instant = .now) -> Duration? {
        if let until = hosts[host]?.lockedUntil {
            if until > now { return until - now }
            hosts[host]?.lockedUntil = nil
        }
        if hosts[host] == nil && hosts.count >= Self.hostLimit {
            forgetLapsed(at: now)
            if hosts.count >= Self.hostLimit { return Self.lockout }
        }
        return nil
    }

    /// Counts a wrong code from `host`; true when it locks the host out.
    public mutating func wrong(from host: [UInt8], at now: ContinuousClock.Instant = .now) -> Bool {
        var record = hosts[host] ?? Record()
        record.wrong.removeAll { now - $0 >= Self.window }
        record.wrong.append(now)
        let locks = record.wrong.count >= Self.limit
        if locks {
            record.lockedUntil = now + Self.lockout
            record.wrong.removeAll()
        }
        hosts[host] = record
        return locks
    }

    /// Hosts remembered now (for tests).
    var count: Int { hosts.count }

    private mutating func forgetLapsed(at now: ContinuousClock.Instant) {
        hosts = hosts.filter { _, record in
            (record.lockedUntil.map { $0 > now } ?? false) || record.wrong.contains { now - $0 < Self.window }
        }
    }
}
