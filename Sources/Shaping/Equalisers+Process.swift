import MixRows

/// Audio thread: the EQ stage's period.
extension Equalisers {
    public typealias V = SIMD8<Float>

    /// Runs `count` channels' EQ over `frames` frames: channel n's samples
    /// from `input[n]` into `output[n]` (the same buffer runs in place).
    /// `values[p]`: the kernel's values of parameter p (in `index` order),
    /// one per channel from channel 1. `routes[n]`, if given, is set to
    /// where channel n's signal is now: `output[n]` if its group ran,
    /// `input[n]`, untouched, if it did not.
    @inlinable @_noLocks
    public mutating func process(_ input: UnsafePointer<UnsafePointer<Float>>,
                                 _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                                 routes: UnsafeMutablePointer<UnsafePointer<Float>>?,
                                 count: Int, frames: Int, values: UnsafePointer<UnsafePointer<Float>>,
                                 sampleRate: Float) {
        let newRate = rate != sampleRate
        rate = sampleRate
        for g in 0..<min(groups, (count + 7) / 8) {
            let ran = run(group: g, input, output, count: count, frames: frames, values: values, newRate: newRate)
            guard let routes else { continue }
            for n in (g &* 8)..<min(count, g &* 8 &+ 8) {
                routes[n] = ran ? UnsafePointer(output[n]) : input[n]
            }
        }
    }

    /// One group of eight channels; whether it ran (false: left untouched).
    @inlinable @_noLocks
    mutating func run(group g: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                      _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                      count: Int, frames: Int, values: UnsafePointer<UnsafePointer<Float>>, newRate: Bool) -> Bool {
        let first = g &* 8, base = g &* parameters
        var moved = newRate || flat[g] < 0
        let fresh = flat[g] < 0
        if fresh {
            // The first period: the settings start where the kernel's are.
            for p in 0..<parameters { settings[base + p] = UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
        }
        for p in 0..<parameters {
            let now = UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self)
            if any(now .!= settings[base + p]) { moved = true }
        }
        if !moved && flat[g] == 1 { return false }
        if moved && flat[g] != 0 && isFlat(values, first) {
            // Still flat, a setting of a band that is off moved: nothing to run.
            for p in 0..<parameters { settings[base + p] = UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
            flat[g] = 1
            return false
        }
        let lanes = min(8, count &- first)
        // Each lane's buffers in locals (a lane without a channel reads
        // `silence`, writes `spare`): a frame of eight without a loop.
        func from(_ l: Int) -> UnsafePointer<Float> { l < lanes ? input[first &+ l] : UnsafePointer(silence) }
        func into(_ l: Int) -> UnsafeMutablePointer<Float> { l < lanes ? output[first &+ l] : spare }
        let (i0, i1, i2, i3, i4, i5, i6, i7) = (from(0), from(1), from(2), from(3), from(4), from(5), from(6), from(7))
        let (o0, o1, o2, o3, o4, o5, o6, o7) = (into(0), into(1), into(2), into(3), into(4), into(5), into(6), into(7))
        var start = 0
        while start < frames {
            let length = min(block, frames &- start)
            for k in start..<(start &+ length) {
                self.frames[k &- start] = V(i0[k], i1[k], i2[k], i3[k], i4[k], i5[k], i6[k], i7[k])
            }
            let t = Float(start &+ length) / Float(frames)
            for s in 0..<sections {
                let i = g &* sections &+ s
                var c = coefficients[i]
                var filter = state[i]
                if fresh {
                    // A new stage starts settled at its settings.
                    c = coefficients(section: s, group: g, values: values, first: first, t: 1)
                    for k in 0..<length { self.frames[k] = filter.process(self.frames[k], c) }
                } else if moved {
                    let target = coefficients(section: s, group: g, values: values, first: first, t: t)
                    let step = c.step(to: target, count: length)
                    for k in 0..<length {
                        c.advance(by: step)
                        self.frames[k] = filter.process(self.frames[k], c)
                    }
                    c = target
                } else if passing[i] {
                    continue
                } else {
                    for k in 0..<length { self.frames[k] = filter.process(self.frames[k], c) }
                }
                filter.settle()
                coefficients[i] = c
                state[i] = filter
            }
            for k in start..<(start &+ length) {
                let v = self.frames[k &- start]
                (o0[k], o1[k], o2[k], o3[k]) = (v[0], v[1], v[2], v[3])
                (o4[k], o5[k], o6[k], o7[k]) = (v[4], v[5], v[6], v[7])
            }
            start &+= length
        }
        if moved {
            // Sections that now pass their input through are left out while
            // nothing moves; they start again from silence.
            for s in 0..<sections {
                let i = g &* sections &+ s
                let c = coefficients[i]
                passing[i] = all(c.m0 .== V(repeating: 1)) && all(c.m1 .== V()) && all(c.m2 .== V())
                if passing[i] { (state[i].ic1, state[i].ic2) = (V(), V()) }
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

    /// Whether every lane's settings leave the signal as it is: both cuts
    /// off, and every band off or at 0 dB (or the bands off).
    @inlinable @_noLocks
    func isFlat(_ values: UnsafePointer<UnsafePointer<Float>>, _ first: Int) -> Bool {
        func at(_ p: Int) -> V { UnsafeRawPointer(values[p] + first).loadUnaligned(as: V.self) }
        let zero = V()
        if any(at(lowCutIndex) .!= zero) { return false }
        if highCut && any(at(highCutIndex) .!= zero) { return false }
        let on = at(onIndex)
        let cuts = highCut ? 7 : 4
        for b in 0..<bands {
            let p = cuts &+ b &* perBand
            if any(at(p &+ 2) * at(p &+ 4) * on .!= zero) { return false }
        }
        return true
    }

    /// Section `s`'s coefficients for group `g` at `t` (0…1) of the way
    /// from the settings of the last period to the kernel's now: frequency,
    /// gain, q and on interpolated, shape and slope as they are now.
    @inlinable @_noLocks
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
}
