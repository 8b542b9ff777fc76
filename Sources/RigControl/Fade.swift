import MixCore

/// A parameter on its way to a new value, followed on the control side the
/// way the audio thread moves it, so that subscribers see it move: a level
/// evenly in fader position (the kernel's fader ramp), anything else evenly
/// in value. Only ever read for feedback and `/…/current`: the scene holds
/// the target, and queries answer it.
struct Fade {
    let from: Float
    let to: Float
    let byFaderLaw: Bool
    let start: ContinuousClock.Instant
    let seconds: Double

    /// When it reaches its target.
    var end: ContinuousClock.Instant { start + .nanoseconds(Int64(seconds * 1e9)) }

    /// How far through it is at `now`, 0…1.
    func progress(at now: ContinuousClock.Instant) -> Double {
        guard seconds > 0 else { return 1 }
        let elapsed = now - start
        let done = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18) / seconds
        return min(max(done, 0), 1)
    }

    /// The value at `now`: exactly the target once over.
    func value(at now: ContinuousClock.Instant) -> Float {
        let t = Float(progress(at: now))
        guard t < 1 else { return to }
        guard byFaderLaw else { return from + (to - from) * t }
        let (start, end) = (FaderLaw.position(gain: from), FaderLaw.position(gain: to))
        return FaderLaw.gain(position: start + (end - start) * t)
    }
}
