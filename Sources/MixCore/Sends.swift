import MixPathAVX2
import MixPathAVX512
import MixPathBase

/// The stages' sends on the SIMD path the kernel was made for
/// (`MixPath.send`, `MixPath.gain`): the talkbacks and the listen call
/// these with the kernel's `simd`.
@usableFromInline enum Sends {
    /// `input` into `out`, from gain `start` to `end` over the period.
    @inlinable @_noLocks
    static func add(_ simd: SIMDPath, _ input: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>,
                    from start: Float, to end: Float, progress: UnsafePointer<Float>, frames: Int) {
        switch simd {
        #if arch(x86_64)
        case .avx512: MixPathAVX512.MixPath.send(input, into: out, from: start, to: end, progress: progress, frames: frames)
        case .avx2: MixPathAVX2.MixPath.send(input, into: out, from: start, to: end, progress: progress, frames: frames)
        #endif
        default: MixPathBase.MixPath.send(input, into: out, from: start, to: end, progress: progress, frames: frames)
        }
    }

    /// `out` times a gain going from `start` to `end` over the period.
    @inlinable @_noLocks
    static func gain(_ simd: SIMDPath, _ out: UnsafeMutablePointer<Float>, from start: Float, to end: Float,
                     progress: UnsafePointer<Float>, frames: Int) {
        switch simd {
        #if arch(x86_64)
        case .avx512: MixPathAVX512.MixPath.gain(out, from: start, to: end, progress: progress, frames: frames)
        case .avx2: MixPathAVX2.MixPath.gain(out, from: start, to: end, progress: progress, frames: frames)
        #endif
        default: MixPathBase.MixPath.gain(out, from: start, to: end, progress: progress, frames: frames)
        }
    }
}
