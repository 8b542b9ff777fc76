import MixRows

/// The audio thread's hot loops on one SIMD path: the mix, the fold of a
/// row's gains, moving ramps a period on. This source is compiled
/// once per CPU level, each time into a module of its own with its own code
/// generation flags (Package.swift: `MixPathBase`, `MixPathAVX2`,
/// `MixPathAVX512`); the render kernel calls the one the CPU has
/// (`SIMDPath`). The calls come per 64-frame block, per row and per period,
/// so that they are not inlined costs next to nothing.
///
/// The entry points are `@_noLocks` and public: the kernel's own
/// `@_noLocks` code may call them across the module boundary because the
/// compiler checks each of them here, in the module that holds the body.
public enum MixPath {
    /// 64 frames of every output, from frame `start` of the period.
    /// `denseRows`: outputs that use every input.
    @_noLocks
    public static func mixBlock(_ rows: MixRows, _ input: UnsafePointer<UnsafePointer<Float>>,
                                _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                                start: Int, ramping: Bool, denseRows: Int) {
        rows.mixBlock(input, output, start: start, ramping: ramping, denseRows: denseRows)
    }

    /// The `length` frames from `start` of every output, sample by sample
    /// (a period that is not a multiple of 64 frames).
    @_noLocks
    public static func mixTail(_ rows: MixRows, _ input: UnsafePointer<UnsafePointer<Float>>,
                               _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, length: Int) {
        for m in 0..<rows.outputs {
            rows.mixTail(output: m, input, into: output[m] + start, start: start, length: length)
        }
    }

    /// Output m's gains folded for the period's end from its row of
    /// `crosspoints`, the sources' gains `source` and the output's
    /// `outputGain`, their change per 16 frames at `scale` (16/frames):
    /// whether any moves, and whether the set in use changed.
    @_noLocks
    public static func fold(_ rows: MixRows, row m: Int, crosspoints: UnsafePointer<Float>, source: UnsafePointer<Float>,
                            outputGain: Float, scale: Float) -> (moving: Bool, usageChanged: Bool) {
        rows.fold(row: m, crosspoints: crosspoints, source: source, outputGain: outputGain, scale: scale)
    }

    /// The sixteen sources from `first`: their gains before the matrix
    /// (`SourceGains.fold`).
    @_noLocks
    public static func foldSources(_ sources: SourceGains, first: Int) {
        sources.fold(first: first)
    }

    /// The moving chunks listed in `chunks` a period on
    /// (`RampArrays.advance`); `outcome[c]`: 1 still moving, 0 landed.
    @_noLocks
    public static func advance(_ ramps: RampArrays, chunks: UnsafePointer<Int32>, count: Int, lanes: Int,
                               levelChunk: UnsafePointer<Bool>, periodsToResync: UnsafeMutablePointer<Int32>,
                               frames: Int, outcome: UnsafeMutablePointer<Int8>) {
        ramps.advance(chunks: chunks, count: count, lanes: lanes, levelChunk: levelChunk,
                      periodsToResync: periodsToResync, frames: frames, outcome: outcome)
    }
}
