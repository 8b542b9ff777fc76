extension RampBlock {
    /// Which value of an output's limiter a block holds (`Role.limiter`).
    public enum LimiterField: Hashable, Sendable {
        /// On (1) or off (0), crossfaded.
        case on
        /// The ceiling as a linear gain (1 = 0 dBFS).
        case ceiling
        /// The release and the lookahead, in ms: they change at once.
        case release, lookahead

        /// Whether the value changes at once rather than ramping.
        public var jumps: Bool { self == .release || self == .lookahead }
    }
}
