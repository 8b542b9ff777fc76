import MixRows

/// Audio thread: the mixing loops. One 64-frame block of every output, by
/// groups of outputs that use every input, mixed 16 frames at a time with
/// their accumulators held in SIMD registers so that each input sample
/// loaded serves several outputs, or each output alone from its list of
/// inputs in use; and the scalar tail of a period that is not a multiple of
/// 64 frames. In one file: a debug build compiles file by file, and only
/// within a file are these helpers inlined.
extension MixRows {
    /// 64 frames of every output. Outputs that use every input are mixed in
    /// groups, 16 frames at a time, so that each input sample loaded serves
    /// several outputs: six (or four) at a time while nothing ramps, three
    /// while some gains ramp (each output then needs two accumulators, and
    /// AVX2 has 16 registers); settled, two at a time on SSE2 (`wideGroups`).
    /// Every other output is mixed alone from its list of inputs in use.
    @_noLocks
    func mixBlock(_ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, ramping: Bool, denseRows: Int) {
        guard denseRows > 0 else {
            mixEachAlone(input, output, start: start)
            return
        }
        // Groups of outputs that all use every input: six (or four) while
        // nothing ramps, three while something does; the rest alone.
        var m = 0
        while m < outputs {
            if ramping {
                if Self.wideRegisters && m + 4 <= outputs && isDense(m, 4)
                    && (rowRamping[m] || rowRamping[m + 1] || rowRamping[m + 2] || rowRamping[m + 3]) {
                    mixFourRampingWide(first: m, input, output, start: start)
                    m += 4
                    continue
                }
                if m + 3 <= outputs && isDense(m, 3) {
                    if rowRamping[m] || rowRamping[m + 1] || rowRamping[m + 2] {
                        for tile in 0..<4 { mixThreeRamping(first: m, input, output, start: start, tile: tile * 16) }
                    } else {
                        for tile in 0..<4 { mixThree(first: m, input, output, start: start, tile: tile * 16) }
                    }
                    m += 3
                    continue
                }
            } else if Self.wideRegisters && m + 8 <= outputs && isDense(m, 8) {
                for tile in 0..<2 { mixEightWide(first: m, input, output, start: start, tile: tile * 32) }
                m += 8
                continue
            } else if Self.wideGroups && m + 6 <= outputs && isDense(m, 6) {
                for tile in 0..<4 { mixSix(first: m, input, output, start: start, tile: tile * 16) }
                m += 6
                continue
            } else if Self.wideGroups && m + 4 <= outputs && isDense(m, 4) {
                for tile in 0..<4 { mixFour(first: m, input, output, start: start, tile: tile * 16) }
                m += 4
                continue
            }
            if m + 2 <= outputs && isDense(m, 2) {
                if rowRamping[m] || rowRamping[m + 1] {
                    for tile in 0..<4 { mixTwoRamping(first: m, input, output, start: start, tile: tile * 16) }
                } else {
                    for tile in 0..<4 { mixTwo(first: m, input, output, start: start, tile: tile * 16) }
                }
                m += 2
                continue
            }
            mixAlone(output: m, input, output, start: start)
            m += 1
        }
    }

    /// Whether settled outputs go by six or four: 16 frames of six outputs
    /// are 12 registers of 8 floats (AVX2, of 16), 6 of 16 (AVX-512, of 32)
    /// or 24 of 4 (NEON, of 32). SSE2 has 16 registers of 4: six spill, and
    /// settled outputs go by two there (measured: 64x64 21 → 17 µs, 256x256
    /// 617 → 321 µs). Ramping groups stay at three: by two was slower.
    static var wideGroups: Bool {
        #if FUSED_MULTIPLY_ADD || arch(arm64)
        true
        #else
        false
        #endif
    }

    /// Whether the wide tiles of MixRows+Wide.swift are used: the path was
    /// compiled for AVX-512 (32 registers of 16 floats).
    static var wideRegisters: Bool {
        #if WIDE_REGISTERS
        true
        #else
        false
        #endif
    }

    /// Whether outputs m ..< m + count all use every input.
    @inline(__always) @_noLocks
    func isDense(_ m: Int, _ count: Int) -> Bool {
        for r in m..<(m + count) where activeCount[r] != inputs { return false }
        return true
    }

    /// One output mixed alone from its list, among outputs mixed in groups.
    @inline(never) @_noLocks
    func mixAlone(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int) {
        mixOne(output: m, input, into: output[m] + start, start: start)
    }

    /// Every output mixed alone from its list (no output uses every input).
    @inline(never) @_noLocks
    func mixEachAlone(_ input: UnsafePointer<UnsafePointer<Float>>,
                      _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int) {
        for m in 0..<outputs { mixOne(output: m, input, into: output[m] + start, start: start) }
    }

    /// One output, 64 frames, from its list of inputs in use, in four 16-lane
    /// accumulators kept in registers; an output with nothing in use is silence.
    @inline(__always) @_noLocks
    func mixOne(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                into out: UnsafeMutablePointer<Float>, start: Int) {
        typealias V = SIMD16<Float>
        let o = UnsafeMutableRawPointer(out)
        let count = activeCount[m]
        guard count > 0 else {
            o.storeBytes(of: V(), as: V.self)
            o.storeBytes(of: V(), toByteOffset: 64, as: V.self)
            o.storeBytes(of: V(), toByteOffset: 128, as: V.self)
            o.storeBytes(of: V(), toByteOffset: 192, as: V.self)
            return
        }
        // (Wrapping arithmetic: these products are bounded by the sizes
        // allocated in init, and overflow checks cost instructions per output.)
        let dense = count == inputs
        let starts = dense ? gainStart + m &* inputStride : compactStart + m &* inputs
        let deltas = dense ? gainDelta + m &* inputStride : compactDelta + m &* inputs
        let offset = start &* 4
        let sources = gathered + m &* inputs
        if !gatheredValid[m] {
            let list = activeInputs + m &* inputs
            for j in 0..<count { sources[j] = UnsafeRawPointer(input[Int(list[j])]) }
            gatheredValid[m] = true
        }
        // The first input sets the accumulators: a lone crosspoint at unity
        // passes its input through bit for bit (−0 included).
        let g = V(repeating: starts[0])
        let x = sources[0].advanced(by: offset)
        var a0 = x.loadUnaligned(as: V.self) * g
        var a1 = x.loadUnaligned(fromByteOffset: 64, as: V.self) * g
        var a2 = x.loadUnaligned(fromByteOffset: 128, as: V.self) * g
        var a3 = x.loadUnaligned(fromByteOffset: 192, as: V.self) * g
        for j in 1..<count {
            let g = V(repeating: starts[j])
            let x = sources[j].advanced(by: offset)
            a0 = multiplyAdd(a0, x.loadUnaligned(as: V.self), g)
            a1 = multiplyAdd(a1, x.loadUnaligned(fromByteOffset: 64, as: V.self), g)
            a2 = multiplyAdd(a2, x.loadUnaligned(fromByteOffset: 128, as: V.self), g)
            a3 = multiplyAdd(a3, x.loadUnaligned(fromByteOffset: 192, as: V.self), g)
        }
        if rowRamping[m] {
            // Σ d·x in a second set of accumulators (the first set waits in
            // the output buffer), then y = Σ g0·x + t·Σ d·x, d a gain's change
            // per 16 frames and t = (k + 1)/16.
            o.storeBytes(of: a0, as: V.self)
            o.storeBytes(of: a1, toByteOffset: 64, as: V.self)
            o.storeBytes(of: a2, toByteOffset: 128, as: V.self)
            o.storeBytes(of: a3, toByteOffset: 192, as: V.self)
            var b0 = V(), b1 = V(), b2 = V(), b3 = V()
            for j in 0..<count {
                let step = deltas[j]
                if step == 0 { continue }
                let d = V(repeating: step)
                let x = sources[j].advanced(by: offset)
                b0 = multiplyAdd(b0, x.loadUnaligned(as: V.self), d)
                b1 = multiplyAdd(b1, x.loadUnaligned(fromByteOffset: 64, as: V.self), d)
                b2 = multiplyAdd(b2, x.loadUnaligned(fromByteOffset: 128, as: V.self), d)
                b3 = multiplyAdd(b3, x.loadUnaligned(fromByteOffset: 192, as: V.self), d)
            }
            let t = UnsafeRawPointer(sixteenths + start)
            a0 = multiplyAdd(o.loadUnaligned(as: V.self), b0, t.loadUnaligned(as: V.self))
            a1 = multiplyAdd(o.loadUnaligned(fromByteOffset: 64, as: V.self), b1, t.loadUnaligned(fromByteOffset: 64, as: V.self))
            a2 = multiplyAdd(o.loadUnaligned(fromByteOffset: 128, as: V.self), b2, t.loadUnaligned(fromByteOffset: 128, as: V.self))
            a3 = multiplyAdd(o.loadUnaligned(fromByteOffset: 192, as: V.self), b3, t.loadUnaligned(fromByteOffset: 192, as: V.self))
        }
        o.storeBytes(of: Self.sanitized(a0), as: V.self)
        o.storeBytes(of: Self.sanitized(a1), toByteOffset: 64, as: V.self)
        o.storeBytes(of: Self.sanitized(a2), toByteOffset: 128, as: V.self)
        o.storeBytes(of: Self.sanitized(a3), toByteOffset: 192, as: V.self)
    }

    /// A block shorter than 64 frames (the end of a period that is not a
    /// multiple of 64), sample by sample.
    @_noLocks
    func mixTail(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                 into out: UnsafeMutablePointer<Float>, start: Int, length: Int) {
        for k in 0..<length { out[k] = 0 }
        let list = activeInputs + m * inputs
        let starts = gainStart + m * inputStride
        let deltas = gainDelta + m * inputStride
        let ramping = rowRamping[m]
        for j in 0..<activeCount[m] {
            let n = Int(list[j])
            let g0 = starts[n], d = deltas[n]
            let x = input[n] + start
            let t = sixteenths + start
            if !ramping || d == 0 {
                for k in 0..<length { out[k] += g0 * x[k] }
            } else {
                for k in 0..<length { out[k] += g0 * x[k] + d * (t[k] * x[k]) }
            }
        }
        for k in 0..<length { out[k] = Self.sanitized(out[k]) }
    }

    /// Six outputs that use every input, settled, 16 frames from `start + tile`:
    /// twelve accumulator registers, each input's 16 samples loaded once.
    @_noLocks
    func mixSix(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride, g3 = g2 + inputStride
        let g4 = g3 + inputStride, g5 = g4 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V(), d = V(), e = V(), f = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = multiplyAdd(a, x, V(repeating: g0[n]))
            b = multiplyAdd(b, x, V(repeating: g1[n]))
            c = multiplyAdd(c, x, V(repeating: g2[n]))
            d = multiplyAdd(d, x, V(repeating: g3[n]))
            e = multiplyAdd(e, x, V(repeating: g4[n]))
            f = multiplyAdd(f, x, V(repeating: g5[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(c), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 3]).storeBytes(of: Self.sanitized(d), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 4]).storeBytes(of: Self.sanitized(e), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 5]).storeBytes(of: Self.sanitized(f), toByteOffset: offset, as: V.self)
    }

    /// Four outputs that use every input, settled, 16 frames from `start + tile`.
    @_noLocks
    func mixFour(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                 _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride, g3 = g2 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V(), d = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = multiplyAdd(a, x, V(repeating: g0[n]))
            b = multiplyAdd(b, x, V(repeating: g1[n]))
            c = multiplyAdd(c, x, V(repeating: g2[n]))
            d = multiplyAdd(d, x, V(repeating: g3[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(c), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 3]).storeBytes(of: Self.sanitized(d), toByteOffset: offset, as: V.self)
    }

    /// Two outputs that use every input, settled, 16 frames (what is left
    /// over after the groups of six, four or three).
    @_noLocks
    func mixTwo(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride, g1 = g0 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = multiplyAdd(a, x, V(repeating: g0[n]))
            b = multiplyAdd(b, x, V(repeating: g1[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
    }

    /// Two outputs that use every input, some gains moving, 16 frames.
    @_noLocks
    func mixTwoRamping(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                       _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride, g1 = g0 + inputStride
        let d0 = gainDelta + m * inputStride, d1 = d0 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), da = V(), db = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = multiplyAdd(a, x, V(repeating: g0[n]))
            da = multiplyAdd(da, x, V(repeating: d0[n]))
            b = multiplyAdd(b, x, V(repeating: g1[n]))
            db = multiplyAdd(db, x, V(repeating: d1[n]))
        }
        let t = UnsafeRawPointer(sixteenths + start + tile).loadUnaligned(as: V.self)
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(multiplyAdd(a, da, t)), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(multiplyAdd(b, db, t)), toByteOffset: offset, as: V.self)
    }

    /// Three outputs that use every input, settled (while others ramp), 16 frames.
    @_noLocks
    func mixThree(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = multiplyAdd(a, x, V(repeating: g0[n]))
            b = multiplyAdd(b, x, V(repeating: g1[n]))
            c = multiplyAdd(c, x, V(repeating: g2[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(c), toByteOffset: offset, as: V.self)
    }

    /// Three outputs that use every input, some gains moving, 16 frames: per
    /// output one accumulator for Σ g0·x and one for Σ d·x, so no two
    /// multiply-adds in a row wait for each other; then y = Σ g0·x + t·Σ d·x
    /// with d a gain's change per 16 frames and t = (k + 1)/16.
    @_noLocks
    func mixThreeRamping(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                         _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride
        let d0 = gainDelta + m * inputStride
        let d1 = d0 + inputStride, d2 = d1 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V(), da = V(), db = V(), dc = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = multiplyAdd(a, x, V(repeating: g0[n]))
            da = multiplyAdd(da, x, V(repeating: d0[n]))
            b = multiplyAdd(b, x, V(repeating: g1[n]))
            db = multiplyAdd(db, x, V(repeating: d1[n]))
            c = multiplyAdd(c, x, V(repeating: g2[n]))
            dc = multiplyAdd(dc, x, V(repeating: d2[n]))
        }
        let t = UnsafeRawPointer(sixteenths + start + tile).loadUnaligned(as: V.self)
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(multiplyAdd(a, da, t)), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(multiplyAdd(b, db, t)), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(multiplyAdd(c, dc, t)), toByteOffset: offset, as: V.self)
    }

    /// a + x·g: one fused multiply-add (one rounding) where the CPU has one
    /// (x86-64-v3 and up, every aarch64), a multiplication and an addition
    /// (two roundings) on SSE2. Swift's `addingProduct` is always fused: on
    /// a CPU without FMA it is a call to the C library's `fmaf` per lane,
    /// exact but some 20 times slower than the two instructions.
    @inline(__always) @_noLocks
    func multiplyAdd(_ a: SIMD16<Float>, _ x: SIMD16<Float>, _ g: SIMD16<Float>) -> SIMD16<Float> {
        #if FUSED_MULTIPLY_ADD || arch(arm64)
        a.addingProduct(x, g)
        #else
        a + x * g
        #endif
    }
}
