/// Why a byte sequence is not a valid OSC 1.0 packet.
public enum OSCDecodingError: Error, Equatable, Sendable {
    /// The data ends inside an element, or its size is not a multiple of four.
    case truncated
    /// Neither a message (`/…`) nor a bundle (`#bundle`).
    case notAPacket
    /// An OSC-string without its NUL, or not valid UTF-8.
    case malformedString
    /// The type tag string does not start with a comma.
    case malformedTypeTags
    /// A type tag whose data size is unknown, so the rest cannot be read.
    case unknownTypeTag(Character)
    /// A bundle element whose size does not fit the bundle.
    case malformedBundle
    /// Bundles nested deeper than the decoder follows.
    case nestedTooDeeply
}
