#if WIDE_REGISTERS
import Dynamics
import MixRows

/// Audio thread: the two groups of a pair of rings as one of sixteen lanes,
/// for CPUs with registers of sixteen floats (AVX-512; compiled only where
/// `WIDE_REGISTERS` is defined). A limited sample is some fifty vector
/// operations whatever its width, so sixteen lanes do twice the work of
/// eight in the same steps. Groups 2k and 2k + 1 share their rings slot by
/// slot (`Limiters.ring(_:)`), so a slot of both is one vector; they go
/// together when their rings stand at the same place (`offset`, `position`)
/// and each has one lookahead for all its lanes, the same in both
/// (`shared`): the usual case, every limiter switched on with the rig and
/// left at its lookahead. Every lane does `step(group:_:_:ceiling:release:
/// unlinked:)`'s arithmetic in its order, so the output is the eight-lane
/// loop's to the bit (`WideLimiterTests`).
extension Limiters {
    typealias W = SIMD16<Float>

    /// Groups `g` and `g + 1` (their settings `a` and `b`, as `prepare`
    /// made them; their lanes in `lanes`) over `frames` samples, in place in
    /// their outputs: the lowest gain of each lane that was on.
    @inline(never) @_noLocks
    func run(pair g: Int, _ a: Prepared, _ b: Prepared, _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
             count: Int, frames: Int) -> W {
        let first = g &* 8
        let present = min(16, count &- first)
        for l in 0..<16 { channelPointers[l] = l < present ? output[first &+ l] : spare }
        let channels = UnsafePointer(channelPointers)
        let one = W(repeating: 1)
        func wide(_ x: V, _ y: V) -> W { W(lowHalf: x, highHalf: y) }
        let (was, wasNext) = (lanes[g].on, lanes[g &+ 1].on)
        let setting = WideSetting(ceiling: wide(a.ceiling, b.ceiling), release: wide(a.release, b.release),
                                  unlinked: wide(a.unlinked, b.unlinked), from: wide(was, wasNext),
                                  change: wide(a.on, b.on) - wide(was, wasNext), scale: 1 / Float(frames),
                                  base: ring(g))
        let fading = anyLane(setting.from .!= one) || anyLane(wide(a.on, b.on) .!= one)
        var state = WideLimits(lanes[g], lanes[g &+ 1])
        var low = one
        var start = 0
        while start < frames {
            let length = min(blockLength, frames &- start)
            Transposes.gather(channels, lanes: 16, offset: start, count: length, into: wideBlock)
            limit(length, from: start, &state, low: &low, fading: fading, setting)
            Transposes.scatter(wideBlock, lanes: 16, into: channels, offset: start, count: length)
            start &+= length
        }
        state.store(into: &lanes[g], &lanes[g &+ 1])
        return low
    }

    /// The first `count` frames of `wideBlock`, frames `k`… of the period,
    /// limited in place (`blend`). Runs of frames in which no ring wraps,
    /// no block of the hold ends and no recount falls go through `steady`,
    /// the pair's state in registers and slots that only step; each frame
    /// where one does, through `step`.
    @inline(never) @_noLocks
    func limit(_ count: Int, from k: Int, _ state: inout WideLimits, low: inout W, fading: Bool,
               _ setting: WideSetting) {
        var (s, lowest) = (state, low)
        var j = 0
        while j < count {
            var back = s.position &- s.shared
            if back < 0 { back &+= capacity }
            let old = back == 0 ? capacity &- 1 : back &- 1
            // (Two at a time: `min` of more is variadic, an array.)
            let n = min(min(count &- j, window &- 1 &- s.offset),
                        min(capacity &- 1 &- s.position, capacity &- max(back, old)))
            if n > 0 {
                steady(n, at: j, back: back, old: old, k: k, &s, low: &lowest, fading: fading, setting)
                j &+= n
            }
            if j < count {
                let x = wideBlock[j]
                let (y, gain) = step(&s, x, setting)
                wideBlock[j] = blend(x, y, gain, k: k &+ j, low: &lowest, fading: fading, setting)
                j &+= 1
            }
        }
        (state, low) = (s, lowest)
    }

    /// Frames `j ..< j + n` of `wideBlock`, none of which ends a block of
    /// the hold (`offset` stays below `window − 1`), recounts the sums
    /// (`position` below `capacity − 1`) or wraps the slots read back
    /// (`back`, the delayed sample's, and `old`, the envelope leaving the
    /// mean): `step`'s arithmetic, in its order, each ring's slot a fixed
    /// stride on from the last. (Out of line, so that what it calls is
    /// inlined into it: into `limit` as a whole, the optimiser left those
    /// calls out of line, a third slower.)
    @inline(never) @_noLocks
    func steady(_ n: Int, at j: Int, back: Int, old: Int, k: Int, _ s: inout WideLimits, low: inout W, fading: Bool,
                _ setting: WideSetting) {
        let base = setting.base
        let (needAt, suffixAt) = (slot(needs, s.offset, base), slot(suffixes, s.offset &+ 1, base))
        let (envelopeAt, delayAt) = (slot(envelopes, s.position, base), slot(delay, s.position, base))
        let (delayedAt, oldAt) = (slot(delay, back, base), slot(envelopes, old, base))
        for i in 0..<n {
            let at = i &* MemoryLayout<W>.stride
            let input = wideBlock[j &+ i]
            let (x, magnitude) = admitted(input)
            let need = needed(magnitude, setting)
            needAt.storeBytes(of: need, toByteOffset: at, as: W.self)
            s.prefix = least(s.prefix, need)
            let hold = least(s.prefix, suffixAt.loadUnaligned(fromByteOffset: at, as: W.self))
            let envelope = released(&s, hold: hold, setting)
            envelopeAt.storeBytes(of: envelope, toByteOffset: at, as: W.self)
            delayAt.storeBytes(of: x, toByteOffset: at, as: W.self)
            let delayed = delayedAt.loadUnaligned(fromByteOffset: at, as: W.self)
            summed(&s, envelope - oldAt.loadUnaligned(fromByteOffset: at, as: W.self))
            let (y, gain) = limited(&s, delayed, setting)
            wideBlock[j &+ i] = blend(input, y, gain, k: k &+ j &+ i, low: &low, fading: fading, setting)
        }
        s.offset &+= n
        s.position &+= n
    }

    /// Frame k of the pair, `x` as it came, `y` limited with `gain`, and,
    /// while `fading`, crossfaded from the output as it is:
    /// `blend(_:group:_:k:…)`, lane for lane.
    @_transparent @_noLocks
    func blend(_ x: W, _ y: W, _ gain: W, k: Int, low: inout W, fading: Bool, _ setting: WideSetting) -> W {
        guard fading else {
            low = least(low, gain)
            return y
        }
        let one = W(repeating: 1)
        let w = setting.from + setting.change * W(repeating: Float(k &+ 1) * setting.scale)
        var out = x + (y - x) * w
        out.replace(with: y, where: w .== one)
        out = most(-setting.ceiling, least(setting.ceiling, out))
        out.replace(with: x, where: w .== W())
        low.replace(with: gain, where: (gain .< low) .& (w .> W()))
        return out
    }

    /// One sample of the pair, any frame: the limited, delayed output and
    /// its gain (`step(group:…)` for sixteen lanes, a ring slot of both
    /// groups a vector). Out of line: it takes the frames where a ring
    /// wraps, a few in a period, and `steady` the rest.
    @inline(never) @_noLocks
    func step(_ s: inout WideLimits, _ input: W, _ setting: WideSetting) -> (W, W) {
        let zero = W(), one = W(repeating: 1)
        let base = setting.base
        let (x, magnitude) = admitted(input)
        let need = needed(magnitude, setting)

        // The hold.
        let o = s.offset
        slot(needs, o, base).storeBytes(of: need, as: W.self)
        s.prefix = least(s.prefix, need)
        var hold = s.prefix
        if o == window &- 1 {
            var running = one
            var i = window &- 1
            while i >= 0 {
                let need = slot(needs, i, base).loadUnaligned(as: W.self)
                running.replace(with: need, where: need .< running)
                slot(suffixes, i, base).storeBytes(of: running, as: W.self)
                i &-= 1
            }
            s.prefix = one
            s.offset = 0
        } else {
            hold = least(hold, slot(suffixes, o &+ 1, base).loadUnaligned(as: W.self))
            s.offset = o &+ 1
        }

        // Release, then the mean of each lane's last L + 1 envelope values.
        let envelope = released(&s, hold: hold, setting)
        let p = s.position
        slot(envelopes, p, base).storeBytes(of: envelope, as: W.self)
        slot(delay, p, base).storeBytes(of: x, as: W.self)
        var back = p &- s.shared
        if back < 0 { back &+= capacity }
        let delayed = slot(delay, back, base).loadUnaligned(as: W.self)
        back = back == 0 ? capacity &- 1 : back &- 1
        summed(&s, envelope - slot(envelopes, back, base).loadUnaligned(as: W.self))
        if p == capacity &- 1 {
            // Summed afresh once round the ring: the last L + 1 slots, newest
            // first, as `resum` adds them.
            var exact = zero
            var q = p
            for _ in 0...s.shared {
                exact += slot(envelopes, q, base).loadUnaligned(as: W.self)
                q = q == 0 ? capacity &- 1 : q &- 1
            }
            s.sum = exact
            s.carry = zero
            s.position = 0
        } else {
            s.position = p &+ 1
        }
        return limited(&s, delayed, setting)
    }

    /// A sample that is not a number (NaN, ±∞) as silence, and its size:
    /// `step(group:…)`'s, from the bits.
    @_transparent @_noLocks
    func admitted(_ input: W) -> (x: W, magnitude: W) {
        typealias I = SIMD16<Int32>
        let bits = unsafeBitCast(input, to: I.self)
        let size = bits & I(repeating: 0x7FFF_FFFF)
        let finite = size .< I(repeating: 0x7F80_0000)
        return (unsafeBitCast(I().replacing(with: bits, where: finite), to: W.self),
                unsafeBitCast(I().replacing(with: size, where: finite), to: W.self))
    }

    /// The gain a sample of size `magnitude` needs, a linked pair's lanes the lesser of theirs.
    @_transparent @_noLocks
    func needed(_ magnitude: W, _ setting: WideSetting) -> W {
        let ceiling = setting.ceiling
        let need = least(W(repeating: 1), ceiling * W(repeating: 1 - 1.0 / 4096) / magnitude)
        let partner = W(need[1], need[0], need[3], need[2], need[5], need[4], need[7], need[6],
                        need[9], need[8], need[11], need[10], need[13], need[12], need[15], need[14])
        return least(need, partner + setting.unlinked)
    }

    /// The envelope after this sample's release towards unity, held at `hold`.
    @_transparent @_noLocks
    func released(_ s: inout WideLimits, hold: W, _ setting: WideSetting) -> W {
        let one = W(repeating: 1)
        s.depth = most(one - hold, s.depth * setting.release)
        return least(hold, one - s.depth)
    }

    /// The envelope's running sum moved by `change` (the value entering the
    /// mean less the one leaving it), as Kahan's compensated sum.
    @_transparent @_noLocks
    func summed(_ s: inout WideLimits, _ change: W) {
        let added = change - s.carry
        let sum = s.sum + added
        s.carry = (sum - s.sum) - added
        s.sum = sum
    }

    /// The delayed sample times the mean, its gain; clamped to the ceiling.
    @_transparent @_noLocks
    func limited(_ s: inout WideLimits, _ delayed: W, _ setting: WideSetting) -> (W, W) {
        let gain = least(W(repeating: 1), s.sum * s.share)
        let out = delayed * gain
        return (most(-setting.ceiling, least(setting.ceiling, out)), gain)
    }

    /// Slot `i` of a ring, for both groups of the pair whose slots start at `base`.
    @inline(__always) @_noLocks
    func slot(_ ring: UnsafeMutablePointer<V>, _ i: Int, _ base: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(ring + (base &+ i &* 2))
    }

    /// `least` and `most` of sixteen lanes, as those of eight.
    @inline(__always) @_noLocks
    func least(_ a: W, _ b: W) -> W { a.replacing(with: b, where: b .< a) }

    @inline(__always) @_noLocks
    func most(_ a: W, _ b: W) -> W { a.replacing(with: b, where: b .> a) }
}

/// A pair of groups' settings for the period, lane for lane (`Prepared`).
struct WideSetting {
    let ceiling, release, unlinked: SIMD16<Float>
    /// Each lane's switch at the start of the period, and how far it moves
    /// across it; 1 / the period's frames.
    let from, change: SIMD16<Float>
    let scale: Float
    /// Where the pair's slots start in the rings (`Limiters.ring(_:)`).
    let base: Int
}

/// What moves from sample to sample in a pair of groups (`Limiters.Lanes`),
/// lane for lane; their places in the rings and their lookahead are the same.
struct WideLimits {
    var prefix, depth, sum, carry, share: SIMD16<Float>
    var offset, position, shared: Int

    @inline(__always) @_noLocks
    init(_ a: Limiters.Lanes, _ b: Limiters.Lanes) {
        typealias W = SIMD16<Float>
        (prefix, depth, sum) = (W(lowHalf: a.prefix, highHalf: b.prefix), W(lowHalf: a.depth, highHalf: b.depth),
                                W(lowHalf: a.sum, highHalf: b.sum))
        share = W(lowHalf: a.share, highHalf: b.share)
        carry = W(lowHalf: a.carry, highHalf: b.carry)
        (offset, position, shared) = (a.offset, a.position, a.shared)
    }

    /// Back into the two groups' lanes.
    @inline(__always) @_noLocks
    func store(into a: inout Limiters.Lanes, _ b: inout Limiters.Lanes) {
        (a.prefix, a.depth, a.sum, a.carry) = (prefix.lowHalf, depth.lowHalf, sum.lowHalf, carry.lowHalf)
        (b.prefix, b.depth, b.sum, b.carry) = (prefix.highHalf, depth.highHalf, sum.highHalf, carry.highHalf)
        (a.offset, a.position, b.offset, b.position) = (offset, position, offset, position)
    }
}
#endif
