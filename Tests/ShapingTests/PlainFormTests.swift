import Foundation
import Shaping
import Testing

/// The running filter (Float, eight lanes, trapezoidal SVF) against the
/// plain form (the cookbook's biquad in Double, direct form I) on the same
/// noise, sample by sample.
@Suite struct PlainFormTests {
    @Test(arguments: [44_100.0, 96_000])
    func theLanesAreTheCookbooksBiquads(sampleRate: Double) {
        let bands = CookbookResponseTests.bands
        var random = SystemRandomNumberGenerator()
        let noise = (0..<8).map { _ in (0..<20_000).map { _ in Float.random(in: -1...1, using: &random) } }
        let lanes = Measuring.run(bands.map { [$0] }, sampleRate: sampleRate, length: 20_000) { noise[$0][$1] }
        for (lane, band) in bands.enumerated() {
            let plain = Measuring.plain(Cookbook.biquad(band, sampleRate: sampleRate), noise[lane])
            let peak = plain.map(abs).max() ?? 1
            let error = zip(lanes[lane], plain).map { abs(Double($0) - $1) }.max() ?? 0
            #expect(error < 1e-4 * peak, "\(band): \(error) off, the signal's peak \(peak)")
        }
    }

    /// The audio thread's coefficients (`LaneCoefficients(shapes:…)`, pure
    /// Swift, eight lanes) against `Band.coefficients` (libm, Double) for
    /// random bands of every shape, within 10⁻⁵ of each coefficient (of 1
    /// for small ones).
    @Test(arguments: [44_100.0, 48_000, 96_000])
    func theFastCoefficientsAreThePlainOnes(sampleRate: Double) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bands = (0..<8).map { _ in
                Band(BandShape.allCases.randomElement(using: &random)!,
                     frequency: exp(Double.random(in: log(20)...log(20_000), using: &random)),
                     gain: Double.random(in: -15...15, using: &random),
                     q: exp(Double.random(in: log(0.3)...log(16), using: &random)))
            }
            func lanes<T>(_ value: (Band) -> T) -> SIMD8<T> where T: SIMDScalar {
                var v = SIMD8<T>()
                for i in 0..<8 { v[i] = value(bands[i]) }
                return v
            }
            let fast = LaneCoefficients(shapes: lanes(\.shape.code), frequency: lanes { Float($0.frequency) },
                                        gain: lanes { Float($0.gain) }, q: lanes { Float($0.q) },
                                        sampleRate: Float(sampleRate))
            for (i, band) in bands.enumerated() {
                let plain = band.coefficients(sampleRate: sampleRate)
                for (name, f, p) in [("a1", fast.a1[i], plain.a1), ("a2", fast.a2[i], plain.a2), ("a3", fast.a3[i], plain.a3),
                                     ("m0", fast.m0[i], plain.m0), ("m1", fast.m1[i], plain.m1), ("m2", fast.m2[i], plain.m2)] {
                    #expect(abs(f - p) <= 1e-5 * max(1, abs(p)), "\(band) at \(sampleRate): \(name) \(f), plainly \(p)")
                }
            }
        }
    }

    /// The state-space form a still section runs in (`SVFStateSpace`)
    /// against the SVF's own steps, on the same state, for random bands of
    /// every shape and both cuts, 20 Hz to 20 kHz: the same output within
    /// 10⁻⁴ of the signal's peak over 20,000 samples of noise.
    @Test(arguments: [44_100.0, 48_000, 96_000])
    func theStillFormIsTheSVF(sampleRate: Double) {
        var random = SystemRandomNumberGenerator()
        let noise = (0..<20_000).map { _ in SIMD8<Float>((0..<8).map { _ in Float.random(in: -1...1, using: &random) }) }
        for _ in 0..<20 {
            var shapes = SIMD8<Int32>(), frequency = SIMD8<Float>(), gain = SIMD8<Float>(), q = SIMD8<Float>()
            for i in 0..<8 {
                shapes[i] = Int32.random(in: 0...4, using: &random) // peak, shelves, lowpass, highpass
                frequency[i] = Float(exp(Double.random(in: log(20)...log(20_000), using: &random)))
                gain[i] = Float.random(in: -15...15, using: &random)
                q[i] = Float(exp(Double.random(in: log(0.3)...log(16), using: &random)))
            }
            let c = LaneCoefficients(shapes: shapes, frequency: frequency, gain: gain, q: q, sampleRate: Float(sampleRate))
            let still = SVFStateSpace(c)
            var (svf, system) = (SVFLanes(), SVFLanes())
            var (worst, peak) = ([Float](repeating: 0, count: 8), [Float](repeating: 0, count: 8))
            for x in noise {
                let (a, b) = (svf.process(x, c), still.process(x, &system))
                for i in 0..<8 { (worst[i], peak[i]) = (max(worst[i], abs(a[i] - b[i])), max(peak[i], abs(a[i]))) }
            }
            for i in 0..<8 {
                #expect(worst[i] <= 1e-4 * peak[i],
                        "shape \(shapes[i]) at \(frequency[i]) Hz, \(gain[i]) dB, q \(q[i]): \(worst[i]) off, peak \(peak[i])")
            }
        }
    }

    /// Through coefficients give back the input, bit for bit.
    @Test func throughIsTheInput() {
        var random = SystemRandomNumberGenerator()
        let noise = (0..<4096).map { _ in Float.random(in: -1...1, using: &random) }
        let out = Measuring.run([[Band]](repeating: [], count: 8), sampleRate: 48_000, length: 4096) { _, k in noise[k] }
        #expect(out.allSatisfy { $0 == noise })
        var lanes = SVFLanes()
        let through = LaneCoefficients(repeating: .through)
        for k in 0..<4096 { #expect(lanes.process(SIMD8(repeating: noise[k]), through) == SIMD8(repeating: noise[k])) }
    }

    /// A NaN that gets into a lane is gone after the block: the lane starts
    /// again from silence, its neighbours untouched.
    @Test func aNonFiniteStateStartsAgainFromSilence() {
        var lanes = SVFLanes()
        let c = LaneCoefficients(repeating: Band(.peak, frequency: 1000, gain: 6, q: 1).coefficients(sampleRate: 48_000))
        var input = SIMD8<Float>(repeating: 0.5)
        input[3] = .nan
        _ = lanes.process(input, c)
        _ = lanes.process(SIMD8(repeating: 0.5), c)
        #expect(lanes.ic1[3].isNaN && !lanes.ic1[2].isNaN)
        let neighbour = lanes.ic1[2]
        lanes.settle()
        #expect(lanes.ic1[3] == 0 && lanes.ic2[3] == 0 && lanes.ic1[2] == neighbour)
        let out = lanes.process(SIMD8(repeating: 0.5), c)
        #expect((0..<8).allSatisfy { out[$0].isFinite })
    }
}
