import Access
import Dispatch
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import OSC
import ServiceLifecycle
import Synchronization

/// Serves an OSCQuery namespace over HTTP, and value streaming over a
/// WebSocket on the same port (the Vidvox OSCQuery proposal).
///
/// - `GET /` and `GET /some/path`: the node and everything below it, as JSON
///   with `FULL_PATH`, `CONTENTS`, `TYPE`, `VALUE`, `RANGE`, `ACCESS`,
///   `DESCRIPTION`, `UNIT`, `CLIPMODE`.
/// - `GET /path?VALUE` (or any other attribute): `{"VALUE": […]}`.
/// - `GET /?HOST_INFO`: name, OSC port and transport, WebSocket address, and
///   the `EXTENSIONS` this server has.
/// - WebSocket: text frames `{"COMMAND":"LISTEN","DATA":"/path"}` and
///   `IGNORE`; changes given to `publish` are pushed to the clients
///   listening to their address as binary OSC frames. When the namespace
///   changes (`replaceModel(with:)`) every client is sent `PATH_REMOVED`
///   and `PATH_ADDED` text frames. Each WebSocket is a
///   client session: the binary OSC frames it sends go to `onPacket` with
///   the session as their peer (`OSCPeer.Transport.webSocket`), the replies
///   come back on it as binary frames, and `send` reaches it later
///   (feedback, meters, late replies). `onClose` is told when it ends.
///
/// Access control: the model says for each client IP whether it has full,
/// read-only or no access. Denied clients get HTTP 403 and no WebSocket;
/// a read-only client's packets reach `onPacket` marked read-only, and
/// whoever handles them refuses changes. Every refusal here is counted in
/// `deniedCount`.
///
/// Usable from synchronous code (`start()`/`stop()` block until done) and
/// from async code (`await start()`/`await stop()`). A server runs once:
/// after `stop()` make a new one.
public final class OSCQueryServer: Sendable {
    /// Called with each OSC packet a WebSocket client sends, and the client
    /// as a peer (its IP address, port 0, its session's number and its
    /// access); returns the replies for it. Called on the server's threads;
    /// it must not block for long.
    public typealias PacketHandler = @Sendable (_ packet: OSCPacket, _ client: OSCPeer) -> [OSCPacket]
    /// Called when a WebSocket client's session ends.
    public typealias CloseHandler = @Sendable (_ client: OSCPeer) -> Void

    private let bind: String
    private let requestedPort: Int
    private let logger: Logger
    private let responder: OSCQueryResponder
    private let gate: OSCQueryAccessGate
    private let hostName: OSCQueryHostName
    private let listeners: OSCQueryListeners
    /// What the port holds at most (docs/access.md, "The HTTP port").
    public let limits: HTTPConnectionLimits
    private let onPacket: PacketHandler?
    private let onClose: CloseHandler
    private let phase = Mutex(Phase.idle)
    /// Held for the whole of a model's replacement, so that clients are
    /// told of two replacements in the order they were made.
    private let replacing = Mutex(())

    private enum Phase {
        case idle
        case starting
        case running(ServiceGroup, Task<Void, Never>, port: Int)
        case stopped
    }

    /// - Parameters:
    ///   - bind: the address to listen on: `0.0.0.0` for every IPv4
    ///     interface, `::` for every interface, `127.0.0.1` for this machine.
    ///   - port: the TCP port for HTTP and WebSocket; 0 picks a free one
    ///     (read it from `port` once started).
    ///   - oscPort: the port of the OSC server the namespace belongs to
    ///     (`OSC_PORT` of `HOST_INFO`).
    ///   - oscTransport: `UDP` or `TCP` (`OSC_TRANSPORT`).
    ///   - oscIP: the OSC server's address when it differs from this
    ///     server's (`OSC_IP`); nil leaves it out, meaning the same address.
    ///   - name: the host's name (`NAME`).
    ///   - model: the namespace and its values (replaced later with
    ///     `replaceModel(with:)`).
    ///   - logger: where the server logs; requests are logged at debug level.
    ///   - onPacket: what to do with the OSC packets WebSocket clients send;
    ///     nil accepts none.
    ///   - onClose: told when a WebSocket client's session ends.
    ///   - page: a web page's files by path (`index.html`, `app.js`), served
    ///     at `/page/…` and to browsers at `/`; none by default.
    public init(bind: String, port: Int, oscPort: Int, oscTransport: String = "UDP", oscIP: String? = nil,
                name: String, model: any OSCQueryModel, door: AccessDoor, logger: Logger, onPacket: PacketHandler? = nil,
                onClose: @escaping CloseHandler = { _ in }, page: [String: OSCQueryPageFile] = [:],
                listeners: OSCQueryListeners = OSCQueryListeners(), limits: HTTPConnectionLimits = HTTPConnectionLimits()) {
        self.bind = bind
        self.listeners = listeners
        self.limits = limits
        self.requestedPort = port
        self.logger = logger
        self.onPacket = onPacket
        self.onClose = onClose
        gate = OSCQueryAccessGate(model: model, door: door, logger: logger)
        hostName = OSCQueryHostName(name)
        responder = OSCQueryResponder(gate: gate, hostName: hostName, oscIP: oscIP, oscPort: oscPort,
                                      oscTransport: oscTransport, page: page)
    }

    /// The port the server listens on once started (the one picked when 0
    /// was asked for); before that, the port asked for.
    public var port: Int {
        phase.withLock { phase in
            if case .running(_, _, let port) = phase { return port }
            return requestedPort
        }
    }

    /// The host's name in `HOST_INFO` (`NAME`); may be changed while the
    /// server runs (to follow a DNS-SD rename).
    public var name: String {
        get { hostName.name }
        set { hostName.name = newValue }
    }

    /// HTTP requests, WebSocket upgrades and WebSocket set requests refused
    /// by access control.
    public var deniedCount: Int { gate.deniedCount }

    /// WebSocket clients connected now.
    public var webSocketClientCount: Int { listeners.count }

    /// Meter frames not sent because a WebSocket client fell more than
    /// `FrameQueue.byteLimit` bytes behind (the oldest are dropped first).
    public var droppedFrameCount: Int { listeners.droppedCount }

    /// Meter frames dropped for one WebSocket client so far; 0 for any other peer.
    public func droppedFrameCount(for client: OSCPeer) -> Int {
        guard case .webSocket(let id) = client.transport else { return 0 }
        return listeners.droppedCount(for: id)
    }

    /// A parameter changed: sends `message` as a binary OSC frame to every
    /// WebSocket client LISTENing to `message.address`. Callable from any
    /// thread; does not wait for the network.
    public func publish(_ message: OSCMessage) {
        listeners.publish(message)
    }

    /// Sends `packet` as one binary frame to a WebSocket client's session;
    /// false when it has ended (or `client` is not a WebSocket). Callable
    /// from any thread; does not wait for the network.
    /// A `droppable` packet (meters) is the first to make way when the
    /// client falls behind.
    @discardableResult
    public func send(_ packet: OSCPacket, to client: OSCPeer, droppable: Bool = false) -> Bool {
        guard let bytes = OSCCodec.encode(packet) else { return false }
        return send(encoded: bytes, to: client, droppable: droppable)
    }

    /// Sends a packet already encoded (`OSCCodec`) as one binary frame, as `send(_:to:droppable:)` does.
    @discardableResult
    public func send(encoded bytes: [UInt8], to client: OSCPeer, droppable: Bool = false) -> Bool {
        guard case .webSocket(let id) = client.transport else { return false }
        return listeners.send(ByteBuffer(bytes: bytes), to: id, droppable: droppable)
    }

    /// How many more packets of up to `packetSize` bytes feedback may queue
    /// for a WebSocket client now without closing it (half its queue's
    /// bytes are kept for LISTEN values and replies); 0 when it has ended.
    public func room(for client: OSCPeer, packetSize: Int) -> Int {
        guard case .webSocket(let id) = client.transport else { return 0 }
        return listeners.room(for: id, packetSize: packetSize)
    }

    /// Serves `model` from now on, in place of the model in force, and
    /// tells every WebSocket client what changed. Call it after the
    /// controller's size changed, with the model built from it (for the
    /// rig, a fresh `RigNamespace(controller:)`).
    ///
    /// - Every HTTP answer begun after this returns, and every LISTEN, uses
    ///   `model`; an answer already begun finishes with the model it began
    ///   with.
    /// - LISTENs on paths `model`'s namespace does not have (a removed node
    ///   and everything below it) end: no more values are sent for them.
    /// - Every WebSocket client connected now is then sent one text frame
    ///   per path, `{"COMMAND":"PATH_REMOVED","DATA":"/source/9"}` for each
    ///   removed node, then `{"COMMAND":"PATH_ADDED","DATA":"/source/9"}` for
    ///   each added one: only the top-most node of a subtree that went or
    ///   came (`OSCQueryNamespaceChange`), in namespace order, queued after
    ///   the frames already waiting for it.
    ///
    /// Callable from any thread, while running or not; replacements are
    /// made one at a time. It compares the two namespaces (about
    /// 200,000 nodes each at 256x256) on the calling thread: not for a
    /// real-time or per-message path.
    /// - Returns: the paths announced as removed and added.
    @discardableResult
    public func replaceModel(with model: any OSCQueryModel) -> OSCQueryNamespaceChange {
        replacing.withLock { _ in
            let namespace = model.namespace
            let old = gate.replaceModel(with: model)
            let change = OSCQueryNamespaceChange(from: old.namespace, to: namespace)
            guard !change.isEmpty else { return change }
            listeners.endListens { namespace.node(at: $0) == nil }
            listeners.sendToEveryone(change.commands.map(\.json))
            logger.debug("OSCQuery: namespace replaced",
                         metadata: ["removed": "\(change.removed.count)", "added": "\(change.added.count)"])
            return change
        }
    }

    // MARK: Starting and stopping

    /// Starts listening, and returns once the server accepts connections.
    /// Throws if the address cannot be bound or the server was started before.
    public func start() async throws {
        try phase.withLock { phase in
            guard case .idle = phase else { throw OSCQueryServerError.alreadyStarted }
            phase = .starting
        }
        let (started, reportStart) = AsyncStream<Result<Int, any Error>>.makeStream()
        let application = Application(
            responder: responder,
            // Every connection held to the limits first (HTTPConnectionGuard).
            server: HTTPServerBuilder { [webSocketConfiguration, limits] responder in
                GuardedChildChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: webSocketConfiguration,
                                                                        shouldUpgrade: self.upgrade),
                                    limits: limits)
            },
            configuration: ApplicationConfiguration(address: .hostname(bind, port: requestedPort)),
            onServerRunning: { channel in reportStart.yield(.success(channel.localAddress?.port ?? 0)) },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [],
                                                      logger: logger))
        let task = Task {
            do {
                try await group.run()
                reportStart.yield(.failure(OSCQueryServerError.stoppedBeforeListening))
            } catch {
                reportStart.yield(.failure(error))
            }
            reportStart.finish()
        }
        var reports = started.makeAsyncIterator()
        switch await reports.next() ?? .failure(OSCQueryServerError.stoppedBeforeListening) {
        case .success(let port):
            phase.withLock { $0 = .running(group, task, port: port) }
            logger.info("OSCQuery: serving HTTP and WebSocket", metadata: ["address": "\(bind)", "port": "\(port)"])
        case .failure(let error):
            phase.withLock { $0 = .stopped }
            listeners.closeAll()
            await task.value
            if let error = error as? OSCQueryServerError { throw error }
            // NIO's bind error says "bind(descriptor:ptr:bytes:): Address
            // already in use)": the reason is the part after the call.
            let text = "\(error)"
            let reason = text.split(separator: "): ", maxSplits: 1).dropFirst().first
                .flatMap { $0.split(separator: ")").first }.map(String.init) ?? text
            throw OSCQueryServerError.cannotListen(address: bind, port: requestedPort, reason: reason)
        }
    }

    /// Starts listening, blocking the calling thread until the server
    /// accepts connections; for synchronous callers. Throws as `start() async`.
    public func start() throws {
        let outcome = Mutex<Result<Void, any Error>>(.success(()))
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { try await self.start() } catch { outcome.withLock { $0 = .failure(error) } }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }.get()
    }

    /// Closes every WebSocket, stops listening, and returns once the server
    /// has shut down. Does nothing if it is not running.
    public func stop() async {
        let running: (ServiceGroup, Task<Void, Never>)? = phase.withLock { phase in
            guard case .running(let group, let task, _) = phase else { return nil }
            phase = .stopped
            return (group, task)
        }
        guard let (group, task) = running else { return }
        listeners.closeAll()
        await group.triggerGracefulShutdown()
        await task.value
        logger.info("OSCQuery: stopped")
    }

    /// Stops as `stop() async`, blocking the calling thread until done; for
    /// synchronous callers.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await self.stop()
            done.signal()
        }
        done.wait()
    }

    // MARK: WebSocket

    private var webSocketConfiguration: HTTP1WebSocketUpgradeChannel.Configuration {
        HTTP1WebSocketUpgradeChannel.Configuration(
            http1: HTTP1Channel.Configuration(
                idleTimeout: .seconds(60),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.headerSize, maxHeaderListSize: limits.headerSize,
                                                maxHeaderFieldCount: 100)),
            ws: WebSocketServerConfiguration(maxFrameSize: OSCQueryWebSocketSession.maximumMessageSize,
                                             closeTimeout: .seconds(2))
        )
    }

    /// Decides on a WebSocket upgrade: refused for denied clients (counted),
    /// at most read-only for a browser page from another host.
    @Sendable
    private func upgrade(_ request: HTTPRequest, _ channel: any Channel, _ logger: Logger) throws
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let host = channel.remoteAddress?.peerHost ?? "?"
        var access = gate.admit(host, for: "WebSocket upgrade")
        guard access != .denied else { return .dontUpgrade }
        if access == .full, OSCQueryWebSocketSession.isCrossOrigin(request) {
            logger.debug("OSCQuery: cross-origin WebSocket is read-only",
                         metadata: ["host": "\(host)", "origin": "\(request.headerFields[values: .origin])"])
            access = .readOnly
        }
        let session = OSCQueryWebSocketSession(host: host, access: access, gate: gate, listeners: listeners,
                                               onPacket: onPacket, onClose: onClose, logger: self.logger)
        return .upgrade([:]) { inbound, outbound, _ in
            await session.run(inbound: inbound, outbound: outbound)
        }
    }
}
