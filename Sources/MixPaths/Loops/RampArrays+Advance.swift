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
                periodsToResync[chunk] &-= 1
                moving = byRatio
            } else {
                moving = advanceExactly(chunk, at: base, frames: frames, periodsToResync: periodsToResync)
            }
            outcome[c] = moving ? 1 : 0
        }
    }

    #if WIDE_REGISTERS
    /// The common case of a moving level chunk: each moving gain times its
    /// ratio, and what remains counted down. Returns nil, having changed
    /// nothing, if a ramp lands or may leave its segment of the fader law
    /// (or reach silence) within the period: what remains would be at or
    /// below its `boundary` (the exact path handles it). With registers of
    /// sixteen floats (AVX-512) the chunk is one vector and a mask of
    /// sixteen one register: the halves below, lane for lane, in one.
    @inline(__always) @_noLocks
    func advanceByRatio(at base: Int, frames: Int) -> Bool? {
        typealias V = SIMD16<Float>
        typealias I = SIMD16<Int32>
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let r = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let moving = r .> I()
        let left = r &- n
        if anyLane(moving .& (left .<= UnsafeRawPointer(boundary + base).loadUnaligned(as: I.self))) { return nil }
        let v0 = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let v1 = v0.replacing(with: v0 * UnsafeRawPointer(ratio + base).loadUnaligned(as: V.self), where: moving)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1, as: V.self)
        UnsafeMutableRawPointer(remaining + base).storeBytes(of: r.replacing(with: left, where: moving), as: I.self)
        // Still moving: no lane landed (those that land took the exact path).
        return anyLane(moving)
    }
    #else
    /// The common case of a moving level chunk: each moving gain times its
    /// ratio, and what remains counted down. Returns nil, having changed
    /// nothing, if a ramp lands or may leave its segment of the fader law
    /// (or reach silence) within the period: what remains would be at or
    /// below its `boundary` (the exact path handles it). Both halves of 8
    /// lanes (on AVX2 an 8-lane mask is one register) are checked before
    /// anything is stored.
    @inline(__always) @_noLocks
    func advanceByRatio(at base: Int, frames: Int) -> Bool? {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let rA = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let rB = UnsafeRawPointer(remaining + base + 8).loadUnaligned(as: I.self)
        let movingA = rA .> I(), movingB = rB .> I()
        let leftA = rA &- n, leftB = rB &- n
        let bA = UnsafeRawPointer(boundary + base).loadUnaligned(as: I.self)
        let bB = UnsafeRawPointer(boundary + base + 8).loadUnaligned(as: I.self)
        if anyLane(movingA .& (leftA .<= bA)) || anyLane(movingB .& (leftB .<= bB)) { return nil }
        let v0A = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let v0B = UnsafeRawPointer(value + base + 8).loadUnaligned(as: V.self)
        let v1A = v0A.replacing(with: v0A * UnsafeRawPointer(ratio + base).loadUnaligned(as: V.self), where: movingA)
        let v1B = v0B.replacing(with: v0B * UnsafeRawPointer(ratio + base + 8).loadUnaligned(as: V.self), where: movingB)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1A, as: V.self)
        UnsafeMutableRawPointer(value + base + 8).storeBytes(of: v1B, as: V.self)
        UnsafeMutableRawPointer(remaining + base).storeBytes(of: rA.replacing(with: leftA, where: movingA), as: I.self)
        UnsafeMutableRawPointer(remaining + base + 8).storeBytes(of: rB.replacing(with: leftB, where: movingB), as: I.self)
        return anyLane(movingA) || anyLane(movingB)
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

    /// Advances 8 ramps: by the fader law from the position (and a new ratio,
    /// and the remaining samples at which that ratio stops holding, `boundary`),
    /// or linearly (value = position). A moving ramp's position is worked
    /// out from its target, step and what remains (`livePosition`), not
    /// stepped from the last. Returns whether any is still moving.
    @inline(__always) @_noLocks
    func advanceHalf(at base: Int, frames: Int, exact: Bool) -> Bool {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let r = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let goes = r .> n
        let lands = (r .> I()) .& (r .<= n)
        let r1 = r.replacing(with: r &- n, where: goes).replacing(with: I(), where: lands)
        let p0 = UnsafeRawPointer(position + base).loadUnaligned(as: V.self)
        let st = UnsafeRawPointer(step + base).loadUnaligned(as: V.self)
        let tp = UnsafeRawPointer(targetPosition + base).loadUnaligned(as: V.self)
        let tv = UnsafeRawPointer(targetValue + base).loadUnaligned(as: V.self)
        let v0 = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let p1 = p0.replacing(with: tp - st * V(r1), where: goes).replacing(with: tp, where: lands)
        let moved: V
        if exact {
            moved = FaderLaw.gain(positions: p1)
            let advance = st * V(repeating: Float(frames))
            let perPeriod = FaderLaw.decibelsPerPosition(p1) * advance * V(repeating: 0.166_096_4)
            UnsafeMutableRawPointer(ratio + base).storeBytes(of: FastMath.exp2(perPeriod), as: V.self)
            UnsafeMutableRawPointer(boundary + base).storeBytes(of: Self.boundary(from: p1, to: tp, step: st),
                                                               as: I.self)
        } else {
            moved = p1
        }
        let v1 = v0.replacing(with: moved, where: goes).replacing(with: tv, where: lands)
        UnsafeMutableRawPointer(position + base).storeBytes(of: p1, as: V.self)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1, as: V.self)
        UnsafeMutableRawPointer(remaining + base).storeBytes(of: r1, as: I.self)
        return anyLane(goes)
    }

    /// The samples remaining at or below which a ramp now at `p`, moving by
    /// `step` a sample to `target`, may be in another segment of the fader
    /// law (or silence) at the end of a period: while more than this remain
    /// after a period, its gain moves by one ratio. With r samples to go it
    /// stands at target − step·r, so a join t of the law is passed when r
    /// goes below (target − t)/step; rising, t is the lowest join above p;
    /// falling, the highest at or below it, or 0 (silence). Two samples and
    /// a millionth spare for rounding; never below 0, so that a landing is
    /// at or below it; 0 for a ramp with no step.
    @inline(__always) @_noLocks
    static func boundary(from p: SIMD8<Float>, to target: SIMD8<Float>, step: SIMD8<Float>) -> SIMD8<Int32> {
        typealias V = SIMD8<Float>
        let (low, middle, high) = FaderLaw.joins
        var up = V(repeating: .infinity)
        up.replace(with: V(repeating: high), where: p .< V(repeating: high))
        up.replace(with: V(repeating: middle), where: p .< V(repeating: middle))
        up.replace(with: V(repeating: low), where: p .< V(repeating: low))
        var down = V()
        down.replace(with: V(repeating: low), where: p .>= V(repeating: low))
        down.replace(with: V(repeating: middle), where: p .>= V(repeating: middle))
        down.replace(with: V(repeating: high), where: p .>= V(repeating: high))
        let join = down.replacing(with: up, where: step .> V())
        let passed = (target - join) / step
        var samples = passed + passed * V(repeating: 1.0 / 1_048_576) + V(repeating: 2)
        // No join ahead (−∞), none passed before the landing (below 0), no
        // step (±∞ or NaN): 0. Past what an Int32 holds: its most.
        samples.replace(with: V(), where: .!(samples .>= V()) .| (step .== V()))
        samples.replace(with: V(repeating: 2e9), where: samples .> V(repeating: 2e9))
        var whole = SIMD8<Int32>()
        for i in 0..<8 { whole[i] = Int32(samples[i]) }
        return whole
    }
}
