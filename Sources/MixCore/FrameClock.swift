/// The audio clock that timed changes are scheduled on (JACK's frame time).
public protocol FrameClock: Sendable {
    /// The frame at a Unix time, as the clock maps it now; nil while the
    /// clock is not running (JACK away).
    func frame(atUnixTime time: Double) -> UInt32?
}
