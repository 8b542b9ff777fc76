import Shaping
import StagePathAVX2
import StagePathAVX512
import StagePathBase

/// The EQ stages (`Equalisers`): the sources' before the mix, the outputs'
/// after it. Their settings are ramps of the kernel's (`RampBlock.Role.eq`),
/// which the stages read at each period's end.
extension RenderKernel {
    /// Audio thread: runs the sources' EQ and returns the buffers the mix
    /// reads: a source's own while its EQ is flat, its shaped copy while it
    /// runs.
    @inlinable @_noLocks
    mutating func shapeSources(_ input: UnsafePointer<UnsafePointer<Float>>, frames: Int) -> UnsafePointer<UnsafePointer<Float>> {
        guard hasSourceEQ else { return input }
        // Nothing moved and nothing runs: every source as it is.
        let moved = wake(4)
        if !moved && sourceEQ.isQuiet(at: sampleRate) { return input }
        Self.equalise(on: simd, &sourceEQ, input, UnsafePointer(shaped.buffers), routes: shaped.routes, count: inputs, frames: frames,
                      values: UnsafePointer(sourceEQValues), sampleRate: sampleRate, moved: moved)
        return UnsafePointer(shaped.routes)
    }

    /// Audio thread: runs the outputs' EQ on their buffers, in place.
    @inlinable @_noLocks
    mutating func shapeOutputs(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        guard hasOutputEQ else { return }
        let moved = wake(8)
        if !moved && outputEQ.isQuiet(at: sampleRate) { return }
        let asInput = UnsafeRawPointer(output).assumingMemoryBound(to: UnsafePointer<Float>.self)
        Self.equalise(on: simd, &outputEQ, asInput, output, routes: nil, count: outputs, frames: frames,
                      values: UnsafePointer(outputEQValues), sampleRate: sampleRate, moved: moved)
    }

    /// `Equalisers.process` on the SIMD path `simd` (`StagePath`).
    @inlinable @_noLocks
    static func equalise(on simd: SIMDPath, _ stage: inout Equalisers, _ input: UnsafePointer<UnsafePointer<Float>>,
                         _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                         routes: UnsafeMutablePointer<UnsafePointer<Float>>?, count: Int, frames: Int,
                         values: UnsafePointer<UnsafePointer<Float>>, sampleRate: Float, moved: Bool) {
        switch simd {
        #if arch(x86_64)
        case .avx512:
            StagePathAVX512.StagePath.equalise(&stage, input, output, routes: routes, count: count, frames: frames,
                                               values: values, sampleRate: sampleRate, moved: moved)
        case .avx2:
            StagePathAVX2.StagePath.equalise(&stage, input, output, routes: routes, count: count, frames: frames,
                                             values: values, sampleRate: sampleRate, moved: moved)
        #endif
        default:
            StagePathBase.StagePath.equalise(&stage, input, output, routes: routes, count: count, frames: frames,
                                             values: values, sampleRate: sampleRate, moved: moved)
        }
    }

    /// Control side: a strip's EQ as `layout` has it: its bands, whether it
    /// has a high cut, and per value of its stage (`Equalisers.index`'s
    /// order) the first slot of the block holding it (−1: none). Nil for a
    /// strip without EQ.
    static func eqBlocks(_ layout: RampLayout, _ strip: RampBlock.Strip) -> (bands: Int, highCut: Bool, bases: [Int])? {
        var base: [RampBlock.EQField: Int] = [:]
        for (b, block) in layout.blocks.enumerated() where block.strip == strip {
            if case .eq(let field) = block.role { base[field] = layout.blockBase[b] }
        }
        guard !base.isEmpty else { return nil }
        let bands = base.keys.map { if case .band(let b, _) = $0 { b } else { 0 } }.max() ?? 0
        let highCut = base.keys.contains { if case .cut(.high, _) = $0 { true } else { false } }
        var order: [RampBlock.EQField] = [.on, .cut(.low, .on), .cut(.low, .frequency), .cut(.low, .slope)]
        if highCut { order += [.cut(.high, .on), .cut(.high, .frequency), .cut(.high, .slope)] }
        for b in stride(from: 1, through: bands, by: 1) {
            order += [.band(b, .shape), .band(b, .frequency), .band(b, .gain), .band(b, .q), .band(b, .on)]
        }
        return (bands, highCut, order.map { base[$0] ?? -1 })
    }
}
