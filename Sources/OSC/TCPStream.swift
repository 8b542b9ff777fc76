import Logging

/// What the TCP loop (`OSCServer+Streams`) keeps for one connection: its
/// peer, the framing its first byte chose and that framing's decoder, and
/// the times its limits are measured from. Touched by the loop's thread only.
struct TCPStream {
    let connection: OSCServer.Connection
    let id: Int
    var peer: OSCPeer
    /// The access rules' generation `peer.access` was asked under.
    var generation: Int
    /// The host it counts against (`SocketAddress.hostKey`).
    let host: [UInt8]
    private var framing: StreamFraming?
    private var lengthPrefixed = LengthPrefixDecoder()
    private var slip = SLIPDecoder()
    /// When the connection opened or last completed a packet.
    private(set) var lastPacket: ContinuousClock.Instant
    /// When the packet under way (begun, not yet whole) began; nil between packets.
    private(set) var packetBegan: ContinuousClock.Instant?

    init(connection: OSCServer.Connection, id: Int, peer: OSCPeer, generation: Int, now: ContinuousClock.Instant) {
        self.connection = connection
        self.id = id
        self.peer = peer
        self.generation = generation
        host = peer.address.hostKey
        lastPacket = now
    }

    /// Why the connection must close at `now`, if a limit has passed: no
    /// whole packet for `idle` (nil: no such limit), or a packet under way
    /// for `slow`.
    func expiry(at now: ContinuousClock.Instant, idle: Duration?, slow: Duration) -> String? {
        if let began = packetBegan, now - began > slow { return "no whole packet within \(slow) of its first byte" }
        if let idle, now - lastPacket > idle { return "no packet for \(idle)" }
        return nil
    }

    /// Reads `bytes` as the stream's next, handing each packet they complete
    /// to `handle`; false if the connection must close (a packet over the limit).
    mutating func read(_ bytes: UnsafeRawBufferPointer, at now: ContinuousClock.Instant, logger: Logger,
                       handle: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard let first = bytes.first else { return true }
        let current: StreamFraming
        if let framing {
            current = framing
        } else {
            // Set before the first packet is handled, so that every reply goes back in kind.
            current = StreamFraming(firstByte: first)
            connection.output.withLock { $0 = current }
            framing = current
        }
        var completed = false
        let keepOpen = switch current {
        case .slip: Self.read(bytes, with: &slip, from: peer, logger: logger) { completed = true; handle($0) }
        case .lengthPrefixed: Self.read(bytes, with: &lengthPrefixed, from: peer, logger: logger) { completed = true; handle($0) }
        }
        if completed { lastPacket = now }
        let partway = current == .slip ? slip.isPartway : lengthPrefixed.isPartway
        if !partway {
            packetBegan = nil
        } else if packetBegan == nil || completed {
            packetBegan = now
        }
        return keepOpen
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, with decoder: inout SLIPDecoder, from peer: OSCPeer, logger: Logger,
                      handle: (UnsafeRawBufferPointer) -> Void) -> Bool {
        do {
            try decoder.decode(bytes) { event in
                switch event {
                case .packet(let packet):
                    handle(packet)
                case .badEscape(let byte):
                    logger.warning("\(peer): SLIP escape 0xDB followed by \(hex(byte)), frame dropped")
                }
            }
            return true
        } catch {
            logger.warning("\(peer): SLIP frame over \(decoder.limit) bytes refused; closing")
            return false
        }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, with decoder: inout LengthPrefixDecoder, from peer: OSCPeer, logger: Logger,
                      handle: (UnsafeRawBufferPointer) -> Void) -> Bool {
        do {
            try decoder.decode(bytes, handle)
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
