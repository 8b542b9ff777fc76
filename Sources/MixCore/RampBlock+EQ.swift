extension RampBlock {
    /// Which value of a strip's EQ a block holds (`Role.eq`): the bands'
    /// switch, a cut's, or a band's. Frequencies and q are held as their
    /// base-2 logarithms, so that they ramp evenly in octaves.
    public enum EQField: Hashable, Sendable {
        /// The bands on (1) or off (0).
        case on
        case cut(Cut, CutField)
        /// Band b (1-based).
        case band(Int, BandField)

        public enum Cut: Hashable, Sendable { case low, high }
        public enum CutField: Hashable, Sendable { case on, frequency, slope }
        public enum BandField: Hashable, Sendable { case shape, frequency, gain, q, on }

        /// Whether the value changes at once rather than ramping: a band's
        /// shape and a cut's slope.
        public var jumps: Bool {
            switch self {
            case .cut(_, .slope), .band(_, .shape): true
            default: false
            }
        }
    }
}
