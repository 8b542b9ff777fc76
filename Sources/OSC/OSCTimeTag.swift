/// An OSC (NTP) time tag: seconds since 1900 and a binary fraction.
/// (0, 1) means "immediately".
public struct OSCTimeTag: Equatable, Hashable, Sendable {
    public var seconds: UInt32
    public var fraction: UInt32

    public init(seconds: UInt32, fraction: UInt32) {
        self.seconds = seconds
        self.fraction = fraction
    }

    public static let immediately = OSCTimeTag(seconds: 0, fraction: 1)

    public var isImmediate: Bool { seconds == 0 && fraction <= 1 }

    /// The time tag of a Unix time (seconds since 1970).
    public init(unixTime: Double) {
        let ntp = unixTime + 2_208_988_800
        let whole = ntp.rounded(.down)
        seconds = UInt32(truncatingIfNeeded: Int64(whole))
        fraction = UInt32(truncatingIfNeeded: Int64((ntp - whole) * 4_294_967_296))
    }

    /// Seconds since the Unix epoch (1970), as the system clock counts.
    public var unixTime: Double {
        Double(seconds) - 2_208_988_800 + Double(fraction) / 4_294_967_296
    }
}
