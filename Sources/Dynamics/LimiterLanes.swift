/// A brickwall limiter for eight channels at once, a SIMD lane each: no
/// sample comes out above the ceiling, whatever goes in. Its storage is
/// made on the control side (`init`) and freed there (`deallocate`);
/// `process` runs on the audio thread: no allocation, no locks.
///
/// Per sample, for input x (docs/processing.md, "The limiter"):
///
/// 1. **need** = min(1, ceiling / |x|) (aimed a hair, 2⁻¹², below the
///    ceiling, for rounding): the gain that sample needs; the
///    lanes of a linked pair take the smaller of the two (`linked`).
/// 2. **hold**: the smallest need over the last L + 1 samples (a sliding
///    minimum, van Herk and Gil-Werman: each block of L + 1 needs kept,
///    and the minimum of each suffix of the block before).
/// 3. **release**: the envelope falls to the hold at once, and rises back
///    towards 1 by `release` of the way each sample.
/// 4. **attack**: the gain is the mean of the envelope's last L + 1 values.
///    Each of them is at most the need of the sample L back, since each
///    hold window contains it; so is their mean.
/// 5. **out** = x delayed by L samples, times the gain: at most the
///    ceiling. A clamp to ±ceiling stays as a net; the tests show the gain
///    alone never needs it.
public final class LimiterLanes: @unchecked Sendable {
    public typealias V = SIMD8<Float>

    /// The lookahead, in samples: the output is the input this much later.
    public let lookahead: Int
    /// The window of the hold and the mean: lookahead + 1.
    @usableFromInline let window: Int
    /// The input, L samples back (a ring of `lookahead`).
    @usableFromInline let delay: UnsafeMutablePointer<V>
    /// This block's needs, and the suffix minima of the block before.
    @usableFromInline let needs: UnsafeMutablePointer<V>
    @usableFromInline let suffixes: UnsafeMutablePointer<V>
    /// The envelope's last `window` values, for their mean.
    @usableFromInline let envelopes: UnsafeMutablePointer<V>
    @usableFromInline var prefix = V(repeating: 1)
    @usableFromInline var envelope = V(repeating: 1)
    @usableFromInline var sum: V
    /// Where this sample falls in the window, and in the delay's ring.
    @usableFromInline var offset = 0
    @usableFromInline var slot = 0
    /// Lanes whose partner (0–1, 2–3, 4–5, 6–7) limits with them.
    public var linked = SIMDMask<SIMD8<Int32>>(repeating: false)
    /// The gain applied to the last sample, per lane (for the meter).
    @usableFromInline var lastGain = V(repeating: 1)
    public var gain: V { lastGain }

    /// Control side: storage for a lookahead of `lookahead` samples.
    public init(lookahead: Int) {
        self.lookahead = max(0, lookahead)
        window = self.lookahead + 1
        delay = .allocate(capacity: max(1, self.lookahead))
        delay.initialize(repeating: V(), count: max(1, self.lookahead))
        needs = .allocate(capacity: window)
        needs.initialize(repeating: V(repeating: 1), count: window)
        suffixes = .allocate(capacity: window)
        suffixes.initialize(repeating: V(repeating: 1), count: window)
        envelopes = .allocate(capacity: window)
        envelopes.initialize(repeating: V(repeating: 1), count: window)
        sum = V(repeating: Float(window))
    }

    /// Control side, once the audio thread no longer uses it.
    public func deallocate() {
        delay.deallocate()
        needs.deallocate()
        suffixes.deallocate()
        envelopes.deallocate()
    }

    /// One sample of each lane. `ceiling` is linear (at most 1 for 0 dBFS);
    /// `release` is the share of the way back to unity the envelope goes
    /// each sample, 1 − e^(−1 / (release time × sample rate)).
    @inlinable @_noLocks
    public func process(_ input: V, ceiling: V, release: V) -> V {
        let zero = V(), one = V(repeating: 1)
        // A sample that is not a number is silence (x − x is 0 only when finite).
        let x = input.replacing(with: zero, where: .!((input - input) .== zero))
        let magnitude = x.replacing(with: -x, where: x .< zero)
        // Aimed 2⁻¹² (0.002 dB) below the ceiling, so that rounding in the
        // mean (up to 6·10⁻⁵ of it, measured) never reaches it.
        var need = one
        need.replace(with: ceiling * V(repeating: 1 - 1.0 / 4096) / magnitude, where: magnitude .> ceiling)
        let partner = V(need[1], need[0], need[3], need[2], need[5], need[4], need[7], need[6])
        need.replace(with: pointwiseMin(need, partner), where: linked)

        // The hold: the smallest need in the window ending here.
        needs[offset] = need
        prefix = pointwiseMin(prefix, need)
        var hold = prefix
        if offset == window - 1 {
            // The block is whole: its suffix minima serve the next block.
            var running = one
            for i in stride(from: window - 1, through: 0, by: -1) {
                running = pointwiseMin(running, needs[i])
                suffixes[i] = running
            }
            prefix = one
        } else {
            hold = pointwiseMin(hold, suffixes[offset + 1])
        }

        // Release, then the mean of the window (the attack).
        envelope = pointwiseMin(hold, envelope + (one - envelope) * release)
        sum += envelope - envelopes[offset]
        envelopes[offset] = envelope
        if offset == window - 1 {
            // The running sum, summed afresh once a window: no drift.
            var exact = zero
            for i in 0..<window { exact += envelopes[i] }
            sum = exact
        }
        let gain = pointwiseMin(one, sum / V(repeating: Float(window)))
        lastGain = gain

        var delayed = x
        if lookahead > 0 {
            delayed = delay[slot]
            delay[slot] = x
            slot = slot + 1 == lookahead ? 0 : slot + 1
        }
        offset = offset + 1 == window ? 0 : offset + 1
        let out = delayed * gain
        return pointwiseMax(-ceiling, pointwiseMin(ceiling, out))
    }
}
