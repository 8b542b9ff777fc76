/// One block of per-channel ramps in the render kernel, as the parameter
/// catalogue declares it: whose it is, what the kernel does with its value,
/// and how it moves. The kernel knows these few roles; a new parameter that
/// plays one of them (a gain, say) needs no kernel code of its own.
public struct RampBlock: Hashable, Sendable {
    /// Whose ramps: one per source, one per output, or one for the master.
    public enum Strip: Int, Hashable, Sendable, Comparable {
        case source, output, master

        public static func < (a: Strip, b: Strip) -> Bool { a.rawValue < b.rawValue }
    }

    /// What the kernel does with the value.
    public enum Role: Hashable, Sendable {
        /// Multiplies into the strip's gain: a source's before its pan, an
        /// output's, or every output's (master). A source's level and mute
        /// gate: heard on its direct out's `post` tap too.
        case gain
        /// A source's gain heard on both taps of its direct out, `pre` and
        /// `post`, as well as in the mix: its polarity (±1, ramped through 0).
        case polarity
        /// A source's gain heard in the mix only, never on its direct out:
        /// the solo gate (another source's solo silences the mix, not a recorder).
        case gate
        /// A source's direct out tap: 0 none, 1 `pre`, 2 `post`. Never
        /// ramped: the tap changes at once.
        case direct
        /// A source's pan, −1…+1, through the pan law.
        case pan
        /// A source's stereo link, 0…1: how far its pan is its pair's
        /// balance (1: the left member of a pair, n odd, is multiplied by
        /// min(1, 1 − b) into every output, the right by min(1, 1 + b), and
        /// no pan law applies) rather than its own pan through the law (0).
        /// Ramped, so that linking and unlinking crossfade.
        case link
        /// An output's delay in seconds, taken by the delay stage, which
        /// crossfades from the old tap to the new over the change's time
        /// (`DelayLines`): never ramped sample by sample.
        case delay
        /// A value of the strip's EQ (`EQField`), which the EQ stage reads
        /// at each period's end (`Equalisers`): never folded into a gain.
        case eq(EQField)
        /// A value of an output's limiter (`LimiterField`), which the
        /// limiter stage reads at each period's end (`Limiters`).
        case limiter(LimiterField)
        /// An output's send from talkback t (1…`Talkbacks.most`): the gain
        /// the talkback's input is added to the output at, after the
        /// output's level and mute (`RenderKernel+Talk`). Never folded.
        case talk(Int)
        /// A source's or an output's share of the engineer's listen on one
        /// side (0 left, 1 right), which the listen stage reads
        /// (`RenderKernel+Listen`): a source's after its EQ and polarity,
        /// before its level (PFL), an output's as it leaves (AFL). Never folded.
        case listen(side: Int)
        /// The master's listen lanes: lane t − 1 talkback t's send into the
        /// listen (both sides), lane `Listen.levelLane` the listen's own
        /// gain (its level and dim). Never folded.
        case listenMix
    }

    /// How the ramps move: linearly in fader position (a level, whose
    /// value is the position's gain by `FaderLaw`), or in the value itself.
    public enum Shape: UInt8, Sendable {
        case linear
        case fader
    }

    public var strip: Strip
    public var role: Role
    /// `.fader`: the position is a fader position and the value its gain;
    /// `.linear`: the value is the position.
    public var shape: Shape

    public init(_ strip: Strip, _ role: Role, _ shape: Shape) {
        self.strip = strip
        self.role = role
        self.shape = shape
    }
}
