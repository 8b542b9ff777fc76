import CLiblo

/// Receives OSC over UDP on liblo's server thread and sends each handler's
/// replies back to the sender, from the server's own port.
///
/// Every message, whatever its address, goes to `handler`, on liblo's
/// thread, one at a time. `bundleStarted` and `bundleEnded` bracket the
/// messages of each bundle.
public final class OSCServer: @unchecked Sendable {
    public typealias Handler = @Sendable (OSCMessage, OSCPeer) -> [OSCPacket]

    public let port: Int
    private let thread: lo_server_thread
    private let handler: Handler
    private let bundleStarted: @Sendable () -> Void
    private let bundleEnded: @Sendable () -> Void

    public struct StartError: Error, CustomStringConvertible {
        public let port: String
        public var description: String {
            "cannot listen for OSC on UDP port \(port) (in use, or not a valid port)"
        }
    }

    /// Listens on `port` ("0" or nil for any free port). Call `start()` to
    /// begin receiving.
    public init(port: String?, handler: @escaping Handler,
                bundleStarted: @escaping @Sendable () -> Void = {},
                bundleEnded: @escaping @Sendable () -> Void = {}) throws {
        let requested = (port == nil || port == "0") ? nil : port // nil: liblo picks a free port
        guard let thread = lo_server_thread_new_with_proto(requested, LO_UDP, OSCServer.reportError) else {
            throw StartError(port: port ?? "any")
        }
        self.thread = thread
        self.port = Int(lo_server_thread_get_port(thread))
        self.handler = handler
        self.bundleStarted = bundleStarted
        self.bundleEnded = bundleEnded
        let context = Unmanaged.passUnretained(self).toOpaque()
        lo_server_thread_add_method(thread, nil, nil, OSCServer.dispatch, context)
        lo_server_add_bundle_handlers(lo_server_thread_get_server(thread),
                                      OSCServer.bundleStart, OSCServer.bundleEnd, context)
    }

    deinit {
        lo_server_thread_stop(thread)
        lo_server_thread_free(thread)
    }

    public func start() { lo_server_thread_start(thread) }
    public func stop() { lo_server_thread_stop(thread) }

    /// Sends a packet to a peer from this server's port (for unsolicited
    /// messages; replies go back by themselves).
    public func send(_ packet: OSCPacket, to peer: OSCPeer) {
        guard let address = lo_address_new(peer.host, peer.port) else { return }
        defer { lo_address_free(address) }
        LibloCoding.send(packet, to: address, from: lo_server_thread_get_server(thread))
    }

    // MARK: - C callbacks, on liblo's thread

    private static let dispatch: lo_method_handler = { path, types, argv, argc, message, context in
        guard let context, let path, let message else { return 0 }
        let server = Unmanaged<OSCServer>.fromOpaque(context).takeUnretainedValue()
        let arguments = LibloCoding.arguments(types: types, argv: argv, count: argc)
        let source = lo_message_get_source(message)
        let peer = OSCPeer(host: source.flatMap { lo_address_get_hostname($0) }.map { String(cString: $0) } ?? "?",
                           port: source.flatMap { lo_address_get_port($0) }.map { String(cString: $0) } ?? "?")
        let replies = server.handler(OSCMessage(String(cString: path), arguments), peer)
        if let source {
            let from = lo_server_thread_get_server(server.thread)
            for reply in replies { LibloCoding.send(reply, to: source, from: from) }
        }
        return 0
    }

    private static let bundleStart: lo_bundle_start_handler = { _, context in
        guard let context else { return 0 }
        Unmanaged<OSCServer>.fromOpaque(context).takeUnretainedValue().bundleStarted()
        return 0
    }

    private static let bundleEnd: lo_bundle_end_handler = { context in
        guard let context else { return 0 }
        Unmanaged<OSCServer>.fromOpaque(context).takeUnretainedValue().bundleEnded()
        return 0
    }

    private static let reportError: lo_err_handler = { number, message, location in
        let text = message.map { String(cString: $0) } ?? "unknown"
        let place = location.map { String(cString: $0) } ?? ""
        OSCLog.write("liblo error \(number): \(text) \(place)")
    }
}
