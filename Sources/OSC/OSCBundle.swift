/// An OSC bundle as the rig reads it: its time tag and its messages.
///
/// The messages of bundles nested inside it are its own, in the order they
/// came; the time tags of nested bundles are not kept (OSC 1.0 has them no
/// earlier than the enclosing one's, and the rig acts on the outermost).
public struct OSCBundle: Equatable, Sendable {
    /// When the bundle takes effect; `.immediately` for at once.
    public var timeTag: OSCTimeTag
    public var messages: [OSCMessage]

    public init(_ messages: [OSCMessage], at timeTag: OSCTimeTag = .immediately) {
        self.timeTag = timeTag
        self.messages = messages
    }
}
