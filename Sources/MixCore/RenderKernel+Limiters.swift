import Dynamics

/// The outputs' limiters (`Limiters`), last in each output's chain, after
/// its delay: their settings are ramps of the kernel's
/// (`RampBlock.Role.limiter`), which the stage reads each period.
extension RenderKernel {
    /// Audio thread: limits the outputs' buffers in place.
    @inlinable @_noLocks
    public mutating func limit(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        guard hasLimiters else { return }
        limiters.process(output, count: outputs, frames: frames, on: limiterValues[0], ceiling: limiterValues[1],
                         release: limiterValues[2], lookahead: limiterValues[3], linked: UnsafePointer(pairedOutputs),
                         sampleRate: sampleRate)
    }

    /// Audio thread, at a period's start: each output's lowest gain back to
    /// 1, so that the meters see the period's (its segments' lowest).
    @inlinable @_noLocks
    public func startLimiterMeter() {
        guard hasLimiters else { return }
        for m in 0..<outputs { limiterLowest[m] = 1 }
    }
}
