import MixRows

extension LaneCoefficients {
    /// The fast form of `Band.coefficients`, for eight bands at once (a
    /// lane each, each its own shape, `BandShape.code`), in pure Swift: the
    /// audio thread works out a moving band's coefficients itself, at the
    /// end of each block, and steps to them across it. `PlainFormTests`
    /// holds it to the plain form.
    ///
    /// tan(π f / fs) is sin/cos, each the odd polynomial of
    /// `FastMath.sinQuadrant` (cos x = sin(π/2 − x)); 10^(dB/40) and its
    /// square root are `FastMath.exp2`. A frequency is kept within 1 Hz and
    /// 0.49 fs, a q above 0.001.
    @inlinable @inline(__always) @_noLocks
    public init(shapes: SIMD8<Int32>, frequency: SIMD8<Float>, gain: SIMD8<Float>, q: SIMD8<Float>,
                sampleRate: Float) {
        typealias V = SIMD8<Float>
        let one = V(repeating: 1)
        var f = frequency.replacing(with: one, where: frequency .< one)
        let highest = V(repeating: 0.49 * sampleRate) // `Band.highestFrequency`
        f.replace(with: highest, where: f .> highest)
        let x = f * V(repeating: Float.pi / sampleRate)
        let g0 = Self.sinQuadrant(x) / Self.sinQuadrant(V(repeating: Float.pi / 2) - x)
        let a = FastMath.exp2(gain * V(repeating: 0.083_048_202)) // log2(10) / 40
        let rootA = FastMath.exp2(gain * V(repeating: 0.041_524_101))
        let aa = a * a
        var k = one / q.replacing(with: V(repeating: 1e-3), where: q .< V(repeating: 1e-3))
        let (peak, low, high) = (shapes .== 0, shapes .== 1, shapes .== 2)
        let (highPass, lowPass) = (shapes .== 3, shapes .== 4)
        var g = g0
        g.replace(with: g0 / rootA, where: low)
        g.replace(with: g0 * rootA, where: high)
        k.replace(with: k / a, where: peak)
        var m0 = one, m1 = V(), m2 = V()
        m0.replace(with: aa, where: high)
        m0.replace(with: V(), where: lowPass)
        m1.replace(with: k * (aa - one), where: peak)
        m1.replace(with: k * (a - one), where: low)
        m1.replace(with: k * (one - a) * a, where: high)
        m1.replace(with: -k, where: highPass)
        m2.replace(with: aa - one, where: low)
        m2.replace(with: one - aa, where: high)
        m2.replace(with: -one, where: highPass)
        m2.replace(with: one, where: lowPass)
        a1 = one / (one + g * (g + k))
        a2 = g * a1
        a3 = g * a2
        (self.m0, self.m1, self.m2) = (m0, m1, m2)
    }

    /// sin x for x in [0, π/2] on 8 lanes: `FastMath.sinQuadrant`'s polynomial.
    @inlinable @inline(__always) @_noLocks
    static func sinQuadrant(_ x: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        let x2 = x * x
        var p = V(repeating: -1.0 / 39_916_800)
        p = p * x2 + V(repeating: 1.0 / 362_880)
        p = p * x2 - V(repeating: 1.0 / 5040)
        p = p * x2 + V(repeating: 1.0 / 120)
        p = p * x2 - V(repeating: 1.0 / 6)
        p = p * x2 + V(repeating: 1)
        return p * x
    }
}
