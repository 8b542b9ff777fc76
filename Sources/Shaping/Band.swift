#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One filter section as an engineer sets it: its shape, frequency (Hz),
/// gain (dB; peaks and shelves only) and q. Its response is the Audio EQ
/// Cookbook's (`Cookbook`); it runs as Andrew Simper's trapezoidal
/// state-variable filter (`SVFCoefficients`), which has that response and
/// stays clean while its settings move every sample.
public struct Band: Equatable, Sendable {
    public var shape: BandShape
    public var frequency: Double
    public var gain: Double
    public var q: Double

    public init(_ shape: BandShape, frequency: Double, gain: Double = 0, q: Double = 0.707_106_781_186_547_6) {
        self.shape = shape
        self.frequency = frequency
        self.gain = gain
        self.q = q
    }

    /// The highest frequency a band is set to, as a share of the sample
    /// rate: just below Nyquist, where the prewarped frequency is finite.
    @inlinable public static var highestFrequency: Double { 0.49 }

    /// The SVF's coefficients at `sampleRate`.
    ///
    /// Trapezoidal integration with the frequency prewarped,
    /// g = tan(π f / fs), is the bilinear transform the cookbook uses, so
    /// each shape below is the cookbook's analog prototype (k = 1/Q; for a
    /// peak A = 10^(dB/40) and k = 1/(Q·A); for the shelves g scaled by
    /// 1/√A or √A, Simper's form of the cookbook's Q shelves):
    ///
    /// | shape | m0 | m1 | m2 |
    /// |---|---|---|---|
    /// | lowPass | 0 | 0 | 1 |
    /// | highPass | 1 | −k | −1 |
    /// | peak | 1 | k(A² − 1) | 0 |
    /// | lowShelf | 1 | k(A − 1) | A² − 1 |
    /// | highShelf | A² | k(1 − A)A | 1 − A² |
    public func coefficients(sampleRate: Double) -> SVFCoefficients {
        let f = min(max(frequency, 1), Self.highestFrequency * sampleRate)
        let g = tan(Double.pi * f / sampleRate)
        let a = pow(10, gain / 40)
        let k = 1 / max(q, 1e-3)
        switch shape {
        case .lowPass:
            return SVFCoefficients(g: g, k: k, m0: 0, m1: 0, m2: 1)
        case .highPass:
            return SVFCoefficients(g: g, k: k, m0: 1, m1: -k, m2: -1)
        case .peak:
            let peakK = k / a
            return SVFCoefficients(g: g, k: peakK, m0: 1, m1: peakK * (a * a - 1), m2: 0)
        case .lowShelf:
            return SVFCoefficients(g: g / a.squareRoot(), k: k, m0: 1, m1: k * (a - 1), m2: a * a - 1)
        case .highShelf:
            return SVFCoefficients(g: g * a.squareRoot(), k: k, m0: a * a, m1: k * (1 - a) * a, m2: 1 - a * a)
        }
    }
}
