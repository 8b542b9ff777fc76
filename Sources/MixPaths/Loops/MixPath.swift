import MixRows

/// The mixing loops of one SIMD path. This source is compiled once per CPU
/// level, each time into a module of its own with its own code generation
/// flags (Package.swift: `MixPathBase`, `MixPathAVX2`, `MixPathAVX512`);
/// the render kernel calls the one the CPU has (`SIMDPath`). Calls are
/// per 64-frame block, so a call that is not inlined costs nothing.
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
}
