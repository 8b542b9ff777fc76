#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Cookbook {
    /// |DFT| of `signal` at `frequency`, in dB: for an impulse response of
    /// unit height, the magnitude response there. How the tests measure
    /// what the rig did (offline and from recorded audio) against
    /// `response`.
    public static func measured<Signal: Collection<Float>>(_ signal: Signal, at frequency: Double,
                                                           sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let (cw, sw) = (cos(w), sin(w))
        var (c, s) = (1.0, 0.0)
        var (re, im) = (0.0, 0.0)
        for x in signal {
            re += Double(x) * c
            im -= Double(x) * s
            (c, s) = (c * cw - s * sw, s * cw + c * sw)
        }
        return 10 * log10(re * re + im * im)
    }
}
