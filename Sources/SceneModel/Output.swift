/// One output channel's strip, after the matrix and before the master.
public struct Output: Equatable, Sendable {
    /// Linear gain, 0…4 (1 = unity).
    public var volume: Float = 1
    public var mute = false
    /// Delay in milliseconds, for aligning speakers.
    public var delay: Float = 0
    public var name: String

    public init(name: String) { self.name = name }
}
