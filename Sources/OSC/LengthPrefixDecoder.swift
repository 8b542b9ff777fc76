/// Reads OSC 1.0 stream framing, each packet prefixed by its length
/// (4 bytes, big-endian) as liblo sends it, from a byte stream that arrives
/// in pieces of any size, and hands over each whole packet.
///
/// A length over `limit` stops the decoder: it would have to buffer that
/// much for one client, and on a stream that is not length-prefixed at all
/// the "length" is noise.
public struct LengthPrefixDecoder: Sendable {
    /// The largest packet taken: as large as a UDP datagram can be.
    public static let defaultLimit = 65_536

    public enum Failure: Error, Equatable, Sendable {
        /// A packet announced as `size` bytes, over the limit.
        case packetTooLong(size: Int)
    }

    public let limit: Int
    /// Bytes received and not yet handed over: the start of the next packet.
    private var pending: [UInt8] = []

    public init(limit: Int = LengthPrefixDecoder.defaultLimit) {
        self.limit = limit
    }

    /// Whether a packet has begun and not yet arrived whole.
    public var isPartway: Bool { !pending.isEmpty }

    /// Reads `bytes` and calls `body` with every packet they complete, in
    /// order; the bytes are valid only during that call. Throws at a length
    /// over the limit; the decoder is of no further use then (the stream
    /// has to be closed).
    public mutating func decode(_ bytes: UnsafeRawBufferPointer,
                                _ body: (UnsafeRawBufferPointer) -> Void) throws(Failure) {
        pending.append(contentsOf: bytes)
        var start = 0
        defer { pending.removeFirst(start) }
        while pending.count - start >= 4 {
            let size = Int(pending[start]) << 24 | Int(pending[start + 1]) << 16
                | Int(pending[start + 2]) << 8 | Int(pending[start + 3])
            guard size <= limit else { throw .packetTooLong(size: size) }
            guard pending.count - start >= 4 + size else { break }
            pending.withUnsafeBytes { all in
                body(UnsafeRawBufferPointer(rebasing: all[(start + 4)..<(start + 4 + size)]))
            }
            start += 4 + size
        }
    }

    /// The same for bytes in an array (tests, mostly).
    public mutating func decode(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> Void) throws(Failure) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(Failure) in try decode(raw, body) }
        }.get()
    }
}
