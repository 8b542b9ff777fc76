import MixRows

/// Audio thread: level ramps moving by a per-period ratio, the common case
/// of a fade (`RenderKernel+Ramps` does the rest: pans, gates, and the
/// periods a level is computed exactly from the fader law).
extension RampArrays {
    /// The `count` chunks of 16 ramps listed in `chunks`, each a period on by
    /// its ratios if it is a level chunk (`levelChunk`) not due an exact
    /// recomputation (`periodsToResync` > 0, counted down here) and no ramp
    /// of it leaves its segment of the law: `outcome[c]` is then 1 if any
    /// ramp of chunk c still moves, 0 if all landed; else -1, nothing changed.
    @_noLocks
    func advanceByRatio(chunks: UnsafePointer<Int32>, count: Int, lanes: Int, levelChunk: UnsafePointer<Bool>,
                        periodsToResync: UnsafeMutablePointer<Int32>, frames: Int, outcome: UnsafeMutablePointer<Int8>) {
        for c in 0..<count {
            let chunk = Int(chunks[c])
            if levelChunk[chunk] && periodsToResync[chunk] > 0, let moving = advanceByRatio(at: chunk &* lanes, frames: frames) {
                periodsToResync[chunk] -= 1
                outcome[c] = moving ? 1 : 0
            } else {
                outcome[c] = -1
            }
        }
    }

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
        if any(goesA .& crossedA) || any(goesB .& crossedB) { return nil }
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
        return any(goesA) || any(goesB)
    }
}
