import CLiblo

/// A plain OSC client over UDP: sends from its own port and collects what
/// comes back to it. This is what `crosspoint send` uses.
public final class OSCClient {
    private let server: lo_server
    private let target: lo_address
    private var received: [OSCMessage] = []

    public struct ConnectError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(host: String, port: Int) throws {
        guard let server = lo_server_new(nil, nil) else {
            throw ConnectError(description: "cannot open a local UDP socket")
        }
        guard let target = lo_address_new(host, String(port)) else {
            lo_server_free(server)
            throw ConnectError(description: "cannot resolve \(host):\(port)")
        }
        self.server = server
        self.target = target
        lo_server_add_method(server, nil, nil, OSCClient.collect,
                             Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        lo_address_free(target)
        lo_server_free(server)
    }

    public var localPort: Int { Int(lo_server_get_port(server)) }

    @discardableResult
    public func send(_ packet: OSCPacket) -> Bool {
        LibloCoding.send(packet, to: target, from: server)
    }

    /// Everything received within `seconds` (including messages inside
    /// bundles), in arrival order.
    public func receive(for seconds: Double) -> [OSCMessage] {
        var deadline = Int(seconds * 1000)
        let clock = ContinuousClock()
        let start = clock.now
        while deadline > 0 {
            _ = lo_server_recv_noblock(server, Int32(min(deadline, 100)))
            let elapsed = clock.now - start
            deadline = Int(seconds * 1000) - Int(elapsed.components.seconds * 1000
                                                 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        }
        defer { received.removeAll() }
        return received
    }

    private static let collect: lo_method_handler = { path, types, argv, argc, _, context in
        guard let context, let path else { return 0 }
        let client = Unmanaged<OSCClient>.fromOpaque(context).takeUnretainedValue()
        client.received.append(OSCMessage(String(cString: path),
                                          LibloCoding.arguments(types: types, argv: argv, count: argc)))
        return 0
    }
}
