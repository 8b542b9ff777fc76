/// One parameter change, as the control side hands it to the audio thread:
/// compact and fixed-size so that the queue is a flat array.
public struct Change: Equatable, Sendable {
    /// Which ramp: its slot in `RampLayout`.
    public var ramp: Int32
    /// The target in the ramp's domain (fader position for levels).
    public var position: Float
    /// The exact target value (gain for levels).
    public var value: Float
    /// How long the move takes, in seconds; 0 jumps.
    public var seconds: Float

    public init(ramp: Int32, position: Float, value: Float, seconds: Float) {
        self.ramp = ramp
        self.position = position
        self.value = value
        self.seconds = seconds
    }
}
