import OSC
#if canImport(Glibc)
import Glibc
#endif

/// Who may control the rig, by source address: full control, query-only,
/// or nothing at all (packets dropped without a reply).
public struct AccessPolicy: Sendable {
    /// What a client may do: everything its role allows, only read (query,
    /// subscribe, meter), or nothing (dropped unanswered; HTTP 403). The
    /// OSC transport's word for it (`OSCPeer.Access`).
    public typealias Access = OSCPeer.Access

    /// A network in CIDR notation: `192.168.0.0/16`, `fe80::/10`, `10.1.2.3` (a single host).
    public struct Network: Sendable, Equatable, CustomStringConvertible {
        let bytes: [UInt8]
        public let prefix: Int
        public let description: String

        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1)
            guard let first = parts.first, let address = Self.parse(String(first)) else { return nil }
            let maximum = address.count * 8
            let prefix = parts.count == 2 ? Int(parts[1]) : maximum
            guard let prefix, (0...maximum).contains(prefix) else { return nil }
            bytes = address
            self.prefix = prefix
            description = text
        }

        public func contains(_ ip: [UInt8]) -> Bool {
            guard ip.count == bytes.count else { return false }
            var remaining = prefix
            for (a, b) in zip(ip, bytes) where remaining > 0 {
                let bits = min(8, remaining)
                let mask: UInt8 = bits == 8 ? 0xff : ~(0xff >> UInt8(bits))
                if a & mask != b & mask { return false }
                remaining -= bits
            }
            return true
        }

        /// Whether the address has no bits set past the prefix (`192.168.1.0/24`,
        /// not `192.168.1.5/24`).
        public var hasNoHostBits: Bool { masked == bytes }

        /// The network written without host bits: `192.168.1.0/24`.
        public var networkDescription: String {
            let address = bytes.count == 4 ? masked.map(String.init).joined(separator: ".")
                : stride(from: 0, to: masked.count, by: 2)
                    .map { String(UInt16(masked[$0]) << 8 | UInt16(masked[$0 + 1]), radix: 16) }.joined(separator: ":")
            return "\(address)/\(prefix)"
        }

        /// Whether both hold exactly the same addresses.
        public func isSameNetwork(as other: Network) -> Bool {
            prefix == other.prefix && masked == other.masked
        }

        /// The address with the bits past the prefix cleared.
        private var masked: [UInt8] {
            bytes.enumerated().map { index, byte in
                let bits = min(8, max(0, prefix - index * 8))
                return bits == 8 ? byte : byte & ~(0xff >> UInt8(bits))
            }
        }

        /// Numeric IPv4 or IPv6 addresses only.
        static func parse(_ text: String) -> [UInt8]? {
            if text.contains(":") {
                guard let bytes = AccessPolicy.numeric(text), bytes.count == 16 else { return nil }
                return bytes
            }
            let octets = text.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
            return octets.count == 4 && text.split(separator: ".", omittingEmptySubsequences: false).count == 4 ? octets : nil
        }
    }

    /// Loopback, private and link-local ranges: nothing from a public address.
    public static let localNetworks = ["127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                       "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10"].compactMap(Network.init)

    public var allowed: [Network]
    public var readOnly: [Network]

    public init(allowed: [Network] = AccessPolicy.localNetworks, readOnly: [Network] = []) {
        self.allowed = allowed
        self.readOnly = readOnly
    }

    /// Parses a comma-separated list of networks; nil names the bad entry.
    public static func networks(_ list: String) -> Result<[Network], ParseError> {
        var result: [Network] = []
        for entry in list.split(separator: ",").map({ String($0.filter { $0 != " " }) }) where !entry.isEmpty {
            guard let network = Network(entry) else { return .failure(ParseError(entry: entry)) }
            result.append(network)
        }
        return .success(result)
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let entry: String
        public var description: String { "'\(entry)' is not an IPv4 or IPv6 network (CIDR, e.g. 192.168.1.0/24)" }
    }

    /// The access of a numeric IPv4 or IPv6 address; denied if it is neither.
    public func access(forHost host: String) -> Access {
        guard let bytes = Self.numeric(host) else { return .denied }
        return access(for: bytes)
    }

    /// A numeric IPv4 (4 bytes) or IPv6 (16 bytes) address; an IPv4-mapped
    /// IPv6 address (`::ffff:10.0.0.1`) as the IPv4 one, as sockets give it.
    /// Nil for anything else (names are never looked up).
    public static func numeric(_ host: String) -> [UInt8]? {
        // A link-local address may carry its zone (`fe80::1%eth0`): the
        // address is the part before it.
        let host = host.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? host
        guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { return nil }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        return mapped ? Array(bytes[12..<16]) : bytes
    }

    /// Read-only wins over allowed, so that one tablet on an allowed network
    /// can be made read-only.
    public func access(for ip: [UInt8]) -> Access {
        if readOnly.contains(where: { $0.contains(ip) }) { return .readOnly }
        if allowed.contains(where: { $0.contains(ip) }) { return .full }
        return .denied
    }
}
