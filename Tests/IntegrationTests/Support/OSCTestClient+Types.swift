import CLiblo
import OSC
import OSCOracle

// The values an OSCTestClient sends and receives: the oracle's wire model
// (Tests/OSCOracle), named inside OSCTestClient so that tests need not
// import the product's OSC module.

extension OSCTestClient {
    /// A UDP host and port.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// A numeric address ("127.0.0.1", "::1") or a host name.
        public var host: String
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// An OSC 1.0 time tag: seconds since 1900 and 1/2³² fractions.
    public typealias TimeTag = OSCTimeTag

    /// One OSC argument, with its type tag (every type OSC 1.0 and liblo know).
    public typealias Argument = OSCOracle.Argument

    /// An OSC message to send.
    public typealias Message = OSCOracle.Message

    /// A message or a (possibly nested) bundle.
    public typealias Packet = OSCOracle.Packet

    /// A message the client received, on its own or from inside a bundle.
    public struct ReceivedMessage: Sendable, CustomStringConvertible {
        public var address: String
        /// The type tag string without its leading comma, e.g. "if".
        public var typeTags: String
        public var arguments: [Argument]
        /// The time tag of the innermost bundle it came in, nil if it came
        /// on its own.
        public var bundleTimeTag: TimeTag?
        /// Where it came from.
        public var sender: Endpoint
        /// When the client read it from the socket.
        public var receivedAt: ContinuousClock.Instant

        /// Argument `index` (0-based), or nil if there are fewer.
        public func argument(_ index: Int) -> Argument? {
            arguments.indices.contains(index) ? arguments[index] : nil
        }

        public var description: String {
            ([address, typeTags.isEmpty ? "," : ",\(typeTags)"] + arguments.map(\.description))
                .joined(separator: " ")
        }
    }
}

extension OSCTimeTag {
    /// The current time, from liblo's clock.
    public static func now() -> OSCTimeTag {
        var tag = lo_timetag()
        lo_timetag_now(&tag)
        return OSCTimeTag(seconds: tag.sec, fraction: tag.frac)
    }

    /// The current time plus `offset` seconds (may be negative).
    public static func fromNow(_ offset: Double) -> OSCTimeTag {
        now().adding(seconds: offset)
    }

    /// This time plus `offset` seconds (may be negative).
    public func adding(seconds offset: Double) -> OSCTimeTag {
        let total = Double(seconds) + Double(fraction) / 4_294_967_296 + offset
        let whole = total.rounded(.down)
        return OSCTimeTag(seconds: UInt32(truncatingIfNeeded: Int64(whole)),
                          fraction: UInt32(min((total - whole) * 4_294_967_296, 4_294_967_295)))
    }

    /// Seconds from `other` to `self`.
    public func seconds(since other: OSCTimeTag) -> Double {
        Double(Int64(seconds) - Int64(other.seconds))
            + (Double(fraction) - Double(other.fraction)) / 4_294_967_296
    }
}

extension OSCOracle.Argument {
    /// The value as a Double if it is numeric (i, h, f, d; T and F as 1 and 0).
    public var numericValue: Double? {
        switch self {
        case .int32(let value): Double(value)
        case .int64(let value): Double(value)
        case .float(let value): Double(value)
        case .double(let value): value
        case .true: 1
        case .false: 0
        default: nil
        }
    }

    /// The value as a Float if it is numeric.
    public var floatValue: Float? { numericValue.map { Float($0) } }

    /// The value as an Int if it is an integer (i, h).
    public var intValue: Int? {
        switch self {
        case .int32(let value): Int(value)
        case .int64(let value): Int(value)
        default: nil
        }
    }

    /// The text of a string or symbol.
    public var stringValue: String? {
        switch self {
        case .string(let value), .symbol(let value): value
        default: nil
        }
    }

    /// The value of T or F.
    public var boolValue: Bool? {
        switch self {
        case .true: true
        case .false: false
        default: nil
        }
    }
}
