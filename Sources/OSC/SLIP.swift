/// SLIP (RFC 1055), the stream framing of OSC 1.1, which TouchOSC's and
/// QLab's TCP options use instead of OSC 1.0's length prefix: a packet's
/// bytes end with `end`; an `end` or `escape` inside the packet is sent as
/// `escape` and a second byte. `SLIPDecoder` reads it.
public enum SLIP {
    public static let end: UInt8 = 0xC0
    public static let escape: UInt8 = 0xDB
    /// After `escape`: the packet holds `end` here.
    public static let escapedEnd: UInt8 = 0xDC
    /// After `escape`: the packet holds `escape` here.
    public static let escapedEscape: UInt8 = 0xDD

    /// One packet as a frame, with `end` before and after it ("double
    /// END"): the leading `end` closes whatever noise came before, and
    /// readers of either style (END before and after, or after only) take
    /// it, an empty frame between two `end`s being nothing.
    public static func encode(_ packet: some Collection<UInt8>) -> [UInt8] {
        var framed: [UInt8] = []
        framed.reserveCapacity(packet.count + packet.count / 16 + 2)
        framed.append(end)
        for byte in packet {
            switch byte {
            case end: framed.append(escape); framed.append(escapedEnd)
            case escape: framed.append(escape); framed.append(escapedEscape)
            default: framed.append(byte)
            }
        }
        framed.append(end)
        return framed
    }
}
