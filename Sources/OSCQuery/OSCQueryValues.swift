import OSC

/// The values of a namespace's nodes, read for one answer: a model takes
/// them together (under its lock, briefly) so that one answer shows one
/// moment, and the answer is then written without holding anything.
public protocol OSCQueryValues: Sendable {
    /// The value of the node declared with `valueKey` `key`, one argument
    /// per type tag; nil if it has none now.
    func arguments(_ key: Int) -> [OSCArgument]?
}
