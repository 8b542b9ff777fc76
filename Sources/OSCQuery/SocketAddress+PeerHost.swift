import NIOCore

extension SocketAddress {
    /// The IP address as a model is asked about it: `127.0.0.1`, `::1`; an
    /// IPv4-mapped IPv6 address (a dual-stack socket's view of an IPv4
    /// client) as the IPv4 address it maps.
    var peerHost: String? {
        guard let ip = ipAddress else { return nil }
        let mapped = "::ffff:"
        if ip.lowercased().hasPrefix(mapped), ip.dropFirst(mapped.count).contains(".") {
            return String(ip.dropFirst(mapped.count))
        }
        return ip
    }
}
