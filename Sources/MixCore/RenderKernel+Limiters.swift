import Dynamics
import StagePathAVX2
import StagePathAVX512
import StagePathBase

/// The outputs' limiters (`Limiters`), last in each output's chain, after
/// its delay: their settings are ramps of the kernel's
/// (`RampBlock.Role.limiter`), which the stage reads each period.
extension RenderKernel {
    /// Audio thread: limits the outputs' buffers in place.
    @inlinable @_noLocks
    public mutating func limit(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        guard hasLimiters else { return }
        // No setting moved and every limiter is off: the outputs as they are.
        let moved = wake(16)
        if !moved && limiters.isQuiet(at: sampleRate) { return }
        let (on, ceiling, release, lookahead) = (limiterValues[0], limiterValues[1], limiterValues[2], limiterValues[3])
        let linked = UnsafePointer(pairedOutputs)
        // On this kernel's SIMD path (`StagePath`).
        switch simd {
        #if arch(x86_64)
        case .avx512:
            StagePathAVX512.StagePath.limit(&limiters, output, count: outputs, frames: frames, on: on, ceiling: ceiling,
                                            release: release, lookahead: lookahead, linked: linked, sampleRate: sampleRate)
        case .avx2:
            StagePathAVX2.StagePath.limit(&limiters, output, count: outputs, frames: frames, on: on, ceiling: ceiling,
                                          release: release, lookahead: lookahead, linked: linked, sampleRate: sampleRate)
        #endif
        default:
            StagePathBase.StagePath.limit(&limiters, output, count: outputs, frames: frames, on: on, ceiling: ceiling,
                                          release: release, lookahead: lookahead, linked: linked, sampleRate: sampleRate)
        }
    }

    /// Audio thread, at a period's start: each output's lowest gain back to
    /// 1, so that the meters see the period's (its segments' lowest).
    @inlinable @_noLocks
    public func startLimiterMeter() {
        guard hasLimiters else { return }
        for m in 0..<outputs { limiterLowest[m] = 1 }
    }
}
