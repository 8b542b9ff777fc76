import MixRows

/// Audio thread: the sources' direct outs (`direct_n`), for a multitrack
/// recorder or a feed: a source's own signal, tapped after polarity (`pre`)
/// or after level and mute too (`post`), never after the solo gate, the pan
/// or the matrix.
extension RenderKernel {
    /// Writes each source's direct out whose buffer is given (nil: no port):
    /// its input times the gains of its tap, each going linearly from the
    /// last period's end to this one's, as the mix's gains do (a level or a
    /// mute moving is heard without a click); silence while its tap is off.
    /// Non-finite and denormal samples become 0. A tap switched on starts at
    /// its gain.
    @inlinable @_noLocks
    mutating func renderDirects(_ input: UnsafePointer<UnsafePointer<Float>>,
                                _ direct: UnsafePointer<UnsafeMutablePointer<Float>?>, frames: Int) {
        guard directBase >= 0 && frames > 0 && frames <= maxFrames && progressFrames == frames else { return }
        for n in 0..<inputs {
            guard let out = direct[n] else { continue }
            // Compared, never converted: Int32 of a value past 2³¹ or not a number traps.
            let slot = value[directBase + n]
            let tap: Int32 = slot == 1 ? 1 : slot == 2 ? 2 : 0
            guard tap == 1 || tap == 2 else {
                for k in 0..<frames { out[k] = 0 }
                directTap[n] = 0
                continue
            }
            var end: Float = 1
            for b in 0..<(tap == 1 ? directPreGains : directPostGains) { end *= value[gainBases[b] + n] }
            let start = directTap[n] == tap ? directEnd[n] : end
            (directTap[n], directEnd[n]) = (tap, end)
            let samples = input[n]
            if start == end {
                for k in 0..<frames { out[k] = MixRows.sanitized(samples[k] * end) }
            } else {
                let change = end - start
                for k in 0..<frames { out[k] = MixRows.sanitized(samples[k] * (start + change * progress[k])) }
            }
        }
    }
}
