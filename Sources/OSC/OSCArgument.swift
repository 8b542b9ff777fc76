/// One OSC argument, as decoded from the wire or to be encoded.
public enum OSCArgument: Hashable, Sendable, CustomStringConvertible {
    case int32(Int32)
    case float(Float)
    case double(Double)
    case int64(Int64)
    case string(String)
    case symbol(String)
    case bool(Bool)
    case `nil`
    case impulse
    case blob([UInt8])
    /// A type this server does not read (timetag, char, colour, MIDI…).
    case unsupported(Character)

    /// The OSC type tag character.
    public var typeTag: Character {
        switch self {
        case .int32: "i"
        case .float: "f"
        case .double: "d"
        case .int64: "h"
        case .string: "s"
        case .symbol: "S"
        case .bool(let value): value ? "T" : "F"
        case .nil: "N"
        case .impulse: "I"
        case .blob: "b"
        case .unsupported(let tag): tag
        }
    }

    /// The argument as a number, for any numeric type.
    public var number: Double? {
        switch self {
        case .int32(let v): Double(v)
        case .float(let v): Double(v)
        case .double(let v): v
        case .int64(let v): Double(v)
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .int32(let v): "\(v)"
        case .float(let v): "\(v)"
        case .double(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .string(let v), .symbol(let v): v
        case .bool(let v): v ? "true" : "false"
        case .nil: "nil"
        case .impulse: "impulse"
        case .blob(let bytes): "blob(\(bytes.count) bytes)"
        case .unsupported(let tag): "(\(tag))"
        }
    }
}
