/// Eight lanes of an SVF section whose coefficients hold still, written as
/// a state-space system on the SVF's own state (ic1, ic2):
///
///     ic1' = a11·ic1 + a12·ic2 + b1·x
///     ic2' = a21·ic1 + a22·ic2 + b2·x
///     y    = c1·ic1 + c2·ic2 + d·x
///
/// Substituting v1, v2 and v3 of `SVFCoefficients` into its updates gives
///
///     a11 = 2·a1 − 1      a12 = −2·a2       b1 = 2·a2
///     a21 = 2·a2          a22 = 1 − 2·a3    b2 = 2·a3
///     c1 = m1·a1 + m2·a2  c2 = m2·(1 − a3) − m1·a2
///     d = m0 + m1·a2 + m2·a3
///
/// Three of those nine are the others: a12 = −b1, a21 = b1 and a22 = 1 − b2.
/// With v3 = x − ic2, as the SVF has it, the updates are
///
///     ic1' = a11·ic1 + b1·v3
///     ic2' = ic2 + b1·ic1 + b2·v3
///
/// which is what is kept and run: seven multiply-adds and a subtraction a
/// sample, each chain two deep (the SVF itself is seventeen operations five
/// deep). On a CPU whose additions have units of their own (AMD's Zen) the
/// subtraction is free; run three sections at a time, so that enough
/// chains overlap, a 256x256 period with every EQ on took about 3 µs less
/// than as nine multiply-adds in pairs (docs/performance.md; in pairs the
/// seven gained nothing). The same filter with the same state, so a section goes
/// from one form to the other between any two samples with nothing to
/// convert: the audio thread runs this one while a section's settings are
/// still and `SVFLanes.process` while they move. `PlainFormTests` holds the
/// two to each other.
public struct SVFStateSpace: Sendable {
    public var a11, b1, b2, c1, c2, d: SIMD8<Float>

    /// The system of the section `c` describes.
    @inlinable @inline(__always) @_noLocks
    public init(_ c: LaneCoefficients) {
        let one = SIMD8<Float>(repeating: 1)
        a11 = 2 * c.a1 - one
        b1 = 2 * c.a2
        b2 = 2 * c.a3
        c1 = c.m1 * c.a1 + c.m2 * c.a2
        c2 = c.m2 * (one - c.a3) - c.m1 * c.a2
        d = c.m0 + c.m1 * c.a2 + c.m2 * c.a3
    }

    /// One sample of each lane through the system, as plainly as it reads
    /// (the stage paths run the same sums with fused multiply-adds).
    @inlinable @_noLocks
    public func process(_ x: SIMD8<Float>, _ s: inout SVFLanes) -> SIMD8<Float> {
        let y = c1 * s.ic1 + c2 * s.ic2 + d * x
        let v3 = x - s.ic2
        (s.ic1, s.ic2) = (a11 * s.ic1 + b1 * v3, s.ic2 + b1 * s.ic1 + b2 * v3)
        return y
    }
}
