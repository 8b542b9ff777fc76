import CLiblo // its headers bring <sys/socket.h>, whose SOCK_* Glibc alone does not show here
#if canImport(Glibc)
import Glibc
#endif

extension SocketAddress {
    /// Whether the address is this machine's own: loopback (127.0.0.0/8,
    /// `::1`, and IPv4-mapped loopback) or an address of one of its
    /// interfaces, as they are now. Packets to it never leave the machine.
    public var isThisMachine: Bool {
        let ip = ipBytes
        if ip.count == 4 && ip[0] == 127 { return true }
        if ip.count == 16 && ip[0..<15].allSatisfy({ $0 == 0 }) && ip[15] == 1 { return true }
        return Self.interfaceAddresses().contains(ip)
    }

    /// The IP addresses of this machine's interfaces (`getifaddrs`), as `ipBytes`.
    static func interfaceAddresses() -> Set<[UInt8]> {
        Set(interfaceAddressList())
    }

    /// This machine's IPv4 addresses other than loopback, as text, in
    /// interface order: where people on the network reach it.
    public static func networkIPv4Addresses() -> [String] {
        var addresses: [String] = []
        for ip in interfaceAddressList() where ip.count == 4 && ip[0] != 127 {
            let text = ip.map(String.init).joined(separator: ".")
            if !addresses.contains(text) { addresses.append(text) }
        }
        return addresses
    }

    /// Every IPv4 and IPv6 address of the interfaces, in their order.
    private static func interfaceAddressList() -> [[UInt8]] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr else { continue }
            let length: Int
            switch Int32(address.pointee.sa_family) {
            case AF_INET: length = MemoryLayout<sockaddr_in>.size
            case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
            default: continue
            }
            addresses.append(SocketAddress(address, length: socklen_t(length)).ipBytes)
        }
        return addresses
    }
}
