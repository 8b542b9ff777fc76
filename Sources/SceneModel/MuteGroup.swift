/// A mute group: one mute silencing every member source, without changing
/// the members' own mutes. A source in several groups is heard only while
/// all of them are unmuted.
public struct MuteGroup: Equatable, Sendable {
    public var mute = false
    public var name: String

    public init(name: String) { self.name = name }
}
