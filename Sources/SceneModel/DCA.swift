/// A DCA (a console's "digitally controlled amplifier", a VCA group): one
/// fader and mute riding every member source without moving the members'
/// own. A member's level is its own times its DCAs' (in dB, the sum); the
/// DCA's mute silences its members and leaves their own mutes as they were.
public struct DCA: Equatable, Sendable {
    /// Linear gain, 0…4 (1 = unity, 0 dB).
    public var volume: Float = 1
    public var mute = false
    public var name: String

    public init(name: String) { self.name = name }
}
