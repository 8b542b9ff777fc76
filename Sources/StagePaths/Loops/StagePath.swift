import Dynamics
import Shaping

/// The stages before and after the mix on one SIMD path: the EQ
/// (`Equalisers`) and the limiters (`Limiters`). As `MixPath` does for the
/// mixing loops, this source is compiled once per CPU level, each time into
/// a module of its own with its own code generation flags (Package.swift:
/// `StagePathBase`, `StagePathAVX2`, `StagePathAVX512`), and the render
/// kernel calls the one its `SIMDPath` names.
///
/// The stages' loops live beside this file, as extensions of the stages'
/// types (`Equalisers+Process.swift`, `Limiters+Process.swift`), internal
/// to each build, so that every call among them is compiled for its CPU:
/// eight lanes are one AVX register, with fused multiply-adds where the
/// code asks for them, instead of two SSE ones. (Code left `@inlinable` in
/// Shaping or Dynamics would not do: what the optimiser chose not to inline
/// was called in its baseline build.) The stages' types keep their storage
/// public for these loops. A call comes once per stage and period.
public enum StagePath {
    /// `Equalisers.process`, on this path.
    @_noLocks
    public static func equalise(_ stage: inout Equalisers, _ input: UnsafePointer<UnsafePointer<Float>>,
                                _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                                routes: UnsafeMutablePointer<UnsafePointer<Float>>?, count: Int, frames: Int,
                                values: UnsafePointer<UnsafePointer<Float>>, sampleRate: Float, moved: Bool) {
        stage.process(input, output, routes: routes, count: count, frames: frames, values: values,
                      sampleRate: sampleRate, moved: moved)
    }

    /// `Limiters.process`, on this path.
    @_noLocks
    public static func limit(_ stage: inout Limiters, _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                             count: Int, frames: Int, on: UnsafePointer<Float>, ceiling: UnsafePointer<Float>,
                             release: UnsafePointer<Float>, lookahead: UnsafePointer<Float>,
                             linked: UnsafePointer<Int32>, sampleRate: Float) {
        stage.process(output, count: count, frames: frames, on: on, ceiling: ceiling, release: release,
                      lookahead: lookahead, linked: linked, sampleRate: sampleRate)
    }
}

/// a + x·y, fused where this path's CPU has the instruction (one rounding,
/// one operation), else a product and a sum.
@inline(__always) @_noLocks
func multiplyAdd(_ a: SIMD8<Float>, _ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Float> {
    #if FUSED_MULTIPLY_ADD || arch(arm64)
    a.addingProduct(x, y)
    #else
    a + x * y
    #endif
}

/// Eight vectors of eight as the rows of a matrix, transposed: the i-th
/// lane of every row becomes row i. Eight channels' runs of eight samples
/// become eight frames of eight channels, and back. Three perfect
/// unshuffles of the 64 values (`unshuffled`) turn the index's bits round
/// by three: row and column change places.
@inline(__always) @_noLocks
func transposed(_ m: Rows) -> Rows {
    unshuffled(unshuffled(unshuffled(m)))
}

/// Eight rows of a matrix.
typealias Rows = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>,
                  SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

/// The 64 values of eight rows, the even ones first, then the odd ones.
@inline(__always) @_noLocks
func unshuffled(_ r: Rows) -> Rows {
    typealias V = SIMD8<Float>
    return (V(lowHalf: r.0.evenHalf, highHalf: r.1.evenHalf), V(lowHalf: r.2.evenHalf, highHalf: r.3.evenHalf),
            V(lowHalf: r.4.evenHalf, highHalf: r.5.evenHalf), V(lowHalf: r.6.evenHalf, highHalf: r.7.evenHalf),
            V(lowHalf: r.0.oddHalf, highHalf: r.1.oddHalf), V(lowHalf: r.2.oddHalf, highHalf: r.3.oddHalf),
            V(lowHalf: r.4.oddHalf, highHalf: r.5.oddHalf), V(lowHalf: r.6.oddHalf, highHalf: r.7.oddHalf))
}
