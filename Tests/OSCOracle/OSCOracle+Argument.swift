import OSC

extension OSCOracle {
    /// One argument, with its type tag.
    public enum Argument: Sendable, Hashable, CustomStringConvertible {
        case int32(Int32)           // i
        case float(Float)           // f
        case string(String)         // s
        case blob([UInt8])          // b
        case int64(Int64)           // h
        case timeTag(OSCTimeTag)    // t
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

        public var description: String {
            switch self {
            case .int32(let value): "\(value)"
            case .float(let value): "\(value)f"
            case .string(let value): "\"\(value)\""
            case .blob(let bytes): "blob(\(bytes.count) bytes)"
            case .int64(let value): "\(value)h"
            case .timeTag(let tag): "timetag(\(tag.seconds).\(String(tag.fraction, radix: 16)))"
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
}
