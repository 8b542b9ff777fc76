/// One trapezoidal state-variable filter section (Andrew Simper, Cytomic,
/// "Solving the continuous SVF equations using trapezoidal integration"):
/// a1, a2, a3 from its frequency and damping, and the mix m0, m1, m2 of
/// input, band and low outputs that gives its shape. Per sample, with state
/// ic1, ic2:
///
///     v3 = v0 − ic2
///     v1 = a1·ic1 + a2·v3
///     v2 = ic2 + a2·ic1 + a3·v3
///     ic1 = 2·v1 − ic1,  ic2 = 2·v2 − ic2
///     out = m0·v0 + m1·v1 + m2·v2
///
/// Coefficients interpolated between two settings keep it stable, so a
/// band may move every sample without the zipper or blow-up of a
/// direct-form biquad.
public struct SVFCoefficients: Equatable, Sendable {
    public var a1: Float
    public var a2: Float
    public var a3: Float
    public var m0: Float
    public var m1: Float
    public var m2: Float

    public init(a1: Float, a2: Float, a3: Float, m0: Float, m1: Float, m2: Float) {
        (self.a1, self.a2, self.a3, self.m0, self.m1, self.m2) = (a1, a2, a3, m0, m1, m2)
    }

    /// From the prewarped frequency g = tan(π f / fs) and the damping k = 1/Q.
    public init(g: Double, k: Double, m0: Double, m1: Double, m2: Double) {
        let a1 = 1 / (1 + g * (g + k))
        let a2 = g * a1
        self.init(a1: Float(a1), a2: Float(a2), a3: Float(g * a2), m0: Float(m0), m1: Float(m1), m2: Float(m2))
    }

    /// Passes its input through unchanged (its state still runs, at no effect).
    public static let through = SVFCoefficients(a1: 1, a2: 0, a3: 0, m0: 1, m1: 0, m2: 0)
}
