/// One output channel's strip, after the matrix and before the master.
public struct Output: Equatable, Sendable {
    /// Linear gain, 0…4 (1 = unity).
    public var volume: Float = 1
    public var mute = false
    /// Delay in milliseconds, for aligning speakers.
    public var delay: Float = 0
    public var name: String
    /// Its low cut, high cut and six bands, after the mix: the rig's
    /// tuning, kept in the state file and never by presets.
    public var eq = Equaliser(bands: 6)
    /// Its brickwall limiter, after its delay: the rig's tuning too.
    public var limiter = Limiter()
    /// In the engineer's listen (AFL): kept nowhere, never recalled.
    public var listen = false

    public init(name: String) { self.name = name }
}
