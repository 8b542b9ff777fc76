import MixRows

/// Audio thread: moving ramps a period on: levels along the fader law
/// (exactly, or by a per-period ratio within one segment of the law), pans
/// and gates linearly. `RenderKernel+Ramps` keeps the list of moving chunks.
extension RampArrays {
    /// The `count` chunks of 16 ramps listed in `chunks`, each a period on:
    /// a chunk of pans or gates linearly; a level chunk by its ratios, or
    /// exactly by the fader law when it is due (`periodsToResync`, counted
    /// down here) or a ramp leaves its segment of the law. `outcome[c]`: 1
    /// if any ramp of chunk c still moves, 0 if all landed.
    @_noLocks
    func advance(chunks: UnsafePointer<Int32>, count: Int, lanes: Int, levelChunk: UnsafePointer<Bool>,
                 periodsToResync: UnsafeMutablePointer<Int32>, frames: Int, outcome: UnsafeMutablePointer<Int8>) {
        for c in 0..<count {
            let chunk = Int(chunks[c])
            let base = chunk &* lanes
            let moving: Bool
            if !levelChunk[chunk] {
                moving = advanceLinearly(at: base, frames: frames)
            } else if periodsToResync[chunk] > 0, let byRatio = advanceByRatio(at: base, frames: frames) {
                periodsToResync[chunk] -= 1
                moving = byRatio
            } else {
                moving = advanceExactly(chunk, at: base, frames: frames, periodsToResync: periodsToResync)
            }
            outcome[c] = moving ? 1 : 0
        }
    }

    #if WIDE_REGISTERS
    /// The common case of a moving level chunk: each gain times its ratio.
    /// Returns nil, having changed nothing, if a ramp would leave its segment
    /// of the fader law or reach silence (the exact path handles it). With
    /// registers of sixteen floats (AVX-512) the chunk is one vector and a
    /// mask of sixteen one register: the halves below, lane for lane, in one.
    @inline(__always) @_noLocks
    func advanceByRatio(at base: Int, frames: Int) -> Bool? {
        typealias V = SIMD16<Float>
        typealias I = SIMD16<Int32>
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let f = V(repeating: Float(frames))
        let r = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let goes = r .> n
        let lands = (r .> I()) .& (r .<= n)
        let p0 = UnsafeRawPointer(position + base).loadUnaligned(as: V.self)
        let stepped = p0 + UnsafeRawPointer(step + base).loadUnaligned(as: V.self) * f
        let t1 = V(repeating: 0.0625), t2 = V(repeating: 0.25), t3 = V(repeating: 0.5)
        let crossed = ((p0 .>= t1) .^ (stepped .>= t1)) .| ((p0 .>= t2) .^ (stepped .>= t2))
            .| ((p0 .>= t3) .^ (stepped .>= t3)) .| (stepped .<= V())
        if anyLane(goes .& crossed) { return nil }
        let v0 = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let p1 = p0.replacing(with: stepped, where: goes)
            .replacing(with: UnsafeRawPointer(targetPosition + base).loadUnaligned(as: V.self), where: lands)
        let v1 = v0.replacing(with: v0 * UnsafeRawPointer(ratio + base).loadUnaligned(as: V.self), where: goes)
            .replacing(with: UnsafeRawPointer(targetValue + base).loadUnaligned(as: V.self), where: lands)
        UnsafeMutableRawPointer(position + base).storeBytes(of: p1, as: V.self)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1, as: V.self)
        let r1 = r.replacing(with: r &- n, where: goes).replacing(with: I(), where: lands)
        UnsafeMutableRawPointer(remaining + base).storeBytes(of: r1, as: I.self)
        // Still moving: frames remain (the lanes that go, as `anyLane(goes)`,
        // which the optimiser reduced lane by lane here, 30 instructions).
        return anyLane(r1 .> I())
    }
    #else
    /// The common case of a moving level chunk: each gain times its ratio.
    /// Returns nil, having changed nothing, if a ramp would leave its segment
    /// of the fader law or reach silence (the exact path handles it).
    /// Position and value are computed for both halves of 8 lanes (on AVX2 an
    /// 8-lane mask is one register) before anything is stored.
    @inline(__always) @_noLocks
    func advanceByRatio(at base: Int, frames: Int) -> Bool? {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let f = V(repeating: Float(frames))
        let rA = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let rB = UnsafeRawPointer(remaining + base + 8).loadUnaligned(as: I.self)
        let goesA = rA .> n, goesB = rB .> n
        let landsA = (rA .> I()) .& (rA .<= n), landsB = (rB .> I()) .& (rB .<= n)
        let p0A = UnsafeRawPointer(position + base).loadUnaligned(as: V.self)
        let p0B = UnsafeRawPointer(position + base + 8).loadUnaligned(as: V.self)
        let steppedA = p0A + UnsafeRawPointer(step + base).loadUnaligned(as: V.self) * f
        let steppedB = p0B + UnsafeRawPointer(step + base + 8).loadUnaligned(as: V.self) * f
        // A segment boundary lies between the old and new position, or the
        // new one is silence. (Written out: the optimiser does not inline a
        // helper here.)
        let t1 = V(repeating: 0.0625), t2 = V(repeating: 0.25), t3 = V(repeating: 0.5)
        let crossedA = ((p0A .>= t1) .^ (steppedA .>= t1)) .| ((p0A .>= t2) .^ (steppedA .>= t2))
            .| ((p0A .>= t3) .^ (steppedA .>= t3)) .| (steppedA .<= V())
        let crossedB = ((p0B .>= t1) .^ (steppedB .>= t1)) .| ((p0B .>= t2) .^ (steppedB .>= t2))
            .| ((p0B .>= t3) .^ (steppedB .>= t3)) .| (steppedB .<= V())
        if anyLane(goesA .& crossedA) || anyLane(goesB .& crossedB) { return nil }
        let v0A = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let v0B = UnsafeRawPointer(value + base + 8).loadUnaligned(as: V.self)
        let p1A = p0A.replacing(with: steppedA, where: goesA)
            .replacing(with: UnsafeRawPointer(targetPosition + base).loadUnaligned(as: V.self), where: landsA)
        let p1B = p0B.replacing(with: steppedB, where: goesB)
            .replacing(with: UnsafeRawPointer(targetPosition + base + 8).loadUnaligned(as: V.self), where: landsB)
        let v1A = v0A.replacing(with: v0A * UnsafeRawPointer(ratio + base).loadUnaligned(as: V.self), where: goesA)
            .replacing(with: UnsafeRawPointer(targetValue + base).loadUnaligned(as: V.self), where: landsA)
        let v1B = v0B.replacing(with: v0B * UnsafeRawPointer(ratio + base + 8).loadUnaligned(as: V.self), where: goesB)
            .replacing(with: UnsafeRawPointer(targetValue + base + 8).loadUnaligned(as: V.self), where: landsB)
        UnsafeMutableRawPointer(position + base).storeBytes(of: p1A, as: V.self)
        UnsafeMutableRawPointer(position + base + 8).storeBytes(of: p1B, as: V.self)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1A, as: V.self)
        UnsafeMutableRawPointer(value + base + 8).storeBytes(of: v1B, as: V.self)
        UnsafeMutableRawPointer(remaining + base)
            .storeBytes(of: rA.replacing(with: rA &- n, where: goesA).replacing(with: I(), where: landsA), as: I.self)
        UnsafeMutableRawPointer(remaining + base + 8)
            .storeBytes(of: rB.replacing(with: rB &- n, where: goesB).replacing(with: I(), where: landsB), as: I.self)
        return anyLane(goesA) || anyLane(goesB)
    }

    #endif

    /// A level chunk computed from its positions by the fader law, with new
    /// ratios: at the start of a ramp, on a segment change, at silence, and
    /// every 64 periods (which bounds the rounding drift of the ratios to
    /// about 2·10⁻⁵ of the gain, 0.0002 dB).
    @inline(never) @_noLocks
    func advanceExactly(_ chunk: Int, at base: Int, frames: Int, periodsToResync: UnsafeMutablePointer<Int32>) -> Bool {
        let low = advanceHalf(at: base, frames: frames, exact: true)
        let high = advanceHalf(at: base + 8, frames: frames, exact: true)
        // After a fresh start, spread the next exact periods of chunks that
        // started together over 32 periods; then every 64.
        periodsToResync[chunk] = periodsToResync[chunk] < 0 ? Int32(truncatingIfNeeded: 32 + (chunk &* 37) & 31) : 63
        return low || high
    }

    /// A chunk of pans or gates: the value is the position.
    @inline(never) @_noLocks
    func advanceLinearly(at base: Int, frames: Int) -> Bool {
        let low = advanceHalf(at: base, frames: frames, exact: false)
        let high = advanceHalf(at: base + 8, frames: frames, exact: false)
        return low || high
    }

    /// Advances 8 ramps: by the fader law from the position (and a new ratio),
    /// or linearly (value = position). Returns whether any is still moving.
    @inline(__always) @_noLocks
    func advanceHalf(at base: Int, frames: Int, exact: Bool) -> Bool {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let r = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let goes = r .> n
        let lands = (r .> I()) .& (r .<= n)
        let p0 = UnsafeRawPointer(position + base).loadUnaligned(as: V.self)
        let st = UnsafeRawPointer(step + base).loadUnaligned(as: V.self)
        let tp = UnsafeRawPointer(targetPosition + base).loadUnaligned(as: V.self)
        let tv = UnsafeRawPointer(targetValue + base).loadUnaligned(as: V.self)
        let v0 = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let advance = st * V(repeating: Float(frames))
        let p1 = p0.replacing(with: p0 + advance, where: goes).replacing(with: tp, where: lands)
        let moved: V
        if exact {
            moved = FaderLaw.gain(positions: p1)
            let perPeriod = FaderLaw.decibelsPerPosition(p1) * advance * V(repeating: 0.166_096_4)
            UnsafeMutableRawPointer(ratio + base).storeBytes(of: FastMath.exp2(perPeriod), as: V.self)
        } else {
            moved = p1
        }
        let v1 = v0.replacing(with: moved, where: goes).replacing(with: tv, where: lands)
        let r1 = r.replacing(with: r &- n, where: goes).replacing(with: I(), where: lands)
        UnsafeMutableRawPointer(position + base).storeBytes(of: p1, as: V.self)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1, as: V.self)
        UnsafeMutableRawPointer(remaining + base).storeBytes(of: r1, as: I.self)
        return anyLane(goes)
    }
}
