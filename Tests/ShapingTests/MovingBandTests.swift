import Foundation
import MixRows
import Shaping
import Testing

/// A band that moves while it plays stays clean: its coefficients worked
/// out at the end of every block by the audio thread's form and stepped to
/// across the block, as the kernel will. Judged as the rig judges clicks:
/// no step between samples above the signal's own slope (2 sin(π f/fs)
/// times its amplitude around there) + 0.01.
@Suite struct MovingBandTests {
    static let rate = 48_000.0
    static let block = 16

    /// Runs a 997 Hz sine of amplitude 0.25 through one band whose setting
    /// at sample k is `setting(k)`; returns what comes out.
    static func run(seconds: Double, _ setting: (Int) -> Band) -> [Float] {
        let length = Int(seconds * rate)
        var state = SVFLanes()
        func coefficients(at k: Int) -> LaneCoefficients {
            let band = setting(k)
            return LaneCoefficients(shapes: SIMD8(repeating: band.shape.code),
                                    frequency: SIMD8(repeating: Float(band.frequency)),
                                    gain: SIMD8(repeating: Float(band.gain)), q: SIMD8(repeating: Float(band.q)),
                                    sampleRate: Float(rate))
        }
        var now = coefficients(at: 0)
        var out = [Float](repeating: 0, count: length)
        var k = 0
        while k < length {
            let end = min(k + block, length)
            let step = now.step(to: coefficients(at: end), count: end - k)
            for i in k..<end {
                now.advance(by: step)
                let x = 0.25 * Float(sin(2 * Double.pi * 997 * Double(i) / rate))
                out[i] = state.process(SIMD8(repeating: x), now)[0]
            }
            state.settle()
            k = end
        }
        return out
    }

    /// The largest step beyond what the signal's own slope allows there
    /// (its largest sample within a period each side).
    static func excessStep(_ signal: [Float]) -> (index: Int, excess: Float) {
        let slope = Float(2 * sin(Double.pi * 997 / rate))
        let period = Int(rate / 997) + 1
        var worst = (index: 0, excess: -Float.infinity)
        for k in 1..<signal.count {
            let around = signal[max(0, k - period)..<min(signal.count, k + period)].map(abs).max() ?? 0
            let excess = abs(signal[k] - signal[k - 1]) - slope * around
            if excess > worst.excess { worst = (k, excess) }
        }
        return worst
    }

    @Test func aTwoSecondSweepAtPlusTwelveIsClean() {
        let out = Self.run(seconds: 2.5) { k in
            let t = min(1, max(0, (Double(k) / Self.rate - 0.25) / 2))
            return Band(.peak, frequency: 100 * pow(100, t), gain: 12, q: 1)
        }
        let worst = Self.excessStep(out)
        #expect(worst.excess < 0.01, "a step \(worst.excess) over the sine's own at sample \(worst.index)")
        // It did move the sound: +12 dB on the sine as the band passed it.
        let peak = out.map(abs).max() ?? 0
        #expect(peak > 0.25 * 3.5, "the sweep passed 997 Hz at +12 dB: peak \(peak)")
    }

    /// ±15 dB jumps ramped over the rig's default smoothing (20 ms), and a
    /// band switched on and off (its gain from and to 0 dB, where a peak
    /// passes its input through exactly).
    @Test(arguments: [15.0, -15.0])
    func gainJumpsAndSwitchingAreClean(gain: Double) {
        let ramp = 0.02 * Self.rate
        let out = Self.run(seconds: 1) { k in
            // Up at 0.2 s, back at 0.6 s, each over 20 ms.
            let up = min(1, max(0, (Double(k) - 0.2 * Self.rate) / ramp))
            let down = min(1, max(0, (Double(k) - 0.6 * Self.rate) / ramp))
            return Band(.peak, frequency: 1000, gain: gain * (up - down), q: 2)
        }
        let worst = Self.excessStep(out)
        #expect(worst.excess < 0.01, "a step \(worst.excess) over the sine's own at sample \(worst.index)")
        // Off (0 dB) is the input itself, before and after.
        let dry = (0..<Int(0.19 * Self.rate)).map { 0.25 * Float(sin(2 * Double.pi * 997 * Double($0) / Self.rate)) }
        #expect(zip(out, dry).allSatisfy { abs($0 - $1) < 1e-6 }, "0 dB passes the sine through")
    }
}
