#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plain form of every response the rig's filters are held to: the
/// Audio EQ Cookbook's digital biquads (Robert Bristow-Johnson; shelves in
/// their Q form) and the bilinear-transformed Butterworth magnitude. Tests
/// hold the running filters (`Band`, `SVFLanes`) to these, and the page's
/// drawn curve is computed by the same formulas.
public enum Cookbook {
    /// A biquad's coefficients, b for the numerator, a for the denominator.
    public struct Biquad: Equatable, Sendable {
        public var b0, b1, b2, a0, a1, a2: Double

        /// |H(e^jω)| at `frequency`, in dB.
        public func magnitude(at frequency: Double, sampleRate: Double) -> Double {
            let w = 2 * Double.pi * frequency / sampleRate
            let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
            let (nr, ni) = (b0 + b1 * c1 + b2 * c2, -(b1 * s1 + b2 * s2))
            let (dr, di) = (a0 + a1 * c1 + a2 * c2, -(a1 * s1 + a2 * s2))
            return 10 * log10((nr * nr + ni * ni) / (dr * dr + di * di))
        }
    }

    /// The cookbook's biquad for `band` at `sampleRate`.
    /// The frequency and q are kept within what the rig runs (1 Hz to
    /// 0.49 fs, q at least 0.001), as `Band.coefficients` keeps them.
    public static func biquad(_ band: Band, sampleRate: Double) -> Biquad {
        let frequency = min(max(band.frequency, 1), Band.highestFrequency * sampleRate)
        let w0 = 2 * Double.pi * frequency / sampleRate
        let (cw, sw) = (cos(w0), sin(w0))
        let alpha = sw / (2 * max(band.q, 1e-3))
        let a = pow(10, band.gain / 40)
        let root = 2 * a.squareRoot() * alpha
        switch band.shape {
        case .peak:
            return Biquad(b0: 1 + alpha * a, b1: -2 * cw, b2: 1 - alpha * a, a0: 1 + alpha / a, a1: -2 * cw, a2: 1 - alpha / a)
        case .lowShelf:
            return Biquad(b0: a * ((a + 1) - (a - 1) * cw + root), b1: 2 * a * ((a - 1) - (a + 1) * cw),
                          b2: a * ((a + 1) - (a - 1) * cw - root), a0: (a + 1) + (a - 1) * cw + root,
                          a1: -2 * ((a - 1) + (a + 1) * cw), a2: (a + 1) + (a - 1) * cw - root)
        case .highShelf:
            return Biquad(b0: a * ((a + 1) + (a - 1) * cw + root), b1: -2 * a * ((a - 1) + (a + 1) * cw),
                          b2: a * ((a + 1) + (a - 1) * cw - root), a0: (a + 1) - (a - 1) * cw + root,
                          a1: 2 * ((a - 1) - (a + 1) * cw), a2: (a + 1) - (a - 1) * cw - root)
        case .lowPass:
            return Biquad(b0: (1 - cw) / 2, b1: 1 - cw, b2: (1 - cw) / 2, a0: 1 + alpha, a1: -2 * cw, a2: 1 - alpha)
        case .highPass:
            return Biquad(b0: (1 + cw) / 2, b1: -(1 + cw), b2: (1 + cw) / 2, a0: 1 + alpha, a1: -2 * cw, a2: 1 - alpha)
        }
    }

    /// The response of sections in series (bands, and the cuts' sections
    /// from `Band.cut`), in dB at `frequency`: the sum of each biquad's. The
    /// page's EQ curve is this (`page/eq-curve.js`).
    public static func response(of sections: [Band], at frequency: Double, sampleRate: Double) -> Double {
        sections.reduce(0) { $0 + biquad($1, sampleRate: sampleRate).magnitude(at: frequency, sampleRate: sampleRate) }
    }

    /// A digital Butterworth filter's magnitude (the bilinear transform of
    /// the analog one, prewarped at `cutoff`), in dB: |H|² = 1 / (1 + (Ω/Ωc)^2N)
    /// for a low pass, (Ωc/Ω)^2N for a high pass, Ω = tan(π f / fs).
    public static func butterworth(at frequency: Double, cutoff: Double, order: Int, highPass: Bool,
                                   sampleRate: Double) -> Double {
        let ratio = tan(Double.pi * frequency / sampleRate) / tan(Double.pi * cutoff / sampleRate)
        let x = pow(highPass ? 1 / ratio : ratio, Double(2 * order))
        return -10 * log10(1 + x)
    }

    /// The centres of the third-octave bands from 20 Hz to 20 kHz (ISO 266's
    /// exact ones, 10^(n/10)), below `limit`.
    public static func thirdOctaves(below limit: Double = 20_001) -> [Double] {
        (13...43).map { pow(10, Double($0) / 10) }.filter { $0 < limit }
    }
}
