#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Band {
    /// How steeply a cut falls, in dB per octave: a Butterworth filter of
    /// order 2 or 4, as the sections `cut` gives.
    public enum Slope: Int, Sendable, CaseIterable {
        case twelve = 12
        case twentyFour = 24

        /// The Butterworth order.
        public var order: Int { rawValue / 6 }
    }

    /// The sections of a Butterworth low cut (`highPass`) or high cut
    /// (`lowPass`) at `frequency`: one of Q = 1/√2 for 12 dB/octave; two, of
    /// Q = 1/(2 cos(π/8)) and 1/(2 cos(3π/8)), for 24 (the poles of a
    /// fourth-order Butterworth, in pairs).
    public static func cut(_ shape: BandShape, frequency: Double, slope: Slope) -> [Band] {
        precondition(shape == .highPass || shape == .lowPass, "a cut is a high or low pass")
        let n = slope.order
        return (0..<n / 2).map { pair in
            let angle = Double.pi * Double(2 * pair + 1) / Double(2 * n)
            return Band(shape, frequency: frequency, q: 1 / (2 * cos(angle)))
        }
    }
}
