/// The clock timed changes wait on: the one the audio thread's periods are
/// measured in (`PeriodSpan`). With JACK, its microsecond clock
/// (`jack_get_time`); offline, or in a test, frames.
public protocol CueClock: Sendable {
    /// The time on this clock at a Unix time; nil while the clock is not
    /// running (JACK away).
    func cueTime(atUnixTime time: Double) -> UInt64?
}
