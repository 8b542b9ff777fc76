import Access
import Logging
import CLiblo // its headers bring <sys/socket.h>, whose SOCK_* Glibc alone does not show here
import SystemSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// OSC over TCP: connections accepted (the access policy asked, at most
/// `Options.maxConnections`), each read on a thread of its own, its packets
/// cut out by the framing its first byte chooses (OSC 1.0's length prefix or
/// OSC 1.1's SLIP), handled like datagrams and answered on the connection.
extension OSCServer {
    func acceptConnections() {
        guard let listener = tcpListener else { return }
        while running.load(ordering: .relaxed) {
            guard wait(for: listener) else { continue }
            var storage = [UInt8](repeating: 0, count: 128)
            var length = socklen_t(storage.count)
            let fd = storage.withUnsafeMutableBytes { raw in
                accept(listener, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
            }
            guard fd >= 0 else { continue }
            let address = storage.withUnsafeBytes { SocketAddress($0.baseAddress!, length: length) }
            let access = door.access(for: address.ipBytes)
            guard access != .denied else {
                deniedPackets.add(1, ordering: .relaxed)
                close(fd)
                continue
            }
            guard connections.withLock({ $0.count }) < Self.connectionLimit else {
                logger.warning("\(address): more than \(Self.connectionLimit) TCP connections; refused")
                close(fd)
                continue
            }
            var timeout = Self.writeTimeout
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let id = nextConnection.add(1, ordering: .relaxed).oldValue
            let connection = Connection(socket: fd)
            connections.withLock { $0[id] = connection }
            let peer = OSCPeer(address: address, transport: .tcp(id), access: access)
            let reader = Thread { [self] in readStream(connection, peer: peer, id: id) }
            reader.name = "osc-tcp-\(id)"
            reader.start()
        }
    }

    /// A TCP stream carries packets in OSC 1.0's framing (each prefixed by
    /// its length, as liblo sends them) or OSC 1.1's (SLIP, as TouchOSC and
    /// QLab send them), told apart by the first byte. Either way a packet
    /// over 64 KiB closes the connection: the client is not speaking OSC, or
    /// would take unbounded memory.
    private func readStream(_ connection: Connection, peer: OSCPeer, id: Int) {
        var peer = peer
        var generation = door.generation
        let fd = connection.socket
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        defer {
            chunk.deallocate()
            connections.withLock { _ = $0.removeValue(forKey: id) }
            connection.output.withLock { framing in
                framing = nil
                close(fd)
            }
            departure(peer)
        }
        var framing: StreamFraming?
        var lengthPrefixed = LengthPrefixDecoder()
        var slip = SLIPDecoder()
        while running.load(ordering: .relaxed) {
            guard wait(for: fd) else { continue }
            let count = recv(fd, chunk.baseAddress, chunk.count, 0)
            guard count > 0 else { return }
            // Rules reloaded since the connection opened: its access is asked again.
            if generation != door.generation {
                generation = door.generation
                peer.access = door.access(for: peer.address.ipBytes)
                guard peer.access != .denied else { return }
            }
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
            let current: StreamFraming
            if let framing {
                current = framing
            } else {
                // Set before the first packet is handled, so that every reply goes back in kind.
                current = StreamFraming(firstByte: bytes[0])
                connection.output.withLock { $0 = current }
                framing = current
            }
            let keepOpen = switch current {
            case .slip: read(bytes, with: &slip, from: peer)
            case .lengthPrefixed: read(bytes, with: &lengthPrefixed, from: peer)
            }
            guard keepOpen else { return }
        }
    }

    /// Handles the packets `bytes` complete; false if the connection must close.
    private func read(_ bytes: UnsafeRawBufferPointer, with decoder: inout SLIPDecoder, from peer: OSCPeer) -> Bool {
        do {
            try decoder.decode(bytes) { event in
                switch event {
                case .packet(let packet):
                    handle(packet, from: peer)
                case .badEscape(let byte):
                    logger.warning("\(peer): SLIP escape 0xDB followed by \(Self.hex(byte)), frame dropped")
                }
            }
            return true
        } catch {
            logger.warning("\(peer): SLIP frame over \(decoder.limit) bytes refused; closing")
            return false
        }
    }

    /// Handles the packets `bytes` complete; false if the connection must close.
    private func read(_ bytes: UnsafeRawBufferPointer, with decoder: inout LengthPrefixDecoder,
                      from peer: OSCPeer) -> Bool {
        do {
            try decoder.decode(bytes) { handle($0, from: peer) }
            return true
        } catch {
            switch error {
            case .packetTooLong(let size): logger.warning("\(peer): TCP packet of \(size) bytes refused; closing")
            }
            return false
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }
}
