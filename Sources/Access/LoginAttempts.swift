/// Wrong codes, by host and in all: after `limit` of them within `window`
/// from one host, that host's logins are refused for `lockout`, a right
/// code included; after `networkLimit` within `window` from all hosts
/// together, everyone's are, until the window has room again. The second
/// limit is what holds against a sender that forges many addresses (UDP
/// needs no reply to try a code), at the price of locking performers out
/// while it lasts. A right code does not clear a count: a performer who
/// knows one code could otherwise guess at the others between guesses.
///
/// An IPv6 host is counted by its /64, which one machine may fill. Kept by
/// the controller's `Sessions`, under its lock. At most `hostLimit` hosts are
/// remembered (the network limit keeps far fewer); past that, hosts whose
/// record has lapsed are forgotten, and if none has, a new host is refused
/// as if locked out (it fails closed).
public struct LoginAttempts: Sendable {
    public static let limit = 5
    public static let networkLimit = 30
    public static let window: Duration = .seconds(60)
    public static let lockout: Duration = .seconds(60)
    static let hostLimit = 4096

    /// Why logins are refused now, and for how long.
    public enum Refusal: Equatable, Sendable {
        case host(Duration)
        case network(Duration)
    }

    private struct Record {
        /// The times of its wrong codes within the window, oldest first.
        var wrong: [ContinuousClock.Instant] = []
        var lockedUntil: ContinuousClock.Instant?
    }

    private var hosts: [[UInt8]: Record] = [:]
    /// Every host's wrong codes within the window, oldest first (at most `networkLimit`).
    private var recent: [ContinuousClock.Instant] = []

    public init() {}

    /// Whether logins from `host` are refused now, and why.
    public mutating func refusal(for host: [UInt8], at now: ContinuousClock.Instant = .now) -> Refusal? {
        let key = Self.key(host)
        if let until = hosts[key]?.lockedUntil {
            if until > now { return .host(until - now) }
            hosts[key]?.lockedUntil = nil
        }
        recent.removeAll { now - $0 >= Self.window }
        if recent.count >= Self.networkLimit, let oldest = recent.first { return .network(Self.window - (now - oldest)) }
        if hosts[key] == nil && hosts.count >= Self.hostLimit {
            forgetLapsed(at: now)
            if hosts.count >= Self.hostLimit { return .network(Self.lockout) }
        }
        return nil
    }

    /// What a wrong code from `host` brought about.
    public enum Outcome: Equatable, Sendable {
        case counted
        /// The host's fifth within the window: it is locked out.
        case hostLocked
        /// The network's `networkLimit`th within the window: everyone is.
        case networkLocked
    }

    /// Counts a wrong code from `host` (one that was not refused).
    public mutating func wrong(from host: [UInt8], at now: ContinuousClock.Instant = .now) -> Outcome {
        let key = Self.key(host)
        var record = hosts[key] ?? Record()
        record.wrong.removeAll { now - $0 >= Self.window }
        record.wrong.append(now)
        let locks = record.wrong.count >= Self.limit
        if locks {
            record.lockedUntil = now + Self.lockout
            record.wrong.removeAll()
        }
        hosts[key] = record
        recent.removeAll { now - $0 >= Self.window }
        recent.append(now)
        if locks { return .hostLocked }
        return recent.count >= Self.networkLimit ? .networkLocked : .counted
    }

    /// Hosts remembered now (for tests).
    var count: Int { hosts.count }

    /// IPv4 by address, IPv6 by /64.
    private static func key(_ host: [UInt8]) -> [UInt8] {
        host.count == 16 ? Array(host.prefix(8)) : host
    }

    private mutating func forgetLapsed(at now: ContinuousClock.Instant) {
        hosts = hosts.filter { _, record in
            (record.lockedUntil.map { $0 > now } ?? false) || record.wrong.contains { now - $0 < Self.window }
        }
    }
}
