/// Audio thread: moving ramps advance by a period, levels along the fader
/// law (exactly, or by a per-period ratio within one segment of the law).
extension RenderKernel {
    /// Every chunk holding a moving ramp, one period on. Level ramps take the
    /// ratio path (`RampArrays+Ratio`, on the SIMD path) unless it is time,
    /// or needed, to compute them exactly.
    /// (Kept out of line, and the rare paths too: the optimiser stops
    /// inlining into a function past a certain size.)
    @inlinable @inline(never) @_noLocks
    mutating func advanceRamps(frames: Int) {
        if frames != ratioFrames {
            ratioFrames = frames
            for c in 0..<movingCount { periodsToResync[Int(movingChunks[c])] = -1 }
        }
        // The common case, level chunks moving by their ratios, on the SIMD
        // path's own build: one call for every chunk in the list; what it
        // leaves (-1: pans, gates, exact periods) is done here.
        advanceByRatio(frames: frames)
        var c = 0
        while c < movingCount {
            let chunk = Int(movingChunks[c])
            let base = chunk * lanes
            let stillMoving: Bool
            if rampOutcome[c] >= 0 {
                stillMoving = rampOutcome[c] == 1
            } else if !levelChunk[chunk] {
                stillMoving = advanceLinearly(at: base, frames: frames)
            } else {
                stillMoving = advanceExactly(chunk, at: base, frames: frames)
            }
            if stillMoving {
                c += 1
            } else {
                chunkListed[chunk] = false
                movingCount -= 1
                movingChunks[c] = movingChunks[movingCount]
                rampOutcome[c] = rampOutcome[movingCount]
            }
            markChanged(chunk: chunk, lane: 0, whole: true)
        }
    }

    /// A level chunk computed from its positions by the fader law, with new
    /// ratios: at the start of a ramp, on a segment change, at silence, and
    /// every 64 periods (which bounds the rounding drift of the ratios to
    /// about 2·10⁻⁵ of the gain, 0.0002 dB).
    @inlinable @inline(never) @_noLocks
    mutating func advanceExactly(_ chunk: Int, at base: Int, frames: Int) -> Bool {
        let low = advanceHalf(at: base, frames: frames, exact: true)
        let high = advanceHalf(at: base + 8, frames: frames, exact: true)
        // After a fresh start, spread the next exact periods of chunks that
        // started together over 32 periods; then every 64.
        periodsToResync[chunk] = periodsToResync[chunk] < 0 ? Int32(truncatingIfNeeded: 32 + (chunk &* 37) & 31) : 63
        return low || high
    }

    /// A chunk of pans or gates: the value is the position.
    @inlinable @inline(never) @_noLocks
    mutating func advanceLinearly(at base: Int, frames: Int) -> Bool {
        let low = advanceHalf(at: base, frames: frames, exact: false)
        let high = advanceHalf(at: base + 8, frames: frames, exact: false)
        return low || high
    }

    /// Advances 8 ramps: by the fader law from the position (and a new ratio),
    /// or linearly (value = position). Returns whether any is still moving.
    @inlinable @inline(__always) @_noLocks
    mutating func advanceHalf(at base: Int, frames: Int, exact: Bool) -> Bool {
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
        return any(goes)
    }
}
