import CLiblo // its headers bring <sys/socket.h>, whose SOCK_* Glibc alone does not show here
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address, kept as the bytes the kernel gave us so
/// replies go back exactly where a packet came from.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    var storage: [UInt8]

    init(_ pointer: UnsafeRawPointer, length: socklen_t) {
        storage = Array(UnsafeRawBufferPointer(start: pointer, count: Int(length)))
    }

    /// Whether these are the bytes the kernel gave for this address.
    func isSame(as pointer: UnsafeRawPointer, length: socklen_t) -> Bool {
        storage.elementsEqual(UnsafeRawBufferPointer(start: pointer, count: Int(length)))
    }

    /// Resolves a numeric or named host and a port (for binding and sending).
    public static func resolve(host: String, port: Int, datagram: Bool = true) -> SocketAddress? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        guard let address = first.pointee.ai_addr else { return nil }
        return SocketAddress(address, length: first.pointee.ai_addrlen)
    }

    public var family: Int32 { storage.count >= 2 ? Int32(storage.withUnsafeBytes { $0.load(as: sa_family_t.self) }) : AF_UNSPEC }

    /// The numeric host, "192.168.1.20" or "fe80::1"; IPv4-mapped IPv6 shown as IPv4.
    public var host: String {
        withSockaddr { pointer, length in
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(pointer, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return "?" }
            let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return text.hasPrefix("::ffff:") && text.contains(".") ? String(text.dropFirst(7)) : text
        }
    }

    public var port: Int {
        withSockaddr { pointer, _ in
            if family == AF_INET {
                return Int(UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }))
            }
            return Int(UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }))
        }
    }

    /// The same address with another port.
    public func with(port: Int) -> SocketAddress {
        var copy = self
        copy.storage.withUnsafeMutableBytes { bytes in
            let be = UInt16(port).bigEndian
            withUnsafeBytes(of: be) { bytes.baseAddress!.advanced(by: 2).copyMemory(from: $0.baseAddress!, byteCount: 2) }
        }
        return copy
    }

    /// The raw IP address bytes: 4 for IPv4, 16 for IPv6 (IPv4-mapped turned into 4).
    public var ipBytes: [UInt8] {
        if family == AF_INET { return Array(storage[4..<8]) }
        let bytes = Array(storage[8..<24])
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return Array(bytes[12..<16]) }
        return bytes
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        storage.withUnsafeBytes { bytes in
            body(bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
    }

    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension SocketAddress {
    /// The host a connection counts against for a per-host limit: an IPv4
    /// address, or an IPv6 one's /64 (one machine may hold a whole /64).
    public var hostKey: [UInt8] {
        let bytes = ipBytes
        return bytes.count == 16 ? Array(bytes.prefix(8)) : bytes
    }
}
