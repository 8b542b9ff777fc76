#if canImport(Glibc)
import Glibc
#endif

/// A `sockaddr_storage` with its length.
struct SocketAddress: @unchecked Sendable {
    var storage: sockaddr_storage
    var length: socklen_t

    var family: Int32 { Int32(storage.ss_family) }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        try withUnsafePointer(to: storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    /// The numeric host and port, or nil for an unknown family.
    var endpoint: OSCTestClient.Endpoint? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let result = withSockaddr { address, length in
            getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                        NI_NUMERICHOST | NI_NUMERICSERV)
        }
        guard result == 0, let port = Int(Self.string(service)) else { return nil }
        return OSCTestClient.Endpoint(host: Self.string(host), port: port)
    }

    /// The text of a NUL-terminated C string in an array.
    private static func string(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
