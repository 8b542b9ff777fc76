import OSC

/// An OSC 1.0 encoder and decoder written from the specification alone, in
/// plain Swift: the independent reference the tests hold the product's
/// `OSCCodec` (liblo underneath) to, and the integration tests' client's
/// codec. It is never part of the product.
///
/// Its model is the wire's, wider than the product's: every type OSC 1.0
/// and liblo know (`t`, `c` and `m` with their data), and nested bundles
/// kept nested, each with its own time tag.
public enum OSCOracle {
    /// Why bytes are not an OSC 1.0 packet, as far as the oracle can tell.
    public enum Failure: Error, Equatable, Sendable {
        /// Too short for what it announces, or not a multiple of four bytes.
        case truncated
        /// Neither `/…` nor `#bundle`.
        case notAPacket
        /// A string without its NUL.
        case malformedString
        /// A string or blob padded with other than NULs.
        case badPadding
        /// No comma at the start of the type tag string.
        case malformedTypeTags
        /// A type tag the oracle does not know the size of.
        case unknownTypeTag(UInt8)
        /// A bundle element of size zero, not a multiple of four, or beyond the bundle.
        case malformedBundle
        /// Nested beyond `maximumDepth`.
        case nestedTooDeeply
    }

    /// Bundles nested deeper than this are refused (a bound on recursion).
    public static let maximumDepth = 32
}
