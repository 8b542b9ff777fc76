import CLiblo // its headers bring <sys/socket.h>, whose SOCK_* Glibc alone does not show here
#if canImport(Glibc)
import Glibc
#endif

/// A plain OSC client over UDP: sends from its own port and collects what
/// comes back to it. This is what `crosspoint send` uses. Its socket is
/// connected to the target, so that "port unreachable" comes back to it
/// (`refused`): nothing listens there.
public final class OSCClient {
    private let socket: Int32
    public let target: SocketAddress
    /// Whether the target's host said that nothing listens on its port.
    public private(set) var refused = false

    public struct ConnectError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(host: String, port: Int) throws {
        guard let target = SocketAddress.resolve(host: host, port: port) else {
            throw ConnectError(description: "cannot resolve \(host):\(port)")
        }
        let fd = Glibc.socket(target.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ConnectError(description: "cannot open a local UDP socket") }
        let connected = target.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ConnectError(description: "cannot reach \(target): \(reason)")
        }
        self.socket = fd
        self.target = target
    }

    deinit {
        close(socket)
    }

    @discardableResult
    public func send(_ packet: OSCPacket) -> Bool {
        guard let bytes = OSCCodec.encode(packet) else { return false }
        let sent = bytes.withUnsafeBytes { data in Glibc.send(socket, data.baseAddress, data.count, 0) }
        if sent < 0 && errno == ECONNREFUSED { refused = true }
        return sent == bytes.count
    }

    /// Everything received within `seconds` (the messages of bundles one by
    /// one), in arrival order. What is not valid OSC is skipped.
    public func receive(for seconds: Double) -> [OSCMessage] {
        var received: [OSCMessage] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < deadline {
            let left = deadline - clock.now
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(clamping: max(1, milliseconds))) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && errno == ECONNREFUSED {
                refused = true
                break
            }
            guard count > 0 else { continue }
            let packet = buffer.withUnsafeBytes { raw in
                try? OSCCodec.decode(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
            }
            received += packet?.messages ?? []
        }
        return received
    }
}
