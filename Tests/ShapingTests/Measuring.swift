import Foundation
import Shaping

/// Runs filters as the rig does and measures what comes out: eight lanes
/// at once, each its own chain of sections, and a DFT at chosen
/// frequencies.
enum Measuring {
    /// What comes out of each lane's chain of `sections[lane]` (at most 8
    /// lanes; a lane with fewer sections passes the rest through) for
    /// `input(lane, k)`, `length` samples.
    static func run(_ sections: [[Band]], sampleRate: Double, length: Int,
                    input: (Int, Int) -> Float) -> [[Float]] {
        let depth = sections.map(\.count).max() ?? 0
        let coefficients = (0..<depth).map { s in
            LaneCoefficients(sections.map { s < $0.count ? $0[s].coefficients(sampleRate: sampleRate) : .through })
        }
        var states = [SVFLanes](repeating: SVFLanes(), count: depth)
        var out = [[Float]](repeating: [Float](repeating: 0, count: length), count: sections.count)
        for k in 0..<length {
            var v = SIMD8<Float>()
            for lane in sections.indices { v[lane] = input(lane, k) }
            for s in 0..<depth { v = states[s].process(v, coefficients[s]) }
            for lane in sections.indices { out[lane][k] = v[lane] }
        }
        return out
    }

    /// The impulse response of each lane's chain.
    static func impulseResponses(_ sections: [[Band]], sampleRate: Double, length: Int) -> [[Float]] {
        run(sections, sampleRate: sampleRate, length: length) { _, k in k == 0 ? 1 : 0 }
    }

    /// |DFT| of `signal` at `frequency`, in dB (`Cookbook.measured`).
    static func magnitude(_ signal: [Float], at frequency: Double, sampleRate: Double) -> Double {
        Cookbook.measured(signal, at: frequency, sampleRate: sampleRate)
    }

    /// A cookbook biquad run in Double, direct form I: the plain form.
    static func plain(_ biquad: Cookbook.Biquad, _ input: [Float]) -> [Double] {
        var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
        return input.map { sample in
            let x = Double(sample)
            let y = (biquad.b0 * x + biquad.b1 * x1 + biquad.b2 * x2 - biquad.a1 * y1 - biquad.a2 * y2) / biquad.a0
            (x2, x1, y2, y1) = (x1, x, y1, y)
            return y
        }
    }
}
