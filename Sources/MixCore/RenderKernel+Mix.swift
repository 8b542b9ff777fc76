import MixPathAVX2
import MixPathAVX512
import MixPathBase
import MixRows

/// Audio thread: the work done on the SIMD path this kernel was made for
/// (`simd`): the mixing loops, the fold of a row's gains and the moving
/// ramps' step. They live in the `MixPath…` modules, one build of one
/// source per CPU level.
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

    /// The gains before the matrix of the sixteen sources of `chunk`
    /// (`RampLayout.lanes`), a lane each, on the SIMD path
    /// (`SourceGains.fold`): the product of their gain blocks (volume,
    /// gates, polarity), alone and through each side of a pan; for a linked
    /// pair's member, its share of the balance instead. `foldSource` below
    /// is its plain form, source by source (`SourceFoldTests`).
    @inlinable @_noLocks
    func foldSources(chunk: Int) {
        let first = chunk &* lanes
        switch simd {
        #if arch(x86_64)
        case .avx512: MixPathAVX512.MixPath.foldSources(sourceGainsFold, first: first)
        case .avx2: MixPathAVX2.MixPath.foldSources(sourceGainsFold, first: first)
        #endif
        default: MixPathBase.MixPath.foldSources(sourceGainsFold, first: first)
        }
    }

    /// Output m's gains folded for the period's end (`MixRows.fold`).
    @inlinable @_noLocks
    func foldGains(row m: Int, crosspoints: UnsafePointer<Float>, source: UnsafePointer<Float>) -> (moving: Bool, usageChanged: Bool) {
        switch simd {
        #if arch(x86_64)
        case .avx512: MixPathAVX512.MixPath.fold(rows, row: m, crosspoints: crosspoints, source: source, outputGain: outputGain[m], scale: riseScale)
        case .avx2: MixPathAVX2.MixPath.fold(rows, row: m, crosspoints: crosspoints, source: source, outputGain: outputGain[m], scale: riseScale)
        #endif
        default: MixPathBase.MixPath.fold(rows, row: m, crosspoints: crosspoints, source: source, outputGain: outputGain[m], scale: riseScale)
        }
    }

    /// Every moving chunk a period on (`RampArrays.advance`): `rampOutcome`
    /// says which still move.
    @inlinable @_noLocks
    func advanceChunks(frames: Int) {
        switch simd {
        #if arch(x86_64)
        case .avx512:
            MixPathAVX512.MixPath.advance(ramps, chunks: movingChunks, count: movingCount, lanes: lanes, levelChunk: levelChunk,
                                          periodsToResync: periodsToResync, frames: frames, outcome: rampOutcome)
        case .avx2:
            MixPathAVX2.MixPath.advance(ramps, chunks: movingChunks, count: movingCount, lanes: lanes, levelChunk: levelChunk,
                                        periodsToResync: periodsToResync, frames: frames, outcome: rampOutcome)
        #endif
        default:
            MixPathBase.MixPath.advance(ramps, chunks: movingChunks, count: movingCount, lanes: lanes, levelChunk: levelChunk,
                                        periodsToResync: periodsToResync, frames: frames, outcome: rampOutcome)
        }
    }
}
