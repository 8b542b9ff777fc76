import Synchronization

/// What the HTTP port (the page, OSCQuery, WebSockets) holds at most, so
/// that nobody on the venue network can exhaust the rig's memory or
/// descriptors: connections from one host and in all, the time a
/// connection's first request header may take to arrive, and its size.
/// docs/access.md gives the figures. Shared by every connection of one
/// server (`HTTPConnectionGuard`).
public final class HTTPConnectionLimits: Sendable {
    /// Connections one host may hold (Open Stage Control serves dozens of
    /// browsers from one host).
    public let perHost: Int
    /// Connections in all.
    public let total: Int
    /// How long a connection's request header may take to arrive, whole.
    public let headerDeadline: Duration
    /// The largest request header, in bytes (a browser's is under 2 KB).
    public let headerSize: Int

    private struct Count {
        var byHost: [String: Int] = [:]
        var total = 0
        var refused = 0
    }

    private let count = Mutex(Count())

    public init(perHost: Int = 64, total: Int = 512, headerDeadline: Duration = .seconds(5), headerSize: Int = 16 * 1024) {
        self.perHost = perHost
        self.total = total
        self.headerDeadline = headerDeadline
        self.headerSize = headerSize
    }

    /// A connection from `host` opens: whether it may stay.
    func open(_ host: String) -> Bool {
        count.withLock { count in
            guard count.byHost[host, default: 0] < perHost, count.total < total else {
                count.refused += 1
                return false
            }
            count.byHost[host, default: 0] += 1
            count.total += 1
            return true
        }
    }

    /// A connection `open` let stay has closed.
    func close(_ host: String) {
        count.withLock { count in
            count.total -= 1
            let left = count.byHost[host, default: 1] - 1
            count.byHost[host] = left > 0 ? left : nil
        }
    }

    /// Connections open now, and refused so far (over a limit).
    public var open: Int { count.withLock { $0.total } }
    public var refused: Int { count.withLock { $0.refused } }
}
