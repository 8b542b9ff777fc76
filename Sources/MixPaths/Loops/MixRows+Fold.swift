import MixRows

/// Audio thread: a row of crosspoint gains folded for the period's end.
extension MixRows {
    /// Output m's gains at the end of the period (its row of `crosspoints`
    /// · source · pan side, `source` · output, `outputGain`), anything not
    /// finite or outside [10⁻²⁰, 10⁶] in size set to 0; the old end made the start
    /// and the change per 16 frames stored (the change over the period ·
    /// `scale`, 16/frames); `inUse` marks what is in use.
    /// Returns whether any gain moves, and whether the set in use changed.
    @_noLocks
    func fold(row m: Int, crosspoints: UnsafePointer<Float>, source: UnsafePointer<Float>,
              outputGain: Float, scale: Float) -> (moving: Bool, usageChanged: Bool) {
        // Sixteen gains a step where a register holds sixteen floats (AVX-512;
        // `inputStride` is a multiple of 16), eight elsewhere.
        #if WIDE_REGISTERS
        typealias V = SIMD16<Float>
        typealias I = SIMD16<Int32>
        #else
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        #endif
        let row = m &* inputStride
        let out = V(repeating: outputGain), rise = V(repeating: scale)
        let yes = I(repeating: -1)
        // Integer accumulators (−1 where something happened): cheaper to
        // combine across iterations than masks.
        var changes = I(), usage = I()
        var o = 0
        while o < inputStride {
            let x = UnsafeRawPointer(crosspoints + o).loadUnaligned(as: V.self)
            let s = UnsafeRawPointer(source + o).loadUnaligned(as: V.self)
            var g1 = x * s * out
            // No denormals and nothing non-finite ever reaches the mix (a
            // gain may be negative: polarity). NaN fails both tests.
            let size = g1.replacing(with: -g1, where: g1 .< V())
            g1 = V().replacing(with: g1, where: (size .>= V(repeating: 1e-20)) .& (size .<= V(repeating: 1e6)))
            let g0 = UnsafeRawPointer(gainEnd + row + o).loadUnaligned(as: V.self)
            UnsafeMutableRawPointer(gainStart + row + o).storeBytes(of: g0, as: V.self)
            UnsafeMutableRawPointer(gainEnd + row + o).storeBytes(of: g1, as: V.self)
            UnsafeMutableRawPointer(gainDelta + row + o).storeBytes(of: (g1 - g0) * rise, as: V.self)
            changes |= I().replacing(with: yes, where: g1 .!= g0)
            let used = I().replacing(with: yes, where: (g0 .!= V()) .| (g1 .!= V()))
            let before = UnsafeRawPointer(inUse + row + o).loadUnaligned(as: I.self)
            usage |= used ^ before
            UnsafeMutableRawPointer(inUse + row + o).storeBytes(of: used, as: I.self)
            o += V.scalarCount
        }
        return (changes != I(), usage != I())
    }
}
