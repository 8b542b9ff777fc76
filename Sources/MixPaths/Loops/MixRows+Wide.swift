import MixRows

/// Audio thread: the mixing loops' tiles for CPUs with 32 vector registers
/// of 16 floats (AVX-512; `wideRegisters`, in MixRows+Loops.swift). The
/// tiles of MixRows+Loops.swift hold 16 frames of six outputs: on AVX-512
/// that is six registers, six chains of multiply-adds, too few to keep two
/// FMA units busy (each result waits four cycles for the one before). These
/// hold 32 frames (two registers) of eight outputs settled, sixteen chains,
/// or 64 frames (four registers) of four outputs ramping, sixteen chains:
/// each input's loads serve sixteen multiply-adds. BENCHMARKS.md, "SIMD
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

    /// Four outputs that use every input, some gains moving, the 64 frames
    /// from `start`: y = Σ (g0 + r·u)·x, r a gain's change per 16 frames
    /// (`gainDelta`) and u = (k + 1)/16 (`sixteenths`). Each gain is a
    /// vector of 16 frames, g0 + r·u for the first 16 and then stepped by
    /// r: an addition, which Zen's adders take beside the FMA units, where
    /// Σ g0·x + u·Σ r·x is two multiply-adds a crosspoint and frame. Five
    /// FMA-unit operations a crosspoint and 64 frames, not eight.
    @_noLocks
    func mixFourRampingWide(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                            _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m &* inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride, g3 = g2 + inputStride
        let r0 = gainDelta + m &* inputStride
        let r1 = r0 + inputStride, r2 = r1 + inputStride, r3 = r2 + inputStride
        let offset = start &* 4
        let u = UnsafeRawPointer(sixteenths + start).loadUnaligned(as: V.self)
        let zero = (V(), V(), V(), V())
        var (a, b, c, e) = (zero, zero, zero, zero)
        for n in 0..<inputs {
            let x = frames64(input[n], offset)
            ramp(&a, x, g0[n], r0[n], u); ramp(&b, x, g1[n], r1[n], u)
            ramp(&c, x, g2[n], r2[n], u); ramp(&e, x, g3[n], r3[n], u)
        }
        store(a, output[m], offset); store(b, output[m &+ 1], offset)
        store(c, output[m &+ 2], offset); store(e, output[m &+ 3], offset)
    }

    typealias Frames64 = (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>)

    /// The 64 frames at byte `offset` of a buffer.
    @inline(__always) @_noLocks
    func frames64(_ p: UnsafePointer<Float>, _ offset: Int) -> Frames64 {
        let r = UnsafeRawPointer(p) + offset
        return (r.loadUnaligned(as: SIMD16<Float>.self), r.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self),
                r.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self),
                r.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self))
    }

    /// a += x·(g0 + r·u), 64 frames: u for the first 16, then the gain
    /// stepped by its rise r.
    @inline(__always) @_noLocks
    func ramp(_ a: inout Frames64, _ x: Frames64, _ g0: Float, _ r: Float, _ u: SIMD16<Float>) {
        let rise = SIMD16<Float>(repeating: r)
        var gain = multiplyAdd(SIMD16<Float>(repeating: g0), rise, u)
        a.0 = multiplyAdd(a.0, x.0, gain)
        gain += rise
        a.1 = multiplyAdd(a.1, x.1, gain)
        gain += rise
        a.2 = multiplyAdd(a.2, x.2, gain)
        gain += rise
        a.3 = multiplyAdd(a.3, x.3, gain)
    }

    /// 64 frames of an output at byte `offset`, cleaned (`sanitized`).
    @_transparent @_noLocks
    func store(_ v: Frames64, _ out: UnsafeMutablePointer<Float>, _ offset: Int) {
        store((v.0, v.1), out, offset)
        store((v.2, v.3), out, offset &+ 128)
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

    /// 32 frames of an output at byte `offset`, cleaned (`sanitized`).
    @_transparent @_noLocks
    func store(_ v: Frames32, _ out: UnsafeMutablePointer<Float>, _ offset: Int) {
        // (Both in one store: of sixteen stores a tile, the optimiser left
        // five out of line, a call each.)
        (UnsafeMutableRawPointer(out) + offset).storeBytes(of: (Self.sanitized(v.0), Self.sanitized(v.1)),
                                                           as: Frames32.self)
    }
}
