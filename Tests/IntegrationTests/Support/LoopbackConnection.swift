#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket connected to `127.0.0.1:port`, for the suite's own OSC
/// stream clients (`TCPOSCConnection`, `SLIPOSCConnection`); from `source`
/// (another loopback address, `127.0.0.2`, to be another host) if given;
/// with a kernel receive buffer of `receiveBuffer` bytes if given.
func connectToLoopback(tcpPort port: Int, from source: String? = nil, receiveBuffer: Int32? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RigError("cannot open a TCP socket") }
    if var size = receiveBuffer {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    if let source {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw RigError("cannot bind a TCP socket to \(source)")
        }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw RigError("cannot connect over TCP to port \(port)")
    }
    return fd
}
