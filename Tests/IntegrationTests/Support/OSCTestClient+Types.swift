import CLiblo

// The values an OSCTestClient sends and receives. Nested in OSCTestClient so
// they never clash with the names of the product's OSC module.

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
    public struct TimeTag: Sendable, Hashable, CustomStringConvertible {
        public var seconds: UInt32
        public var fraction: UInt32

        public init(seconds: UInt32, fraction: UInt32) {
            self.seconds = seconds
            self.fraction = fraction
        }

        /// The special value (0, 1): "process immediately".
        public static let immediately = TimeTag(seconds: 0, fraction: 1)

        /// The current time, from liblo's clock.
        public static func now() -> TimeTag {
            var tag = lo_timetag()
            lo_timetag_now(&tag)
            return TimeTag(seconds: tag.sec, fraction: tag.frac)
        }

        /// The current time plus `offset` seconds (may be negative).
        public static func fromNow(_ offset: Double) -> TimeTag {
            now().adding(seconds: offset)
        }

        /// This time plus `offset` seconds (may be negative).
        public func adding(seconds offset: Double) -> TimeTag {
            let total = Double(seconds) + Double(fraction) / 4_294_967_296 + offset
            let whole = total.rounded(.down)
            return TimeTag(seconds: UInt32(truncatingIfNeeded: Int64(whole)),
                           fraction: UInt32(min((total - whole) * 4_294_967_296, 4_294_967_295)))
        }

        /// The same time as seconds since 1970.
        public var unixTime: Double {
            Double(seconds) - 2_208_988_800 + Double(fraction) / 4_294_967_296
        }

        /// Seconds from `other` to `self`.
        public func seconds(since other: TimeTag) -> Double {
            Double(Int64(seconds) - Int64(other.seconds))
                + (Double(fraction) - Double(other.fraction)) / 4_294_967_296
        }

        var loTimetag: lo_timetag { lo_timetag(sec: seconds, frac: fraction) }

        public var description: String {
            self == .immediately ? "immediately" : "\(seconds).\(String(fraction, radix: 16))"
        }
    }

    /// One OSC argument, with its type tag.
    public enum Argument: Sendable, Hashable, CustomStringConvertible {
        case int32(Int32)           // i
        case float(Float)           // f
        case string(String)         // s
        case blob([UInt8])          // b
        case int64(Int64)           // h
        case timeTag(TimeTag)       // t
        case double(Double)         // d
        case symbol(String)         // S
        case character(UInt8)       // c
        case midi(UInt8, UInt8, UInt8, UInt8) // m
        case `true`                 // T
        case `false`                // F
        case `nil`                  // N
        case impulse                // I (infinitum)

        /// The OSC type tag character.
        public var typeTag: Character {
            switch self {
            case .int32: "i"
            case .float: "f"
            case .string: "s"
            case .blob: "b"
            case .int64: "h"
            case .timeTag: "t"
            case .double: "d"
            case .symbol: "S"
            case .character: "c"
            case .midi: "m"
            case .true: "T"
            case .false: "F"
            case .nil: "N"
            case .impulse: "I"
            }
        }

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

        public var description: String {
            switch self {
            case .int32(let value): "\(value)"
            case .float(let value): "\(value)f"
            case .string(let value): "\"\(value)\""
            case .blob(let bytes): "blob(\(bytes.count) bytes)"
            case .int64(let value): "\(value)h"
            case .timeTag(let tag): "timetag(\(tag))"
            case .double(let value): "\(value)d"
            case .symbol(let value): "'\(value)"
            case .character(let value): "char(\(value))"
            case .midi(let a, let b, let c, let d): "midi(\(a) \(b) \(c) \(d))"
            case .true: "T"
            case .false: "F"
            case .nil: "N"
            case .impulse: "I"
            }
        }
    }

    /// An OSC message to send.
    public struct Message: Sendable, Hashable, CustomStringConvertible {
        public var address: String
        public var arguments: [Argument]

        public init(_ address: String, _ arguments: Argument...) {
            self.init(address, arguments: arguments)
        }

        public init(_ address: String, arguments: [Argument]) {
            self.address = address
            self.arguments = arguments
        }

        public var description: String {
            ([address] + arguments.map(\.description)).joined(separator: " ")
        }
    }

    /// A message or a (possibly nested) bundle.
    public indirect enum Packet: Sendable, Hashable {
        case message(Message)
        case bundle(TimeTag, [Packet])
    }

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
