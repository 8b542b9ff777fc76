/// The global gain applied to every output.
public struct Master: Equatable, Sendable {
    /// Linear gain, 0…4 (1 = unity).
    public var volume: Float = 1
    public var mute = false

    public init() {}
}
