import MixPathAVX2
import MixPathAVX512
import MixPathBase
import MixRows

/// Audio thread: the mixing loops, on the SIMD path this kernel was made
/// for (`simd`). The loops themselves live in the `MixPath…` modules, one
/// build of one source per CPU level.
extension RenderKernel {
    /// 64 frames of every output, from frame `start`.
    @inlinable @_noLocks
    func mixBlock(_ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, ramping: Bool) {
        switch simd {
        #if arch(x86_64)
        case .avx512:
            MixPathAVX512.MixPath.mixBlock(rows, input, output, start: start, ramping: ramping, denseRows: denseRows)
        case .avx2:
            MixPathAVX2.MixPath.mixBlock(rows, input, output, start: start, ramping: ramping, denseRows: denseRows)
        #endif
        default:
            MixPathBase.MixPath.mixBlock(rows, input, output, start: start, ramping: ramping, denseRows: denseRows)
        }
    }

    /// The last `length` frames of a period that is not a multiple of 64, from frame `start`.
    @inlinable @_noLocks
    func mixTail(_ input: UnsafePointer<UnsafePointer<Float>>,
                 _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, length: Int) {
        switch simd {
        #if arch(x86_64)
        case .avx512: MixPathAVX512.MixPath.mixTail(rows, input, output, start: start, length: length)
        case .avx2: MixPathAVX2.MixPath.mixTail(rows, input, output, start: start, length: length)
        #endif
        default: MixPathBase.MixPath.mixTail(rows, input, output, start: start, length: length)
        }
    }
}
