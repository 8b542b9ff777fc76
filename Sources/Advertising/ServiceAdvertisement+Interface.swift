import Glibc

extension ServiceAdvertisement {
    /// The index of the network interface that holds `address` (an IPv4 or
    /// IPv6 address in text), for a server bound to that one address; nil
    /// for a wildcard (`0.0.0.0`, `::`) or an address no interface holds.
    public static func interfaceIndex(holding address: String) -> Int32? {
        var v4 = in_addr()
        var v6 = in6_addr()
        let isV4 = inet_pton(AF_INET, address, &v4) == 1
        let isV6 = !isV4 && inet_pton(AF_INET6, address, &v6) == 1
        guard isV4 || isV6 else { return nil }
        if isV4 && v4.s_addr == 0 { return nil }
        if isV6 && withUnsafeBytes(of: v6, { $0.allSatisfy { $0 == 0 } }) { return nil }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let socketAddress = current.pointee.ifa_addr else { continue }
            let family = Int32(socketAddress.pointee.sa_family)
            let matches: Bool
            if isV4 && family == AF_INET {
                matches = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    $0.pointee.sin_addr.s_addr == v4.s_addr
                }
            } else if isV6 && family == AF_INET6 {
                matches = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { held in
                    withUnsafeBytes(of: held.pointee.sin6_addr) { a in withUnsafeBytes(of: v6) { b in a.elementsEqual(b) } }
                }
            } else {
                matches = false
            }
            if matches, let name = current.pointee.ifa_name {
                let index = if_nametoindex(name)
                return index == 0 ? nil : Int32(index)
            }
        }
        return nil
    }
}
