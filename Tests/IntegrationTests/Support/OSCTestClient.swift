#if canImport(Glibc)
import Glibc
#endif
import OSC
import Synchronization

/// A real OSC-over-UDP client for integration tests: a tablet, a lighting
/// desk, or a misbehaving script, from the mixer's point of view.
///
/// One UDP socket, bound to a chosen local address (`127.0.0.1` by default,
/// any `127.x.y.z` to look like a different host) and an ephemeral port,
/// sends everything, so the server sees one consistent sender and replies to
/// it; the same socket collects the replies.
///
/// The oracle (Tests/OSCOracle) encodes and decodes the messages, not the
/// product's codec, so that the two are checked against each other. The
/// socket is plain POSIX: it binds to a chosen local address, and
/// ``sendRaw(_:)`` sends datagrams no encoder would build.
///
/// Received messages wait in an inbox until a test takes them:
/// ``receive(timeout:)`` takes everything, ``waitFor(address:timeout:where:)``
/// takes the first match and leaves the rest.
public final class OSCTestClient: @unchecked Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case cannotResolve(String)
        case socketError(String, errno: Int32)
        case closed
        case timedOut(waitingFor: String, received: [ReceivedMessage])

        public var description: String {
            switch self {
            case .cannotResolve(let what): "cannot resolve \(what)"
            case .socketError(let what, let code): "\(what): \(String(cString: strerror(code)))"
            case .closed: "the OSC client is closed"
            case .timedOut(let what, let received):
                "timed out waiting for \(what); received meanwhile:\n"
                    + (received.isEmpty ? "  (nothing)" : received.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
    }

    /// The address and port the client's socket is bound to: where replies
    /// must go.
    public let localEndpoint: Endpoint

    /// Where ``send(_:_:)`` and friends send by default.
    public var target: Endpoint {
        get { state.withLock { $0.target } }
        set {
            // Resolution errors surface on the next send.
            let resolved = try? Self.resolve(newValue, family: family)
            state.withLock {
                $0.target = newValue
                $0.targetAddress = resolved
            }
        }
    }

    private struct State {
        var socket: Int32
        var target: Endpoint
        var targetAddress: SocketAddress?
        var inbox: [ReceivedMessage] = []
        var rejected: [[UInt8]] = []
    }

    private let state: Mutex<State>
    private let family: Int32

    /// Binds a UDP socket on `bindHost:bindPort` (port 0: any free port).
    ///
    /// - Parameters:
    ///   - target: where messages go by default (see ``target``).
    ///   - bindHost: a local numeric address; `127.0.0.2` and so on work on
    ///     Linux without configuration and look like other machines.
    public init(target: Endpoint, bindHost: String = "127.0.0.1", bindPort: Int = 0) throws {
        let local = try Self.resolve(Endpoint(host: bindHost, port: bindPort), family: AF_UNSPEC, passive: true)
        let descriptor = socket(local.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.socketError("socket", errno: errno) }
        do {
            // Room for a burst of feedback while the test is busy elsewhere.
            var bufferSize: Int32 = 4 << 20
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bufferSize, socklen_t(MemoryLayout<Int32>.size))
            try local.withSockaddr { address, length in
                guard bind(descriptor, address, length) == 0 else {
                    throw Failure.socketError("bind \(bindHost):\(bindPort)", errno: errno)
                }
            }
            var bound = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0 else { throw Failure.socketError("getsockname", errno: errno) }
            let localAddress = SocketAddress(storage: bound, length: length)
            self.localEndpoint = localAddress.endpoint ?? Endpoint(host: bindHost, port: bindPort)
            self.family = local.family
            let targetAddress = try Self.resolve(target, family: local.family)
            self.state = Mutex(State(socket: descriptor, target: target, targetAddress: targetAddress))
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    deinit {
        close()
    }

    /// Closes the socket. Idempotent.
    public func close() {
        state.withLock { state in
            if state.socket >= 0 { Glibc.close(state.socket) }
            state.socket = -1
        }
    }

    // MARK: Sending

    /// Sends one message to ``target``.
    public func send(_ address: String, _ arguments: Argument...) throws {
        try send(.message(Message(address, arguments: arguments)))
    }

    /// Sends one message to ``target``.
    public func send(_ address: String, arguments: [Argument]) throws {
        try send(.message(Message(address, arguments: arguments)))
    }

    /// Sends one message to ``target``.
    public func send(_ message: Message) throws {
        try send(.message(message))
    }

    /// Sends the messages as one bundle.
    public func sendBundle(_ messages: [Message], timeTag: TimeTag = .immediately) throws {
        try send(.bundle(timeTag, messages.map { .message($0) }))
    }

    /// Sends a message or a (possibly nested) bundle, to ``target`` or to
    /// `destination`.
    public func send(_ packet: Packet, to destination: Endpoint? = nil) throws {
        try sendRaw(Self.encode(packet), to: destination)
    }

    /// Sends `bytes` as one datagram, unchecked: for malformed packets.
    public func sendRaw(_ bytes: [UInt8], to destination: Endpoint? = nil) throws {
        let explicitAddress = try destination.map { try Self.resolve($0, family: family) }
        try state.withLock { state in
            guard state.socket >= 0 else { throw Failure.closed }
            guard let address = explicitAddress ?? state.targetAddress else {
                throw Failure.cannotResolve("\(state.target)")
            }
            let sent = bytes.withUnsafeBytes { buffer in
                address.withSockaddr { sockaddr, length in
                    sendto(state.socket, buffer.baseAddress, buffer.count, 0, sockaddr, length)
                }
            }
            guard sent == bytes.count else {
                throw Failure.socketError("sendto \(destination ?? state.target)", errno: errno)
            }
        }
    }

    // MARK: Receiving

    /// Takes everything in the inbox, first waiting up to `timeout` for
    /// something to arrive if it is empty. Messages inside bundles come out
    /// one by one, in order.
    public func receive(timeout: Duration = .seconds(1)) async throws -> [ReceivedMessage] {
        let deadline = ContinuousClock.now + timeout
        try pump(waitingUpTo: .zero)
        while inboxIsEmpty, ContinuousClock.now < deadline {
            try pump(waitingUpTo: min(.milliseconds(10), deadline - ContinuousClock.now))
            await Task.yield()
        }
        return takeAll()
    }

    /// Collects what arrives until nothing more comes for `quiet`, once
    /// something has come (at most `limit`): a full state, whole.
    public func collectUntilQuiet(_ quiet: Duration = .milliseconds(500),
                                  limit: Duration = .seconds(60)) async throws -> [ReceivedMessage] {
        var received: [ReceivedMessage] = []
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let more = try await collect(for: quiet)
            if more.isEmpty && !received.isEmpty { break }
            received += more
        }
        return received
    }

    /// Collects everything that arrives during `duration` (plus what was
    /// already in the inbox): for "no reply" and rate checks.
    public func collect(for duration: Duration) async throws -> [ReceivedMessage] {
        let deadline = ContinuousClock.now + duration
        repeat {
            try pump(waitingUpTo: min(.milliseconds(10), max(.zero, deadline - ContinuousClock.now)))
            await Task.yield()
        } while ContinuousClock.now < deadline
        return takeAll()
    }

    /// Waits for the first message with this exact address (and matching
    /// `predicate`), takes it from the inbox and returns it. Other messages
    /// stay in the inbox.
    @discardableResult
    public func waitFor(
        address: String,
        timeout: Duration = .seconds(2),
        where predicate: (ReceivedMessage) -> Bool = { _ in true }
    ) async throws -> ReceivedMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            try pump(waitingUpTo: .zero)
            let found = state.withLock { state -> ReceivedMessage? in
                guard let index = state.inbox.firstIndex(where: { $0.address == address && predicate($0) }) else {
                    return nil
                }
                return state.inbox.remove(at: index)
            }
            if let found { return found }
            let now = ContinuousClock.now
            if now >= deadline {
                throw Failure.timedOut(waitingFor: address, received: state.withLock { $0.inbox })
            }
            try pump(waitingUpTo: min(.milliseconds(10), deadline - now))
            await Task.yield()
        }
    }

    /// Reads whatever has arrived, without waiting, and takes the inbox.
    public func drain() throws -> [ReceivedMessage] {
        try pump(waitingUpTo: .zero)
        return takeAll()
    }

    /// Datagrams that were not valid OSC, oldest first (taken, not copied).
    public func takeRejectedDatagrams() -> [[UInt8]] {
        state.withLock { state in
            defer { state.rejected.removeAll() }
            return state.rejected
        }
    }

    // MARK: Private

    private var inboxIsEmpty: Bool { state.withLock { $0.inbox.isEmpty } }

    private func takeAll() -> [ReceivedMessage] {
        state.withLock { state in
            defer { state.inbox.removeAll() }
            return state.inbox
        }
    }

    /// Waits up to `timeout` for the socket to become readable, then reads
    /// every datagram waiting, without blocking, into the inbox.
    private func pump(waitingUpTo timeout: Duration) throws {
        let milliseconds = Int32(clamping: max(0, timeout.components.seconds * 1000
                                                + timeout.components.attoseconds / 1_000_000_000_000_000))
        try state.withLock { state in
            guard state.socket >= 0 else { throw Failure.closed }
            var descriptor = pollfd(fd: state.socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, milliseconds) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                var sender = sockaddr_storage()
                var senderLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let count = buffer.withUnsafeMutableBytes { bytes in
                    withUnsafeMutablePointer(to: &sender) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            recvfrom(state.socket, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, &senderLength)
                        }
                    }
                }
                guard count >= 0 else { return }  // EAGAIN: nothing more for now
                let now = ContinuousClock.now
                let datagram = Array(buffer[..<count])
                let from = SocketAddress(storage: sender, length: senderLength).endpoint ?? Endpoint(host: "?", port: 0)
                if let messages = Self.decode(datagram: datagram, sender: from, receivedAt: now) {
                    state.inbox.append(contentsOf: messages)
                } else {
                    state.rejected.append(datagram)
                }
            }
        }
    }

    private static func resolve(_ endpoint: Endpoint, family: Int32, passive: Bool = false) throws -> SocketAddress {
        var hints = addrinfo()
        hints.ai_family = family
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, "\(endpoint.port)", &hints, &list) == 0, let first = list else {
            throw Failure.cannotResolve("\(endpoint)")
        }
        defer { freeaddrinfo(list) }
        guard let address = first.pointee.ai_addr else { throw Failure.cannotResolve("\(endpoint)") }
        var storage = sockaddr_storage()
        let length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) { destination in
            destination.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
        }
        return SocketAddress(storage: storage, length: length)
    }
}
