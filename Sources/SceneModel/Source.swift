/// One input channel's strip: what happens to input n before the matrix.
public struct Source: Equatable, Sendable {
    /// Linear gain, 0…4 (1 = unity).
    public var volume: Float = 1
    /// −1 left … 0 centre … +1 right, applied on stereo output pairs.
    public var pan: Float = 0
    public var mute = false
    public var solo = false
    /// Polarity inverted: the source is heard with its sign flipped.
    public var invert = false
    /// Linked with its pair (1-2, 3-4, …): one control, the pan a balance.
    /// Both members hold it, and the shared values, alike.
    public var link = false
    /// The DCAs and mute groups it belongs to (`/source/{n}/dca/{g}`,
    /// `/source/{n}/mutegroup/{g}`).
    public var dcas = Groups()
    public var muteGroups = Groups()
    public var name: String
    /// The input patch: a regular expression for the ports that feed it
    /// ("" none). The rig's wiring, not the scene's: presets do not hold it.
    public var patch = ""
    /// Its direct out: none, pre or post. The rig's wiring, like the patch.
    public var direct = DirectTap.off
    /// Its low cut and four bands, before its level (docs/processing.md).
    public var eq = Equaliser(bands: 4)
    /// Whether any port feeds it now (JACK's, reported by the rig).
    public var present = false
    /// In the engineer's listen (PFL): kept nowhere, never recalled.
    public var listen = false

    public init(name: String) { self.name = name }
}
