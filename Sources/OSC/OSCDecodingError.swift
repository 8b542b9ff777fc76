/// Why a byte sequence is not a valid OSC 1.0 packet.
public enum OSCDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data ends inside an element or runs on past the last, or its
    /// size is not a multiple of four.
    case truncated
    /// Neither a message (`/…`) nor a bundle (`#bundle`).
    case notAPacket
    /// An OSC-string without its NUL, or padded with other than NULs.
    case malformedString
    /// The type tag string is missing its comma or its NUL.
    case malformedTypeTags
    /// A type tag whose data size is unknown, so the rest cannot be read.
    case unknownTypeTag(Character)
    /// An argument's data is missing or out of shape (a string without its
    /// NUL, a blob longer than the message, padding other than NULs).
    case malformedArgument
    /// A bundle element whose size does not fit the bundle.
    case malformedBundle
    /// Bundles nested deeper than the decoder follows.
    case nestedTooDeeply

    public var description: String {
        switch self {
        case .truncated: "truncated"
        case .notAPacket: "neither a message nor a bundle"
        case .malformedString: "malformed string"
        case .malformedTypeTags: "malformed type tags"
        case .unknownTypeTag(let tag): "unknown type tag '\(tag)'"
        case .malformedArgument: "malformed argument"
        case .malformedBundle: "malformed bundle element"
        case .nestedTooDeeply: "bundles nested too deeply"
        }
    }
}
