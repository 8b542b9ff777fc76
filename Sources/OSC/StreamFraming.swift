/// How a TCP connection delimits its packets: OSC 1.0's length prefix or
/// OSC 1.1's SLIP. Clients do not say which they use (TouchOSC's and
/// QLab's TCP options send SLIP, liblo a length by default), so
/// `OSCServer` tells it from the connection's first byte, and answers in
/// the same framing.
public enum StreamFraming: Sendable {
    /// Each packet after its length, 4 bytes big-endian (`LengthPrefixDecoder`).
    case lengthPrefixed
    /// Each packet a SLIP frame (`SLIP`, `SLIPDecoder`).
    case slip

    /// The framing of a stream that begins with `byte`. A length prefix of
    /// a packet we take (64 KiB at most) begins with 0x00; SLIP begins with
    /// `SLIP.end`, or, from a sender that puts `end` only after a packet
    /// (liblo 0.31), with the packet itself: `/` or `#bundle`. liblo's own
    /// server guesses from the same bytes.
    public init(firstByte byte: UInt8) {
        switch byte {
        case SLIP.end, UInt8(ascii: "/"), UInt8(ascii: "#"): self = .slip
        default: self = .lengthPrefixed
        }
    }

    /// A packet's bytes as they go on the wire.
    public func frame(_ packet: [UInt8]) -> [UInt8] {
        switch self {
        case .lengthPrefixed: withUnsafeBytes(of: UInt32(packet.count).bigEndian) { Array($0) } + packet
        case .slip: SLIP.encode(packet)
        }
    }
}
