/// An output's brickwall limiter (docs/processing.md), last in its chain:
/// the rig's tuning, kept in the state file and never in presets. Off by
/// default: when on, no sample leaves above the ceiling.
public struct Limiter: Equatable, Sendable {
    public var on = false
    /// dBFS, −40…0.
    public var ceiling: Float = -1
    /// Milliseconds back to unity, 1…1000.
    public var release: Float = 50
    /// Milliseconds, 0…5: the output is delayed by exactly this much.
    public var lookahead: Float = 1

    public init() {}
}
