import Dynamics
import MixRows

/// Audio thread: the limiters' period.
extension Limiters {
    /// Runs `count` outputs' limiters over `frames` frames, in place. Per
    /// output, from output 1: `on` (0 off … 1 on, crossfading between the
    /// output as it is and limited), `ceiling` (linear), `release` and
    /// `lookahead` (ms), and `linked` (non-zero: a member of a stereo pair,
    /// which limits with its partner). A group of eight that is off and
    /// was off is not run: its outputs are left as they are, bit for bit.
    @_noLocks
    mutating func process(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int, frames: Int,
                                 on: UnsafePointer<Float>, ceiling: UnsafePointer<Float>, release: UnsafePointer<Float>,
                                 lookahead: UnsafePointer<Float>, linked: UnsafePointer<Int32>, sampleRate: Float) {
        guard frames > 0 else { return }
        if rate != sampleRate {
            // A new rate: a new window, and every limiter starts again.
            rate = sampleRate
            window = window(rate: sampleRate)
            for g in 0..<groups { lanes[g].running = false }
        }
        var ran = false
        defer { quiet = !ran }
        let used = min(groups, (count + 7) / 8)
        var g = 0
        // Each group is prepared once a period; one prepared for a pair that
        // did not form runs alone next, as it was prepared.
        var ahead: (group: Int, prepared: Prepared?) = (-1, nil)
        while g < used {
            let prepared = ahead.group == g
                ? ahead.prepared
                : prepare(group: g, count: count, on: on, ceiling: ceiling, release: release, lookahead: lookahead,
                          linked: linked)
            guard let a = prepared else {
                g &+= 1
                continue
            }
            ran = true
            #if WIDE_REGISTERS
            // The two groups of a pair of rings (`ring(_:)`), standing at the
            // same place with one lookahead for all, go as one of sixteen lanes.
            if g & 1 == 0 && g &+ 1 < used {
                let next = prepare(group: g &+ 1, count: count, on: on, ceiling: ceiling, release: release,
                                   lookahead: lookahead, linked: linked)
                let (l, m) = (lanes[g], lanes[g &+ 1])
                if let b = next, l.offset == m.offset && l.position == m.position && l.shared >= 0
                    && l.shared == m.shared {
                    let low = run(pair: g, a, b, output, count: count, frames: frames)
                    finish(group: g, a, low: low.lowHalf)
                    finish(group: g &+ 1, b, low: low.highHalf)
                    g &+= 2
                    continue
                }
                ahead = (g &+ 1, next)
            }
            #endif
            for l in 0..<8 { channelPointers[l] = l < a.present ? output[g &* 8 &+ l] : spare }
            let low = run(group: g, &lanes[g], frames: frames, ceiling: a.ceiling, release: a.release,
                          unlinked: a.unlinked, to: a.on)
            finish(group: g, a, low: low)
            g &+= 1
        }
    }

    /// One group's settings for this period, worked out from the kernel's
    /// values: nil if it is off and was off (it is not run). Its lanes, in
    /// `lanes` (where the period then runs them, in place), are started
    /// again if need be and their lookahead set.
    /// Called once per group and period: a second call could answer
    /// otherwise (a group started again reads as off).
    @inline(__always) @_noLocks
    func prepare(group g: Int, count: Int, on: UnsafePointer<Float>, ceiling: UnsafePointer<Float>,
                 release: UnsafePointer<Float>, lookahead: UnsafePointer<Float>,
                 linked: UnsafePointer<Int32>) -> Prepared? {
        let first = g &* 8
        let onNow = UnsafeRawPointer(on + first).loadUnaligned(as: V.self)
        if everyLane(onNow .== V()) && everyLane(lanes[g].on .== V()) {
            lanes[g].running = false
            return nil
        }
        if !lanes[g].running { lanes[g] = restart(group: g) }
        let was = lanes[g].on
        // Lookaheads in samples, within the window.
        let ms = UnsafeRawPointer(lookahead + first).loadUnaligned(as: V.self)
        // Rounded to the nearest; below 0 or not a number: 0; at or past
        // the window: its last slot. (A vector, not a branch a lane.)
        let s = ms * V(repeating: rate) * V(repeating: 0.001) + V(repeating: 0.5)
        let within = s.replacing(with: 0, where: .!(s .>= V()))
            .replacing(with: Float(window &- 1), where: s .>= V(repeating: Float(window)))
        var samples = SIMD8<Int32>()
        for i in 0..<8 { samples[i] = Int32(within[i]) }
        if samples != lanes[g].lookahead {
            var l = lanes[g]
            l.lookahead = samples
            for i in 0..<8 { l.share[i] = Self.share(of: samples[i] &+ 1) }
            l.shared = samples == SIMD8(repeating: samples[0]) ? Int(samples[0]) : -1
            resum(group: g, &l, newest: l.position == 0 ? capacity &- 1 : l.position &- 1)
            lanes[g] = l
        }
        var top = UnsafeRawPointer(ceiling + first).loadUnaligned(as: V.self)
        top.replace(with: V(repeating: 1), where: .!(top .<= V(repeating: 1)))
        top.replace(with: V(repeating: 1e-6), where: top .< V(repeating: 1e-6))
        // The share of the envelope's depth below unity kept each sample,
        // e^(−1/(t·fs)): it rises back by 1 − that of the way.
        var time = UnsafeRawPointer(release + first).loadUnaligned(as: V.self) * V(repeating: rate * 0.001)
        time.replace(with: V(repeating: 1), where: .!(time .>= V(repeating: 1)))
        let keep = FastMath.exp2(V(repeating: -1.442_695) / time)
        // A pair limits together only while both its members are on: an
        // unlimited partner never ducks a limited output.
        let lit = (onNow .> V()) .| (was .> V())
        let shown = V().replacing(with: 1, where: lit)
        let partnerLit = V(shown[1], shown[0], shown[3], shown[2], shown[5], shown[4], shown[7], shown[6]) .> V()
        let pairs = (UnsafeRawPointer(linked + first).loadUnaligned(as: SIMD8<Int32>.self) .!= SIMD8<Int32>())
            .& lit .& partnerLit
        // Added to a partner's need before the lesser is taken: 0 in a
        // linked pair, 2 (more than any need) elsewhere. No mask per sample.
        let unlinked = V(repeating: 2).replacing(with: 0, where: pairs)
        return Prepared(on: onNow, ceiling: top, release: keep, unlinked: unlinked, present: min(8, count &- first))
    }

    /// Group `g` after its period: its lanes kept, its switches now as they
    /// were set, and the lowest gain since the meters last looked (a period
    /// split by a cue runs twice).
    @inline(__always) @_noLocks
    func finish(group g: Int, _ p: Prepared, low: V) {
        lanes[g].on = p.on
        // (A vector's least, not a branch a lane: which lanes took more off
        // than before is anyone's guess, and guessed wrong cost more.)
        let at = UnsafeMutableRawPointer(lowest + g &* 8)
        at.storeBytes(of: least(at.loadUnaligned(as: V.self), low), as: V.self)
    }

    /// Group `g`'s `frames` samples, in place in its eight outputs
    /// (`channelPointers`), while its switches go from `l.on` to `onNow`
    /// across the period: the lowest gain of each lane that was on. Up to
    /// `blockLength` frames at a time come in and go out transposed
    /// (`Transposes`). (Out of line: a function this size is where the
    /// per-sample step is inlined, as it would not be into `process`.)
    @inline(never) @_noLocks
    func run(group g: Int, _ l: inout Lanes, frames: Int, ceiling top: V, release keep: V,
             unlinked: V, to onNow: V) -> V {
        let channels = UnsafePointer(channelPointers)
        let one = V(repeating: 1)
        let fading = anyLane(l.on .!= one) || anyLane(onNow .!= one)
        let scale = 1 / Float(frames)
        var low = one
        // Each frame limited and, while fading, crossfaded with the output as it is.
        let (from, change) = (l.on, onNow - l.on)
        var start = 0
        while start < frames {
            let length = min(blockLength, frames &- start)
            Transposes.gather(channels, lanes: 8, offset: start, count: length, into: block)
            for j in 0..<length {
                block[j] = blend(block[j], group: g, &l, k: start &+ j, low: &low, fading: fading, ceiling: top,
                                 release: keep, unlinked: unlinked, from: from, change: change, scale: scale)
            }
            Transposes.scatter(block, lanes: 8, into: channels, offset: start, count: length)
            start &+= length
        }
        return low
    }

    /// One frame of group `g` limited and, while `fading`, crossfaded
    /// from the output as it is at `from + change·(k + 1)·scale` of the way.
    @inline(__always) @_noLocks
    func blend(_ x: V, group g: Int, _ l: inout Lanes, k: Int, low: inout V, fading: Bool, ceiling top: V,
               release keep: V, unlinked: V, from: V, change: V, scale: Float) -> V {
        let (y, gain) = self.step(group: g, &l, x, ceiling: top, release: keep, unlinked: unlinked)
        guard fading else {
            low = least(low, gain)
            return y
        }
        let one = V(repeating: 1)
        let w = from + change * V(repeating: Float(k &+ 1) * scale)
        var out = x + (y - x) * w
        out.replace(with: y, where: w .== one)
        // While it fades in or out the ceiling holds too: what of the
        // output as it is comes through is clamped.
        out = most(-top, least(top, out))
        out.replace(with: x, where: w .== V())
        low.replace(with: gain, where: (gain .< low) .& (w .> V()))
        return out
    }

    /// One sample of group `g`: the limited, delayed output and its gain.
    @inline(__always) @_noLocks
    func step(group g: Int, _ l: inout Lanes, _ input: V, ceiling: V, release: V,
              unlinked: V) -> (V, V) {
        let zero = V(), one = V(repeating: 1)
        let base = ring(g)
        // A sample that is not a number (NaN, ±∞: its size's bits at or
        // above those of ∞) is silence, and its size 0. From the bits: a
        // mask, a comparison and two selections, where testing x − x and
        // then the sign took six operations.
        typealias I = SIMD8<Int32>
        let bits = unsafeBitCast(input, to: I.self)
        let size = bits & I(repeating: 0x7FFF_FFFF)
        let finite = size .< I(repeating: 0x7F80_0000)
        let x = unsafeBitCast(I().replacing(with: bits, where: finite), to: V.self)
        let magnitude = unsafeBitCast(I().replacing(with: size, where: finite), to: V.self)
        // (Silence: the quotient is +∞, the need 1.)
        var need = least(one, ceiling * V(repeating: 1 - 1.0 / 4096) / magnitude)
        let partner = V(need[1], need[0], need[3], need[2], need[5], need[4], need[7], need[6])
        need = least(need, partner + unlinked)

        // The hold: the smallest need over the last `window` samples.
        let o = l.offset
        needs[base &+ o &* 2] = need
        l.prefix = least(l.prefix, need)
        var hold = l.prefix
        if o == window &- 1 {
            // (A `while`, not `stride`: its iterator was called out of
            // line, a call per sample, a fifth of the stage's time.)
            var running = one
            var i = window &- 1
            while i >= 0 {
                let need = needs[base &+ i &* 2]
                running.replace(with: need, where: need .< running)
                suffixes[base &+ i &* 2] = running
                i &-= 1
            }
            l.prefix = one
            l.offset = 0
        } else {
            hold = least(hold, suffixes[base &+ (o &+ 1) &* 2])
            l.offset = o &+ 1
        }

        // Release (the depth below unity decays by `release`, the share
        // kept each sample; the hold's depth is the least it may be), then
        // the mean of each lane's last L + 1 envelope values.
        l.depth = most(one - hold, l.depth * release)
        // (At most the hold exactly: 1 − (1 − hold) may round above it.)
        let envelope = least(hold, one - l.depth)
        let p = l.position
        envelopes[base &+ p &* 2] = envelope
        delay[base &+ p &* 2] = x
        var old = zero, delayed = zero
        if l.shared >= 0 {
            // One lookahead for all: a vector each.
            var back = p &- l.shared
            if back < 0 { back &+= capacity }
            delayed = delay[base &+ back &* 2]
            back = back == 0 ? capacity &- 1 : back &- 1
            old = envelopes[base &+ back &* 2]
        } else {
            for i in 0..<8 {
                var back = p &- Int(l.lookahead[i])
                if back < 0 { back &+= capacity }
                delayed[i] = delay[base &+ back &* 2][i]
                back &-= 1
                if back < 0 { back &+= capacity }
                old[i] = envelopes[base &+ back &* 2][i]
            }
        }
        // Kahan's sum: a float's rounding would otherwise be that of the
        // largest sum held since the last recount.
        let added = (envelope - old) - l.carry
        let sum = l.sum + added
        l.carry = (sum - l.sum) - added
        l.sum = sum
        if p == capacity &- 1 {
            // Summed afresh once round the ring: no drift.
            resum(group: g, &l, newest: p)
            l.position = 0
        } else {
            l.position = p &+ 1
        }
        // A product for the quotient (a division each sample cost more);
        // a full sum times the share, rounded up, is at least unity, so a
        // limiter at rest is transparent.
        let gain = least(one, l.sum * l.share)
        let out = delayed * gain
        return (most(-ceiling, least(ceiling, out)), gain)
    }

    /// 1/n rounded up: n unities summed, times it, are at least unity (the
    /// product of two floats is exact in a Double), so `least(1, sum ·
    /// share)` is unity exactly at rest without a comparison a sample;
    /// elsewhere it is at most an ulp above 1/n, far inside the need's
    /// 2⁻¹² margin.
    @inline(__always) @_noLocks
    static func share(of n: Int32) -> Float {
        let share = 1 / Float(n)
        return Double(share) * Double(n) < 1 ? share.nextUp : share
    }

    /// Each lane's sum of its last L + 1 envelope values, counted afresh
    /// back from `newest`.
    @inline(__always) @_noLocks
    func resum(group g: Int, _ l: inout Lanes, newest: Int) {
        let base = ring(g)
        var exact = V()
        var q = newest
        for d in 0..<window {
            let counted = SIMD8<Int32>(repeating: Int32(d)) .<= l.lookahead
            exact += V().replacing(with: envelopes[base &+ q &* 2], where: counted)
            q = q == 0 ? capacity &- 1 : q &- 1
        }
        l.sum = exact
        l.carry = V()
    }

    /// Group `g` from silence: empty lines, nothing held, unity gain.
    @inline(__always) @_noLocks
    func restart(group g: Int) -> Lanes {
        let base = ring(g)
        for i in stride(from: base, to: base &+ 2 &* capacity, by: 2) {
            delay[i] = V()
            needs[i] = V(repeating: 1)
            suffixes[i] = V(repeating: 1)
            envelopes[i] = V(repeating: 1)
        }
        // (Field by field: the audio thread calls no initialiser of this module's.)
        var l = lanes[g]
        (l.prefix, l.depth, l.sum, l.share, l.on) = (V(repeating: 1), V(), V(repeating: 1), V(repeating: 1), V())
        l.carry = V()
        (l.offset, l.position, l.running, l.shared) = (0, 0, true, -1)
        l.lookahead = SIMD8(repeating: -1) // made again by the caller
        return l
    }

    /// The lane-wise least and most of two vectors. (The standard library's
    /// `pointwiseMin` and `pointwiseMax` were left out of line here: a call
    /// per use, a third of the stage's time.)
    @inline(__always) @_noLocks
    func least(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .< a) }

    @inline(__always) @_noLocks
    func most(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .> a) }
}

/// One group's settings for a period (`Limiters.prepare`); its lanes stay
/// in `Limiters.lanes`, where the period runs them.
struct Prepared {
    /// Its switches now, its ceilings (linear), the share of the envelope's
    /// depth kept each sample, and 0 for a linked pair's lanes (2 elsewhere).
    let on, ceiling, release, unlinked: SIMD8<Float>
    /// Its lanes that have an output.
    let present: Int
}
