import Foundation
import SystemSupport
import Testing
@testable import MixCore

@Suite struct MeterBankTests {
    /// The 16-samples-at-a-time accumulation gives the peak exactly and the
    /// sum of squares within float rounding, skipping NaN, infinities and
    /// absurd values as the plain loop does, for any period length.
    @Test(arguments: [64, 16, 100, 7, 256])
    func peaksAndSumsMatchAPlainLoop(frames: Int) {
        var random = SplitMix(seed: UInt64(frames))
        let bank = MeterBank(capacity: 2)
        bank.setEnabled(true)
        let buffers = (0..<3).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { buffers.forEach { $0.deallocate() } }
        var peaks = [Float](repeating: 0, count: 3), sums = [Double](repeating: 0, count: 3)
        for _ in 0..<20 {
            for (c, buffer) in buffers.enumerated() {
                for k in 0..<frames {
                    var x = Float.random(in: -1...1, using: &random) * (c == 2 ? 50 : 1)
                    if k % 37 == 5 && c == 1 { x = [.nan, .infinity, -.infinity, 3e7, -200][k % 5] }
                    buffer[k] = x
                    let magnitude = abs(x)
                    if magnitude > peaks[c] && magnitude < 1e6 { peaks[c] = magnitude }
                    if magnitude < 100 { sums[c] += Double(x * x) }
                }
            }
            let inputs = [UnsafePointer(buffers[0]), UnsafePointer(buffers[1])]
            let outputs = [buffers[2]]
            inputs.withUnsafeBufferPointer { ins in
                outputs.withUnsafeBufferPointer { outs in bank.measure(ins.baseAddress!, inputs: 2, outs.baseAddress!, outputs: 1, frames: frames) }
            }
        }
        let taken = bank.take(inputs: 2, outputs: 1)
        #expect(taken.frames == 20 * frames)
        #expect(taken.peak.count == 6 && taken.peak.suffix(3) == [0, 0, 0], "no source gains nor limiters given: no levels")
        for c in 0..<3 {
            #expect(taken.peak[c] == peaks[c], "channel \(c)")
            #expect(abs(taken.sumOfSquares[c] - sums[c]) <= sums[c] * 1e-5 + 1e-6, "channel \(c): \(taken.sumOfSquares[c]) vs \(sums[c])")
        }
    }

    /// A source's level after its gain is its input's scaled by the gain's
    /// size (a negative gain is polarity): peak by |g|, sum of squares by g².
    @Test func aSourceIsMeteredAfterItsGain() {
        let bank = MeterBank(capacity: 4)
        bank.setEnabled(true)
        let frames = 64
        let buffers = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { buffers.forEach { $0.deallocate() } }
        for k in 0..<frames { buffers[0][k] = sinf(Float(k) * 0.3) * 0.5; buffers[1][k] = 0.25 }
        let gains: [Float] = [-0.5, 0]
        let inputs = [UnsafePointer(buffers[0]), UnsafePointer(buffers[1])]
        let outputs = [buffers[1]]
        inputs.withUnsafeBufferPointer { ins in
            outputs.withUnsafeBufferPointer { outs in
                gains.withUnsafeBufferPointer { g in
                    bank.measure(ins.baseAddress!, inputs: 2, outs.baseAddress!, outputs: 1, frames: frames, sourceGains: g.baseAddress!)
                }
            }
        }
        let taken = bank.take(inputs: 2, outputs: 1)
        #expect(taken.peak[3] == taken.peak[0] * 0.5, "source 1 after its gain of −0.5")
        #expect(abs(taken.sumOfSquares[3] - taken.sumOfSquares[0] * 0.25) <= 1e-6)
        #expect(taken.peak[4] == 0 && taken.sumOfSquares[4] == 0, "source 2 silenced")
    }
}
