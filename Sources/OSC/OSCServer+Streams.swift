import Logging
import CLiblo // its headers bring <sys/socket.h>, whose SOCK_* Glibc alone does not show here
import SystemSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// OSC over TCP, served by one thread (`osc-tcp`) that polls the listener
/// and every connection, as the UDP thread serves its socket: connections
/// accepted (the access policy asked, at most `hostConnectionLimit` from one
/// host and `connectionLimit` in all), each one's packets cut out by the
/// framing its first byte chooses (`TCPStream`), handled like datagrams and
/// answered on the connection. A connection that sends no whole packet for
/// `Options.tcpIdleTimeout`, or takes more than `packetTimeout` to finish a
/// packet it began, is closed. Replies are written by whichever thread
/// sends them, as before (`send(_:to:)`, under the connection's lock).
extension OSCServer {
    func serveStreams() {
        guard let listener = tcpListener else { return }
        var streams: [Int32: TCPStream] = [:]
        var hosts = TCPConnectionCount(perHost: Self.hostConnectionLimit, total: Self.connectionLimit)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        var descriptors: [pollfd] = []
        defer {
            chunk.deallocate()
            for fd in Array(streams.keys) { closeStream(fd, in: &streams, hosts: &hosts) }
        }
        while running.load(ordering: .relaxed) {
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            for fd in streams.keys { descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            // Woken at least every 0.1 s: the time limits and `stop()` are noticed within that.
            guard poll(&descriptors, nfds_t(descriptors.count), 100) >= 0 else { continue }
            let now = ContinuousClock.now
            for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
                guard var stream = streams[descriptor.fd] else { continue }
                let keepOpen = read(&stream, from: descriptor.fd, into: chunk, at: now)
                streams[descriptor.fd] = stream
                if !keepOpen { closeStream(descriptor.fd, in: &streams, hosts: &hosts) }
            }
            if descriptors[0].revents != 0 { acceptConnection(listener, into: &streams, hosts: &hosts, at: now) }
            for (fd, stream) in streams {
                guard let reason = stream.expiry(at: now, idle: options.tcpIdleTimeout, slow: Self.packetTimeout) else { continue }
                logger.info("\(stream.peer): \(reason); closing")
                closeStream(fd, in: &streams, hosts: &hosts)
            }
        }
    }

    /// Accepts one waiting connection, or closes it at once if its host may
    /// not connect or is at a limit.
    private func acceptConnection(_ listener: Int32, into streams: inout [Int32: TCPStream],
                                  hosts: inout TCPConnectionCount, at now: ContinuousClock.Instant) {
        var storage = [UInt8](repeating: 0, count: 128)
        var length = socklen_t(storage.count)
        let fd = storage.withUnsafeMutableBytes { raw in
            accept(listener, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard fd >= 0 else { return }
        let address = storage.withUnsafeBytes { SocketAddress($0.baseAddress!, length: length) }
        let access = admission.access(for: address.ipBytes)
        guard access != .denied else {
            deniedPackets.add(1, ordering: .relaxed)
            close(fd)
            return
        }
        let host = address.hostKey
        if case .refused(let reason) = hosts.admit(host) {
            if let reason { logger.warning("\(address): \(reason); refused (and others like it until one closes)") }
            close(fd)
            return
        }
        var timeout = Self.writeTimeout
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A fixed send buffer (the kernel doubles it): what waits for one
        // client stays bounded, rather than grown to 4 MiB for one that does not read.
        var buffer = Self.sendBuffer
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buffer, socklen_t(MemoryLayout<Int32>.size))
        let id = nextConnection.add(1, ordering: .relaxed).oldValue
        let connection = Connection(socket: fd)
        connections.withLock { $0[id] = connection }
        let peer = OSCPeer(address: address, transport: .tcp(id), access: access)
        streams[fd] = TCPStream(connection: connection, id: id, peer: peer, generation: admission.generation, now: now)
    }

    /// Reads what has arrived on a connection and handles the packets it
    /// completes; false if the connection must close (closed by the client,
    /// no longer let in, or not speaking OSC).
    private func read(_ stream: inout TCPStream, from fd: Int32, into chunk: UnsafeMutableRawBufferPointer,
                      at now: ContinuousClock.Instant) -> Bool {
        let count = recv(fd, chunk.baseAddress, chunk.count, Int32(MSG_DONTWAIT))
        guard count != 0 else { return false }
        guard count > 0 else { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
        // Rules reloaded since the connection opened: its access is asked again.
        if stream.generation != admission.generation {
            stream.generation = admission.generation
            stream.peer.access = admission.access(for: stream.peer.address.ipBytes)
            guard stream.peer.access != .denied else { return false }
        }
        let peer = stream.peer
        return stream.read(UnsafeRawBufferPointer(rebasing: chunk[0..<count]), at: now, logger: logger) {
            handle($0, from: peer)
        }
    }

    /// Closes a connection: nothing is written to it after (its descriptor
    /// is closed under its lock), and its peer is told gone.
    private func closeStream(_ fd: Int32, in streams: inout [Int32: TCPStream], hosts: inout TCPConnectionCount) {
        guard let stream = streams.removeValue(forKey: fd) else { return }
        connections.withLock { _ = $0.removeValue(forKey: stream.id) }
        stream.connection.output.withLock { framing in
            framing = nil
            close(fd)
        }
        hosts.release(stream.host)
        departure(stream.peer)
    }
}
