import Logging
import CLiblo // its headers bring <sys/socket.h>, whose SOCK_* Glibc alone does not show here
import SystemSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Receives OSC over UDP, and over TCP on the same port number, and sends
/// each handler's replies back to the sender from the server's own port.
///
/// The sockets are ours, so that we can bind to one interface and check
/// every sender against its `Admission` before anything is decoded
/// (denied packets are dropped and counted). Each packet is decoded whole
/// with `OSCCodec` and handed to `handler` (a bundle as one value, with its
/// time tag); a malformed one is logged and dropped. The UDP thread and the
/// TCP thread (every connection's, `OSCServer+Streams`) call `handler` on
/// their own: it must be safe to call from two threads at once (the
/// `Controller` serialises itself).
public final class OSCServer: @unchecked Sendable {
    public typealias Handler = @Sendable (OSCPacket, OSCPeer) -> [OSCPacket]
    /// Told when a peer is shown to be gone: a TCP connection closed or cut
    /// off, or a UDP destination that answered a send with ICMP "port
    /// unreachable" (nothing listens there any more).
    public typealias Departure = @Sendable (OSCPeer) -> Void

    public struct Options: Sendable {
        /// Address to listen on: "0.0.0.0" (every IPv4 interface), "::" (IPv4 and IPv6), or one address.
        public var bind = "0.0.0.0"
        /// UDP and TCP port; 0 picks a free one.
        public var port = 9000
        public var tcp = true
        /// A TCP connection that sends no whole packet for this long is
        /// closed; nil: never (`serve --tcp-idle-timeout`).
        public var tcpIdleTimeout: Duration? = .seconds(60)
        public init() {}
    }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: Int
    public let options: Options
    /// Who is let in (the rig's access policy, which its rules and their
    /// reload replace), asked before anything is decoded.
    public let admission: any Admission
    /// What goes wrong below the controller (malformed packets, connections
    /// refused), in the rig's log like everything else.
    let logger: Logger
    private let udp: Int32
    let tcpListener: Int32?
    // Set once by start(), before any thread reads it.
    private var handler: Handler = { _, _ in [] }
    var departure: Departure = { _ in }
    /// At most this many TCP connections at once, and from one host.
    public static let connectionLimit = 64
    public static let hostConnectionLimit = 16
    /// The send buffer asked of the kernel for a TCP connection (`SO_SNDBUF`, doubled by the kernel).
    static let sendBuffer: Int32 = 128 * 1024
    /// A TCP packet must arrive whole within this long of its first byte.
    public static let packetTimeout = Duration.seconds(10)
    /// A TCP client that takes more than this to accept a write is cut off.
    static let writeTimeout = timeval(tv_sec: 0, tv_usec: 200_000)
    let connections = Mutex<[Int: Connection]>([:])
    let nextConnection = Atomic<Int>(1)
    let running = Atomic<Bool>(false)
    let deniedPackets = Atomic<Int>(0)
    /// Invalid packets are logged once a second per host, with a count.
    private let invalidPackets = LinePace()
    private var threads: [Thread] = []

    final class Connection: @unchecked Sendable {
        let socket: Int32
        /// Held while writing, so that packets never interleave; holds the
        /// framing replies go in, the client's own, set from its first byte
        /// before anything can be sent to it; nil once the socket is closed,
        /// which happens under it too (a closed descriptor's number is soon
        /// another file's: nothing may be written to it after).
        let output = Mutex<StreamFraming?>(.lengthPrefixed)
        init(socket: Int32) { self.socket = socket }
    }

    /// Opens the sockets (so a port in use is reported at once); `start`
    /// begins receiving.
    public init(options: Options, admission: any Admission, logger: Logger = Logger(label: "crosspoint.osc")) throws {
        self.options = options
        self.logger = logger
        self.admission = admission
        guard let local = SocketAddress.resolve(host: options.bind, port: options.port) else {
            throw StartError(description: "cannot listen on \(options.bind): not an address of this machine")
        }
        // With port 0 the kernel picks a free UDP port, whose number may be
        // taken for TCP: then another pair is tried.
        var attempts = options.port == 0 ? 20 : 1
        var opened: (Int32, Int, Int32?)?
        while opened == nil {
            attempts -= 1
            do {
                opened = try Self.openPorts(local, tcp: options.tcp)
            } catch where attempts > 0 {
                continue
            }
        }
        guard let opened else { throw StartError(description: "cannot open the OSC ports") }
        (udp, port, tcpListener) = opened
    }

    deinit {
        stop()
        close(udp)
        tcpListener.map { _ = close($0) }
    }

    /// The UDP socket, its port, and the TCP listener on the same port number.
    private static func openPorts(_ local: SocketAddress, tcp: Bool) throws -> (Int32, Int, Int32?) {
        let udp = try openSocket(local, type: SOCK_DGRAM)
        // Room for bursts while the handler is busy: 4 MiB (the kernel caps it at net.core.rmem_max).
        var buffer: Int32 = 4 << 20
        setsockopt(udp, SOL_SOCKET, SO_RCVBUF, &buffer, socklen_t(MemoryLayout<Int32>.size))
        // ICMP errors for our sends are queued on the socket with the
        // destination that caused them (ip(7), IP_RECVERR): how a
        // subscriber that has gone away is noticed (`readErrors`).
        var on: Int32 = 1
        if local.family == AF_INET6 {
            setsockopt(udp, Int32(IPPROTO_IPV6), IPV6_RECVERR, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        setsockopt(udp, Int32(IPPROTO_IP), IP_RECVERR, &on, socklen_t(MemoryLayout<Int32>.size))
        var length = socklen_t(128)
        var storage = [UInt8](repeating: 0, count: 128)
        let bound = storage.withUnsafeMutableBytes { raw in
            _ = getsockname(udp, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
            return SocketAddress(raw.baseAddress!, length: length)
        }
        guard tcp else { return (udp, bound.port, nil) }
        do {
            let listener = try openSocket(local.with(port: bound.port), type: SOCK_STREAM)
            guard listen(listener, 16) == 0 else {
                close(listener)
                throw StartError(description: "cannot listen for OSC on TCP port \(bound.port)")
            }
            return (udp, bound.port, listener)
        } catch {
            close(udp)
            throw error
        }
    }

    private static func openSocket(_ address: SocketAddress, type: __socket_type) throws -> Int32 {
        let fd = socket(address.family, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "cannot open a socket") }
        var yes: Int32 = 1
        if type == SOCK_STREAM { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        if address.family == AF_INET6 {
            var no: Int32 = 0 // "::" takes IPv4 too
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
        }
        let ok = address.withSockaddr { bind(fd, $0, $1) } == 0
        guard ok else {
            let inUse = errno == EADDRINUSE
            let reason = String(cString: strerror(errno))
            close(fd)
            let kind = type == SOCK_DGRAM ? "UDP" : "TCP"
            let hint = inUse ? " (another rig or program has it: --osc-port P\(type == SOCK_STREAM ? ", or --no-tcp" : ""))" : ""
            throw StartError(description: "cannot listen for OSC on \(kind) \(address): \(reason)\(hint)")
        }
        return fd
    }

    /// Starts the receiving threads. Every packet goes to `handler`, whose
    /// replies go back to the sender; peers shown to be gone go to `departure`.
    public func start(handler: @escaping Handler, departure: @escaping Departure = { _ in }) {
        guard !running.load(ordering: .sequentiallyConsistent) else { return }
        self.handler = handler
        self.departure = departure
        running.store(true, ordering: .sequentiallyConsistent)
        let udpThread = Thread { [self] in receiveDatagrams() }
        udpThread.name = "osc-udp"
        udpThread.start()
        threads.append(udpThread)
        if tcpListener != nil {
            let tcpThread = Thread { [self] in serveStreams() }
            tcpThread.name = "osc-tcp"
            tcpThread.start()
            threads.append(tcpThread)
        }
    }

    /// Stops receiving (within 0.2 s) and closes TCP connections.
    public func stop() {
        guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
        for thread in threads { while !thread.isFinished { usleep(5_000) } }
        threads.removeAll()
        for connection in connections.withLock({ c in defer { c.removeAll() }; return Array(c.values) }) {
            connection.output.withLock { if $0 != nil { shutdown(connection.socket, Int32(SHUT_RDWR)) } }
        }
    }

    /// Packets dropped because their sender is not allowed.
    public var denied: Int { deniedPackets.load(ordering: .relaxed) }

    // MARK: - Sending

    /// Sends a packet to a peer: from our UDP port, or on its TCP connection.
    @discardableResult
    public func send(_ packet: OSCPacket, to peer: OSCPeer) -> Bool {
        guard let bytes = OSCCodec.encode(packet) else { return false }
        return send(encoded: bytes, to: peer)
    }

    /// Sends a packet already encoded (`OSCCodec`): feedback encodes each
    /// bundle once for every subscriber it goes to.
    @discardableResult
    public func send(encoded bytes: [UInt8], to peer: OSCPeer) -> Bool {
        switch peer.transport {
        case .udp:
            // An ICMP error for an earlier send to someone else (IP_RECVERR)
            // is reported once, by whichever call comes next: that send did
            // not go out, so it goes again. The error waits in the queue for
            // `readErrors`.
            var waited = false
            for _ in 0..<4 {
                let sent = bytes.withUnsafeBytes { data in
                    peer.address.withSockaddr { sendto(udp, data.baseAddress, data.count, Int32(MSG_DONTWAIT), $0, $1) }
                }
                if sent == bytes.count { return true }
                guard sent < 0 else { return false }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // The send buffer is full (a burst to a slow link): wait
                    // for room once, 10 ms at most, rather than drop the
                    // datagram; the threads that send here serve everyone.
                    guard !waited else { return false }
                    waited = true
                    var descriptor = pollfd(fd: udp, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 10)
                    continue
                }
                guard [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN].contains(errno) else { return false }
            }
            return false
        case .tcp(let id):
            guard let connection = connections.withLock({ $0[id] }) else { return false }
            return connection.output.withLock { framing in
                guard let framing else { return false }
                let written = Self.writeAll(connection.socket, framing.frame(bytes))
                // Too slow to read (or gone): cut it off rather than stall everyone.
                if !written { shutdown(connection.socket, Int32(SHUT_RDWR)) }
                return written
            }
        case .webSocket, .surface:
            return false // not ours: the OSCQuery server's, or a MIDI controller's
        }
    }

    /// How many packets of up to `packetSize` bytes (framing aside) a TCP
    /// peer's connection takes now without waiting: the room left in its
    /// socket's send buffer (the kernel's buffer size, halved for its own
    /// bookkeeping, less the bytes the client has not yet taken). 0 for a
    /// connection gone, or a peer that is not a TCP one.
    public func room(for peer: OSCPeer, packetSize: Int) -> Int {
        guard case .tcp(let id) = peer.transport, let connection = connections.withLock({ $0[id] }) else { return 0 }
        return connection.output.withLock { framing -> Int in
            guard framing != nil else { return 0 }
            var buffer: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            var queued: Int32 = 0
            guard getsockopt(connection.socket, SOL_SOCKET, SO_SNDBUF, &buffer, &length) == 0,
                  ioctl(connection.socket, UInt(TIOCOUTQ), &queued) == 0 else { return 0 }
            return max(0, Int(buffer) / 2 - Int(queued)) / max(1, packetSize)
        }
    }

    // MARK: - Receiving

    /// Reads datagrams until the socket is empty, and only then waits: under
    /// load every datagram costs one system call, not two.
    private func receiveDatagrams() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 128, alignment: 8)
        defer { buffer.deallocate(); storage.deallocate() }
        let sender = storage.baseAddress!.assumingMemoryBound(to: sockaddr.self)
        // A surface sends many datagrams in a row: its address and access are
        // worked out once (again when the rules change).
        var last: OSCPeer?
        var lastGeneration = admission.generation
        while running.load(ordering: .relaxed) {
            var length = socklen_t(storage.count)
            let count = recvfrom(udp, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT), sender, &length)
            guard count > 0 else {
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    // Errors queued for our sends wake `poll` (POLLERR) until read:
                    // whichever call met the error first (a send on another
                    // thread, often), the queue is emptied here.
                    if waitForDatagramsOrErrors() { readErrors() }
                } else if count < 0 {
                    // An ICMP error for one of our sends (ECONNREFUSED and the like).
                    readErrors()
                }
                continue
            }
            let peer: OSCPeer
            let generation = admission.generation
            if let last, generation == lastGeneration, last.address.isSame(as: sender, length: length) {
                peer = last
            } else {
                let address = SocketAddress(sender, length: length)
                peer = OSCPeer(address: address, transport: .udp, access: admission.access(for: address.ipBytes))
                last = peer
                lastGeneration = generation
            }
            guard peer.access != .denied else { deniedPackets.add(1, ordering: .relaxed); continue }
            handle(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), from: peer)
        }
    }

    /// Empties the socket's error queue (it must be emptied, or `poll` keeps
    /// reporting it). A destination that answered "port unreachable" is gone;
    /// other errors (a host unreachable while Wi-Fi drops) may pass, and
    /// are let be.
    private func readErrors() {
        var name = [UInt8](repeating: 0, count: 128)
        var control = [UInt8](repeating: 0, count: 512)
        var payload = [UInt8](repeating: 0, count: 64)
        while true {
            let (count, nameLength, refused) = name.withUnsafeMutableBytes { nameBytes in
                control.withUnsafeMutableBytes { controlBytes in
                    payload.withUnsafeMutableBytes { payloadBytes in
                        var vector = iovec(iov_base: payloadBytes.baseAddress, iov_len: payloadBytes.count)
                        return withUnsafeMutablePointer(to: &vector) { vector in
                            var header = msghdr()
                            header.msg_name = nameBytes.baseAddress
                            header.msg_namelen = socklen_t(nameBytes.count)
                            header.msg_iov = vector
                            header.msg_iovlen = 1
                            header.msg_control = controlBytes.baseAddress
                            header.msg_controllen = controlBytes.count
                            let count = recvmsg(udp, &header, Int32(MSG_ERRQUEUE) | Int32(MSG_DONTWAIT))
                            return (count, header.msg_namelen, count >= 0 && Self.isPortUnreachable(header))
                        }
                    }
                }
            }
            guard count >= 0 else { return }
            guard refused, nameLength > 0 else { continue }
            let destination = name.withUnsafeBytes { SocketAddress($0.baseAddress!, length: nameLength) }
            departure(OSCPeer(address: destination, transport: .udp, access: admission.access(for: destination.ipBytes)))
        }
    }

    /// Whether a message from the error queue reports ECONNREFUSED: its
    /// `sock_extended_err` (linux/errqueue.h) begins with `ee_errno`.
    private static func isPortUnreachable(_ header: msghdr) -> Bool {
        guard header.msg_controllen >= MemoryLayout<cmsghdr>.size, let control = header.msg_control else { return false }
        let message = control.loadUnaligned(as: cmsghdr.self)
        let isError = (message.cmsg_level == Int32(IPPROTO_IP) && message.cmsg_type == IP_RECVERR)
            || (message.cmsg_level == Int32(IPPROTO_IPV6) && message.cmsg_type == IPV6_RECVERR)
        guard isError, message.cmsg_len >= MemoryLayout<cmsghdr>.size + 4 else { return false }
        let errorNumber = control.loadUnaligned(fromByteOffset: MemoryLayout<cmsghdr>.size, as: UInt32.self)
        return errorNumber == UInt32(ECONNREFUSED)
    }

    /// Waits up to 0.2 s for the UDP socket; whether errors are queued on it.
    private func waitForDatagramsOrErrors() -> Bool {
        var descriptor = pollfd(fd: udp, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 200) > 0 && descriptor.revents & Int16(POLLERR) != 0
    }

    /// Decodes one packet and sends the handler's replies back; a packet
    /// that is not valid OSC is logged and dropped.
    func handle(_ bytes: UnsafeRawBufferPointer, from peer: OSCPeer) {
        guard !bytes.isEmpty else { return }
        let packet: OSCPacket
        do {
            packet = try OSCCodec.decode(bytes)
        } catch {
            // One line a second per host, however many arrive.
            guard let held = invalidPackets.admit(peer.host) else { return }
            let more = held > 0 ? "; \(held) more from this host since the last line" : ""
            logger.warning("\(peer): not a valid OSC packet (\(bytes.count) bytes: \("\(error)".cut())), dropped\(more)")
            return
        }
        for reply in handler(packet, peer) { send(reply, to: peer) }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
