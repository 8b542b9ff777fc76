import MixRows
import Shaping

/// Audio thread: the EQ stage's period.
extension Equalisers {
    typealias V = SIMD8<Float>

    /// Runs `count` channels' EQ over `frames` frames: channel n's samples
    /// from `input[n]` into `output[n]` (the same buffer runs in place).
    /// `values[p]`: the kernel's values of parameter p (in `index` order),
    /// one per channel from channel 1. `routes[n]`, if given, is set to
    /// where channel n's signal is now: `output[n]` if its group ran,
    /// `input[n]`, untouched, if it did not. `moved`: whether any of the
    /// values may have changed since the last period (false: they are not
    /// compared, and a group still and flat costs nothing but its flag).
    @_noLocks
    mutating func process(_ input: UnsafePointer<UnsafePointer<Float>>,
                                 _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                                 routes: UnsafeMutablePointer<UnsafePointer<Float>>?,
                                 count: Int, frames: Int, values: UnsafePointer<UnsafePointer<Float>>,
                                 sampleRate: Float, moved: Bool = true) {
        let newRate = rate != sampleRate
        rate = sampleRate
        var everyFlat = true
        let used = min(groups, (count + 7) / 8)
        var g = 0
        while g < used {
            var compare = moved
            #if WIDE_REGISTERS
            // Two groups that both run still go as one, sixteen lanes wide.
            if g &+ 1 < used && !newRate && runsStill(group: g, values: values, compare: moved) {
                if runsStill(group: g &+ 1, values: values, compare: moved) {
                    runStill(pair: g, input, output, count: count, frames: frames)
                    everyFlat = false
                    if let routes {
                        for n in (g &* 8)..<min(count, g &* 8 &+ 16) { routes[n] = UnsafePointer(output[n]) }
                    }
                    g &+= 2
                    continue
                }
                compare = false // its settings were just found still
            }
            #endif
            let ran = run(group: g, input, output, count: count, frames: frames, values: values, newRate: newRate,
                          compare: compare)
            if flat[g] != 1 { everyFlat = false }
            if let routes {
                for n in (g &* 8)..<min(count, g &* 8 &+ 8) {
                    routes[n] = ran ? UnsafePointer(output[n]) : input[n]
                }
            }
            g &+= 1
        }
        quiet = everyFlat
    }

    /// Whether group `g` runs in its still form this period (`runStill`):
    /// it ran last period, is not flat, and (when `compare`) none of its
    /// settings moved since. The rate is the caller's to compare.
    @inline(__always) @_noLocks
    func runsStill(group g: Int, values: UnsafePointer<UnsafePointer<Float>>, compare: Bool) -> Bool {
        flat[g] == 0 && !(compare && settingsMoved(group: g, values: values))
    }

    /// Whether any of group `g`'s settings differ from the last period's.
    @inline(__always) @_noLocks
    func settingsMoved(group g: Int, values: UnsafePointer<UnsafePointer<Float>>) -> Bool {
        let first = g &* 8, base = g &* parameters
        for p in 0..<parameters {
            let now = UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self)
            if anyLane(now .!= settings[base + p]) { return true }
        }
        return false
    }

    /// One group of eight channels; whether it ran (false: left untouched).
    @inline(__always) @_noLocks
    mutating func run(group g: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                      _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                      count: Int, frames: Int, values: UnsafePointer<UnsafePointer<Float>>, newRate: Bool,
                      compare: Bool = true) -> Bool {
        let first = g &* 8, base = g &* parameters
        var moved = newRate || flat[g] < 0
        let fresh = flat[g] < 0
        if fresh {
            // The first period: the settings start where the kernel's are.
            for p in 0..<parameters { settings[base + p] = UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
        }
        if compare && !fresh && settingsMoved(group: g, values: values) { moved = true }
        if !moved && flat[g] == 1 { return false }
        if moved && flat[g] != 0 && isFlat(values, first) {
            // Still flat, a setting of a band that is off moved: nothing to run.
            for p in 0..<parameters { settings[base + p] = UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
            flat[g] = 1
            return false
        }
        let lanes = min(8, count &- first)
        // Each lane's buffers (a lane without a channel reads `silence`,
        // writes `spare`), as the transposes take them.
        for l in 0..<8 {
            channelPointers[l] = l < lanes ? UnsafeMutablePointer(mutating: input[first &+ l]) : silence
            channelPointers[16 &+ l] = l < lanes ? output[first &+ l] : spare
        }
        let inputs = UnsafePointer(channelPointers), outputs = UnsafePointer(channelPointers + 16)
        var start = 0
        while start < frames {
            // Settled, the coefficients hold for the whole period: longer blocks.
            let length = min(fresh || moved ? block : stillBlock, frames &- start)
            Transposes.gather(inputs, lanes: 8, offset: start, count: length, into: self.frames)
            if cleansing {
                // As the mix cleans its sums: not a number, infinite, or
                // outside 10⁻³⁰…10³⁰ in size (where a boost could overflow)
                // is silence.
                for k in 0..<length { self.frames[k] = MixRows.sanitized(self.frames[k]) }
            }
            let t = Float(start &+ length) / Float(frames)
            if moved {
                runMoving(group: g, length: length, values: values, first: first, t: fresh ? 1 : t, fresh: fresh)
            } else {
                runStill(group: g, length: length)
            }
            Transposes.scatter(self.frames, lanes: 8, into: outputs, offset: start, count: length)
            start &+= length
        }
        if moved {
            // Sections that now pass their input through are left out while
            // nothing moves; they start again from silence.
            // The others run in their still form (`runStill`).
            for s in 0..<sections {
                let i = g &* sections &+ s
                let c = coefficients[i]
                passing[i] = everyLane(c.m0 .== V(repeating: 1)) && everyLane(c.m1 .== V()) && everyLane(c.m2 .== V())
                if passing[i] { (state[i].ic1, state[i].ic2) = (V(), V()) }
                still[i] = SVFStateSpace(c)
            }
            for p in 0..<parameters { settings[base + p] = UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
            if isFlat(values, first) {
                // Its coefficients are exactly through now: from the next
                // period it is not run, and starts again from silence.
                flat[g] = 1
                silence(group: g)
            } else {
                flat[g] = 0
            }
        }
        return true
    }

    /// Group `g`'s sections over the `length` frames in `frames` while its
    /// settings move: each section's coefficients step, sample by sample,
    /// from where they are to those of the settings `t` (0…1) of the way
    /// from the last period's to the kernel's now (`coefficients(section:…)`).
    /// `fresh`: the stage's first period, which starts settled at them.
    @inline(__always) @_noLocks
    func runMoving(group g: Int, length: Int, values: UnsafePointer<UnsafePointer<Float>>, first: Int,
                   t: Float, fresh: Bool) {
        for s in 0..<sections {
            let i = g &* sections &+ s
            var filter = state[i]
            var c = coefficients(section: s, group: g, values: values, first: first, t: t)
            if fresh {
                for k in 0..<length { frames[k] = filter.process(frames[k], c) }
            } else {
                let target = c
                c = coefficients[i]
                let step = c.step(to: target, count: length)
                for k in 0..<length {
                    c.advance(by: step)
                    frames[k] = filter.process(frames[k], c)
                }
                c = target
            }
            filter.settle()
            coefficients[i] = c
            state[i] = filter
        }
    }

    /// Group `g`'s sections over the `length` frames in `frames`, with
    /// their coefficients as they are (nothing moved), in their state-space
    /// form (`SVFStateSpace`, `still`). A sample's way through a section
    /// waits on the sample before (two multiply-adds deep), so sections go
    /// in pairs: the second takes frame k − 1 while the first takes frame k,
    /// and the two chains overlap. Sections that pass their input are left
    /// out. `pair`: groups g and g + 1 as one of sixteen lanes, over
    /// `wideFrames` (Equalisers+Wide.swift; only where `WIDE_REGISTERS` is
    /// defined), a section left out when it passes its input in both. With
    /// fused multiply-adds (avx2, avx512) sections go by threes while that
    /// leaves none alone: two chains of seven multiply-adds keep the FMA
    /// units waiting, three fill them (on AVX2's 16 registers some of the
    /// coefficients are read from memory, which the loads keep up with).
    @inline(__always) @_noLocks
    func runStill(group g: Int, length: Int, pair: Bool = false) {
        guard length > 0 else { return }
        let base = g &* sections
        let partner = pair ? base &+ sections : base
        func running(from s: Int) -> Int {
            var s = s
            while s < sections && passing[base &+ s] && passing[partner &+ s] { s &+= 1 }
            return s
        }
        var left = 0
        for s in 0..<sections where !(passing[base &+ s] && passing[partner &+ s]) { left &+= 1 }
        var first = running(from: 0)
        while left > 0 {
            let second = running(from: first &+ 1)
            #if FUSED_MULTIPLY_ADD
            // By threes while that leaves no section alone.
            if length >= 2 && (left == 3 || left >= 5) {
                let third = running(from: second &+ 1)
                runStill(sections: base &+ first, base &+ second, base &+ third, length: length, pair: pair)
                first = running(from: third &+ 1)
                left &-= 3
                continue
            }
            #endif
            guard left >= 2 else {
                runStill(section: base &+ first, length: length, pair: pair)
                return
            }
            runStill(sections: base &+ first, base &+ second, length: length, pair: pair)
            first = running(from: second &+ 1)
            left &-= 2
        }
    }

    /// Sections i then j over `frames`, pipelined by a frame (over
    /// `wideFrames` for a `pair`).
    @inline(__always) @_noLocks
    func runStill(sections i: Int, _ j: Int, length: Int, pair: Bool) {
        #if WIDE_REGISTERS
        if pair {
            runStillWide(sections: i, j, length: length)
            return
        }
        #endif
        let (p, q) = (still[i], still[j])
        var (a, b) = (state[i], state[j])
        var carried = step(p, frames[0], &a)
        for k in 1..<max(1, length) {
            let x = frames[k]
            frames[k &- 1] = step(q, carried, &b)
            carried = step(p, x, &a)
        }
        frames[length &- 1] = step(q, carried, &b)
        a.settle()
        b.settle()
        (state[i], state[j]) = (a, b)
    }

    #if FUSED_MULTIPLY_ADD
    /// Sections i, j and l over `frames` (at least two), each a frame
    /// behind the one before (over `wideFrames` for a `pair`).
    @inline(__always) @_noLocks
    func runStill(sections i: Int, _ j: Int, _ l: Int, length: Int, pair: Bool) {
        #if WIDE_REGISTERS
        if pair {
            runStillWide(sections: i, j, l, length: length)
            return
        }
        #endif
        let (p, q, r) = (still[i], still[j], still[l])
        var (a, b, c) = (state[i], state[j], state[l])
        var first = step(p, frames[0], &a)
        var second = step(q, first, &b)
        first = step(p, frames[1], &a)
        for k in 2..<length {
            let x = frames[k]
            frames[k &- 2] = step(r, second, &c)
            second = step(q, first, &b)
            first = step(p, x, &a)
        }
        frames[length &- 2] = step(r, second, &c)
        second = step(q, first, &b)
        frames[length &- 1] = step(r, second, &c)
        a.settle()
        b.settle()
        c.settle()
        (state[i], state[j], state[l]) = (a, b, c)
    }
    #endif

    /// Section i alone over `frames` (over `wideFrames` for a `pair`).
    @inline(__always) @_noLocks
    func runStill(section i: Int, length: Int, pair: Bool) {
        #if WIDE_REGISTERS
        if pair {
            runStillWide(section: i, length: length)
            return
        }
        #endif
        let p = still[i]
        var a = state[i]
        for k in 0..<length { frames[k] = step(p, frames[k], &a) }
        a.settle()
        state[i] = a
    }

    /// One sample of eight lanes through a still section (`SVFStateSpace.process`),
    /// with fused multiply-adds where the path has them.
    @inline(__always) @_noLocks
    func step(_ m: SVFStateSpace, _ x: V, _ s: inout SVFLanes) -> V {
        let v3 = x - s.ic2
        let y = multiplyAdd(multiplyAdd(m.d * x, m.c1, s.ic1), m.c2, s.ic2)
        let ic1 = multiplyAdd(m.a11 * s.ic1, m.b1, v3)
        let ic2 = multiplyAdd(multiplyAdd(s.ic2, m.b1, s.ic1), m.b2, v3)
        (s.ic1, s.ic2) = (ic1, ic2)
        return y
    }

    /// Whether every lane's settings leave the signal as it is: both cuts
    /// off, and every band off or at 0 dB (or the bands off).
    @inline(__always) @_noLocks
    func isFlat(_ values: UnsafePointer<UnsafePointer<Float>>, _ first: Int) -> Bool {
        func at(_ p: Int) -> V { UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
        let zero = V()
        if anyLane(at(lowCutIndex) .!= zero) { return false }
        if highCut && anyLane(at(highCutIndex) .!= zero) { return false }
        let on = at(onIndex)
        let cuts = highCut ? 7 : 4
        for b in 0..<bands {
            let p = cuts &+ b &* perBand
            if anyLane(at(p &+ 2) * at(p &+ 4) * on .!= zero) { return false }
        }
        return true
    }

    /// Section `s`'s coefficients for group `g` at `t` (0…1) of the way
    /// from the settings of the last period to the kernel's now: frequency,
    /// gain, q and on interpolated, shape and slope as they are now.
    @inline(__always) @_noLocks
    func coefficients(section s: Int, group g: Int, values: UnsafePointer<UnsafePointer<Float>>,
                      first: Int, t: Float) -> LaneCoefficients {
        let base = g &* parameters
        let w = V(repeating: t)
        func now(_ p: Int) -> V { UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
        func at(_ p: Int) -> V { settings[base &+ p] + (now(p) - settings[base &+ p]) * w }
        let one = V(repeating: 1), zero = V()
        let cutSections = highCut ? 4 : 2
        if s < cutSections {
            // A cut: Butterworth sections, faded in and out by mixing
            // towards passing the input (m0 1, m1 0, m2 0) as `on` falls.
            let high = s >= 2
            let second = s % 2 == 1
            let p = high ? highCutIndex : lowCutIndex
            let steep = now(p &+ 2) .> V(repeating: 18)
            // 24 dB/octave: Q = 1/(2 cos(π/8)), 1/(2 cos(3π/8)); 12: 1/√2 and none.
            var q = V(repeating: second ? 1.306_563 : 0.541_196_1)
            if !second { q.replace(with: V(repeating: 0.707_106_8), where: .!steep) }
            var on = at(p)
            if second { on.replace(with: zero, where: .!steep) }
            let shape = SIMD8<Int32>(repeating: high ? 4 : 3) // `BandShape.code`: lowpass, highpass
            var c = LaneCoefficients(shapes: shape, frequency: FastMath.exp2(at(p &+ 1)), gain: zero, q: q,
                                     sampleRate: rate)
            c.m0 = one + on * (c.m0 - one)
            c.m1 = on * c.m1
            c.m2 = on * c.m2
            return c
        }
        let p = (highCut ? 7 : 4) &+ (s &- cutSections) &* perBand
        let gain = at(p &+ 2) * at(p &+ 4) * at(onIndex)
        let codes = now(p)
        var shape = SIMD8<Int32>()
        for l in 0..<8 { shape[l] = codes[l] == 1 ? 1 : codes[l] == 2 ? 2 : 0 }
        var c = LaneCoefficients(shapes: shape, frequency: FastMath.exp2(at(p &+ 1)), gain: gain,
                                 q: FastMath.exp2(at(p &+ 3)), sampleRate: rate)
        // At 0 dB a band passes its input exactly.
        let still = gain .== zero
        c.m0.replace(with: one, where: still)
        c.m1.replace(with: zero, where: still)
        c.m2.replace(with: zero, where: still)
        return c
    }

    /// Group `g`'s filters back to silence (its channels went flat).
    @inline(__always) @_noLocks
    func silence(group g: Int) {
        for s in 0..<sections { (state[g * sections + s].ic1, state[g * sections + s].ic2) = (SIMD8(), SIMD8()) }
    }
}
