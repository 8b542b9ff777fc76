import MixRows

/// Audio thread: the mixing loops' tiles for CPUs with 32 vector registers
/// of 16 floats (AVX-512; `wideRegisters`, in MixRows+Loops.swift). The
/// tiles of MixRows+Loops.swift hold 16 frames of six outputs: on AVX-512
/// that is six registers, six chains of multiply-adds, too few to keep two
/// FMA units busy (each result waits four cycles for the one before). These
/// hold 32 frames (two registers) of eight outputs settled, sixteen chains,
/// or of four outputs ramping, eight for Σ g0·x and eight for Σ d·x: each
/// input's two loads serve sixteen multiply-adds. BENCHMARKS.md, "SIMD
/// paths", measures them against the FMA units' peak.
extension MixRows {
    typealias Frames32 = (SIMD16<Float>, SIMD16<Float>)

    /// Eight outputs that use every input, settled, 32 frames from `start + tile`.
    @_noLocks
    func mixEightWide(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                      _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        let g0 = gainStart + m &* inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride, g3 = g2 + inputStride
        let g4 = g3 + inputStride, g5 = g4 + inputStride, g6 = g5 + inputStride, g7 = g6 + inputStride
        let offset = (start &+ tile) &* 4
        let zero = (SIMD16<Float>(), SIMD16<Float>())
        var (a, b, c, d, e, f, g, h) = (zero, zero, zero, zero, zero, zero, zero, zero)
        for n in 0..<inputs {
            let x = frames32(input[n], offset)
            add(&a, x, g0[n]); add(&b, x, g1[n]); add(&c, x, g2[n]); add(&d, x, g3[n])
            add(&e, x, g4[n]); add(&f, x, g5[n]); add(&g, x, g6[n]); add(&h, x, g7[n])
        }
        store(a, output[m], offset); store(b, output[m &+ 1], offset)
        store(c, output[m &+ 2], offset); store(d, output[m &+ 3], offset)
        store(e, output[m &+ 4], offset); store(f, output[m &+ 5], offset)
        store(g, output[m &+ 6], offset); store(h, output[m &+ 7], offset)
    }

    /// Four outputs that use every input, some gains moving, 32 frames from
    /// `start + tile`: y = Σ g0·x + t·Σ d·x, t = (k + 1)/frames.
    @_noLocks
    func mixFourRampingWide(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                            _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        let g0 = gainStart + m &* inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride, g3 = g2 + inputStride
        let d0 = gainDelta + m &* inputStride
        let d1 = d0 + inputStride, d2 = d1 + inputStride, d3 = d2 + inputStride
        let offset = (start &+ tile) &* 4
        let zero = (SIMD16<Float>(), SIMD16<Float>())
        var (a, b, c, e) = (zero, zero, zero, zero)
        var (da, db, dc, de) = (zero, zero, zero, zero)
        for n in 0..<inputs {
            let x = frames32(input[n], offset)
            add(&a, x, g0[n]); add(&da, x, d0[n]); add(&b, x, g1[n]); add(&db, x, d1[n])
            add(&c, x, g2[n]); add(&dc, x, d2[n]); add(&e, x, g3[n]); add(&de, x, d3[n])
        }
        let t = frames32(UnsafePointer(progress), (start &+ tile) &* 4)
        store(ramped(a, da, t), output[m], offset); store(ramped(b, db, t), output[m &+ 1], offset)
        store(ramped(c, dc, t), output[m &+ 2], offset); store(ramped(e, de, t), output[m &+ 3], offset)
    }

    /// The 32 frames at byte `offset` of a buffer.
    @inline(__always) @_noLocks
    func frames32(_ p: UnsafePointer<Float>, _ offset: Int) -> Frames32 {
        let r = UnsafeRawPointer(p) + offset
        return (r.loadUnaligned(as: SIMD16<Float>.self), r.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self))
    }

    /// a += x·gain, 32 frames.
    @inline(__always) @_noLocks
    func add(_ a: inout Frames32, _ x: Frames32, _ gain: Float) {
        let g = SIMD16<Float>(repeating: gain)
        a = (multiplyAdd(a.0, x.0, g), multiplyAdd(a.1, x.1, g))
    }

    /// Σ g0·x + t·Σ d·x, 32 frames.
    @inline(__always) @_noLocks
    func ramped(_ a: Frames32, _ d: Frames32, _ t: Frames32) -> Frames32 {
        (multiplyAdd(a.0, d.0, t.0), multiplyAdd(a.1, d.1, t.1))
    }

    /// 32 frames of an output at byte `offset`, cleaned (`sanitized`).
    @inline(__always) @_noLocks
    func store(_ v: Frames32, _ out: UnsafeMutablePointer<Float>, _ offset: Int) {
        let o = UnsafeMutableRawPointer(out) + offset
        o.storeBytes(of: Self.sanitized(v.0), as: SIMD16<Float>.self)
        o.storeBytes(of: Self.sanitized(v.1), toByteOffset: 64, as: SIMD16<Float>.self)
    }
}
