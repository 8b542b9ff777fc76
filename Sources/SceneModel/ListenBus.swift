/// The engineer's listen's own settings (docs/talkback.md): the rig's,
/// kept in the state file, never in presets.
public struct ListenBus: Equatable, Sendable {
    /// `exclusive` (selecting one clears the others) or `additive`.
    public var mode = "exclusive"
    /// With nothing selected: the stereo output pair whose first output
    /// this is; 0 for silence.
    public var defaultPair = 0
    /// Linear gain, 0…4 (1 = unity).
    public var volume: Float = 1
    /// How far it is dimmed while any talkback talks, in dB (≤ 0).
    public var dimDB: Float = -20

    public init() {}
}
