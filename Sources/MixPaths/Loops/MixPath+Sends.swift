import MixRows

/// The sends of the stages after the mix (the talkbacks into the outputs,
/// the listen's shares) and the listen's own gain, at this path's width.
extension MixPath {
    /// `input` added into `out` at a gain going from `start` to `end` over
    /// the period (`progress[k]`: how far sample k is), every product kept
    /// finite (`MixRows.addSend`).
    @_noLocks
    public static func send(_ input: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, from start: Float,
                            to end: Float, progress: UnsafePointer<Float>, frames: Int) {
        if start == end {
            MixRows.addSend(input, gain: end, into: out, frames: frames)
        } else {
            MixRows.addSend(input, from: start, change: end - start, progress: progress, into: out, frames: frames)
        }
    }

    /// `out` times a gain going from `start` to `end` over the period, every
    /// sample kept finite (`MixRows.applyGain`).
    @_noLocks
    public static func gain(_ out: UnsafeMutablePointer<Float>, from start: Float, to end: Float,
                            progress: UnsafePointer<Float>, frames: Int) {
        MixRows.applyGain(to: out, from: start, change: end - start, progress: progress, frames: frames)
    }
}
