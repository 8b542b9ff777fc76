/// Reads SLIP frames (see `SLIP`) from a byte stream that arrives in
/// pieces of any size, and hands over each whole packet.
///
/// Both sending styles are read: `end` after each packet, or before and
/// after it; the empty frames between two `end`s are skipped. What a bad
/// frame costs is bounded: one with a bad escape (`escape` followed by
/// anything but `escapedEnd` or `escapedEscape`) is skipped up to its `end`
/// and reported, and the stream goes on; one longer than `limit` stops the
/// decoder, since buffering on would let one client take unbounded memory.
public struct SLIPDecoder: Sendable {
    /// The largest packet taken, as for a length-prefixed one (`OSCServer`).
    public static let defaultLimit = 65_536

    public enum Event {
        /// A whole packet, its escapes undone. The bytes are valid only
        /// during the call that receives them.
        case packet(UnsafeRawBufferPointer)
        /// A frame was dropped: `escape` was followed by this byte.
        case badEscape(UInt8)
    }

    public enum Failure: Error, Equatable, Sendable {
        /// A frame grew past the limit before its `end`.
        case frameTooLong(limit: Int)
    }

    public let limit: Int
    /// The current frame so far, escapes undone; kept between calls.
    private var frame: [UInt8] = []
    /// Bytes in the current frame, escapes undone; counted on while a
    /// frame is skipped, so that a skipped frame is bounded too.
    private var length = 0
    /// The last byte was `escape`.
    private var escaping = false
    /// A bad escape was seen: the frame is dropped up to its `end`.
    private var skipping = false

    public init(limit: Int = SLIPDecoder.defaultLimit) {
        self.limit = limit
    }

    /// Whether a frame has begun and not yet ended.
    public var isPartway: Bool { length > 0 || escaping || skipping }

    /// Reads `bytes` and calls `body` for every frame they finish, in
    /// order. Throws once a frame passes the limit; the decoder is of no
    /// further use then (the stream has to be closed).
    public mutating func decode(_ bytes: UnsafeRawBufferPointer,
                                _ body: (Event) -> Void) throws(Failure) {
        for byte in bytes {
            if byte == SLIP.end {
                finishFrame(body)
            } else if escaping {
                escaping = false
                switch byte {
                case SLIP.escapedEnd: try append(SLIP.end)
                case SLIP.escapedEscape: try append(SLIP.escape)
                default: skipFrame(badEscape: byte, body)
                }
            } else if byte == SLIP.escape {
                escaping = true
            } else {
                try append(byte)
            }
        }
    }

    /// The same for bytes in an array (tests, mostly).
    public mutating func decode(_ bytes: [UInt8], _ body: (Event) -> Void) throws(Failure) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(Failure) in try decode(raw, body) }
        }.get()
    }

    private mutating func append(_ byte: UInt8) throws(Failure) {
        length += 1
        guard length <= limit else { throw .frameTooLong(limit: limit) }
        if !skipping { frame.append(byte) }
    }

    private mutating func skipFrame(badEscape byte: UInt8, _ body: (Event) -> Void) {
        guard !skipping else { return } // one report per frame
        skipping = true
        frame.removeAll(keepingCapacity: true)
        body(.badEscape(byte))
    }

    /// An `end`: the frame is done. An `end` straight after `escape` is a
    /// bad escape too; it still ends the frame, so the next one reads clean.
    private mutating func finishFrame(_ body: (Event) -> Void) {
        if escaping {
            skipFrame(badEscape: SLIP.end, body)
        } else if !skipping && !frame.isEmpty {
            frame.withUnsafeBytes { body(.packet($0)) }
        }
        frame.removeAll(keepingCapacity: true)
        length = 0
        escaping = false
        skipping = false
    }
}
