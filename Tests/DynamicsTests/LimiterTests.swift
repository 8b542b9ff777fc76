import Dynamics
import Foundation
import StagePathBase
import SystemSupport
import Testing

/// The outputs' brickwall limiters (`Limiters`), offline (issue 36): no
/// sample above the ceiling on adversarial inputs, a clean sine, exact
/// latency per lane, linked pairs, an off lane untouched.
@Suite struct LimiterTests {
    static let rate = 48_000.0

    static func linear(_ db: Double) -> Float { Float(pow(10, db / 20)) }

    /// Runs up to eight lanes through one group of the outputs' limiters
    /// (`Limiters`), a sample a period, so that the gain of each sample is
    /// seen (`lowest`); the output and the gain of each lane at each sample.
    /// `lookaheadsMs`: per lane, where they differ.
    static func run(_ lanes: [[Float]], ceiling: Double, releaseMs: Double = 50, lookaheadMs: Double = 1,
                    lookaheadsMs: [Double] = [], linked: [Bool] = [], on: [Float] = [],
                    rate: Double = rate) -> (out: [[Float]], gain: [[Float]]) {
        var limiters = Limiters(outputs: 8)
        let length = lanes.map(\.count).max() ?? 0
        func lanesOf(_ value: (Int) -> Float) -> [Float] { (0..<8).map(value) }
        let switches = lanesOf { $0 < on.count ? on[$0] : 1 }
        let ceilings = lanesOf { _ in linear(ceiling) }, releases = lanesOf { _ in Float(releaseMs) }
        let lookaheads = lanesOf { $0 < lookaheadsMs.count ? Float(lookaheadsMs[$0]) : Float(lookaheadMs) }
        let pairs: [Int32] = (0..<8).map { $0 < linked.count && linked[$0] ? -1 : 0 }
        let buffers = (0..<8).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1) }
        defer { buffers.forEach { $0.deallocate() } }
        var out = [[Float]](repeating: [Float](repeating: 0, count: length), count: lanes.count)
        var gain = out
        for k in 0..<length {
            for i in 0..<8 {
                buffers[i][0] = i < lanes.count && k < lanes[i].count ? lanes[i][k] : 0
                limiters.lowest[i] = 1 // as the mixer does each period
            }
            buffers.withUnsafeBufferPointer { output in
                StagePath.limit(&limiters, output.baseAddress!, count: 8, frames: 1, on: switches, ceiling: ceilings,
                                release: releases, lookahead: lookaheads, linked: pairs, sampleRate: Float(rate))
            }
            for i in lanes.indices {
                out[i][k] = buffers[i][0]
                gain[i][k] = limiters.lowest[i]
            }
        }
        return (out, gain)
    }

    /// What tries hardest to get past: noise bursts 12 dB over full
    /// scale, lone impulses, a square wave, a one-sample step from silence
    /// to +20 dBFS, a sweep, noise whose level walks from −60 to +20 dBFS, a
    /// sine stepping from −60 to +20 dBFS in one sample, and ±10 at Nyquist.
    static func adversaries(length: Int, seed: UInt64 = 0x2545_F491_4F6C_DD1D) -> [[Float]] {
        // Seeded, so that a run is the same every time (with a new draw each
        // run, one in some thirty once found the float sums' drift:
        // `theGainHoldsWhereAFloatSumDrifted`).
        var random = SplitMix(seed: seed)
        func noise() -> Float { Float.random(in: -1...1, using: &random) }
        let bursts = (0..<length).map { k in (k / 2400) % 2 == 1 ? 4 * noise() : 0 }
        let impulses = (0..<length).map { k in k % 997 == 500 ? Float(10) : 0 }
        let square = (0..<length).map { k in (k / 54) % 2 == 0 ? Float(2) : -2 }
        let step = (0..<length).map { k in k >= 10_000 ? Float(10) : 0 }
        let sweep = (0..<length).map { k -> Float in
            let t = Double(k) / rate
            return 3 * Float(sin(2 * Double.pi * 20 * (pow(1000, t / 2) - 1) / log(1000) * 2))
        }
        var level = -60.0
        let walk = (0..<length).map { _ -> Float in
            level = min(20, max(-60, level + Double.random(in: -0.5...0.6, using: &random)))
            return linear(level) * noise()
        }
        let jump = (0..<length).map { k in (k >= 20_000 ? 10 : 0.001) * Float(sin(2 * Double.pi * 1000 * Double(k) / rate)) }
        let nyquist = (0..<length).map { k in k % 2 == 0 ? Float(10) : -10 }
        return [bursts, impulses, square, step, sweep, walk, jump, nyquist]
    }

    @Test(arguments: [0.0, -1, -20], [0.0, 1, 5])
    func noSampleAboveTheCeiling(ceiling: Double, lookaheadMs: Double) {
        let inputs = Self.adversaries(length: 96_000)
        for release in [1.0, 50, 1000] {
            let (out, gain) = Self.run(inputs, ceiling: ceiling, releaseMs: release, lookaheadMs: lookaheadMs)
            let limit = Self.linear(ceiling)
            let lookahead = Int((lookaheadMs / 1000 * Self.rate).rounded())
            for (lane, samples) in out.enumerated() {
                let largest = samples.map(abs).max() ?? 0
                #expect(largest <= limit, "input \(lane), release \(release) ms: \(largest) over the ceiling \(limit)")
                #expect(samples.allSatisfy { $0.isFinite })
                // The gain itself holds the ceiling, not the final clamp: the
                // sample going out times its gain (to within the rounding of
                // this product).
                var worst = (k: 0, over: Float(0))
                for k in lookahead..<samples.count {
                    let x = inputs[lane][k - lookahead]
                    let over = abs(x.isFinite ? x : 0) * gain[lane][k] / limit - 1
                    if over > worst.over { worst = (k, over) }
                }
                #expect(worst.over <= 1e-6, "input \(lane), release \(release) ms: the gain lets \(worst.over) over at \(worst.k)")
            }
        }
    }

    /// The gain alone holds the ceiling where a running sum in floats did
    /// not: the level walking from −60 to +20 dBFS (`adversaries`, seed 24),
    /// a 5 ms lookahead, −20 dBFS. Its sum of 241 envelope values, rounded
    /// each sample to the largest sum held since the last recount, let a
    /// sample 4.9·10⁻⁵ over (the clamp took it); Kahan's compensated sum
    /// keeps the rounding to a few of the sum's, not their total since the
    /// last recount.
    @Test func theGainHoldsWhereAFloatSumDrifted() {
        let walk = Self.adversaries(length: 96_000, seed: 24)[5]
        let limit = Self.linear(-20)
        let (_, gain) = Self.run([walk], ceiling: -20, releaseMs: 50, lookaheadMs: 5)
        var worst: Float = 0
        for k in 240..<walk.count { worst = max(worst, abs(walk[k - 240]) * gain[0][k] / limit - 1) }
        #expect(worst <= 1e-6, "the gain lets \(worst) over")
    }

    /// A settled 1 kHz sine 6 dB over the ceiling comes out with its peak
    /// within 0.1 dB of the ceiling and THD+N under 1 %, at release ≥ 50 ms.
    @Test(arguments: [50.0, 200, 1000])
    func aSineSixDecibelsOverIsClean(releaseMs: Double) {
        let ceiling = -1.0
        let amplitude = 2 * Self.linear(ceiling)
        let sine = (0..<96_000).map { amplitude * Float(sin(2 * Double.pi * 1000 * Double($0) / Self.rate)) }
        let out = Self.run([sine], ceiling: ceiling, releaseMs: releaseMs).out[0]
        let settled = Array(out[72_000...])
        let peak = settled.map(abs).max() ?? 0
        let peakDB = 20 * log10(Double(peak) / Double(Self.linear(ceiling)))
        #expect(peakDB <= 0 && peakDB > -0.1, "peak \(peakDB) dB from the ceiling")
        let thdn = Self.distortion(settled, frequency: 1000, start: 72_000)
        #expect(thdn < 0.01, "THD+N \(thdn * 100) %")
    }

    /// The residual after the best-fitting sine of `frequency`, as a share
    /// of that sine's RMS: THD+N.
    static func distortion(_ signal: [Float], frequency: Double, start: Int) -> Double {
        let w = 2 * Double.pi * frequency / rate
        var (ss, sc, cc, xs, xc) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for (i, x) in signal.enumerated() {
            let (s, c) = (sin(w * Double(start + i)), cos(w * Double(start + i)))
            ss += s * s; sc += s * c; cc += c * c
            xs += Double(x) * s; xc += Double(x) * c
        }
        let det = ss * cc - sc * sc
        let (a, b) = ((xs * cc - xc * sc) / det, (xc * ss - xs * sc) / det)
        var (residual, fitted) = (0.0, 0.0)
        for (i, x) in signal.enumerated() {
            let y = a * sin(w * Double(start + i)) + b * cos(w * Double(start + i))
            residual += (Double(x) - y) * (Double(x) - y)
            fitted += y * y
        }
        return (residual / fitted).squareRoot()
    }

    /// The output is the input exactly the lookahead later, untouched below
    /// the ceiling.
    @Test(arguments: [0.0, 1, 2.5, 5])
    func theLatencyIsTheLookahead(lookaheadMs: Double) {
        var impulse = [Float](repeating: 0, count: 2000)
        impulse[100] = 0.5
        let out = Self.run([impulse], ceiling: -1, lookaheadMs: lookaheadMs).out[0]
        let lookahead = Int((lookaheadMs / 1000 * Self.rate).rounded())
        #expect(out[100 + lookahead] == 0.5, "at \(100 + lookahead)")
        #expect(out.enumerated().allSatisfy { $0.offset == 100 + lookahead || $0.element == 0 })
    }

    /// A transient on the left of a linked pair lowers both sides by the
    /// same gain; an unlinked pair's quiet side is left alone.
    /// After limiting, a limiter whose input has fallen back below its
    /// ceiling returns to unity gain exactly: its output is its input,
    /// delayed, bit for bit. (An envelope kept as itself, rising by a share
    /// of its way back each sample, stalls a few float steps below unity at
    /// long releases and high rates: here, 10 ms at 96 kHz, at about
    /// −0.0003 dB for good.)
    @Test func aLimiterAtRestComesBackToUnityExactly() {
        let rate = 96_000.0, lookahead = 96 // 1 ms
        let loud = (0..<2_000).map { k in Float(sin(Double(k) * 0.05)) * 2 } // +6 dBFS
        let quiet = (0..<40_000).map { k in Float(sin(Double(k) * 0.05)) * 0.25 }
        let (out, gain) = Self.run([loud + quiet], ceiling: -1, releaseMs: 10, rate: rate)
        #expect(gain[0][1_000] < 0.7, "it limited")
        let tail = (loud.count + quiet.count - 8_000)..<(loud.count + quiet.count)
        #expect(tail.allSatisfy { out[0][$0] == (loud + quiet)[$0 - lookahead] }, "bit for bit, delayed")
        #expect(tail.allSatisfy { gain[0][$0] == 1 })
    }

    /// At a ceiling of 0 dBFS: peaks more than 2⁻¹² (0.002 dB) under it pass
    /// bit for bit, delayed; a peak touching it is brought to the aim 2⁻¹²
    /// below it (the need is min(1, aim / |x|), no test of the ceiling first),
    /// and no further than the aim.
    @Test func onlyWhatReachesTheAimIsTurnedDown() {
        let lookahead = 48 // 1 ms at 48 kHz
        let under = (0..<4_800).map { k in Float(sin(Double(k) * 0.05)) * (1 - 1.0 / 2048) }
        var touching = under.map { $0 * 0.5 }
        touching[2_400] = 1
        let (out, gain) = Self.run([under, touching], ceiling: 0)
        #expect((lookahead..<under.count).allSatisfy { out[0][$0] == under[$0 - lookahead] }, "bit for bit, delayed")
        #expect(gain[0].allSatisfy { $0 == 1 })
        let peak = out[1][2_400 + lookahead]
        // (The aim, within the mean's rounding: a few ulps.)
        #expect(abs(peak - (1 - 1.0 / 4096)) <= 4 * Float.ulpOfOne, "the peak \(peak)")
    }

    @Test func aLinkedPairLimitsTogether() {
        let burst = (0..<24_000).map { k in k >= 6000 && k < 6100 ? Float(4) : 0.1 * Float(sin(Double(k) * 0.05)) }
        let quiet = (0..<24_000).map { k in 0.1 * Float(sin(Double(k) * 0.03)) }
        let (out, gain) = Self.run([burst, quiet, burst, quiet], ceiling: -1, linked: [true, true, false, false])
        #expect(gain[0] == gain[1], "the linked pair's gains differ")
        #expect((gain[1].min() ?? 1) < 0.3, "the quiet side of the linked pair was lowered with the loud")
        #expect(gain[3].allSatisfy { $0 == 1 }, "an unlinked quiet side is left alone")
        #expect(out[0].map(abs).max() ?? 0 <= Self.linear(-1))
    }

    /// At 96 and 192 kHz the longest lookahead (5 ms: 480 and 960 samples)
    /// still limits by its gain: the ring holds a lane's whole mean and one
    /// more (with the mean's oldest value in the slot just written, the gain
    /// stood still and only the final clamp held the ceiling).
    @Test(arguments: [96_000.0, 192_000])
    func theLongestLookaheadLimitsByItsGainAtHighRates(rate: Double) {
        let length = 4 * Int(rate / 10)
        let burst = Int(rate / 50)
        let bursts: [Float] = (0..<length).map { k -> Float in
            (k / burst) % 2 == 1 ? Float(4 * sin(Double(k) * 0.37)) : 0
        }
        let impulses = (0..<length).map { k in k % 997 == 500 ? Float(10) : 0 }
        let (out, gain) = Self.run([bursts, impulses], ceiling: -1, lookaheadMs: 5, rate: rate)
        let limit = Self.linear(-1)
        let lookahead = Int((0.005 * rate).rounded())
        for lane in 0..<2 {
            #expect((out[lane].map(abs).max() ?? 0) <= limit)
            var worst: Float = 0
            for k in lookahead..<length {
                worst = max(worst, abs([bursts, impulses][lane][k - lookahead]) * gain[lane][k] / limit - 1)
            }
            #expect(worst <= 1e-6, "lane \(lane) at \(rate): the gain lets \(worst) over")
        }
    }

    /// Each lane delays by its own lookahead, in one group, and holds the
    /// ceiling; a lane whose limiter is off is its input, bit for bit.
    @Test func eachLaneHasItsOwnLookaheadAndAnOffLaneIsUntouched() {
        let inputs = Self.adversaries(length: 48_000)
        let lookaheads = [0.0, 0.5, 1, 2, 3, 4, 5, 1]
        let (out, _) = Self.run(inputs, ceiling: -1, lookaheadsMs: lookaheads, on: [1, 1, 1, 1, 1, 1, 1, 0])
        for lane in 0..<7 {
            #expect((out[lane].map(abs).max() ?? 0) <= Self.linear(-1), "lane \(lane)")
        }
        #expect(out[7] == inputs[7], "an off lane is its input")
        var impulses = [[Float]](repeating: [Float](repeating: 0, count: 1000), count: 8)
        for lane in 0..<8 { impulses[lane][100] = 0.5 }
        let delayed = Self.run(impulses, ceiling: -1, lookaheadsMs: lookaheads).out
        for lane in 0..<8 {
            let lookahead = Int((lookaheads[lane] / 1000 * Self.rate).rounded())
            #expect(delayed[lane][100 + lookahead] == 0.5, "lane \(lane) at \(100 + lookahead)")
            #expect(delayed[lane].filter { $0 != 0 }.count == 1)
        }
    }

    /// A sample that is not a number comes out as silence; its neighbours
    /// are untouched.
    @Test func aNonFiniteSampleIsSilence() {
        var bad = [Float](repeating: 0.25, count: 500)
        bad[200] = .nan
        bad[300] = .infinity
        let good = [Float](repeating: 0.25, count: 500)
        let (out, _) = Self.run([bad, good], ceiling: -1)
        #expect(out[0].allSatisfy { $0.isFinite } && out[0].map(abs).max() ?? 0 <= Self.linear(-1))
        #expect(out[1][100...].allSatisfy { $0 == 0.25 })
    }
}
